^bctx: p\.ndjson:2: 
