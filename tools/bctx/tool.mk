LDLIBS_bctx += -lutf8proc
