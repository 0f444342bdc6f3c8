^bctx: --condition: expected A or B
