^bctx: m\.csv:2: 
