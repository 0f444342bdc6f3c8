/*
 * btok - exact token counts with the real tokenizers of each model family
 * (spec 001 §2.6): Llama 3 (the reference count), Qwen 3, Gemma 3 and
 * Mistral (Tekken).
 *
 *   btok [-t LIST] [-T [NAME=]FILE] [-f FIELD] [--ids] [FILE ...]   records
 *   btok -t gemma3 < file.txt                                       raw text
 *
 * Input that starts with '{' is read as NDJSON records; anything else (or
 * any input with -r) is one raw text whose count is printed.
 */
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"
#include "btok.h"
#include "load.h"

static const char usage[] =
"usage: btok [-t LIST] [-T [NAME=]FILE]... [-f FIELD] [-i] [-S] [-r]\n"
"            [--cache-dir DIR] [--no-cache] [-o FILE] [FILE ...]\n"
"\n"
"Count tokens with the model families' real tokenizers.  Records (NDJSON,\n"
"input starting with '{'): adds tokens {NAME: n} for FIELD, prompt_tokens\n"
"{NAME: n} for system_prompt + user_prompt, ref_token_count (llama3) and\n"
"content_chars.  Raw text (-r, or input not starting with '{'): prints the\n"
"count (with NAME and FILE columns when there are several).\n"
"\n"
"  -t, --tokenizers LIST  families to use: llama3,qwen3,gemma3,mistral\n"
"                         (default: all four)\n"
"  -T, --tokenizer-file [NAME=]FILE  also use this tokenizer.json or\n"
"                         tekken.json (NAME: the file's base name)\n"
"  -f, --field FIELD      record field to count (default: content)\n"
"  -i, --ids              also emit the token ids (token_ids {NAME: [..]};\n"
"                         raw mode: the ids instead of the count)\n"
"  -S, --special-as-text  treat special-token text as plain text (default:\n"
"                         matched as Hugging Face tokenizers does)\n"
"  -r, --raw              read the input as raw text, never as records\n"
"      --cache-dir DIR    compiled tokenizer cache (default: TOKDIR/compiled)\n"
"      --no-cache         neither read nor write compiled images\n"
"  -o, --output FILE      write the output to FILE (atomically)\n"
"  -h, --help             show this help\n"
"  -V, --version          show the version\n"
"\n"
"Tokenizer files: $CTXBENCH_TOKENIZERS, else $XDG_CACHE_HOME/ctxbench/tokenizers\n"
"(~/.cache/ctxbench/tokenizers), filled by 'make deps'.\n";

enum { OPT_CACHE_DIR = 256, OPT_NO_CACHE };

static const struct option longopts[] = {
	{ "cache-dir", required_argument, NULL, OPT_CACHE_DIR },
	{ "field", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "ids", no_argument, NULL, 'i' },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "output", required_argument, NULL, 'o' },
	{ "raw", no_argument, NULL, 'r' },
	{ "special-as-text", no_argument, NULL, 'S' },
	{ "tokenizer-file", required_argument, NULL, 'T' },
	{ "tokenizers", required_argument, NULL, 't' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static const char *const families[] = { "llama3", "qwen3", "gemma3", "mistral", NULL };

struct tk {
	char *name;
	struct btok t;
};

struct run {
	struct tk *tk;
	size_t ntk;
	const char *field;
	int ids, special, ref;	/* ref: index of llama3 or -1 */
	struct btok_ids buf;
};

static char *share_dir(const char *argv0)
{
	const char *env = getenv("CTXBENCH_SHARE");
	char self[4096];
	ssize_t n;
	if (env && *env)
		return path_join(env, "btok");
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		char *d, *p;
		self[n] = 0;
		d = path_dirname(self);
		p = xasprintf("%s/../../share/btok/manifest", d);
		if (file_exists(p)) {
			free(p);
			p = xasprintf("%s/../../share/btok", d);
			free(d);
			return p;
		}
		free(p);
		free(d);
	}
	(void)argv0;
	return xstrdup(CTX_SHAREDIR "/btok");
}

static char *tok_dir(void)
{
	const char *e = getenv("CTXBENCH_TOKENIZERS");
	if (e && *e)
		return xstrdup(e);
	e = getenv("XDG_CACHE_HOME");
	if (e && *e)
		return xasprintf("%s/ctxbench/tokenizers", e);
	e = getenv("HOME");
	return xasprintf("%s/.cache/ctxbench/tokenizers", e && *e ? e : ".");
}

