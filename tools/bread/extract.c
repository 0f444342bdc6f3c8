/*
 * extract.c - one page in, one result out: decode (charset.c), then parse,
 * extract and render (readability.c, which renders through render.c).
 */
#include <string.h>
#include "ctx.h"
#include "bread.h"
#include "rd.h"

void
bread_extract(const char *data, size_t len, const char *content_type,
    const struct bread_opts *opts, struct bread_result *res)
{
	char charset[BREAD_CHARSET_MAX];
	const char *utf8;
	size_t ulen;
	char *owned;

	memset(res, 0, sizeof *res);
	utf8 = bread_decode_view(data, len, content_type, &ulen, charset, &owned);
	bread_rd_run(utf8, ulen, opts, res);
	memcpy(res->charset, charset, sizeof res->charset);
	free(owned);
}

void
bread_result_release(struct bread_result *res)
{
	free(res->text);
	free(res->title);
	free(res->byline);
	free(res->excerpt);
	memset(res, 0, sizeof *res);
}
