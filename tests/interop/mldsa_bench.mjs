// Benchmark anchor: @noble/post-quantum ML-DSA keygen / sign / verify medians (CPU µs) on this machine.
// Usage: node mldsa_bench.mjs [iterations]   (prints one JSON object)
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';

const iters = Number(process.argv[2] || 50);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
// CPU time of this process (user + system, µs): robust on a shared, oversubscribed machine.
const time = (fn) => { const c0 = process.cpuUsage(); fn(); const c = process.cpuUsage(c0); return c.user + c.system; };
const out = {};
for (const [name, alg] of [['ML-DSA-44', ml_dsa44], ['ML-DSA-65', ml_dsa65], ['ML-DSA-87', ml_dsa87]]) {
  const seed = new Uint8Array(32);
  const msgs = Array.from({ length: iters }, (_, i) => new TextEncoder().encode('benchmark message ' + i));
  for (let i = 0; i < 5; i++) alg.keygen(seed);  // warm-up
  const kg = [], sg = [], vf = [];
  const { publicKey, secretKey } = alg.keygen(seed);
  for (let i = 0; i < iters; i++) { seed[0] = i; kg.push(time(() => alg.keygen(seed))); }
  const sigs = [];
  for (let i = 0; i < iters; i++) sg.push(time(() => sigs.push(alg.sign(msgs[i], secretKey, { extraEntropy: false }))));
  for (let i = 0; i < iters; i++) vf.push(time(() => alg.verify(sigs[i], msgs[i], publicKey)));
  out[name] = { keygen_us: median(kg), sign_us: median(sg), verify_us: median(vf) };
}
console.log(JSON.stringify(out));
