^bctx: q\.json:[0-9]+: .*S001-Q01.*twice
