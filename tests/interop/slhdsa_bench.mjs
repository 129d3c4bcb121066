// Anchor timings for SLH-DSA: @noble/post-quantum keygen / sign / verify for the twelve sets.
// Reports medians of process CPU time (user + system; robust on a shared machine) and wall time.
// Usage: node slhdsa_bench.mjs [filter] — compare with `pqsig_bench --benchmark_filter=SLH-DSA`
// (its CPU column) run at the same time.
import * as slh from '@noble/post-quantum/slh-dsa.js';

const SETS = ['sha2_128s', 'shake_128s', 'sha2_128f', 'shake_128f', 'sha2_192s', 'shake_192s', 'sha2_192f',
  'shake_192f', 'sha2_256s', 'shake_256s', 'sha2_256f', 'shake_256f'];
const filter = process.argv[2] || '';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function time(fn, iters) {
  const cpu = [], wall = [];
  for (let i = 0; i < iters; i++) {
    const c0 = process.cpuUsage(), t0 = performance.now();
    fn();
    const t1 = performance.now(), c1 = process.cpuUsage(c0);
    wall.push(t1 - t0);
    cpu.push((c1.user + c1.system) / 1000);
  }
  return { cpu_ms: +median(cpu).toFixed(3), wall_ms: +median(wall).toFixed(3), iters };
}

const out = {};
for (const name of SETS) {
  const id = 'slh-dsa-' + name.replace('_', '-');
  if (filter && !id.includes(filter)) continue;
  const a = slh['slh_dsa_' + name];
  const small = name.endsWith('s');
  const kp = a.keygen(new Uint8Array(a.lengths.seed).fill(7));
  const msg = new Uint8Array(32).fill(0x5a);
  const sig = a.sign(msg, kp.secretKey);
  out[id] = {
    keygen: time(() => a.keygen(), small ? 1 : 5),
    sign: time(() => a.sign(msg, kp.secretKey), small ? 1 : 5),
    verify: time(() => a.verify(sig, msg, kp.publicKey), small ? 5 : 15),
  };
  process.stderr.write(id + ' ' + JSON.stringify(out[id]) + '\n');
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
