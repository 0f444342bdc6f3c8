/*
 * unit-facts.c - common/facts.c: which facts a text states (numbers with
 * their units and keys, versions, quoted values, switches, identifiers,
 * table cells, code lines), that markup does not change them, that the
 * generators' directives are not facts, and the comparison of two texts:
 * shared, changed (with both values and spans), only on one side, shares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "facts.h"
#include "tap.h"

#define MD FACTS_MARKDOWN

/* The facts of s, "kind[key]=value" joined by "; " (identifiers left out
 * unless idents). */
static const char *
show(const char *s, int flags, int idents)
{
	static char out[4096];
	struct facts f = FACTS_INIT;
	size_t i, n = 0;

	facts_add(&f, s, strlen(s), 0, flags);
	out[0] = '\0';
	for (i = 0; i < f.nd && n < sizeof out - 256; i++) {
		if (f.d[i].kind == FACT_IDENT && !idents)
			continue;
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%s[%s]=%s",
		    n ? "; " : "", facts_kind_name(f.d[i].kind), facts_key(&f, i),
		    facts_value(&f, i));
	}
	facts_release(&f);
	return out;
}

/* The identifiers of s, joined by spaces. */
static const char *
idents(const char *s, int flags)
{
	static char out[1024];
	struct facts f = FACTS_INIT;
	size_t i, n = 0;

	facts_add(&f, s, strlen(s), 0, flags);
	out[0] = '\0';
	for (i = 0; i < f.nd && n < sizeof out - 128; i++)
		if (f.d[i].kind == FACT_IDENT)
			n += (size_t)snprintf(out + n, sizeof out - n, "%s%s",
			    n ? " " : "", facts_value(&f, i));
	facts_release(&f);
	return out;
}

static void
test_values(void)
{
	TAP_IS_STR(show("The timeout is 30 s by default.", 0, 0),
	    "number[timeout _ default]=30 s", "number: its unit, key from the words around it");
	TAP_IS_STR(show("`num_ctx_overhead`, 128 tokens by default, is added.", MD, 0),
	    "number[num_ctx_overhead _ default]=128 tokens",
	    "number: the identifier before it is the key's anchor");
	TAP_IS_STR(show("Up to 1,000,000 records, 50% of them, 128MB each.", 0, 0),
	    "number[_ records]=1000000; number[records _]=50 %; number[]=128 mb",
	    "number: thousands separators dropped, %% and attached units; no word near: no key");
	TAP_IS_STR(show("Install larkspur@2.1.0 or 'larkspur==2.1.0', from v1.4.2 on; 1.x is old.", 0, 0),
	    "version[larkspur]=2.1.0; quoted[install _]=larkspur==2.1.0; version[]=1.4.2; "
	    "version[_ old]=1.x",
	    "version: attached package, a v dropped, x parts; a quoted spec is a quoted value");
	TAP_IS_STR(show("It is 2.5 times faster; see 10.0.0.1.", 0, 0),
	    "number[_ faster]=2.5 times; version[see _]=10.0.0.1",
	    "a decimal is a number, three dots make a version");
	TAP_IS_STR(show("Set mode to \xe2\x80\x9cwarn\xe2\x80\x9d or 'ignore'; it's the user's call.", 0, 0),
	    "quoted[mode _]=warn; quoted[]=ignore",
	    "quoted: typographic and ASCII quotes; apostrophes are not quotes; words 3 tokens away");
	TAP_IS_STR(show("Strict mode is on by default. Turn it on later.", 0, 0),
	    "switch[mode _ default]=on", "switch: an on/off word said to be a default, not any 'on'");
	TAP_IS_STR(idents("Use warmup_prompt_count, onUnknownKey, --save-exact, process.env, "
	    "utf8, @scope/pkg, X-Request-Id, not built-in or Warm-up or JSON.", 0),
	    "warmup_prompt_count onUnknownKey --save-exact process.env utf8 @scope/pkg X-Request-Id",
	    "identifiers: underscore, camelCase, option, dotted, letter-digit, sigil, header name");
}

