^bctx: p\.ndjson:1: no markdown: .*run bmdprep first
