^bctx: q\.json:[0-9]+: .*text.*string