static void
test_markup(void)
{
	const char *plain = "warmup_prompt_count requests, 3 by default, are sent to "
	    "each model (see the reference).";

	TAP_IS_STR(show("`warmup_prompt_count` requests, **3** by default, are sent\n"
	    "to each model (see [the reference](ref.md#warm-up)).", MD, 1), show(plain, 0, 1),
	    "Markdown: code spans, emphasis, a link and a wrapped line state what plain text does");
	TAP_IS_STR(show(plain, 0, 1),
	    "identifier[]=warmup_prompt_count; number[warmup_prompt_count requests _ default]=3",
	    "plain text: the same facts");
	TAP_IS_STR(show("---\ntitle: Port 8080\n---\n# Port\n\nListen on port 9090.\n", MD, 0),
	    "number[port _]=9090", "Markdown: front matter is not read");
	TAP_IS_STR(show("::: tip Version 3\nCache 200 files.\n:::\n!!! note \"Limit 5\"\n", MD, 0),
	    "number[version _]=3; number[cache _]=200 files; number[limit _]=5",
	    "containers: titles read, markers not");
	TAP_IS_STR(show("1. First 10 items\n2. Then 20 items\n", MD, 0),
	    "number[first _]=10 items; number[]=20 items", "list markers are not numbers");
	TAP_IS_STR(show("import Tabs from '@theme/Tabs';\n\nPort 8080.\n", MD, 0),
	    "number[port _]=8080", "MDX import lines are not read");
	TAP_IS_STR(show("Heading\nPort 8080 is free.\n", 0, 0), "number[port _ free]=8080",
	    "plain text: each line its own block");
	TAP_IS_STR(show("## Port 80\n\n[Section titled \xe2\x80\x9cPort 80\xe2\x80\x9d](#port-80)\n\n"
	    "## Host\n[\xe2\x80\x8b](#host \"Direct link to Host 2\")\nUse 5 hosts.\n", MD, 0),
	    "number[port _]=80; number[_ hosts]=5",
	    "a heading's permalink (Starlight, Docusaurus) is not read");
	TAP_IS_STR(show("See [port 8080](#port) first.\n\n[Port 9090](#port)\n", MD, 0),
	    "number[port _ first]=8080; number[port _]=9090",
	    "a link to a fragment in text, or not after a heading, is read");
	TAP_IS_STR(show("| A | B |\n|---|---|\n| env | <code>{\"{}\"}</code> |\n", MD, 0),
	    show("A | B\nenv | {}\n", 0, 0),
	    "an MDX string expression states its string: {\"{}\"} is {}");
	TAP_IS_STR(show("Set {\"a\" and \"b\"}.\n", MD, 0), "quoted[set _]=a; quoted[set _]=b",
	    "braces around two quotes are not one expression");
}

static void
test_tables(void)
{
	const char *want = "number[]=1000; cell[rate_limit_ms | default]=1000; cell[rate_limit_ms | meaning]=pause "
	    "between requests; cell[strict | default]=true; cell[strict | meaning]=reject keys";

	TAP_IS_STR(show("| Key | Default | Meaning |\n|---|--:|---|\n| `rate_limit_ms` | **1000** | "
	    "pause between requests |\n| `strict` | `true` | reject keys |\n", MD, 0)
	    + 0, want, "GFM pipe table: cells keyed by row and header, markup dropped");
	TAP_IS_STR(show("Key | Default | Meaning\nrate_limit_ms | 1000 | pause between requests\n"
	    "strict | true | reject keys\n", 0, 0), want, "bread's plain rows: the same cells");
	TAP_IS_STR(show("<table>\n<thead><tr><th>Key</th><th>Default</th><th>Meaning</th></tr></thead>\n"
	    "<tr><td><code>rate_limit_ms</code></td><td><p>1000</p></td><td><p>pause</p><p>between "
	    "requests</p></td></tr>\n<tr><td>strict</td><td>true</td>\n<td>reject keys</td></tr>\n"
	    "</table>\n", MD, 0), want, "HTML table in Markdown: the same cells, across lines");
	TAP_IS_STR(show("| A | B |\n|---|---|\n| x | `{}` |\n| y | a \\| b |\n", MD, 0),
	    "cell[x | b]={}; cell[y | b]=a b", "a cell of symbols keeps them; an escaped pipe is text");
	TAP_IS_STR(show("cat a | grep b\n", 0, 0), "", "a lone plain row is a header, no cell");
}

