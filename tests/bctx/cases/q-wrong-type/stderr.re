^bctx: q\.json:[0-9]+: .*source_urls.*array
