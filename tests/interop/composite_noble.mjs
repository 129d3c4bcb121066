// Composite ML-DSA cross-check oracle built from independent parts: @noble/post-quantum (ML-DSA)
// and @noble/curves (Ed25519, Ed448, P-256), following draft-ietf-lamps-pq-composite-sigs-19
// (M' = Prefix || Label || len(ctx) || ctx || PH(M); ML-DSA over M' with ctx = Label).
// Usage: node composite_noble.mjs IN.json OUT.json
// IN:  {"cases":[{"label","mldsa":"ml-dsa-44|65|87","trad":"ed25519|ed448|p256","ph":"sha256|sha512|shake256",
//                 "seed","trad_sk","msg","ctx","our_pk","our_sig"}]}  (hex; trad_sk = raw seed / scalar)
// OUT: {"results":[{"pk","sig","verifies_ours":bool}]}
import { readFileSync, writeFileSync } from 'node:fs';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { ed448 } from '@noble/curves/ed448.js';
import { p256 } from '@noble/curves/nist.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { shake256 } from '@noble/hashes/sha3.js';

const mldsa = { 'ml-dsa-44': ml_dsa44, 'ml-dsa-65': ml_dsa65, 'ml-dsa-87': ml_dsa87 };
const sigLen = { 'ml-dsa-44': 2420, 'ml-dsa-65': 3309, 'ml-dsa-87': 4627 };
const pkLen = { 'ml-dsa-44': 1312, 'ml-dsa-65': 1952, 'ml-dsa-87': 2592 };
const ph = { sha256: (m) => sha256(m), sha512: (m) => sha512(m), shake256: (m) => shake256(m, { dkLen: 64 }) };
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => new Uint8Array(Buffer.from(s, 'hex'));
const utf8 = (s) => new TextEncoder().encode(s);
const cat = (...a) => {
  const out = new Uint8Array(a.reduce((n, x) => n + x.length, 0));
  let o = 0;
  for (const x of a) { out.set(x, o); o += x.length; }
  return out;
};

const trad = {
  ed25519: { pub: (sk) => ed25519.getPublicKey(sk), sign: (m, sk) => ed25519.sign(m, sk), verify: (s, m, pk) => ed25519.verify(s, m, pk) },
  ed448: { pub: (sk) => ed448.getPublicKey(sk), sign: (m, sk) => ed448.sign(m, sk), verify: (s, m, pk) => ed448.verify(s, m, pk) },
  p256: {
    pub: (sk) => p256.getPublicKey(sk, false),
    sign: (m, sk) => p256.sign(m, sk, { format: 'der' }),
    verify: (s, m, pk) => p256.verify(s, m, pk, { format: 'der', lowS: false }),
  },
};

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const results = [];
for (const c of input.cases) {
  const M = mldsa[c.mldsa], T = trad[c.trad];
  const ctx = unhex(c.ctx), label = utf8(c.label);
  const mp = cat(utf8('CompositeAlgorithmSignatures2025'), label, new Uint8Array([ctx.length]), ctx, ph[c.ph](unhex(c.msg)));
  const { publicKey, secretKey } = M.keygen(unhex(c.seed));
  const tsk = unhex(c.trad_sk);
  const pk = cat(publicKey, T.pub(tsk));
  const sig = cat(M.sign(mp, secretKey, { context: label }), T.sign(mp, tsk));
  // Verify ours with the independent parts.
  const ourPk = unhex(c.our_pk), ourSig = unhex(c.our_sig);
  const n = pkLen[c.mldsa], s = sigLen[c.mldsa];
  let ok = false;
  try {
    ok = M.verify(ourSig.subarray(0, s), mp, ourPk.subarray(0, n), { context: label }) &&
         T.verify(ourSig.subarray(s), mp, ourPk.subarray(n));
  } catch (e) { ok = false; }
  results.push({ pk: hex(pk), sig: hex(sig), verifies_ours: ok });
}
writeFileSync(process.argv[3], JSON.stringify({ results }));
