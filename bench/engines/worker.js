// The Worker that `pqsig price --engine workerd` runs inside Cloudflare's workerd (WebCrypto,
// compatibility flag webcrypto_modern_algorithms). A Worker's clock only advances across I/O,
// so it cannot time itself: workerd.mjs times N operations inside one request from outside.
// Requests (POST, JSON): {kind:"setup", ...} keeps the keys and inputs in module scope and runs
// the cross-check; {kind:"bench", suite, op, n} performs op n times (n = 0: the empty request).
const NAMES = { 'ml-dsa-44': 'ML-DSA-44', 'ml-dsa-65': 'ML-DSA-65', 'ml-dsa-87': 'ML-DSA-87', ed25519: 'Ed25519' };
const state = {};
const hex = (u8) => [...new Uint8Array(u8)].map((b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (s) => new Uint8Array(s.match(/../g).map((h) => parseInt(h, 16)));

async function setup(j) {
  const alg = { name: NAMES[j.suite] };
  if (!alg.name) throw new Error(`no ${j.suite} in this driver`);
  const subtle = crypto.subtle;
  const key = await subtle.generateKey(alg, true, ['sign', 'verify']);
  const msgs = j.messages.map(unhex);
  const pqSpki = unhex(j.check.spki);
  const pqSigs = j.check.signatures.map(unhex);
  const pqKey = await subtle.importKey('spki', pqSpki, alg, false, ['verify']);
  state[j.suite] = { alg, key, msgs, pqSpki, pqSigs, pqKey, si: 0, vi: 0 };
  const sigs = [], verified = [];
  for (let i = 0; i < pqSigs.length; ++i) sigs.push(hex(await subtle.sign(alg, key.privateKey, msgs[i])));
  for (let i = 0; i < pqSigs.length; ++i) verified.push(await subtle.verify(alg, pqKey, pqSigs[i], msgs[i]));
  let tampered = false;
  try { tampered = await subtle.verify(alg, pqKey, unhex(j.check.tampered), msgs[0]); } catch { tampered = false; }
  return { spki: hex(await subtle.exportKey('spki', key.publicKey)), signatures: sigs, verified, tampered_accepted: tampered };
}

async function bench(j) {
  const s = state[j.suite];
  const subtle = crypto.subtle;
  let last = null, lastIdx = 0;
  for (let k = 0; k < j.n; ++k) {
    if (j.op === 'keygen') await subtle.generateKey(s.alg, true, ['sign', 'verify']);
    else if (j.op === 'sign') { lastIdx = s.si++ % s.msgs.length; last = await subtle.sign(s.alg, s.key.privateKey, s.msgs[lastIdx]); }
    else if (j.op === 'verify' || j.op === 'verify_prepared') {
      const i = s.vi++ % s.pqSigs.length;
      const key = j.op === 'verify' ? await subtle.importKey('spki', s.pqSpki, s.alg, false, ['verify']) : s.pqKey;
      if (!(await subtle.verify(s.alg, key, s.pqSigs[i], s.msgs[i]))) throw new Error(`${j.op}: workerd rejected a valid pqsig signature while timed`);
    } else throw new Error(`unknown op ${j.op}`);
  }
  return last ? { message: lastIdx, signature: hex(last) } : {};
}

export default {
  async fetch(request) {
    try {
      const j = await request.json();
      const out = j.kind === 'setup' ? await setup(j) : await bench(j);
      return new Response(JSON.stringify(out), { headers: { 'content-type': 'application/json' } });
    } catch (e) {
      return new Response(JSON.stringify({ error: String(e && e.message || e) }), { status: 500 });
    }
  },
};
