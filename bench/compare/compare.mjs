// Reads pqsig's and noble's JSONL (same run, same method) and prints per-operation medians and
// the ratio pqsig / noble (< 1: pqsig is faster). With --out DIR also writes DIR/README.md.
// Usage: node compare.mjs --pqsig pqsig.jsonl --noble noble.jsonl [--out DIR] [--command "…"]
import { readFileSync, writeFileSync } from 'node:fs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const read = (f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const P = read(args.pqsig), N = read(args.noble);
const penv = P.find((r) => r.type === 'environment') ?? {};
const nenv = N.find((r) => r.type === 'environment') ?? {};
const key = (r) => `${r.suite}\u0000${r.op}`;
const ps = new Map(P.filter((r) => r.type === 'summary' && !r.error).map((r) => [key(r), r]));
const ns = new Map(N.filter((r) => r.type === 'summary').map((r) => [key(r), r]));
const pAvail = new Map(P.filter((r) => r.type === 'suite').map((r) => [r.suite, r.available]));
const suites = [...new Set(N.filter((r) => r.type === 'suite').map((r) => r.suite))];

const fmt = (v) => {
  if (!(v > 0)) return '–';
  if (v < 1e3) return `${v.toFixed(0)} ns`;
  if (v < 1e4) return `${(v / 1e3).toFixed(2)} µs`;
  if (v < 1e6) return `${(v / 1e3).toFixed(1)} µs`;
  if (v < 1e7) return `${(v / 1e6).toFixed(2)} ms`;
  if (v < 1e9) return `${(v / 1e6).toFixed(1)} ms`;
  return `${(v / 1e9).toFixed(2)} s`;
};
const rows = [];
for (const s of suites) {
  const ops = s.startsWith('ml-kem') ? ['keygen', 'encaps', 'decaps'] : ['keygen', 'sign', 'verify'];
  for (const op of ops) {
    const p = ps.get(`${s}\u0000${op}`), n = ns.get(`${s}\u0000${op}`);
    const ratio = p && n ? p.median_ns / n.median_ns : null;
    rows.push({ suite: s, op, p, n, ratio, pnote: pAvail.get(s) === false ? 'not available' : p ? '' : 'not measured' });
  }
}
const header = ['suite', 'op', 'pqsig median', 'pqsig p90', 'noble median', 'noble p90', 'pqsig / noble'];
const table = rows.map((r) => [r.suite, r.op, r.p ? fmt(r.p.median_ns) : r.pnote, r.p ? fmt(r.p.p90_ns) : '',
  r.n ? fmt(r.n.median_ns) : '–', r.n ? fmt(r.n.p90_ns) : '', r.ratio ? r.ratio.toFixed(3) : '–']);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
const line = (t) => t.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
console.log(line(header));
for (const t of table) console.log(line(t));

const measured = rows.filter((r) => r.ratio);
if (measured.length) {
  const geo = Math.exp(measured.reduce((a, r) => a + Math.log(r.ratio), 0) / measured.length);
  console.log(`\ngeometric mean pqsig / noble over ${measured.length} operations: ${geo.toFixed(3)}`);
}

if (args.out) {
  const md = [];
  md.push(`# pqsig vs @noble/post-quantum — ${penv.date ?? nenv.date ?? ''}`);
  md.push('');
  md.push('Same machine, same run, same method (warm-up, fast operations timed in batches, a minimum sample count');
  md.push('and a time budget per operation; signing over distinct messages of the Web Bot Auth signature base\'s');
  md.push(`size; verification over the signatures produced). Ratio = pqsig median / noble median (< 1: pqsig faster).`);
  md.push('');
  md.push(`- Machine: ${penv.cpu_model ?? nenv.cpu_model}, ${penv.cores ?? nenv.cores} cores, ${penv.os ?? nenv.os}, governor ${penv.governor ?? 'n/a'}`);
  md.push(`- pqsig ${penv.pqsig_version ?? '?'} (commit ${penv.commit ?? '?'}), ${penv.compiler ?? ''} ${penv.build_type ?? ''} \`${penv.cxx_flags ?? ''}\`, clock: ${penv.options?.clock ?? 'wall'}`);
  md.push(`- ${nenv.package ?? '@noble/post-quantum'} on Node ${nenv.node ?? '?'} (V8 ${nenv.v8 ?? '?'}), clock: ${nenv.options?.clock ?? 'wall'}`);
  if (args.command) md.push(`- Command: \`${args.command}\``);
  md.push('- Files: `pqsig.jsonl` and `noble.jsonl` (environment record, per-operation summaries, every raw sample), `environment.txt`.');
  md.push('');
  md.push(`| ${header.join(' | ')} |`);
  md.push(`|${header.map((_, i) => (i >= 2 ? '---:' : '---')).join('|')}|`);
  for (const t of table) md.push(`| ${t.join(' | ')} |`);
  if (measured.length) {
    const geo = Math.exp(measured.reduce((a, r) => a + Math.log(r.ratio), 0) / measured.length);
    md.push('');
    md.push(`Geometric mean of pqsig / noble over the ${measured.length} operations measured on both sides: **${geo.toFixed(3)}**.`);
  }
  const missing = [...new Set(rows.filter((r) => !r.p).map((r) => r.suite))];
  if (missing.length) {
    md.push('');
    md.push(`Not available in pqsig at this commit (shown as such, not skipped silently): ${missing.join(', ')}.`);
  }
  md.push('');
  writeFileSync(`${args.out}/README.md`, md.join('\n'));
}
