^bctx: l\.ndjson:2: url: 
