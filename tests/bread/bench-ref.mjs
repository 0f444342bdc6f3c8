// bench-ref.mjs - the reference side of tests/bench/bread.sh: Mozilla
// Readability.js on linkedom, over the pages named on the command line, in
// one process.  Writes one JSON line per page {file, title, byline, text}
// to stdout (text: textContent) and the elapsed milliseconds and the CPU
// milliseconds (user + system) of the timed rounds to stderr as
// "ms=N cpu_ms=C rounds=R".
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const dir = process.env.BREAD_BENCH_NODE;
const require = createRequire(dir + "/package.json");
const { Readability } = require("@mozilla/readability");
const { parseHTML } = require("linkedom");

const rounds = Number(process.env.BREAD_BENCH_ROUNDS || 1);
const files = process.argv.slice(2);
const pages = files.map((f) => readFileSync(f, "utf8"));

function extract(html) {
  const { document } = parseHTML(html);
  try {
    return new Readability(document).parse();
  } catch (e) {
    return null;
  }
}

const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
for (let r = 0; r < rounds; r++) for (const h of pages) extract(h);
const c1 = process.cpuUsage(c0);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
const cpu = (c1.user + c1.system) / 1e3;
for (let i = 0; i < files.length; i++) {
  const a = extract(pages[i]);
  process.stdout.write(JSON.stringify({
    file: files[i], title: a ? a.title : null, byline: a ? a.byline : null,
    text: a ? a.textContent : "",
  }) + "\n");
}
process.stderr.write(`ms=${ms.toFixed(1)} cpu_ms=${cpu.toFixed(1)} rounds=${rounds}\n`);
