LDLIBS_btok += -lutf8proc
