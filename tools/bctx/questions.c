/*
 * questions.c - questions.json read for bctx assemble in one pass over its
 * text, without jansson's parser: the file bctx assemble reads on every
 * call, whose parse and copy cost more than a small study's mapping.
 *
 * study_questions_load (study.c) stays the judge of the file: what this
 * reader takes is a subset of what it accepts, read into the records it
 * makes (site_id, domain, question_id, text, complexity, source_sections,
 * source_urls, in that order), and anything else (a NUL byte, UTF-8 that
 * utf8_valid refuses, a member other than those of a site and a question,
 * a repeated one, a key written with an escape, a number, true, false or
 * null, a \u escape of a surrogate or of NUL, a control byte in a string,
 * text after the array, a field missing, empty or of another type, a
 * complexity not in study_complexities, a question_id not of its site's
 * or seen before) is read again by study_questions_load, which loads it
 * or says what is wrong with it in its own words.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"
#include "jsonscan.h"
#include "study.h"
#include "utf8.h"
#include "words.h"
#include "bctx.h"

/* study.c's limit on a study file */
#define MAX_QUESTIONS_FILE ((size_t)256 << 20)

struct qscan {
	const char *p, *end;
	struct buf s;		/* the string last read, decoded */
	struct wordset ids;	/* the question_ids seen */
};

static void
ws(struct qscan *q)
{
	while (q->p < q->end && (*q->p == ' ' || *q->p == '\t' ||
	    *q->p == '\n' || *q->p == '\r'))
		q->p++;
}

/* Is the next byte c (white space skipped)?  Passed when it is. */
static int
take(struct qscan *q, char c)
{
	ws(q);
	if (q->p < q->end && *q->p == c) {
		q->p++;
		return 1;
	}
	return 0;
}

/* The string at q->p decoded into q->s; -1 when not taken.  The text's
 * UTF-8 was checked whole. */
