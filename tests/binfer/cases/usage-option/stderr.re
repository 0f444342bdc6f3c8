^binfer: unknown option --frobnicate
