// Benchmark anchor: @noble/post-quantum 0.7.1 (pure JS) keygen / encaps / decaps for the same
// KEMs as bench/bench_mlkem.cpp. Prints the median per operation in microseconds.
// Usage: node mlkem_bench.mjs [ms-per-op, default 500]
import { ml_kem512, ml_kem768, ml_kem1024 } from '@noble/post-quantum/ml-kem.js';
import { ml_kem768_x25519 } from '@noble/post-quantum/hybrid.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { randomBytes } from '@noble/hashes/utils.js';

const budget = Number(process.argv[2] || 500);
function median(fn) {
  for (let i = 0; i < 5; i++) fn();  // warm-up
  const t = [];
  const end = performance.now() + budget;
  while (performance.now() < end || t.length < 11) {
    const a = performance.now();
    fn();
    t.push(performance.now() - a);
  }
  t.sort((x, y) => x - y);
  return (t[t.length >> 1] * 1000).toFixed(1);
}
const kems = { 'ml-kem-512': ml_kem512, 'ml-kem-768': ml_kem768, 'ml-kem-1024': ml_kem1024, 'x-wing': ml_kem768_x25519 };
console.log('noble-post-quantum 0.7.1, median µs: kem keygen encaps decaps');
for (const [name, k] of Object.entries(kems)) {
  const seed = randomBytes(k.lengths.seed ?? 64);
  const { publicKey, secretKey } = k.keygen(seed);
  const { cipherText } = k.encapsulate(publicKey);
  console.log(name, median(() => k.keygen(seed)), median(() => k.encapsulate(publicKey)),
              median(() => k.decapsulate(cipherText, secretKey)));
}
// X25519MLKEM768 composed from noble ML-KEM-768 + X25519 (the settlement KEM adds one HKDF).
{
  const seed = randomBytes(96);
  const kg = () => { const k = ml_kem768.keygen(seed.subarray(0, 64)); return [k, x25519.getPublicKey(seed.subarray(64))]; };
  const [k, pkX] = kg();
  const enc = () => { const e = ml_kem768.encapsulate(k.publicKey); const ek = randomBytes(32);
                      return [e, x25519.getPublicKey(ek), x25519.getSharedSecret(ek, pkX)]; };
  const [e, ctX] = enc();
  const dec = () => [ml_kem768.decapsulate(e.cipherText, k.secretKey), x25519.getSharedSecret(seed.subarray(64), ctX)];
  console.log('x25519-ml-kem-768', median(kg), median(enc), median(dec));
}
