// Compatibility probe: does npm web-bot-auth 0.1.3 (Cloudflare's verifier library) accept a
// request? Used by test_httpsig_interop to keep docs/web-bot-auth.md's compatibility table true.
//
//   node httpsig_webbotauth_compat.mjs IN.json  → {"ok": true} | {"ok": false, "error": "…"}
// IN.json: {"method","url","headers":{…},"now":unix,"jwk":{public Ed25519 JWK}}
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// Verify as of input.now (the library reads the clock itself).
const FIXED = input.now * 1000;
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
const { verify } = await import('web-bot-auth');
const { verifierFromJWK } = await import('web-bot-auth/crypto');
try {
  const req = new Request(input.url, { method: input.method, headers: input.headers });
  await verify(req, await verifierFromJWK(input.jwk));
  process.stdout.write(JSON.stringify({ ok: true }));
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, error: e.message }));
}
