^bctx: p\.ndjson:1: text: 
