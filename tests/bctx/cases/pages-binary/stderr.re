^bctx: p\.ndjson:1: 
