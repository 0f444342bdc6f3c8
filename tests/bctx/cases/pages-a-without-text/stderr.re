^bctx: p\.ndjson:1: no text: .*run bread first
