^bctx: s\.csv:3: .*quote
