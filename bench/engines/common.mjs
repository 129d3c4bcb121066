// Shared by the engine drivers of `pqsig price --engine` (run as subprocesses, never linked).
// The protocol: one JSON request on stdin, one JSON response on stdout (docs/price.md, "Engines").

export const hex = (u8) => Buffer.from(u8).toString('hex');
export const unhex = (s) => new Uint8Array(Buffer.from(s, 'hex'));

// DER length octets.
function derLen(n) {
  if (n < 0x80) return [n];
  if (n < 0x100) return [0x81, n];
  return [0x82, n >> 8, n & 0xff];
}

// The algorithm identifiers of the suites the engines can run (RFC 8410 / FIPS 204 OIDs).
const OIDS = {
  'ml-dsa-44': [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11],
  'ml-dsa-65': [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12],
  'ml-dsa-87': [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13],
  ed25519: [0x06, 0x03, 0x2b, 0x65, 0x70],
};
export const PK_SIZE = { 'ml-dsa-44': 1312, 'ml-dsa-65': 1952, 'ml-dsa-87': 2592, ed25519: 32 };
export const WEBCRYPTO_NAME = { 'ml-dsa-44': 'ML-DSA-44', 'ml-dsa-65': 'ML-DSA-65', 'ml-dsa-87': 'ML-DSA-87', ed25519: 'Ed25519' };

// SubjectPublicKeyInfo of a raw public key (AlgorithmIdentifier without parameters).
export function spki(suite, pk) {
  const alg = [0x30, ...derLen(OIDS[suite].length), ...OIDS[suite]];
  const bits = [0x03, ...derLen(pk.length + 1), 0x00];
  const body = [...alg, ...bits];
  const out = new Uint8Array(1 + derLen(body.length + pk.length).length + body.length + pk.length);
  out.set([0x30, ...derLen(body.length + pk.length), ...body]);
  out.set(pk, out.length - pk.length);
  return out;
}
// The raw public key inside an SPKI this engine exported (checked against spki()).
export function rawFromSpki(suite, der) {
  const u = new Uint8Array(der);
  const pk = u.slice(u.length - PK_SIZE[suite]);
  const again = spki(suite, pk);
  if (again.length !== u.length || !again.every((b, i) => b === u[i])) throw new Error(`${suite}: unexpected SPKI from the engine`);
  return pk;
}

const now = () => Number(process.hrtime.bigint());

// The method of src/price/measure.cpp: warm-up (>= min_warmup_calls, then warmup_ms: a JIT needs
// more than C++ does, pqsig sends 250 ms and 10 calls), batches of
// >= min_sample_ns for fast operations, samples until min_samples and the time budget are met.
export async function measure(fn, o, isAsync) {
  const w0 = now();
  let warm = 0, warmNs = 0;
  const samples = [];
  do {
    const c0 = now();
    if (isAsync) await fn(); else fn();
    ++warm;
    warmNs = now() - w0;
    if (warm === 1 && warmNs >= o.slow_op_ns) { samples.push(now() - c0); break; }
  } while ((warmNs < o.warmup_ms * 1e6 || warm < (o.min_warmup_calls || 1)) && warm < 1000000);
  const est = warmNs / warm;
  const minSamples = samples.length ? Math.max(1, o.min_samples_slow) : o.min_samples;
  let batch = 1;
  if (est > 0 && est < o.min_sample_ns) batch = Math.ceil(o.min_sample_ns / est);
  batch = Math.min(batch, 100000);
  const spent = samples.length ? samples[0] : 0;
  const t0 = now();
  for (;;) {
    if (samples.length >= o.max_samples) break;
    if (samples.length >= minSamples && spent + (now() - t0) >= o.budget_ms * 1e6) break;
    const s0 = now();
    if (isAsync) for (let k = 0; k < batch; ++k) await fn();
    else for (let k = 0; k < batch; ++k) fn();
    samples.push((now() - s0) / batch);
  }
  return { samples, batch };
}

export async function readRequest() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

// Resolves once the response is flushed: stdout to a pipe is asynchronous, and a process.exit()
// before the flush would cut the response at the pipe's buffer size.
export function respond(obj) {
  return new Promise((resolve) => process.stdout.write(JSON.stringify(obj) + '\n', resolve));
}
