^bctx: --url needs --site
