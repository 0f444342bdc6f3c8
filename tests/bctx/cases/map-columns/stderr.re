^bctx: m\.csv: missing column 'md_url'