static int
string(struct qscan *q)
{
	const char *run;
	uint32_t cp;
	char u[4], c;

	buf_reset(&q->s);
	if (!take(q, '"'))
		return -1;
	for (;;) {
		run = q->p;
		while (q->p < q->end && *q->p != '"' && *q->p != '\\' &&
		    (unsigned char)*q->p >= 0x20)
			q->p++;
		buf_add(&q->s, run, (size_t)(q->p - run));
		if (q->p >= q->end || (unsigned char)*q->p < 0x20)
			return -1;
		if (*q->p++ == '"')
			return 0;
		if (q->p >= q->end)
			return -1;
		if ((c = jscan_escape(*q->p)) != 0) {
			q->p++;
			buf_addc(&q->s, c);
			continue;
		}
		if (*q->p++ != 'u' || q->end - q->p < 4 ||
		    jscan_hex4(q->p, &cp) < 0 || cp == 0 ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return -1;
		q->p += 4;
		buf_add(&q->s, u, (size_t)utf8_encode(cp, u));
	}
}

/* A new JSON string of the string read. */
static json_t *
string_value(struct qscan *q)
{
	return json_stringn_nocheck(buf_str(&q->s), q->s.len);
}

/* An array of strings, not empty when nonempty; NULL: not taken. */
static json_t *
strings(struct qscan *q, int nonempty)
{
	json_t *a;

	if (!take(q, '['))
		return NULL;
	a = json_array();
	if (take(q, ']')) {
		if (!nonempty)
			return a;
		json_decref(a);
		return NULL;
	}
	do {
		if (string(q) < 0) {
			json_decref(a);
			return NULL;
		}
		json_array_append_new(a, string_value(q));
	} while (take(q, ','));
	if (!take(q, ']')) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/*
 * The members of an object whose keys are among names (n of them), each
 * read by member(q, i, arg); -1 when not taken (a key not among them, or
 * repeated, or one member missing).
 */
static int
members(struct qscan *q, const char *const *names, int n,
    int (*member)(struct qscan *, int, void *), void *arg)
{
	unsigned seen = 0;
	const char *k;
	int i;

	if (!take(q, '{'))
		return -1;
	if (take(q, '}'))
		return -1;	/* none of the members */
	do {
		ws(q);
		k = q->p;
		/* a key decoded is shorter than written when it has an escape */
		if (string(q) < 0 || (size_t)(q->p - k) != q->s.len + 2 ||
		    !take(q, ':'))
			return -1;
		for (i = 0; i < n; i++)
			if (strcmp(buf_str(&q->s), names[i]) == 0 &&
			    q->s.len == strlen(names[i]))
				break;
		if (i == n || (seen & 1u << i) || member(q, i, arg) < 0)
			return -1;
		seen |= 1u << i;
	} while (take(q, ','));
	return take(q, '}') && seen == (1u << n) - 1 ? 0 : -1;
}

/* A non-empty string member; its value in *v (new); -1 when not taken. */
static int
nonempty(struct qscan *q, json_t **v)
{
	ws(q);
	if (string(q) < 0 || q->s.len == 0)
		return -1;
	*v = string_value(q);
	return 0;
}

/* A question: its members as study.c's question_item copies them. */
static const char *const qnames[] = {
	"question_id", "text", "complexity", "source_sections", "source_urls",
};

static int
question_member(struct qscan *q, int i, void *arg)
{
	json_t **f = arg;

	if (i < 3)
		return nonempty(q, &f[i]);
	return (f[i] = strings(q, i == 4)) != NULL ? 0 : -1;
}

static int
complexity_ok(const char *cx)
{
	size_t i;

	for (i = 0; study_complexities[i]; i++)
		if (strcmp(cx, study_complexities[i]) == 0)
			return 1;
	return 0;
}

/* The questions of a site into out; -1 when not taken. */
static int
questions(struct qscan *q, const char *site_id, const char *domain,
    json_t *out)
{
	size_t sl = strlen(site_id);
	json_t *f[5], *rec;
	const char *qid;
	int i, rc;

	if (!take(q, '['))
		return -1;
	if (take(q, ']'))
		return 0;
	do {
		memset(f, 0, sizeof f);
		rc = members(q, qnames, 5, question_member, f);
		qid = rc == 0 ? json_string_value(f[0]) : NULL;
		if (rc == 0 && (strncmp(qid, site_id, sl) != 0 || qid[sl] != '-' ||
		    wordset_add(&q->ids, qid, strlen(qid)) > 1 ||
		    !complexity_ok(json_string_value(f[2]))))
			rc = -1;
		if (rc == 0) {
			rec = json_object();
			json_set_str(rec, "site_id", site_id);
			json_set_str(rec, "domain", domain);
			for (i = 0; i < 5; i++)
				json_set_new(rec, qnames[i], json_incref(f[i]));
			json_array_append_new(out, rec);
		}
		for (i = 0; i < 5; i++)
			json_decref(f[i]);
		if (rc < 0)
			return -1;
	} while (take(q, ','));
	return take(q, ']') ? 0 : -1;
}

/* A site: site_id and domain read before its questions. */
struct site {
	json_t *id, *domain;
	json_t *out;
};

static const char *const snames[] = { "site_id", "domain", "questions" };

static int
site_member(struct qscan *q, int i, void *arg)
{
	struct site *s = arg;

	if (i == 0)
		return nonempty(q, &s->id);
	if (i == 1)
		return nonempty(q, &s->domain);
	/* the questions after the site's id and domain only */
	if (s->id == NULL || s->domain == NULL)
		return -1;
	return questions(q, json_string_value(s->id),
	    json_string_value(s->domain), s->out);
}

/* The records of the text [p, end), or NULL when not taken. */
static json_t *
scan(const char *p, const char *end)
{
	struct qscan q;
	struct site s;
	json_t *out = json_array();
	int rc = 0;

	memset(&q, 0, sizeof q);
	q.p = p;
	q.end = end;
	if (!take(&q, '['))
		rc = -1;
	else if (!take(&q, ']')) {
		do {
			memset(&s, 0, sizeof s);
			s.out = out;
			rc = members(&q, snames, 3, site_member, &s);
			json_decref(s.id);
			json_decref(s.domain);
		} while (rc == 0 && take(&q, ','));
		if (rc == 0 && !take(&q, ']'))
			rc = -1;
	}
	ws(&q);
	if (q.p != q.end)
		rc = -1;
	buf_release(&q.s);
	wordset_release(&q.ids);
	if (rc < 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/*
 * A regular file's text, read at once (its size known from fstat, one
 * read to its end), or NULL for anything else, which study_questions_load
 * reads again and says what is wrong with.
 */
static char *
slurp(const char *path, size_t *len)
{
	struct stat st;
	ssize_t got;
	char *t;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size > MAX_QUESTIONS_FILE) {
		close(fd);
		return NULL;
	}
	t = xmalloc((size_t)st.st_size + 1);
	/* one byte more than its size: a read that returns its size has
	 * reached its end */
	while ((got = read(fd, t, (size_t)st.st_size + 1)) < 0 && errno == EINTR)
		;
	close(fd);
	if (got != (ssize_t)st.st_size) {
		free(t);
		return NULL;
	}
	*len = (size_t)got;
	return t;
}

json_t *
bctx_questions_load(const char *path)
{
	size_t len;
	char *text;
	json_t *qs = NULL;

	if (strcmp(path, "-") == 0)
		return study_questions_load(path);
	text = slurp(path, &len);
	if (text != NULL && memchr(text, '\0', len) == NULL &&
	    utf8_valid(text, len, NULL))
		qs = scan(text, text + len);
	free(text);
	return qs ? qs : study_questions_load(path);
}
