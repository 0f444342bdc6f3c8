/*
 * btok - exact token counts with the real tokenizers of the study's models
 * (spec 001 §2.6): Llama 3.1 (the reference count), Qwen 3, Gemma 3,
 * Mistral Small 3.1 (Tekken) and Mistral Large 2407 (SentencePiece v3).
 *
 *   btok [-t LIST | -c CONFIG] [-T [NAME=]FILE] [-f FIELD] [FILE ...]  records
 *   btok -t gemma3 < file.txt                                          raw text
 *
 * Each input is opened and read once.  Its first bytes, kept in a buffer,
 * decide the mode: '{' means NDJSON records, anything else (or -r) one raw
 * text whose count is printed.  A UTF-8 byte order mark followed by '{' is an
 * error (NDJSON has no BOM); before anything else it is text like any other.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"
#include "btok.h"
#include "load.h"
#include "run.h"

static const char usage[] =
"usage: btok [-t LIST | -c CONFIG] [-T [NAME=]FILE]... [-f FIELD] [-i] [-S]\n"
"            [-r] [--allow-empty] [--cache-dir DIR] [--no-cache] [-o FILE]\n"
"            [FILE ...]\n"
"       btok --list\n"
"\n"
"Count tokens with the real tokenizers of the study's models.  Records\n"
"(NDJSON, input starting with '{'): adds tokens {NAME: n} for FIELD,\n"
"prompt_tokens {NAME: n} for system_prompt + user_prompt, ref_token_count\n"
"(llama3, Llama 3.1's tokenizer) and content_chars.  Raw text (-r, or input\n"
"not starting with '{'): prints the count (with NAME and FILE columns when\n"
"there are several).\n"
"\n"
"  -t, --tokenizers LIST  tokenizers to use: llama3,qwen3,gemma3,mistral,\n"
"                         mistral-v3 (default: all of the manifest)\n"
"  -c, --config FILE      use the tokenizers of the models of this\n"
"                         benchmark-config.json, and llama3\n"
"  -T, --tokenizer-file [NAME=]FILE  also use this tokenizer.json or\n"
"                         tekken.json (NAME: the file's base name)\n"
"  -f, --field FIELD      record field to count (default: content)\n"
"  -i, --ids              also emit the token ids (token_ids {NAME: [..]};\n"
"                         raw mode: the ids instead of the count)\n"
"  -S, --special-as-text  treat special-token text as plain text (default:\n"
"                         matched as Hugging Face tokenizers does)\n"
"  -r, --raw              read the input as raw text, never as records\n"
"  -l, --list             list the tokenizers: name, ids, package, models\n"
"      --allow-empty      records: an input with no record is not an error\n"
"      --cache-dir DIR    compiled tokenizer cache (default: TOKDIR/compiled)\n"
"      --no-cache         neither read nor write compiled images\n"
"  -o, --output FILE      write the records to FILE (atomically; always\n"
"                         NDJSON: an empty input is no records)\n"
"  -h, --help             show this help\n"
"  -V, --version          show the version\n"
"\n"
"Tokenizer files: $CTXBENCH_TOKENIZERS, else $XDG_CACHE_HOME/ctxbench/tokenizers\n"
"(~/.cache/ctxbench/tokenizers), filled by 'make deps'.\n";

enum { OPT_ALLOW_EMPTY = 256, OPT_CACHE_DIR, OPT_NO_CACHE };

static const struct option longopts[] = {
	{ "allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY },
	{ "cache-dir", required_argument, NULL, OPT_CACHE_DIR },
	{ "config", required_argument, NULL, 'c' },
	{ "field", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "ids", no_argument, NULL, 'i' },
	{ "list", no_argument, NULL, 'l' },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "output", required_argument, NULL, 'o' },
	{ "raw", no_argument, NULL, 'r' },
	{ "special-as-text", no_argument, NULL, 'S' },
	{ "tokenizer-file", required_argument, NULL, 'T' },
	{ "tokenizers", required_argument, NULL, 't' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *output, *list, *config, *cachedir;
	char **files_T;
	size_t nT;
	int raw, listing;
};

static char *
tok_dir(void)
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

static void
parse_opts(int argc, char *argv[], struct opts *o, struct run *r,
    struct btok_paths *p)
{
	int c;

	while ((c = opt_getopt(argc, argv, "c:f:hilo:rSt:T:V", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ALLOW_EMPTY: r->allow_empty = 1; break;
		case OPT_CACHE_DIR: o->cachedir = optarg; break;
		case OPT_NO_CACHE: p->use_cache = 0; break;
		case 'c': o->config = optarg; break;
		case 'f': r->field = optarg; break;
		case 'h': opt_help(usage); break;
		case 'i': r->ids = 1; break;
		case 'l': o->listing = 1; break;
		case 'o': o->output = optarg; break;
		case 'r': o->raw = 1; break;
		case 'S': r->special = 0; break;
		case 't': o->list = optarg; break;
		case 'T':
			o->files_T = xreallocarray(o->files_T, o->nT + 1, sizeof *o->files_T);
			o->files_T[o->nT++] = optarg;
			break;
		case 'V': opt_version(); break;
		default: die_usage("unknown option");
		}
	}
	if (!*r->field)
		die_usage("-f: empty field name");
	if (o->list && o->config)
		die_usage("-t and -c: give one of them");
	if (o->raw && o->output)
		die_usage("-o writes records; -r counts raw text to standard output");
}

static const struct btok_manifest_entry *
manifest_get(const struct btok_manifest_entry *m, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(m[i].name, name) == 0)
			return &m[i];
	return NULL;
}

static void
list_tokenizers(const struct btok_manifest_entry *m, size_t n)
{
	printf("%-11s %7s  %-32s %s\n", "NAME", "IDS", "PACKAGE", "MODELS");
	for (size_t i = 0; i < n; i++)
		printf("%-11s %7lu  %-32s %s\n", m[i].name, m[i].vocab, m[i].package,
		    m[i].models);
	fflush(stdout);
	exit(ferror(stdout) ? EXIT_DATA : 0);
}

/* Append name to r->tk unless it is there; returns 1 when added. */
static int
add_name(struct run *r, const char *name)
{
	for (size_t j = 0; j < r->ntk; j++)
		if (strcmp(r->tk[j].name, name) == 0)
			return 0;
	r->tk = xreallocarray(r->tk, r->ntk + 1, sizeof *r->tk);
	memset(&r->tk[r->ntk], 0, sizeof r->tk[r->ntk]);
	r->tk[r->ntk++].name = xstrdup(name);
	return 1;
}