static size_t count(struct run *r, size_t k, const char *s, size_t n)
{
	r->buf.n = 0;
	r->buf.count_only = !r->ids;
	btok_encode(&r->tk[k].t, s, n, r->special, &r->buf);
	return r->buf.n;
}

static json_t *ids_array(const struct btok_ids *b)
{
	json_t *a = json_array();
	for (size_t i = 0; i < b->n; i++)
		json_array_append_new(a, json_integer(b->v[i]));
	return a;
}

static json_t *obj_field(json_t *rec, const char *key)
{
	json_t *o = json_object_get(rec, key);
	if (o && !json_is_object(o) && !json_is_null(o))
		ndj_die("%s: expected an object", key);
	if (!o || json_is_null(o)) {
		o = json_object();
		json_object_set_new(rec, key, o);
	}
	return o;
}

static int each(json_t *rec, void *vr)
{
	struct run *r = vr;
	json_t *v = json_object_get(rec, r->field);
	const char *sp = rec_str_opt(rec, "system_prompt");
	const char *up = rec_str_opt(rec, "user_prompt");

	if (v && !json_is_null(v)) {
		const char *s;
		size_t n;
		json_t *tok, *ids = NULL;
		if (!json_is_string(v))
			ndj_die("%s: expected a string", r->field);
		s = json_string_value(v);
		n = json_string_length(v);
		tok = obj_field(rec, "tokens");
		if (r->ids)
			ids = obj_field(rec, "token_ids");
		for (size_t k = 0; k < r->ntk; k++) {
			size_t c = count(r, k, s, n);
			json_object_set_new(tok, r->tk[k].name, json_integer((json_int_t)c));
			if (ids)
				json_object_set_new(ids, r->tk[k].name, ids_array(&r->buf));
			if ((int)k == r->ref)
				json_set_int(rec, "ref_token_count", (long long)c);
		}
		if (!json_object_get(rec, "content_chars") && strcmp(r->field, "content") == 0)
			json_set_int(rec, "content_chars", (long long)utf8_count(s, n));
	}
	if (sp && up) {
		json_t *pt = obj_field(rec, "prompt_tokens");
		json_t *jsp = json_object_get(rec, "system_prompt");
		json_t *jup = json_object_get(rec, "user_prompt");
		int ids = r->ids;
		r->ids = 0;
		for (size_t k = 0; k < r->ntk; k++) {
			size_t c = count(r, k, sp, json_string_length(jsp)) +
			    count(r, k, up, json_string_length(jup));
			json_object_set_new(pt, r->tk[k].name, json_integer((json_int_t)c));
		}
		r->ids = ids;
	}
	ndj_emit(rec);
	return 0;
}

static void raw_one(struct run *r, const char *file, int showfile)
{
	size_t len;
	char *text = read_file(file ? file : "-", &len, 0);
	FILE *out = ndj_output();
	if (!text)
		die_errno("%s", file ? file : "<stdin>");
	for (size_t k = 0; k < r->ntk; k++) {
		size_t c = count(r, k, text, len);
		if (r->ids) {
			for (size_t i = 0; i < r->buf.n; i++)
				fprintf(out, "%s%u", i ? " " : "", r->buf.v[i]);
		} else
			fprintf(out, "%zu", c);
		if (r->ntk > 1)
			fprintf(out, "\t%s", r->tk[k].name);
		if (showfile)
			fprintf(out, "\t%s", file);
		fputc('\n', out);
	}
	free(text);
}

/* Record mode when the first byte of the input is '{'. */
static int looks_like_records(FILE *fp)
{
	int c = getc(fp);
	if (c == EOF)
		return 0;
	ungetc(c, fp);
	return c == '{';
}

