^bctx: q\.json:1: S001-Q01: source_urls: 'docs/x' is not an absolute http\(s\) URL
