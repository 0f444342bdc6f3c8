^bctx: unknown command 'frobnicate'
