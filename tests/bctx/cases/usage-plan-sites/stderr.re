^bctx: plan needs -s/--sites
