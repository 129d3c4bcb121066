// `pqsig price --engine` driver for the in-process JavaScript engines under the pinned Node:
//   node-webcrypto  globalThis.crypto.subtle (Node >= 24: OpenSSL 3.5 inside)
//   node-crypto     node:crypto generateKeyPairSync / sign / verify
//   noble           @noble/post-quantum (ML-DSA) and @noble/curves (Ed25519), pure JavaScript
// Usage: node engine.mjs ENGINE < request.json > response.json
import * as nodeCrypto from 'node:crypto';
import { hex, unhex, spki, rawFromSpki, measure, readRequest, respond, WEBCRYPTO_NAME } from './common.mjs';

process.removeAllListeners('warning');  // Node's ExperimentalWarning for ML-DSA in WebCrypto

const engine = process.argv[2];
const subtle = globalThis.crypto.subtle;

// Per engine and suite: { version, keygen(), sign(key, msg), verifyCold(pkRaw, msg, sig),
// prepare(pkRaw), verifyPrepared(prep, msg, sig), publicRaw(key), async }.
async function makeEngine(name, suite) {
  if (!(suite in WEBCRYPTO_NAME)) return { reason: `${name} has no ${suite} here (the drivers cover ml-dsa-44/65/87 and ed25519)` };
  const alg = { name: WEBCRYPTO_NAME[suite] };
  if (name === 'node-webcrypto') {
    const e = {
      async: true,
      version: `Node ${process.version} WebCrypto (OpenSSL ${process.versions.openssl})`,
      keygen: () => subtle.generateKey(alg, true, ['sign', 'verify']),
      sign: async (k, m) => new Uint8Array(await subtle.sign(alg, k.privateKey, m)),
      verifyCold: async (pk, m, s) => subtle.verify(alg, await subtle.importKey('spki', spki(suite, pk), alg, false, ['verify']), s, m),
      prepare: (pk) => subtle.importKey('spki', spki(suite, pk), alg, false, ['verify']),
      verifyPrepared: (p, m, s) => subtle.verify(alg, p, s, m),
      publicRaw: async (k) => rawFromSpki(suite, await subtle.exportKey('spki', k.publicKey)),
    };
    try { await e.keygen(); } catch (err) { return { reason: `${e.version}: ${String(err.message || err)}` }; }
    return e;
  }
  if (name === 'node-crypto') {
    const type = suite;  // node:crypto key types: 'ml-dsa-44', 'ml-dsa-65', 'ml-dsa-87', 'ed25519'
    const e = {
      async: false,
      version: `Node ${process.version} node:crypto (OpenSSL ${process.versions.openssl})`,
      keygen: () => nodeCrypto.generateKeyPairSync(type),
      sign: (k, m) => new Uint8Array(nodeCrypto.sign(null, m, k.privateKey)),
      verifyCold: (pk, m, s) => nodeCrypto.verify(null, m, nodeCrypto.createPublicKey({ key: Buffer.from(spki(suite, pk)), format: 'der', type: 'spki' }), s),
      prepare: (pk) => nodeCrypto.createPublicKey({ key: Buffer.from(spki(suite, pk)), format: 'der', type: 'spki' }),
      verifyPrepared: (p, m, s) => nodeCrypto.verify(null, m, p, s),
      publicRaw: (k) => rawFromSpki(suite, k.publicKey.export({ format: 'der', type: 'spki' })),
    };
    try { e.keygen(); } catch (err) { return { reason: `${e.version}: ${String(err.message || err)}` }; }
    return e;
  }
  if (name === 'noble') {
    let impl, version;
    // The packages export no ./package.json: read it beside the resolved entry point.
    const pkgVersion = async (p) => {
      const { createRequire } = await import('node:module');
      const { readFileSync } = await import('node:fs');
      const { dirname, join } = await import('node:path');
      const entry = createRequire(import.meta.url).resolve(p === '@noble/curves' ? `${p}/ed25519.js` : `${p}/ml-dsa.js`);
      return JSON.parse(readFileSync(join(dirname(entry), 'package.json'), 'utf8')).version;
    };
    if (suite === 'ed25519') {
      ({ ed25519: impl } = await import('@noble/curves/ed25519.js'));
      version = `@noble/curves ${await pkgVersion('@noble/curves')} under Node ${process.version}`;
    } else {
      const m = await import('@noble/post-quantum/ml-dsa.js');
      impl = { 'ml-dsa-44': m.ml_dsa44, 'ml-dsa-65': m.ml_dsa65, 'ml-dsa-87': m.ml_dsa87 }[suite];
      version = `@noble/post-quantum ${await pkgVersion('@noble/post-quantum')} under Node ${process.version}`;
    }
    // noble has no decoded-key form: verification takes the raw public key every time, so
    // there is one verify operation (cold = prepared).
    return {
      async: false,
      version,
      keygen: () => impl.keygen(),
      sign: (k, m) => impl.sign(m, k.secretKey),
      verifyCold: (pk, m, s) => impl.verify(s, m, pk),
      prepare: null,
      publicRaw: (k) => k.publicKey,
    };
  }
  return { reason: `unknown engine ${name}` };
}

