^bctx: m\.csv:2: html_url: expected an absolute http\(s\) URL, got 'x.html'
