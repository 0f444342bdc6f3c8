/*
 * btok_pretok.c - libFuzzer target for btok's hand-written split patterns.
 * Every pattern must cut any valid UTF-8 text into non-empty pieces that
 * concatenate back to the text (the first input byte picks the pattern).
 * And btok_nfc, which cuts the text at safe starters, must equal utf8proc's
 * NFC of the whole text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "ctx.h"
#include "../../tools/btok/btok.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct acc { const char *s; size_t n, pos; };

static void piece(const char *p, size_t n, void *v)
{
	struct acc *a = v;
	if (n == 0 || p != a->s + a->pos || a->pos + n > a->n)
		abort();
	a->pos += n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int pats[] = { BTOK_PRE_LLAMA3, BTOK_PRE_QWEN2, BTOK_PRE_TEKKEN,
		BTOK_PRE_GPT2, BTOK_PRE_SPACE_MERGED_PREV, BTOK_PRE_NONE };
	size_t n;
	char *s;
	struct acc a;
	if (size < 1)
		return 0;
	s = utf8_sanitize((const char *)data + 1, size - 1, &n);
	a.s = s, a.n = n, a.pos = 0;
	btok_pretokenize(pats[data[0] % 6], s, n, piece, &a);
	if (a.pos != n)
		abort();
	{
		size_t ln;
		char *mine = btok_nfc(s, n, &ln);
		utf8proc_uint8_t *ref = NULL;
		utf8proc_ssize_t r = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n,
		    &ref, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
		if (r >= 0 && ((size_t)r != ln || memcmp(ref, mine, ln) != 0))
			abort();
		free(ref);
		free(mine);
	}
	free(s);
	return 0;
}