static void
test_code(void)
{
	TAP_IS_STR(show("Run:\n\n```ts twoslash\nimport { x } from 'y'\n// @noErrors\n// ---cut---\n"
	    "const n = 3\n//    ^?\nconsole.log(n) // [!code ++]\n```\n", MD, 0),
	    "number[const _]=3; code[Run:]=const n = 3; code[const n = 3]=console.log(n)",
	    "twoslash: lines above a cut, queries and flags hidden; Shiki notation removed");
	TAP_IS_STR(show("```js\na()\n// ---cut-start---\nb()\n// ---cut-end---\nc()\n"
	    "// ---cut-after---\nd()\n```\n", MD, 0), "code[]=a(); code[a()]=c()",
	    "twoslash: cut-start to cut-end and after cut-after hidden");
	TAP_IS_STR(show("```js\n// highlight-next-line\nf()\n{/* highlight-start */}\ng()\n"
	    "# highlight-end\n```\n", MD, 0), "code[]=f(); code[f()]=g()",
	    "Docusaurus magic comments hidden in any comment syntax");
	TAP_IS_STR(show("=== \"sh\"\n\n    ```sh\n    --8<-- \"ports.sh\"\n    run 5\n    ```\n", MD, 0),
	    "number[run _]=5; code[]=run 5",
	    "MkDocs: snippet lines and fences inside indented code are not code lines");
	TAP_IS_STR(show("```toml\nport = 8080   \n\thost  =  \"h\"\n```\n", MD, 0),
	    "number[port _]=8080; code[]=port = 8080; quoted[host _]=h; code[port = 8080]=host = \"h\"",
	    "code lines: blanks trimmed and collapsed; their numbers and quotes are facts too");
	TAP_IS_STR(show("```js\nconst x = 1 // [!code --]\n```\n", 0, 0), "number[const _]=1",
	    "plain text: Shiki notation removed from any line");
	TAP_IS_STR(idents("```diff\n-const a = f(env)\n+const a = f(env, strict)\n--flag\n```\n", MD),
	    "--flag", "a diff block: + and - mark lines, they do not make identifiers");
	TAP_IS_STR(idents("```sh\n-const a\n```\n", MD), "-const",
	    "outside a diff block, a leading - is an option");
}

/* The changes of comparing a (plain) with b (Markdown), one per line. */
static const char *
changes(const char *a, int fa, const char *b, int fb, double *ain, double *bin)
{
	static char out[2048];
	struct facts x = FACTS_INIT, y = FACTS_INIT;
	struct facts_cmp c;
	size_t i, n = 0;

	facts_add(&x, a, strlen(a), 0, fa);
	facts_add(&y, b, strlen(b), 0, fb);
	facts_compare(&x, &y, &c);
	out[0] = '\0';
	for (i = 0; i < c.nchanged && n < sizeof out - 256; i++) {
		struct fact_shown s;

		facts_change(&x, &y, &c, i, &s);
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%s[%s] %s -> %s (%.*s / %.*s)",
		    n ? "\n" : "", facts_kind_name(s.kind), s.key, s.a, s.b, (int)s.alen,
		    a + s.aoff, (int)s.blen, b + s.boff);
	}
	*ain = c.a_in_b;
	*bin = c.b_in_a;
	facts_cmp_release(&c);
	facts_release(&x);
	facts_release(&y);
	return out;
}

