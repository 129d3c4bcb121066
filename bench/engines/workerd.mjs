// `pqsig price --engine workerd` driver: runs bench/engines/worker.js in Cloudflare's workerd
// (npm @cloudflare/workerd-linux-64, compatibility flag webcrypto_modern_algorithms) on a Unix
// socket in a private temporary directory (no TCP port), and times it from outside, the way a
// Worker has to be timed (its clock only advances across I/O): per run, one request doing N
// operations minus one empty request (n = 0) — the dispatch cost cancels — divided by N; the
// median of RUNS runs (default 9). The resolution of one estimate is the spread of the empty
// requests divided by N (reported as resolution_ns).
// Usage: node workerd.mjs < request.json > response.json
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync, rmSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRequest, respond, spki, rawFromSpki, unhex, WEBCRYPTO_NAME } from './common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('@cloudflare/workerd-linux-64/package.json'));
const bin = join(pkgDir, 'bin', 'workerd');
const pkgVersion = require('@cloudflare/workerd-linux-64/package.json').version;
const FLAG = 'webcrypto_modern_algorithms';

const req = await readRequest();
const o = req.options;
const RUNS = req.runs || 9;
const dir = mkdtempSync(join(tmpdir(), 'pqsig-workerd-'));
const sock = join(dir, 'sock');
const cleanup = () => { try { child && child.kill('SIGKILL'); } catch {} try { rmSync(dir, { recursive: true, force: true }); } catch {} };
let child = null;
process.on('exit', cleanup);

// The compatibility date: the binary's own (`workerd --version` prints it).
const { execFileSync } = await import('node:child_process');
const dateOut = execFileSync(bin, ['--version']).toString().trim();  // "workerd 2026-11-17"
const compatDate = (dateOut.match(/\d{4}-\d{2}-\d{2}/) || ['2026-01-01'])[0];
const hasFlag = readFileSync(bin).includes(Buffer.from(FLAG));
writeFileSync(join(dir, 'worker.js'), readFileSync(join(here, 'worker.js')));
writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "unix:${sock}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "${compatDate}",
  compatibilityFlags = [${hasFlag ? `"${FLAG}"` : ''}],
);
`);
const version = `workerd ${pkgVersion} (${dateOut}), flag ${hasFlag ? FLAG : `${FLAG} absent`}`;
const method = `timed from outside: per run, one request doing N operations minus an empty request, ÷ N; median of ${RUNS} runs`;

let stderr = '';
child = spawn(bin, ['serve', join(dir, 'config.capnp'), '--experimental'], { stdio: ['ignore', 'ignore', 'pipe'] });
child.stderr.on('data', (d) => { if (stderr.length < 65536) stderr += d; });
const t0 = Date.now();
while (!existsSync(sock)) {
  if (child.exitCode !== null || Date.now() - t0 > 20000) {
    await respond({ engine: 'workerd', version, method, error: `workerd did not start: ${stderr.trim().slice(0, 2000)}`, suites: [] });
    process.exit(0);
  }
  await new Promise((r) => setTimeout(r, 20));
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function post(obj) {
  const body = JSON.stringify(obj);
  return new Promise((resolve, reject) => {
    const s = process.hrtime.bigint();
    const r = http.request({ socketPath: sock, path: '/', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ns = Number(process.hrtime.bigint() - s);
        const text = Buffer.concat(chunks).toString('utf8');
        let j; try { j = JSON.parse(text); } catch { j = { error: text.slice(0, 500) }; }
        if (res.statusCode !== 200) reject(new Error(j.error || `HTTP ${res.statusCode}`)); else resolve({ ns, j });
      });
    });
    r.on('error', reject);
    r.setTimeout(120000, () => r.destroy(new Error('workerd request timed out')));
    r.end(body);
  });
}
const median = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };

async function timeOp(suite, op) {
  // Pilot: three empty requests, then 1, 4, 16, … operations until the difference clearly
  // exceeds the empty request's jitter (8 ×, and 5 ms): the per-operation estimate that sets N.
  const e = [];
  for (let i = 0; i < 3; ++i) e.push((await post({ kind: 'bench', suite, op, n: 0 })).ns);
  const e0 = median(e), jitter = Math.max(...e) - Math.min(...e);
  let pn = 1, pt = 0;
  for (;;) {
    pt = (await post({ kind: 'bench', suite, op, n: pn })).ns - e0;
    if (pt > Math.max(5e6, 8 * jitter) || pn >= 1024) break;
    pn *= 4;
  }
  const est = Math.max(100, pt / pn);
  // At least the pilot's count (its difference cleared the jitter), at most 2000 (the write-up's N).
  const n = Math.max(pn, Math.min(2000, Math.round((o.budget_ms * 1e6) / (RUNS * est))));
  const samples = [], empty = [];
  let last = null;
  for (let r = 0; r < RUNS; ++r) {
    const a = await post({ kind: 'bench', suite, op, n: 0 });
    const b = await post({ kind: 'bench', suite, op, n });
    empty.push(a.ns);
    samples.push((b.ns - a.ns) / n);
    if (b.j.signature) last = b.j;
  }
  const se = [...empty].sort((x, y) => x - y);
  const resolution = (se[se.length - 1] - se[0]) / n;
  return { name: op, samples, batch: n, resolution_ns: resolution, empty_request_ns: median(empty), last };
}

const res = { engine: 'workerd', version, method, suites: [] };
for (const job of req.suites) {
  const out = { suite: job.suite, available: false, ops: [], version };
  if (!(job.suite in WEBCRYPTO_NAME)) {
    out.reason = `workerd has no ${job.suite} here (the driver covers ml-dsa-44/65/87 and ed25519)`;
    res.suites.push(out);
    continue;
  }
  try {
    const c = await post({ kind: 'setup', suite: job.suite, messages: job.messages,
      check: { spki: Buffer.from(spki(job.suite, unhex(job.check.public_key))).toString('hex'), signatures: job.check.signatures, tampered: job.check.tampered } });
    out.check = { public_key: Buffer.from(rawFromSpki(job.suite, unhex(c.j.spki))).toString('hex'), signatures: c.j.signatures, verified: c.j.verified, tampered_accepted: c.j.tampered_accepted };
    out.available = true;
  } catch (err) {
    out.reason = `${version}: ${String(err.message || err)}`;
    res.suites.push(out);
    continue;
  }
  for (const op of ['keygen', 'sign', 'verify', 'verify_prepared']) {
    try {
      const r = await timeOp(job.suite, op);
      if (r.last) out.last_signature = { message: r.last.message, signature: r.last.signature };
      delete r.last;
      out.ops.push(r);
    } catch (err) {
      out.ops.push({ name: op, error: String(err.message || err) });
    }
  }
  res.suites.push(out);
}
agent.destroy();
await respond(res);
cleanup();
process.exit(0);
