^bctx: expected a command
