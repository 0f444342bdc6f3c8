#!/usr/bin/env python3
"""gen-corpus.py - write the conformance corpus of btok (tests/btok/corpus/).

Deterministic: the same files on every run.  The corpus covers what the
issue lists: prose, Markdown with code, HTML-derived text, CJK, emoji ZWJ
sequences, combining marks, an NFC/NFD pair, long white-space runs, CRLF,
control characters, special-token look-alikes, numbers, plus invalid UTF-8
and NUL bytes (raw files), long words and single-character runs.
Run: python3 tests/btok/gen-corpus.py (standard library only).
"""
import os
import unicodedata

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
os.makedirs(out, exist_ok=True)


def put(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


put("prose.txt", """The archive phase runs once, ideally within a single 24-hour window, to minimize
the chance that site content changes between fetches of different pages on the same site.
It's what careful researchers do; they'll re-run it only if they've lost data. I'd say we're
done, but WE'RE NOT: "Quotes", 'single quotes', and em-dashes \u2014 like this \u2014 matter.
Caf\u00e9s, na\u00efve co\u00f6perators and r\u00e9sum\u00e9s appear in English prose too.
Mr. O'Neil's dog's bone isn't the Joneses' problem... or is it?  Ellipsis\u2026 and \u201ccurly\u201d quotes.
""")

put("markdown.md", """# Getting started

Install the package with `npm install --save example` and import it:

```python
def fibonacci(n: int) -> int:
    \"\"\"Return the n-th Fibonacci number.\"\"\"
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a

if __name__ == "__main__":
    print([fibonacci(i) for i in range(10)])
```

| Option | Default | Description |
|--------|---------|-------------|
| `-v`   | `false` | verbose     |
| `--n`  | 42      | **count**   |

> **Note:** see [the docs](https://example.com/docs/api?x=1&y=2#section-3) and
> <https://example.org/llms.txt>.

- [x] done
- [ ] *todo* ~~struck~~

```js
const f = async (x) => { await fetch(`/api/${x}`); return x?.y ?? 0; };
```
""")

put("html-derived.txt", "Home\u00a0\u00bb Docs\u00a0\u00bb API\n\nSkip to main content\n\n"
    "Copyright \u00a9 2024 Example, Inc. All rights reserved.\u00ae\u2122\n"
    "Price:\u00a0$19.99 \u2013 \u20ac17,50 \u2013 \u00a52,000\n"
    "  Indented   text\twith\ttabs  and   multiple   spaces  \n"
    "Zero\u200bwidth\u200cjoiners\u200dand\u2060word\u00adjoiner\u00adsoft\u00adhyphen\n"
    "&amp; &lt;div&gt; left as entities, &nbsp; too\n"
    "\u2022 bullet one\n\u2022 bullet two\n\u25b8 triangle\n")

put("cjk.txt", "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3067\u3059\u3002\u6771\u4eac\u306f\u65e5\u672c\u306e\u9996\u90fd\u3067\u3059\u3002"
    "\u30ab\u30bf\u30ab\u30ca\u3068\u3072\u3089\u304c\u306a\u3002\uff8a\uff9d\uff76\uff78\uff76\uff80\uff76\uff85\n"
    "\u4e2d\u6587\u6587\u672c\uff1a\u6211\u4eec\u6d4b\u8bd5\u5206\u8bcd\u5668\u3002\u300c\u5f15\u53f7\u300d\u3001\u6807\u70b9\u7b26\u53f7\uff01\n"
    "\ud55c\uad6d\uc5b4 \ubb38\uc7a5\uc785\ub2c8\ub2e4. \uc548\ub155\ud558\uc138\uc694!\n"
    "\u3000\u5168\u89d2\u30b9\u30da\u30fc\u30b9\u3000\u3068\uff21\uff22\uff23\uff11\uff12\uff13\n"
    "\U00020000\U0002a6d6 \u9fff \u3400\u4db5\n")

put("emoji.txt", "Family: \U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466 "
    "rainbow flag: \U0001F3F3\uFE0F\u200D\U0001F308 "
    "skin tones: \U0001F44D\U0001F3FB\U0001F44D\U0001F3FF "
    "flags: \U0001F1EF\U0001F1F5\U0001F1FA\U0001F1F8 "
    "keycap: 1\uFE0F\u20E3 #\uFE0F\u20E3 "
    "technologist: \U0001F9D1\U0001F3FD\u200D\U0001F4BB "
    "heart: \u2764\uFE0F \u2764 text\u263a\uFE0E "
    "tag seq: \U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F\n"
    "\U0001F600\U0001F601\U0001F602\U0001F923 lots\U0001F525\U0001F525\U0001F525of fire\n")

put("combining.txt", "e\u0301 a\u0300 o\u0308 n\u0303 c\u0327 Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324\u031e\u0349\u035a\u032f\u031e\u0320\u034dalgo\n"
    "\u0939\u093f\u0928\u094d\u0926\u0940 \u0926\u0947\u0935\u0928\u093e\u0917\u0930\u0940 "
    "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22 "
    "\u0627\u0644\u0639\u064e\u0631\u064e\u0628\u0650\u064a\u064e\u0651\u0629 "
    "\u05e2\u05b4\u05d1\u05b0\u05e8\u05b4\u05d9\u05ea "
    "\u1100\u1161\u11a8 (jamo) \u0301\u0302 leading marks\n"
    "\u0391\u03b8\u03ae\u03bd\u03b1 \u041c\u043e\u0441\u043a\u0432\u0430 \u10e5\u10d0\u10e0\u10d7\u10e3\u10da\u10d8\n")

nfc_text = "Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e, \u00c5ngstr\u00f6m, \u1e9b\u0323, \uac00\ud7a3, \u00f1and\u00fa, \u01d5\u01d7\n"
put("nfc.txt", unicodedata.normalize("NFC", nfc_text))
put("nfd.txt", unicodedata.normalize("NFD", nfc_text))

# NFC where the letters begin compositions: Hangul syllables and conjoining
# jamo (L V, L V T, a syllable LV and a T), U+11A7 (no T: it composes with
# nothing) after a syllable LV, alone and in runs that compose, old jamo;
# Cyrillic, Greek and kana with and without the marks that compose with them.
put("hangul.txt",
    "\ud55c\uad6d\uc5b4 \ubb38\uc7a5\uc740 \uc74c\uc808\ub85c \uc4f4\ub2e4. "
    "\u1112\u1161\u11ab\u1100\u1173\u11af \u1100\u1161\u11a8 \uac00\u11a8 "
    "\uac00\u11a7 \uac00\u11a7\u0301 e\u0301\uac00\u11a7 \ub098\u11a7\u11a8 "
    "\u1113\u1176\u11c3 \ua960\ud7b0\ud7cb\n"
    "\u0435\u0308\u043b\u043a\u0430 \u0451\u043b\u043a\u0430 \u0439\u043e\u0434 "
    "\u03b1\u0301\u03bb\u03c6\u03b1 \u03ac\u03bb\u03c6\u03b1 "
    "\u304b\u3099 \u304c \u30cf\u309a \u30d1 \u30a6\u3099\n")

put("whitespace.txt", " " * 5000 + "x" + "\t" * 3000 + "y\n" + "\n" * 3000 + "z" +
    " \t" * 700 + "\n \n\t\n" + "\u00a0" * 1500 + "w" + "\u3000" * 800 + "v" +
    "\u2003\u2009\u202f\u205f\u2028\u2029\u0085\u000b\u000c" * 50 + "end   \n   ")

put("crlf.txt", "line one\r\nline two\r\n\r\n\r\nindented\r\n    code();\r\n"
    "lone CR\rhere\r\r\nmixed\n\r\n\rend\r\n")

put("control.txt", "".join(chr(c) for c in range(1, 32)) + "\x7f text \x1b[31mred\x1b[0m "
    "\u0085next\u200bzw\ufeffbom\u2028ls\u2029ps \u00ad \ufffd \ufffe\uffff \U0010fffd\n")

put("special.txt", "<|begin_of_text|>Hello<|eot_id|><|start_header_id|>user<|end_header_id|>\n"
    "<|im_start|>system\nYou are helpful.<|im_end|>\n<|endoftext|>"
    "<start_of_turn>user\nhi<end_of_turn>\n<bos><eos><pad><mask>[multimodal]<unused42>"
    "[INST] hi [/INST]</s><s>[SYSTEM_PROMPT]x[/SYSTEM_PROMPT][TOOL_CALLS]"
    "<think>reason</think><tool_call>{}</tool_call>"
    " partial: <|begin_of_tex <|eot_id| <<|eot_id|>|> <|reserved_special_token_5|>"
    " <0x0A> <0xZZ> \u2581\u2581 <SPECIAL_20> <unk> <start_of_image><end_of_image>\n"
    "<h1>Title</h1><p>para</p><br/><div class=\"x\"></div><table><tr><td>cell</td></tr></table>\n")

put("numbers.txt", "0 1 12 123 1234 12345 123456 1234567890123 3.14159 -42 +7 1,000,000 1.000.000,00\n"
    "0x1F 0b1010 1e-10 6.02e23 2024-01-31T12:34:56Z 192.168.0.1 v1.2.3 50% $3.50\n"
    "\u0663\u0664\u0665 \u096a\u096b \uff11\uff12\uff13 \u00b2\u00b3 \u2167\u216b \u00bd\u00be \u2460\u2461 \U0001d7ce\U0001d7cf\n"
    "9999999999999999999999999999\n")

put("contractions.txt", "I'm you're they've it'll he'd she's DON'T WE'LL THEY'RE I'M IT'S "
    "'s 't 're 've 'm 'll 'd 'S 'T 'RE 'Ve 'lL 'D it'\u017f o'clock rock'n'roll "
    "can\u2019t won\u2019t '' ''' 'x 're'll\n"
    "\u0130stanbul \u0131 \u212a \u00df STRASSE \u1e9e \ufb01 \ufb05\n")

put("code.c", "#include <stdio.h>\n\nint main(int argc, char **argv)\n{\n"
    "\tfor (int i = 0; i < argc; i++)\n\t\tprintf(\"%d: %s\\n\", i, argv[i]);\n"
    "\treturn argc > 1 ? 0 : 1; // done\n}\n/* a\u00e9 */ x+=y<<2; a->b[3]|=~c&&d||!e;\n"
    "    \n        \n")

put("long-word.txt", "".join(chr(ord("a") + (i * 7) % 26) for i in range(20000)) +
    " " + "a" * 10000 + " " + "\u00e9" * 3000 + " " + "ab" * 4000 + " " + "!" * 5000 +
    " " + "1" * 3001 + " " + "\u6f22" * 2000 + "\n")

put("scripts.txt", "\u0417\u0434\u0440\u0430\u0432\u0441\u0442\u0432\u0443\u0439\u0442\u0435, \u043c\u0438\u0440! "
    "\u0393\u03b5\u03b9\u03ac \u03c3\u03bf\u03c5 \u03ba\u03cc\u03c3\u03bc\u03b5 "
    "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645 "
    "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd "
    "\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e "
    "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e0a\u0e32\u0e27\u0e42\u0e25\u0e01 "
    "\u10d2\u10d0\u10db\u10d0\u10e0\u10ef\u10dd\u10d1\u10d0 \u0540\u0561\u0575\u0565\u0580\u0565\u0576 "
    "\u1230\u120b\u121d \u13a3\u13b3\u13a9 \u1780\u1798\u17d2\u1796\u17bb\u1787\u17b6 "
    "\U0001D400\U0001D401 \U00010400\U00010428 \u01c5\u01c8 \u02b0\u02b1\u1d2c\n")

put("mixed-case.txt", "camelCaseIdentifier PascalCase snake_case SCREAMING_CASE HTTPServer "
    "XMLHttpRequest iPhone McDonald ABCdef abcDEF A\u0301B\u0301c \u01c4\u01c5\u01c6 \u1fbc\u1f88\n"
    "/usr/local/bin//path/ https://a.b/c/d?e=f ../../x .. ... -- --- ==> <=> //\n\n//\n")

put("html-spaces.txt", "<p>a</p> </div>  </span>\t</b> <br> </ul>\n> </x> >  </y> ><  /z> </ </\n"
    "<td> </td><td>  </td> x> </a> word </ > </  a >\u2581</ \u2581\u2581 ▁x▁ ▁▁</\n")

put("empty.txt", "")

put("invalid-utf8.bin", b"ok \xff\xfe bad \xc3\x28 trunc \xe2\x82 end \xed\xa0\x80 surrogate "
    b"\xc0\xaf overlong \xf4\x90\x80\x80 big \xf0\x9f\x98 cut \x80\x80\x80 lone cont \xe2\x82\xac euro\n")

put("nul.bin", b"before\x00after \x00\x00\x00 three nuls\x00\n")

# Code points assigned in Unicode 14 and 15 (to show the Unicode version).
put("unicode-new.txt", "Kawi \U00011F04\U00011F05\U00011F06 Nag Mundari \U0001E4D0\U0001E4D1 "
    "CJK-H \U00031350\U00031351 Toto \U0001E290\U0001E291 Vithkuqi \U00010570\U00010597 "
    "latin \U0001DF00\U0001DF25 znamenny \U0001CF00\U0001CF01 digits \U0001E4F0\U0001E4F1 \U00011F50\n")

# Every special-token string of every tokenizer of the manifest, embedded in
# prose (issue: "every special-token string in every family's vocabulary").
# Needs the tokenizer files of make deps; the file is kept when they are absent.
tokdir = os.environ.get("CTXBENCH_TOKENIZERS") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ctxbench", "tokenizers")
share = os.path.join(os.path.dirname(out), "..", "..", "share", "btok")


def specials():
    import base64
    import json
    names = []
    for f in ("llama3.1", "qwen3", "gemma3"):
        with open(os.path.join(tokdir, f, "tokenizer.json"), encoding="utf-8") as fp:
            names += [t["content"] for t in json.load(fp)["added_tokens"] if t["special"]]
    with open(os.path.join(share, "tekken-control-tokens"), encoding="utf-8") as fp:
        names += [x for x in fp.read().split("\n") if x]
    with open(os.path.join(tokdir, "mistral-v3", "tokenizer.json"), encoding="utf-8") as fp:
        vocab = json.load(fp)["model"]["vocab"]
    names += [p for p, i in sorted(vocab.items(), key=lambda kv: kv[1]) if i < 771]
    return names


if os.path.exists(os.path.join(tokdir, "mistral-v3", "tokenizer.json")):
    lines = []
    for i, s in enumerate(specials()):
        lines.append(["Before %s after." % s, "A sentence with%sinside" % s,
                      "%s starts, and ends with %s" % (s, s), "x%sy %s\n%s" % (s, s, s)][i % 4])
    put("special-all.txt", "\n".join(lines) + "\n")

# Long pieces (runs the pre-tokeniser does not split), which btok merges with
# a bucket per rank rather than one heap: words glued together, a CJK run,
# mixed-script letters; deterministic (a linear congruential generator).
seed = 12345


def lcg(n):
    global seed
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n


syll = ["ta", "ke", "shi", "on", "er", "ing", "the", "qu", "zz", "ment", "tion", "ab",
        "xy", "re", "de", "un", "ly", "ness", "ö", "ß", "é", "ñ"]
glued = "".join(syll[lcg(len(syll))] for _ in range(9000))
cjk = "".join(chr(0x4E00 + lcg(2000)) for _ in range(4000))
mixed = "".join(chr([0x61, 0x430, 0x3B1, 0x5D0, 0x627][lcg(5)] + lcg(20)) for _ in range(6000))
put("long-pieces.txt", glued + "\n" + cjk + "\n" + mixed + "\n")

# Long pieces that btok cuts where no merge can join the two sides (encode.c
# model_cut), each part then modelled alone: a table without spaces (one
# piece for the SentencePiece-style models), digit runs, CJK with digits and
# punctuation, letters with characters the vocabularies lack (byte fallback
# or unknown next to a place that could be cut), and runs of one byte.
rows = []
for i in range(400):
    rows.append("%d,2026-%02d-%02d,%d.%02d,0x%08x,%s" % (
        lcg(10 ** 7), 1 + lcg(12), 1 + lcg(28), lcg(10 ** 5), lcg(100), lcg(2 ** 31),
        "".join(syll[lcg(len(syll))] for _ in range(lcg(4)))))
table = "\n".join(rows)
digits = "".join(str(lcg(10)) for _ in range(9000))
cjkd = "".join(chr(0x4E00 + lcg(300)) if lcg(3) else "0123456789,.-:"[lcg(14)]
               for _ in range(6000))
rare = "".join(chr(0x61 + lcg(26)) if lcg(4) else chr([0x1F600, 0x10400, 0xE000, 0x2581][lcg(4)] + lcg(40))
               for _ in range(6000))
put("long-cut.txt", table + "\n" + digits + "\n" + cjkd + "\n" + rare + "\n" +
    "7" * 5000 + "," * 5000 + "\u2581" * 2000 + "\n")