static void
test_compare(void)
{
	double ain, bin;

	TAP_IS_STR(changes("Warm-up\nwarmup_prompt_count requests, 3 by default, are sent.\n"
	    "Key | Default\nrate_limit_ms | 1000\n", 0,
	    "## Warm-up\n\n`warmup_prompt_count` requests, **1** by default, are sent.\n\n"
	    "| Key | Default |\n|---|---|\n| `rate_limit_ms` | 500 |\n", MD, &ain, &bin),
	    "number[warmup_prompt_count requests _ default] 3 -> 1 (3 / 1)\n"
	    "cell[rate_limit_ms | default] 1000 -> 500 (1000 / 500)",
	    "changed: the same key with another value, each with its span");
	TAP_IS_REAL(ain, 2.0 / 5, 1e-9, "a_in_b: the share of A's distinct facts the other states");
	TAP_IS_STR(changes("Example\nport = 8080\nhost = \"h\"\n", 0,
	    "Example:\n\n```toml\nport = 9090\nhost = \"h\"\n```\n", MD, &ain, &bin),
	    "number[port _] 8080 -> 9090 (8080 / 9090)\n"
	    "code[Example:] port = 8080 -> port = 9090 (port = 8080 / port = 9090)",
	    "a first code line: paired with the plain line before its next line");
	TAP_IS_STR(changes("Intro\nrun fast\n", 0, "Other:\n\n```\nrun slow\n```\n", MD,
	    &ain, &bin), "", "a code line whose neighbours are not the other's is not paired");
	TAP_IS_STR(changes("Example\n[server]\nport = 8080\nhost = \"h\"\n", 0,
	    "## Example\n\n```toml\n[server]\nport = 9090\nhost = \"h\"\n```\n", MD, &ain, &bin),
	    "number[port _] 8080 -> 9090 (8080 / 9090)\n"
	    "code[[server]] port = 8080 -> port = 9090 (port = 8080 / port = 9090)",
	    "a code line changed: paired with the plain line after its previous line");
	TAP_IS_STR(changes("Example\nquay serve\nquay push\n", 0,
	    "## Example\n\n```sh\nquay server start\nquay publish\n```\n", MD, &ain, &bin),
	    "code[Example] quay serve -> quay server start (quay serve / quay server start)\n"
	    "code[quay server start] quay push -> quay publish (quay push / quay publish)",
	    "a block changed whole: the first line keyed by the text before it, the rest in turn");
	TAP_IS_STR(changes("Key | Default\nonUnknownKey | \"error\"\nstrict | true\n", 0,
	    "Key | Default\n\n<code>onUnknownKey</code>\n|\n<code>\"ignore\"</code>\n"
	    "<code>strict</code>\n|\n<code>true</code>\n", MD, &ain, &bin),
	    "cell[onUnknownKey | default] error -> ignore (\"error\" / \"ignore\")",
	    "a table flattened into runs: its cells found, a changed one paired with its run");
	TAP_IS_STR(changes("Port 8080 and port 8081.\n", 0, "Port 8080 and port 9090.\n", 0,
	    &ain, &bin), "number[port _] 8081 -> 9090 (8081 / 9090)",
	    "leftovers of one key paired; the shared value is not a change");
	TAP_IS_STR(changes("2026\nuse_x\n", 0, "2025\nuse_y\n", 0, &ain, &bin), "",
	    "identifiers and keyless facts are never paired");
	TAP_IS_REAL(bin, 0, 1e-9, "... so both are only on their side");
	changes("", 0, "", MD, &ain, &bin);
	TAP_OK(ain == -1 && bin == -1, "no facts: shares undefined (-1)");
}

