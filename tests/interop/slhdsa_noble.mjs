// Oracle for the SLH-DSA cross-check (tests/slhdsa/test_slhdsa_interop.cpp): runs a JSON array
// of requests (file argv[2]) through @noble/post-quantum's FIPS 205 implementation and prints a
// JSON array of answers. Byte fields are hex.
//   {op:"keygen", alg, seed}                                         → {pk, sk}   (seed = SK.seed||SK.prf||PK.seed)
//   {op:"sign", alg, sk, msg, ctx, prehash?, deterministic}          → {sig}
//   {op:"verify", alg, pk, msg, sig, ctx, prehash?}                  → {ok}
//   {op:"bench", alg, what:"keygen"|"sign"|"verify", iters}          → {ms:[...]} (per-iteration wall times)
import { readFileSync } from 'node:fs';
import * as slh from '@noble/post-quantum/slh-dsa.js';
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from '@noble/hashes/sha2.js';
import { sha3_224, sha3_256, sha3_384, sha3_512, shake128_32, shake256_64 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';

const PREHASH = {
  'SHA2-224': sha224, 'SHA2-256': sha256, 'SHA2-384': sha384, 'SHA2-512': sha512,
  'SHA2-512/224': sha512_224, 'SHA2-512/256': sha512_256,
  'SHA3-224': sha3_224, 'SHA3-256': sha3_256, 'SHA3-384': sha3_384, 'SHA3-512': sha3_512,
  'SHAKE-128': shake128_32, 'SHAKE-256': shake256_64,
};

function impl(alg) {
  const a = slh[alg.replaceAll('-', '_')];  // slh-dsa-sha2-128s → slh_dsa_sha2_128s
  if (!a) throw new Error('unknown alg ' + alg);
  return a;
}
function signer(alg, prehash) {
  const a = impl(alg);
  if (!prehash) return a;
  const h = PREHASH[prehash];
  if (!h) throw new Error('unknown prehash ' + prehash);
  return a.prehash(h);
}

function run(r) {
  const ctx = r.ctx !== undefined ? hexToBytes(r.ctx) : new Uint8Array(0);
  switch (r.op) {
    case 'keygen': {
      const kp = impl(r.alg).keygen(hexToBytes(r.seed));
      return { pk: bytesToHex(kp.publicKey), sk: bytesToHex(kp.secretKey) };
    }
    case 'sign': {
      const opts = { context: ctx };
      if (r.deterministic) opts.extraEntropy = false;
      const sig = signer(r.alg, r.prehash).sign(hexToBytes(r.msg), hexToBytes(r.sk), opts);
      return { sig: bytesToHex(sig) };
    }
    case 'verify': {
      let ok = false;
      try {
        ok = signer(r.alg, r.prehash).verify(hexToBytes(r.sig), hexToBytes(r.msg), hexToBytes(r.pk), { context: ctx });
      } catch (e) {
        ok = false;
      }
      return { ok };
    }
    case 'bench': {
      const a = impl(r.alg);
      const kp = a.keygen(new Uint8Array(a.lengths.seed).fill(7));
      const msg = new Uint8Array(32).fill(1);
      const sig = a.sign(msg, kp.secretKey);
      const ms = [];
      for (let i = 0; i < (r.iters || 1); i++) {
        const t0 = performance.now();
        if (r.what === 'keygen') a.keygen();
        else if (r.what === 'sign') a.sign(msg, kp.secretKey);
        else a.verify(sig, msg, kp.publicKey);
        ms.push(performance.now() - t0);
      }
      return { ms };
    }
    default:
      throw new Error('unknown op ' + r.op);
  }
}

const reqs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = reqs.map((r) => {
  try {
    return run(r);
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
});
process.stdout.write(JSON.stringify(out));
