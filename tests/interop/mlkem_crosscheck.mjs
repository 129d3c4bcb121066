// Cross-check of pqsig's ML-KEM and hybrid KEMs against @noble/post-quantum (oracle only).
// Usage: node mlkem_crosscheck.mjs <input.json>
// Input: [{alg, seed, eseed, pk, c_derand, k_derand, c_rand, k_rand}] (hex), produced by pqsig.
// Output (stdout, JSON): [{alg, pk_ok, derand_ok, decaps_ok, c_noble, k_noble}], where
// c_noble/k_noble is a randomized encapsulation by noble for pqsig to decapsulate.
import { readFileSync } from 'node:fs';
import { ml_kem512, ml_kem768, ml_kem1024 } from '@noble/post-quantum/ml-kem.js';
import { ml_kem768_x25519 } from '@noble/post-quantum/hybrid.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes } from '@noble/hashes/utils.js';

const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => new Uint8Array(Buffer.from(s, 'hex'));
const cat = (...a) => {
  const out = new Uint8Array(a.reduce((n, x) => n + x.length, 0));
  let o = 0;
  for (const x of a) { out.set(x, o); o += x.length; }
  return out;
};
const u32be = (n) => new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const L = (x) => cat(u32be(x.length), x);
const SUITE_ID = new TextEncoder().encode('ml-kem-768+x25519-hkdf@v1');

// Written independently from docs/settlement-kem.md.
function settlementKey(ssM, ssX, ctM, ctX, ekM, pkX) {
  const salt = L(SUITE_ID);
  const ikm = cat(L(ssM), L(ssX));
  const info = cat(L(SUITE_ID), L(ctM), L(ctX), L(ekM), L(pkX));
  return hkdf(sha256, ikm, salt, info, 32);
}

// X25519MLKEM768 and the settlement KEM, composed from noble's ML-KEM-768 and X25519.
function composed(combine) {
  return {
    keygen(seed) {
      const { publicKey, secretKey } = ml_kem768.keygen(seed.subarray(0, 64));
      const skX = seed.subarray(64, 96);
      return { publicKey: cat(publicKey, x25519.getPublicKey(skX)), secretKey: { dkM: secretKey, skX, pkM: publicKey } };
    },
    encapsulate(pk, eseed) {
      const ekM = pk.subarray(0, 1184), pkX = pk.subarray(1184);
      const { cipherText: ctM, sharedSecret: ssM } = ml_kem768.encapsulate(ekM, eseed.subarray(0, 32));
      const ekX = eseed.subarray(32, 64);
      const ctX = x25519.getPublicKey(ekX);
      const ssX = x25519.getSharedSecret(ekX, pkX);
      return { cipherText: cat(ctM, ctX), sharedSecret: combine(ssM, ssX, ctM, ctX, ekM, pkX) };
    },
    decapsulate(ct, sk) {
      const ctM = ct.subarray(0, 1088), ctX = ct.subarray(1088);
      const ssM = ml_kem768.decapsulate(ctM, sk.dkM);
      const ssX = x25519.getSharedSecret(sk.skX, ctX);
      const pkX = x25519.getPublicKey(sk.skX);
      return combine(ssM, ssX, ctM, ctX, sk.pkM, pkX);
    },
    eseedLen: 64,
  };
}

const KEMS = {
  'ml-kem-512': { ...ml_kem512, eseedLen: 32 },
  'ml-kem-768': { ...ml_kem768, eseedLen: 32 },
  'ml-kem-1024': { ...ml_kem1024, eseedLen: 32 },
  'x-wing': { keygen: (s) => ml_kem768_x25519.keygen(s), encapsulate: (p, e) => ml_kem768_x25519.encapsulate(p, e),
              decapsulate: (c, s) => ml_kem768_x25519.decapsulate(c, s), eseedLen: 64 },
  'x25519-ml-kem-768': composed((ssM, ssX) => cat(ssM, ssX)),
  'ml-kem-768+x25519-hkdf': composed(settlementKey),
};

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = [];
for (const t of input) {
  const kem = KEMS[t.alg];
  if (!kem) { out.push({ alg: t.alg, error: 'unknown alg' }); continue; }
  const { publicKey, secretKey } = kem.keygen(unhex(t.seed));
  const pk_ok = hex(publicKey) === t.pk;
  const d = kem.encapsulate(publicKey, unhex(t.eseed));
  const derand_ok = hex(d.cipherText) === t.c_derand && hex(d.sharedSecret) === t.k_derand;
  const decaps_ok = hex(kem.decapsulate(unhex(t.c_rand), secretKey)) === t.k_rand;
  const r = kem.encapsulate(publicKey, randomBytes(kem.eseedLen));
  out.push({ alg: t.alg, pk_ok, derand_ok, decaps_ok, c_noble: hex(r.cipherText), k_noble: hex(r.sharedSecret) });
}
process.stdout.write(JSON.stringify(out));
