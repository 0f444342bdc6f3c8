^bctx: q\.json
