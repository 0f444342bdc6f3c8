expected an http:// or https:// URL, got 'ftp://h'$
