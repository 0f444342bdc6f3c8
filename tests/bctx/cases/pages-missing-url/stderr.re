^bctx: p\.ndjson:1: url: 
