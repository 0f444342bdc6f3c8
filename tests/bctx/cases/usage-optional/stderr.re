^bctx: --optional needs --all-links