/* -c: llama3 (ref_token_count), then each model's tokenizer in order. */
static void
names_from_config(struct run *r, const char *config,
    const struct btok_manifest_entry *m, size_t nm)
{
	json_t *cfg = study_config_load(config), *models, *mo;
	size_t i;

	add_name(r, "llama3");
	models = json_object_get(cfg, "models");
	json_array_foreach(models, i, mo) {
		const char *t = cfg_model_tokenizer(mo);

		if (!t || !manifest_get(m, nm, t))
			die("%s: models[%zu] (%s): tokenizer '%s' is not one btok has "
			    "(btok --list)", config, i,
			    json_string_value(json_object_get(mo, "model_id")),
			    t ? t : "(none)");
		add_name(r, t);
	}
	json_decref(cfg);
}

static void
names_from_list(struct run *r, const char *list,
    const struct btok_manifest_entry *m, size_t nm)
{
	char **names = strv_split(list, ',');

	for (size_t i = 0; names[i]; i++) {
		if (!manifest_get(m, nm, names[i]))
			die_usage("-t: unknown tokenizer '%s' (btok --list)", names[i]);
		if (!add_name(r, names[i]))
			die_usage("-t: %s given twice", names[i]);
	}
	strv_free(names);
}

/* -T [NAME=]FILE: the name, malloc'd. */
static char *
file_name_of(const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *nm, *tmp, *b, *dot;

	if (eq == arg)
		die_usage("-T: empty tokenizer name in '%s'", arg);
	if (eq)
		return xstrndup(arg, (size_t)(eq - arg));
	tmp = xstrdup(arg);
	b = basename(tmp);
	if ((dot = strrchr(b, '.')) && dot != b)
		*dot = 0;
	nm = xstrdup(b);
	free(tmp);
	return nm;
}

