/*
 * bmdprep_input.c - libFuzzer target for bmdprep's input layer (input.c):
 * the first byte chooses how the operand is taken (told apart by its start,
 * --raw or --records), the rest is the file.  Every input ends in records,
 * one plain document or a refusal (die, caught), never a crash.  What is
 * handed over is what was read: a plain document is exactly the file's
 * bytes, and records are as many as common/ndjson.c reads from them.
 */
#include "fuzz.h"
#include "../../tools/bmdprep/bmdprep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	const uint8_t *data;
	size_t size;
	size_t records;
	int plain;
};

static void
on_record(json_t *rec, void *arg)
{
	struct seen *s = arg;

	if (!json_is_object(rec))
		abort();
	s->records++;
}

static void
on_plain(const char *txt, size_t n, const char *name, void *arg)
{
	struct seen *s = arg;

	(void)name;
	if (s->plain || n != s->size || txt[n] != '\0' ||
	    (n > 0 && memcmp(txt, s->data, n) != 0))
		abort();
	s->plain = 1;
}

/* The records common/ndjson.c reads from data[0..size); -1 on an error. */
static long
ndjson_count(const uint8_t *data, size_t size)
{
	struct ndj_reader r;
	long n = 0;
	json_t *rec;
	char *msg;
	FILE *fp;

	if (size == 0)
		return 0;
	if ((fp = fmemopen((void *)data, size, "r")) == NULL)
		abort();
	ndj_reader_init(&r, fp, "fuzz");
	while ((rec = ndj_next_err(&r, &msg)) != NULL) {
		json_decref(rec);
		n++;
	}
	if (msg) {
		free(msg);
		n = -1;
	}
	ndj_reader_close(&r);
	fclose(fp);
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	static struct seen s;
	struct bmd_run run;
	char *files[1];

	if (!ready) {
		fz_init("bmdprep_input");
		ready = 1;
	}
	if (size < 1)
		return 0;
	memset(&run, 0, sizeof run);
	run.input = data[0] % 3 == 0 ? BMD_INPUT_GUESS :
	    data[0] % 3 == 1 ? BMD_INPUT_RAW : BMD_INPUT_RECORDS;
	files[0] = (char *)fz_file("input", data + 1, size - 1);
	memset(&s, 0, sizeof s);
	s.data = data + 1;
	s.size = size - 1;
	fz_mark();
	if (setjmp(fz_jmp) == 0) {
		bmd_input_each(&run, 1, files, on_record, on_plain, &s);
		if (run.input == BMD_INPUT_RAW && !s.plain)
			abort();
		if (!s.plain && (long)s.records != ndjson_count(s.data, s.size))
			abort();
	}
	return 0;
}
