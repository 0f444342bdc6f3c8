^bctx: s\.csv