static void
load_all(struct run *r, const struct opts *o, const struct btok_manifest_entry *m,
    size_t nm, const struct btok_paths *p)
{
	size_t nman = r->ntk;

	for (size_t i = 0; i < o->nT; i++) {
		char *nm_T = file_name_of(o->files_T[i]);

		if (!*nm_T || strchr(nm_T, '/'))
			die_usage("-T: bad tokenizer name '%s'", nm_T);
		if (!add_name(r, nm_T))
			die_usage("-T: tokenizer name %s given twice", nm_T);
		free(nm_T);
	}
	if (r->ntk == 0)
		die_usage("-t: no tokenizer given");
	r->ref = -1;
	for (size_t k = 0; k < r->ntk; k++) {
		if (k < nman) {
			const struct btok_manifest_entry *e = manifest_get(m, nm, r->tk[k].name);
			char *file = path_join(p->tokdir, e->file);

			btok_load(&r->tk[k].t, r->tk[k].name, file, e->sha, p);
			free(file);
			if (strcmp(r->tk[k].name, "llama3") == 0)
				r->ref = (int)k;
		} else {
			const char *arg = o->files_T[k - nman], *eq = strchr(arg, '=');

			btok_load(&r->tk[k].t, r->tk[k].name, eq ? eq + 1 : arg, NULL, p);
		}
		r->tk[k].enc = btok_enc_new(&r->tk[k].t);
	}
}

/*
 * Keep the memory freed after an input for the next one: each input's text
 * and its normalised copy are allocated anew, and pages the kernel gives
 * again cost more than the encoding that writes them.  glibc serves blocks
 * above M_MMAP_THRESHOLD with mmap(2), unmapped when freed, and gives the
 * top of the heap back above M_TRIM_THRESHOLD; inputs over 32 MB still
 * come and go with mmap(2).  Set once the encoders are made, whose caches
 * mmap(2) gives zeroed, where calloc would clear the top of the heap.
 */
static void
malloc_keep(void)
{
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	(void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
	(void)mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

int
main(int argc, char *argv[])
{
	struct run r;
	struct btok_paths p;
	struct opts o;
	struct btok_manifest_entry *m;
	char *share, *tokdir, *manifest;
	size_t nm;

	ctx_init(argv[0]);
	memset(&r, 0, sizeof r);
	memset(&p, 0, sizeof p);
	memset(&o, 0, sizeof o);
	r.field = "content";
	r.special = 1;
	p.use_cache = 1;
	parse_opts(argc, argv, &o, &r, &p);
	share = ctx_share_path("btok/manifest");
	if (!share)
		die("share/btok/manifest: not found (set CTXBENCH_SHARE or reinstall)");
	manifest = share;
	share = path_dirname(manifest);
	nm = btok_manifest_load(manifest, &m);
	if (o.listing)
		list_tokenizers(m, nm);
	tokdir = tok_dir();
	p.sharedir = share;
	p.tokdir = tokdir;
	p.cachedir = o.cachedir ? xstrdup(o.cachedir) : path_join(tokdir, "compiled");
	if (o.config)
		names_from_config(&r, o.config, m, nm);
	else if (o.list)
		names_from_list(&r, o.list, m, nm);
	else if (!o.nT)
		for (size_t i = 0; i < nm; i++)
			add_name(&r, m[i].name);
	load_all(&r, &o, m, nm, &p);
	malloc_keep();
	ndj_output_open(o.output);
	r.records_only = o.output != NULL;
	btok_run_inputs(&r, argc - optind, argv + optind, o.raw);
	run_free(&r);
	free(m);
	free(o.files_T);
	free(share);
	free(manifest);
	free(tokdir);
	free((char *)p.cachedir);
	ctx_exit();
}