static void
test_atoms(void)
{
	struct facts g = FACTS_INIT, a = FACTS_INIT;
	const char *gold = "By default 3 warm-up requests (warmup_prompt_count) are sent, "
	    "1000 milliseconds apart.";
	const char *page = "Key | Default\nrate_limit_ms | 1000\nwarmup_prompt_count | 3\n";
	char **v;
	size_t n, i;

	facts_add(&g, gold, strlen(gold), 0, 0);
	facts_add(&a, page, strlen(page), 0, 0);
	v = facts_atoms(&g, &n);
	TAP_IS_INT((long long)n, 3, "atoms of a gold answer: two numbers and an identifier");
	TAP_OK(n == 3 && strcmp(v[0], "3") == 0 && strcmp(v[1], "warmup_prompt_count") == 0 &&
	    strcmp(v[2], "1000") == 0, "atoms in order, numbers without their units");
	for (i = 0; i < n; i++) {
		TAP_OK(facts_has_atom(&a, v[i]), "the page states atom %s", v[i]);
		free(v[i]);
	}
	free(v);
	TAP_OK(!facts_has_atom(&a, "500"), "an atom the page does not state");
	facts_release(&g);
	facts_release(&a);
}

static void
test_spans_and_bases(void)
{
	struct facts f = FACTS_INIT;
	const char *d1 = "Port 8080.\n", *d2 = "---\nx: 1\n---\nPort `9090`.\n";
	char all[64];
	size_t i, ok = 1;

	snprintf(all, sizeof all, "%s%s", d1, d2);
	facts_add(&f, all, strlen(d1), 0, MD);
	facts_add(&f, all + strlen(d1), strlen(d2), strlen(d1), MD);
	TAP_IS_INT((long long)f.nd, 2, "two documents, front matter skipped in the second");
	for (i = 0; i < f.n; i++)
		ok &= strncmp(all + f.v[i].off, facts_value(&f, f.v[i].id), f.v[i].len) == 0;
	TAP_OK(ok && f.n == 2, "each occurrence's span is its bytes in the whole text");
	facts_release(&f);
}

/* Hostile shapes: each finishes and states what it should. */
static void
test_hostile(void)
{
	size_t n = 200000, i;
	char *s = xmalloc(n + 1);
	struct facts f = FACTS_INIT;

	for (i = 0; i < n; i++)
		s[i] = "![]("[i % 4];
	s[n] = '\0';
	facts_add(&f, s, n, 0, MD);
	TAP_IS_INT((long long)f.nd, 0, "200,000 bytes of unclosed images and links: no fact");
	facts_release(&f);
	memset(s, '<', n);
	facts_add(&f, s, n, 0, MD);
	TAP_IS_INT((long long)f.nd, 0, "200,000 '<': no tag, no fact");
	facts_release(&f);
	for (i = 0; i < n; i++)
		s[i] = i % 2 ? '.' : 'a';
	facts_add(&f, s, n, 0, 0);
	TAP_OK(f.nd == 1 && strlen(facts_value(&f, 0)) <= 256,
	    "a 200,000-byte term: one identifier, its value cut to 256 bytes");
	facts_release(&f);
	for (i = 0; i < n; i++)
		s[i] = i % 3 == 2 ? '\n' : '|';
	facts_add(&f, s, n, 0, MD);
	TAP_IS_INT((long long)f.nd, 0, "66,666 empty table rows: no fact");
	facts_release(&f);
	memcpy(s, "\xff\xfe \"\xc3\x28\"", 7);
	facts_add(&f, s, 7, 0, 0);
	TAP_OK(f.nd == 1 && utf8_valid(facts_value(&f, 0), strlen(facts_value(&f, 0)), NULL),
	    "invalid UTF-8: values stay valid UTF-8");
	facts_release(&f);
	free(s);
}

int
main(void)
{
	err_init("unit-facts");
	test_values();
	test_markup();
	test_tables();
	test_code();
	test_compare();
	test_atoms();
	test_spans_and_bases();
	test_hostile();
	return tap_done();
}
