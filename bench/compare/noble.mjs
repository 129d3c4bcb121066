// Times @noble/post-quantum (the independent JavaScript implementation pqsig cross-checks
// against) with the same method as `pqsig price`: warm-up, batching of fast operations, a minimum
// sample count and a time budget per operation, signing over distinct messages, verification
// over the signatures produced. Writes JSONL records in pqsig price's schema ("impl":"noble").
// Usage: node noble.mjs --suites a,b --out FILE [--budget-ms 250] [--min-samples 5]
//        [--min-samples-slow 2] [--message-size 376] [--distinct 64]
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const nm = path.join(here, '..', '..', 'tests', 'interop', 'node_modules', '@noble', 'post-quantum');
const load = (f) => import(pathToFileURL(path.join(nm, f)).href);
const [mldsa, slhdsa, mlkem] = await Promise.all([load('ml-dsa.js'), load('slh-dsa.js'), load('ml-kem.js')]);
const pkg = JSON.parse((await import('node:fs')).readFileSync(path.join(nm, 'package.json'), 'utf8'));

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const budgetMs = Number(args['budget-ms'] ?? 250);
const minSamples = Number(args['min-samples'] ?? 5);
const minSamplesSlow = Number(args['min-samples-slow'] ?? 2);
const msgSize = Number(args['message-size'] ?? 376);
const distinct = Number(args['distinct'] ?? 64);
const minSampleNs = (args.clock ?? 'wall') === 'cpu' ? 200000 : 20000;  // µs-resolution CPU clock: longer batches

function impl(id) {
  let m;
  if ((m = /^ml-dsa-(44|65|87)$/.exec(id))) return { kind: 'sig', a: mldsa[`ml_dsa${m[1]}`] };
  if ((m = /^slh-dsa-(sha2|shake)-(128|192|256)([sf])$/.exec(id)))
    return { kind: 'sig', a: slhdsa[`slh_dsa_${m[1]}_${m[2]}${m[3]}`], slow: m[3] === 's' };
  if ((m = /^ml-kem-(512|768|1024)$/.exec(id))) return { kind: 'kem', a: mlkem[`ml_kem${m[1]}`] };
  return null;
}

const now = () => process.hrtime.bigint();
// --clock cpu: process CPU time (user + system, µs resolution) for samples; wall time otherwise.
const cpuClock = (args.clock ?? 'wall') === 'cpu';
const sampleNow = cpuClock ? () => { const u = process.cpuUsage(); return (u.user + u.system) * 1000; }
                           : () => Number(process.hrtime.bigint());
function measure(run, { min = minSamples } = {}) {
  // warm-up: at least `min(2, min)` calls (the JIT compiles on first use), then until 100 ms
  const w0 = now();
  let warm = 0;
  do { run(); warm++; } while ((Number(now() - w0) < 100e6 || warm < Math.min(2, min)) && warm < 1e6);
  const est = Number(now() - w0) / warm;
  const batch = est < minSampleNs ? Math.ceil(minSampleNs / est) : 1;
  const samples = [];
  const t0 = now();
  for (;;) {
    if (samples.length >= 50000) break;
    if (samples.length >= min && Number(now() - t0) >= budgetMs * 1e6) break;
    const s0 = sampleNow();
    for (let k = 0; k < batch; k++) run();
    samples.push((sampleNow() - s0) / batch);
  }
  return { samples, batch };
}

function pct(sorted, q) {
  if (!sorted.length) return 0;
  const pos = q * (sorted.length - 1), lo = Math.floor(pos), hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { n: s.length, median_ns: pct(s, 0.5), p90_ns: pct(s, 0.9), p99_ns: pct(s, 0.99), min_ns: s[0],
           max_ns: s[s.length - 1], mean_ns: mean, ops_per_s_per_core: 1e9 / pct(s, 0.5) };
}

let cpuModel = os.cpus()[0]?.model ?? 'unknown';
const out = [];
out.push(JSON.stringify({ type: 'environment', impl: 'noble', package: `@noble/post-quantum ${pkg.version}`,
  node: process.version, v8: process.versions.v8, cpu_model: cpuModel, cores: os.cpus().length,
  os: `${os.type()} ${os.release()} ${os.arch()}`, date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  options: { budget_ms_per_op: budgetMs, min_samples: minSamples, min_samples_slow: minSamplesSlow,
             message_size: msgSize, distinct_messages: distinct, clock: cpuClock ? 'process-cpu' : 'wall (hrtime)' } }));

const suites = (args.suites ?? '').split(',').filter(Boolean);
for (const id of suites) {
  const im = impl(id);
  if (!im || !im.a) { out.push(JSON.stringify({ type: 'suite', impl: 'noble', suite: id, available: false })); continue; }
  process.stderr.write(`noble ${id}\n`);
  const rec = (op, { samples, batch }) => {
    out.push(JSON.stringify({ type: 'summary', impl: 'noble', suite: id, op, batch, ...stats(samples) }));
    samples.forEach((ns, i) => out.push(JSON.stringify({ type: 'sample', impl: 'noble', suite: id, op, i, batch, ns })));
  };
  const min = im.slow ? minSamplesSlow : minSamples;
  if (im.kind === 'sig') {
    const { secretKey, publicKey } = im.a.keygen();
    const msgs = Array.from({ length: im.slow ? Math.min(distinct, 4) : distinct }, () => randomBytes(msgSize));
    const pool = [];
    let si = 0, vi = 0;
    out.push(JSON.stringify({ type: 'suite', impl: 'noble', suite: id, available: true,
      sizes: { public_key: publicKey.length, secret_key: secretKey.length } }));
    rec('keygen', measure(() => im.a.keygen(), { min }));
    rec('sign', measure(() => {
      const m = msgs[si++ % msgs.length];
      const sig = im.a.sign(m, secretKey);
      if (pool.length < msgs.length) pool.push([m, sig]);
    }, { min }));
    rec('verify', measure(() => {
      const [m, sig] = pool[vi++ % pool.length];
      if (!im.a.verify(sig, m, publicKey)) throw new Error(`${id}: verify failed`);
    }));
  } else {
    const { secretKey, publicKey } = im.a.keygen();
    const pool = [];
    let di = 0;
    out.push(JSON.stringify({ type: 'suite', impl: 'noble', suite: id, available: true,
      sizes: { public_key: publicKey.length, secret_key: secretKey.length } }));
    rec('keygen', measure(() => im.a.keygen()));
    rec('encaps', measure(() => {
      const { cipherText } = im.a.encapsulate(publicKey);
      if (pool.length < distinct) pool.push(cipherText);
    }));
    rec('decaps', measure(() => im.a.decapsulate(pool[di++ % pool.length], secretKey)));
  }
}
writeFileSync(args.out ?? '/dev/stdout', out.join('\n') + '\n');
