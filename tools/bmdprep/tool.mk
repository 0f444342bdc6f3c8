LDLIBS_bmdprep += -lutf8proc