async function runSuite(job, o) {
  const out = { suite: job.suite, available: false, ops: [] };
  let e;
  try { e = await makeEngine(engine, job.suite); } catch (err) { out.reason = String(err.message || err); return out; }
  if (e.reason) { out.reason = e.reason; return out; }
  out.available = true;
  out.version = e.version;
  const msgs = job.messages.map(unhex);
  const pq = { pk: unhex(job.check.public_key), sigs: job.check.signatures.map(unhex), tampered: unhex(job.check.tampered) };
  const call = async (f) => (e.async ? await f() : f());

  // The check first: the engine's own key signs the first messages; it verifies pqsig's
  // signatures and must reject a tampered one.
  const key = await call(() => e.keygen());
  const sigs = [];
  for (let i = 0; i < pq.sigs.length; ++i) sigs.push(hex(await call(() => e.sign(key, msgs[i]))));
  const verified = [];
  for (let i = 0; i < pq.sigs.length; ++i) verified.push(Boolean(await call(() => e.verifyCold(pq.pk, msgs[i], pq.sigs[i]))));
  let tamperedAccepted = false;
  try { tamperedAccepted = Boolean(await call(() => e.verifyCold(pq.pk, msgs[0], pq.tampered))); } catch { tamperedAccepted = false; }
  out.check = { public_key: hex(await call(() => e.publicRaw(key))), signatures: sigs, verified, tampered_accepted: tamperedAccepted };

  // The timed operations. Verification runs over pqsig's signatures and fails the operation on
  // any rejection, so a no-op cannot pass; signing keeps its last signature for pqsig to verify.
  let si = 0, vi = 0, lastSig = null, lastIdx = 0;
  const fail = (what) => { throw new Error(`${what}: the engine rejected a valid pqsig signature while timed`); };
  const prepared = e.prepare ? await call(() => e.prepare(pq.pk)) : null;
  const ops = {
    keygen: () => e.keygen(),
    sign: e.async
      ? async () => { lastIdx = si++ % msgs.length; lastSig = await e.sign(key, msgs[lastIdx]); }
      : () => { lastIdx = si++ % msgs.length; lastSig = e.sign(key, msgs[lastIdx]); },
    verify: e.async
      ? async () => { const i = vi++ % pq.sigs.length; if (!(await e.verifyCold(pq.pk, msgs[i], pq.sigs[i]))) fail('verify'); }
      : () => { const i = vi++ % pq.sigs.length; if (!e.verifyCold(pq.pk, msgs[i], pq.sigs[i])) fail('verify'); },
  };
  if (prepared) {
    ops.verify_prepared = e.async
      ? async () => { const i = vi++ % pq.sigs.length; if (!(await e.verifyPrepared(prepared, msgs[i], pq.sigs[i]))) fail('verify_prepared'); }
      : () => { const i = vi++ % pq.sigs.length; if (!e.verifyPrepared(prepared, msgs[i], pq.sigs[i])) fail('verify_prepared'); };
  }
  for (const name of ['keygen', 'sign', 'verify', 'verify_prepared']) {
    if (!ops[name]) continue;
    const r = { name };
    try {
      const m = await measure(ops[name], o, e.async);
      r.samples = m.samples;
      r.batch = m.batch;
    } catch (err) {
      r.error = String(err.message || err);
    }
    out.ops.push(r);
  }
  if (lastSig) out.last_signature = { message: lastIdx, signature: hex(lastSig) };
  return out;
}

const req = await readRequest();
const o = req.options;
const res = { engine, method: 'in-process timing (process.hrtime), the method of pqsig price', suites: [] };
for (const job of req.suites) res.suites.push(await runSuite(job, o));
await respond(res);
