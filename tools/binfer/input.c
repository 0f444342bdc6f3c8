/*
 * input.c - binfer's input: the record files in order (stdin when none),
 * read one record at a time as the scheduler needs them; whether a record
 * can be read without waiting; and, for the progress line's total and ETA,
 * a look at the records ahead when every input is a regular file.  Calls
 * only common/.
 */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ctx.h"
#include "run.h"

void
input_init(struct binfer_input *in, char **files)
{
	memset(in, 0, sizeof(*in));
	in->files = files;
}

json_t *
input_next(struct binfer_input *in)
{
	json_t *rec;

	while (!in->eof) {
		if (!in->open) {
			ndj_reader_open(&in->rd, *in->files ? *in->files : "-");
			in->open = 1;
		}
		if ((rec = ndj_next(&in->rd)) != NULL)
			return rec;
		ndj_reader_close(&in->rd);
		in->open = 0;
		if (!*in->files || !*++in->files)
			in->eof = 1;
	}
	return NULL;
}

/*
 * Bytes in the stdio buffer (as gnulib's freadahead reads them on glibc),
 * else the descriptor polls readable (always so for a regular file, and at
 * end of input).
 */
int
input_ready(const struct binfer_input *in)
{
	struct pollfd pfd;

	if (!in->open)
		return 1;
#ifdef __GLIBC__
	if (in->rd.fp->_IO_read_ptr < in->rd.fp->_IO_read_end)
		return 1;
#endif
	pfd.fd = fileno(in->rd.fp);
	pfd.events = POLLIN;
	return poll(&pfd, 1, 0) > 0;
}

void
input_close(struct binfer_input *in)
{
	if (in->open)
		ndj_reader_close(&in->rd);
	in->open = 0;
	in->eof = 1;
}

/* Every record of one regular file to fn; -1 when path is no regular file. */
static long long
scan_file(const char *path, void (*fn)(const json_t *, void *), void *ud)
{
	struct ndj_reader rd;
	struct stat st;
	FILE *fp;
	json_t *rec;
	char *msg = NULL;
	long long n = 0;

	if (strcmp(path, "-") == 0 || (fp = fopen(path, "r")) == NULL)
		return -1;
	if (fstat(fileno(fp), &st) < 0 || !S_ISREG(st.st_mode)) {
		fclose(fp);
		return -1;
	}
	ndj_reader_init(&rd, fp, path);
	rd.own = 1;
	for (;;) {
		rec = ndj_next_err(&rd, &msg);
		if (rec) {
			fn(rec, ud);
			json_decref(rec);
			n++;
		} else if (msg && !ferror(fp)) {
			free(msg);	/* the run itself stops at this line */
			msg = NULL;
		} else {
			free(msg);
			break;
		}
	}
	ndj_reader_close(&rd);
	return n;
}

long long
input_scan(char **files, void (*fn)(const json_t *, void *), void *ud)
{
	long long n = 0, k;

	if (!*files)
		return -1;
	for (; *files; files++) {
		if ((k = scan_file(*files, fn, ud)) < 0)
			return -1;
		n += k;
	}
	return n;
}
