// ML-DSA cross-check oracle: @noble/post-quantum (independent implementation, test time only).
// Usage: node mldsa_noble.mjs IN.json OUT.json
// IN:  {"cases":[{"alg":"ml-dsa-44","seed","msg","ctx","prehash":null|"SHA2-256"|...,"hedged_sig"}]} (hex)
// OUT: {"results":[{"pk","sk","det_sig","verifies_hedged":bool,"hedged_sig"}]} (hex)
import { readFileSync, writeFileSync } from 'node:fs';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from '@noble/hashes/sha2.js';
import { sha3_224, sha3_256, sha3_384, sha3_512, shake128_32, shake256_64 } from '@noble/hashes/sha3.js';

const algs = { 'ml-dsa-44': ml_dsa44, 'ml-dsa-65': ml_dsa65, 'ml-dsa-87': ml_dsa87 };
const hashes = {
  'SHA2-224': sha224, 'SHA2-256': sha256, 'SHA2-384': sha384, 'SHA2-512': sha512,
  'SHA2-512/224': sha512_224, 'SHA2-512/256': sha512_256,
  'SHA3-224': sha3_224, 'SHA3-256': sha3_256, 'SHA3-384': sha3_384, 'SHA3-512': sha3_512,
  'SHAKE-128': shake128_32, 'SHAKE-256': shake256_64,
};
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => new Uint8Array(Buffer.from(s, 'hex'));

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const results = [];
for (const c of input.cases) {
  const base = algs[c.alg];
  if (!base) throw new Error('unknown alg ' + c.alg);
  const signer = c.prehash ? base.prehash(hashes[c.prehash]) : base;
  const { publicKey, secretKey } = base.keygen(unhex(c.seed));
  const msg = unhex(c.msg);
  const context = unhex(c.ctx);
  const det = signer.sign(msg, secretKey, { context, extraEntropy: false });
  const verifiesHedged = signer.verify(unhex(c.hedged_sig), msg, publicKey, { context });
  const hedged = signer.sign(msg, secretKey, { context });
  results.push({ pk: hex(publicKey), sk: hex(secretKey), det_sig: hex(det), verifies_hedged: verifiesHedged, hedged_sig: hex(hedged) });
}
writeFileSync(process.argv[3], JSON.stringify({ results }));
