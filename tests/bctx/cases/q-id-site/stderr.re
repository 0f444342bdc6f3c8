^bctx: q\.json:[0-9]+: .*S002-Q01.*site 'S001'
