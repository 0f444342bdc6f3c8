^bctx: q\.json:1: S009-Q01: site 'S009' is not in s\.csv