int main(int argc, char *argv[])
{
	struct run r;
	struct btok_paths p;
	const char *output = NULL, *list = NULL, *cachedir = NULL;
	char **files_T = NULL, *share, *tokdir, *manifest, **names;
	size_t nT = 0;
	int c, raw = 0;

	ctx_init(argv[0]);
	memset(&r, 0, sizeof r);
	memset(&p, 0, sizeof p);
	r.field = "content";
	r.special = 1;
	p.use_cache = 1;
	while ((c = opt_getopt(argc, argv, "f:hio:rSt:T:V", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CACHE_DIR: cachedir = optarg; break;
		case OPT_NO_CACHE: p.use_cache = 0; break;
		case 'f': r.field = optarg; break;
		case 'h': opt_help(usage); break;
		case 'i': r.ids = 1; break;
		case 'o': output = optarg; break;
		case 'r': raw = 1; break;
		case 'S': r.special = 0; break;
		case 't': list = optarg; break;
		case 'T':
			files_T = xreallocarray(files_T, nT + 1, sizeof *files_T);
			files_T[nT++] = optarg;
			break;
		case 'V': opt_version(); break;
		default: die_usage("unknown option");
		}
	}
	if (!*r.field)
		die_usage("-f: empty field name");
	share = share_dir(argv[0]);
	tokdir = tok_dir();
	p.sharedir = share;
	p.tokdir = tokdir;
	p.cachedir = cachedir ? xstrdup(cachedir) : path_join(tokdir, "compiled");
	manifest = path_join(share, "manifest");

	names = strv_split(list ? list : (nT ? "" : "llama3,qwen3,gemma3,mistral"), ',');
	r.ref = -1;
	r.tk = xcalloc(strv_len(names) + nT + 1, sizeof *r.tk);
	for (size_t i = 0; names[i]; i++) {
		int known = 0;
		for (size_t j = 0; j < r.ntk; j++)
			if (strcmp(r.tk[j].name, names[i]) == 0)
				die_usage("-t: %s given twice", names[i]);
		for (size_t j = 0; families[j]; j++)
			known |= strcmp(families[j], names[i]) == 0;
		if (!known)
			die_usage("-t: unknown tokenizer '%s' (llama3, qwen3, gemma3, mistral)", names[i]);
		r.tk[r.ntk++].name = xstrdup(names[i]);
	}
	strv_free(names);
	for (size_t i = 0; i < nT; i++) {
		char *eq = strchr(files_T[i], '=');
		char *nm, *b, *dot;
		if (eq == files_T[i])
			die_usage("-T: empty tokenizer name in '%s'", files_T[i]);
		if (eq) {
			nm = xstrndup(files_T[i], (size_t)(eq - files_T[i]));
		} else {
			char *tmp = xstrdup(files_T[i]);
			b = basename(tmp);
			if ((dot = strrchr(b, '.')) && dot != b)
				*dot = 0;
			nm = xstrdup(b);
			free(tmp);
		}
		if (!*nm || strchr(nm, '/'))
			die_usage("-T: bad tokenizer name '%s'", nm);
		r.tk[r.ntk++].name = nm;
	}
	if (r.ntk == 0)
		die_usage("-t: no tokenizer given");
	for (size_t k = 0, ti = 0; k < r.ntk; k++) {
		if (k < r.ntk - nT) {
			struct btok_manifest_entry e;
			char *file;
			if (btok_manifest_find(manifest, r.tk[k].name, &e) < 0)
				die("%s: no entry for %s", manifest, r.tk[k].name);
			file = path_join(tokdir, e.file);
			btok_load(&r.tk[k].t, r.tk[k].name, file, e.sha, &p);
			free(file);
			if (strcmp(r.tk[k].name, "llama3") == 0)
				r.ref = (int)k;
		} else {
			char *eq = strchr(files_T[ti], '=');
			const char *file = eq ? eq + 1 : files_T[ti];
			btok_load(&r.tk[k].t, r.tk[k].name, file, NULL, &p);
			ti++;
		}
	}
	ndj_output_open(output);
	if (optind == argc) {
		if (!raw && looks_like_records(stdin)) {
			char *const one[] = { (char *)"-" };
			ndj_run(1, one, each, NULL, &r);
		} else
			raw_one(&r, NULL, 0);
	} else if (raw) {
		for (int i = optind; i < argc; i++)
			raw_one(&r, argv[i], argc - optind > 1);
	} else {
		/* Files: records when the first one starts with '{'. */
		FILE *fp = strcmp(argv[optind], "-") ? fopen(argv[optind], "r") : stdin;
		int rec;
		if (!fp)
			die_errno("%s", argv[optind]);
		rec = looks_like_records(fp);
		if (fp != stdin)
			fclose(fp);
		if (rec)
			ndj_run(argc - optind, argv + optind, each, NULL, &r);
		else
			for (int i = optind; i < argc; i++)
				raw_one(&r, argv[i], argc - optind > 1);
	}
	for (size_t k = 0; k < r.ntk; k++) {
		btok_unload(&r.tk[k].t);
		free(r.tk[k].name);
	}
	free(r.tk);
	btok_ids_free(&r.buf);
	free(files_T);
	free(share);
	free(tokdir);
	free((char *)p.cachedir);
	free(manifest);
	ctx_exit();
}
