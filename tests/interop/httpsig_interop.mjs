// Interop oracle for pqsig's RFC 9421 / Web Bot Auth code, run by test_httpsig_interop:
// npm http-message-signatures 1.0.6 (Ed25519 through node:crypto, ML-DSA-44 through its
// verify/sign hooks with @noble/post-quantum). Test-time only; never part of the product.
//
//   node httpsig_interop.mjs verify IN.json   → {"results": {"<keyid>": true|false|null|"error: …"}}
//   node httpsig_interop.mjs sign IN.json     → {"headers": {...}}  (signed by this library)
//
// IN.json: {"method","url","headers":{name:value},"now":unix,
//           "keys":[{"label","keyid","alg":"ed25519"|"ml-dsa-44","jwk":{…}}],
//           "fields":[…], "params":{created,expires,nonce,tag}}
import { readFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { httpbis } from 'http-message-signatures';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';

// The library reads the clock itself (Date.now / new Date()): pin it to input.now.
function pinClock(nowSeconds) {
  const FIXED = nowSeconds * 1000;
  const RealDate = Date;
  globalThis.Date = class extends RealDate {
    constructor(...a) {
      if (a.length === 0) super(FIXED);
      else super(...a);
    }
    static now() {
      return FIXED;
    }
  };
}

const b64u = (s) => new Uint8Array(Buffer.from(s, 'base64url'));

function verifierFor(k) {
  if (k.alg === 'ed25519') {
    const pub = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.jwk.x }, format: 'jwk' });
    return { id: k.keyid, algs: ['ed25519'], verify: async (data, sig) => nodeVerify(null, data, pub, sig) };
  }
  if (k.alg === 'ml-dsa-44') {
    const pub = b64u(k.jwk.pub);
    return {
      id: k.keyid,
      algs: ['ml-dsa-44'],
      verify: async (data, sig) => ml_dsa44.verify(new Uint8Array(sig), new Uint8Array(data), pub),
    };
  }
  throw new Error(`unsupported alg ${k.alg}`);
}

function signerFor(k) {
  if (k.alg === 'ed25519') {
    const priv = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.jwk.x, d: k.jwk.d }, format: 'jwk' });
    return { id: k.keyid, alg: 'ed25519', sign: async (data) => nodeSign(null, data, priv) };
  }
  if (k.alg === 'ml-dsa-44') {
    const { secretKey } = ml_dsa44.keygen(b64u(k.jwk.priv));
    return { id: k.keyid, alg: 'ml-dsa-44', sign: async (data) => Buffer.from(ml_dsa44.sign(new Uint8Array(data), secretKey)) };
  }
  throw new Error(`unsupported alg ${k.alg}`);
}

async function verify(input) {
  const results = {};
  const request = { method: input.method, url: input.url, headers: input.headers };
  for (const k of input.keys) {
    try {
      // Verify one label at a time: only this keyid resolves, every other label is unknown.
      const ok = await httpbis.verifyMessage(
        {
          keyLookup: async (params) => (params.keyid === k.keyid ? verifierFor(k) : null),
          notAfter: input.now,
          tolerance: 60,
        },
        request,
      );
      results[k.keyid] = ok;
    } catch (e) {
      results[k.keyid] = `error: ${e.message}`;
    }
  }
  return { results };
}

async function sign(input) {
  let request = { method: input.method, url: input.url, headers: { ...input.headers } };
  for (const k of input.keys) {
    request = await httpbis.signMessage(
      {
        key: signerFor(k),
        name: k.label,
        fields: k.fields ?? input.fields,
        params: ['created', 'keyid', 'alg', 'expires', 'nonce', 'tag'],
        paramValues: {
          created: new Date(input.params.created * 1000),
          expires: new Date(input.params.expires * 1000),
          nonce: input.params.nonce,
          tag: input.params.tag,
        },
      },
      request,
    );
  }
  return { headers: request.headers };
}

const [mode, file] = process.argv.slice(2);
const input = JSON.parse(readFileSync(file, 'utf8'));
if (input.now) pinClock(input.now);
const out = mode === 'verify' ? await verify(input) : mode === 'sign' ? await sign(input) : { error: 'mode' };
process.stdout.write(JSON.stringify(out));
