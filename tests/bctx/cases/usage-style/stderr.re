^bctx: --style: expected methodology or reference
