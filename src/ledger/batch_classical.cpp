// `pqsig batch` handler for the classical algs (RFC 9421 names: ed25519, ecdsa-p256-sha256,
// ecdsa-p384-sha384, rsa-pss-sha512, rsa-v1_5-sha256, hmac-sha256, plus ed448) and the composite
// ML-DSA algs (ml-dsa-44+ed25519, ml-dsa-65+ed25519, ml-dsa-44+ecdsa-p256, ml-dsa-65+ecdsa-p256,
// ml-dsa-87+ed448). Byte fields are hex.
//   {"op":"keygen"[,"seed"|"sk"][,"bits"]}        → {"pk","sk"}  (hmac-sha256: {"sk"})
//   {"op":"sign","sk"|"sk_pem","msg"[,"ctx"][,"deterministic"][,"format":"raw"|"der"]} → {"sig"}
//   {"op":"verify","pk"|"pk_pem","msg","sig"[,"ctx"][,"format"]} → {"ok":true} | {"ok":false,"reason"}
//     (hmac-sha256 verifies with "sk")
// Raw key forms: Ed25519/Ed448 seed and public key; ECDSA private scalar and uncompressed point
// 04||X||Y; RSA PKCS#8 / SPKI DER; HMAC the shared secret. ECDSA signatures are raw r||s unless
// "format":"der". Composite pk / sk / sig are exactly draft-ietf-lamps-pq-composite-sigs-19's
// encodings (sk = ML-DSA seed || traditional private key) and "ctx" is the application context.
// keygen "seed" (classical) is the raw private key to derive from; "sk" (composite) likewise.
#include <string>

#include "ledger/batch.hpp"
#include "pqsig/classical_suites.hpp"
#include "pqsig/composite.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::batch {
namespace {

const SuiteInfo* suite_of(std::string_view alg) {
  auto s = find_suite(alg);
  if (!s) return nullptr;
  if ((*s)->family != pqsig::Family::classical && (*s)->family != pqsig::Family::composite) return nullptr;
  return *s;
}

bool classical_handles(std::string_view alg) { return suite_of(alg) != nullptr; }

[[noreturn]] void fail(const Error& e) { throw BadRequest(e.what()); }

bool is_ecdsa(const SuiteInfo& s) { return s.id.starts_with("ecdsa-"); }
bool is_composite(const SuiteInfo& s) { return s.family == pqsig::Family::composite; }

// The signature format: ECDSA raw (default) or DER; anything else only "raw".
bool want_der(const json& req, const SuiteInfo& s) {
  auto f = opt_str_field(req, "format");
  if (!f || *f == "raw") return false;
  if (*f == "der") {
    if (!is_ecdsa(s)) throw BadRequest("\"format\":\"der\" applies to ECDSA only");
    return true;
  }
  throw BadRequest("field \"format\" must be \"raw\" or \"der\"");
}

SignOptions options(const json& req, const SuiteInfo& s, bytes& ctx_store) {
  SignOptions o;
  if (auto ctx = opt_hex_field(req, "ctx")) {
    if (!is_composite(s) && !ctx->empty()) throw BadRequest(std::string(s.id) + " takes no \"ctx\"");
    if (ctx->size() > 255) throw BadRequest("field \"ctx\" must be at most 255 bytes");
    ctx_store = std::move(*ctx);
    o.ctx = ctx_store;
  }
  o.deterministic = opt_bool_field(req, "deterministic", false);
  return o;
}

SigningKey signing_key(const json& req, const SuiteInfo& s) {
  auto pem = opt_str_field(req, "sk_pem");
  auto sk = opt_hex_field(req, "sk");
  if (pem.has_value() == sk.has_value()) throw BadRequest("exactly one of \"sk\" and \"sk_pem\" is required");
  if (pem) {
    if (is_composite(s)) throw BadRequest("\"sk_pem\" is for classical keys only");
    auto imp = classical::import_pem(*pem, s.id);
    if (!imp) fail(imp.error());
    if (!imp->has_private()) throw BadRequest("\"sk_pem\" holds no private key");
    auto k = SigningKey::from_private(s, imp->private_key.span());
    if (!k) fail(k.error());
    return std::move(k.value());
  }
  auto k = SigningKey::from_private(s, *sk);
  secure_zero(sk->data(), sk->size());
  if (!k) fail(k.error());
  return std::move(k.value());
}

json keygen(const json& req, const SuiteInfo& s) {
  auto seed = opt_hex_field(req, "seed");
  auto skf = opt_hex_field(req, "sk");
  if (seed && skf) throw BadRequest("give at most one of \"seed\" and \"sk\"");
  if (seed) skf = std::move(seed);
  Result<SigningKey> k = Error{Errc::internal, ""};
  if (skf) {
    k = SigningKey::from_private(s, *skf);
    secure_zero(skf->data(), skf->size());
  } else if (s.id.starts_with("rsa-")) {
    unsigned bits = 3072;
    if (req.contains("bits")) {
      if (!req["bits"].is_number_unsigned()) throw BadRequest("field \"bits\" must be a number");
      bits = req["bits"].get<unsigned>();
    }
    auto priv = classical::generate_rsa_private(bits);
    if (!priv) fail(priv.error());
    k = SigningKey::from_private(s, priv->span());
  } else {
    k = SigningKey::generate(s);
  }
  if (!k) fail(k.error());
  json r{{"sk", to_hex_str(k->private_key())}};
  if (s.cls != SuiteClass::mac) r["pk"] = to_hex_str(k->public_key());
  return r;
}

json sign(const json& req, const SuiteInfo& s) {
  SigningKey k = signing_key(req, s);
  bytes msg = hex_field(req, "msg");
  bytes ctx;
  SignOptions o = options(req, s, ctx);
  const bool der = want_der(req, s);
  auto sig = k.sign(msg, o);
  if (!sig) fail(sig.error());
  if (der) {
    auto d = classical::ecdsa_raw_to_der(*sig);
    if (!d) fail(d.error());
    return json{{"sig", to_hex_str(*d)}};
  }
  return json{{"sig", to_hex_str(*sig)}};
}

json verify(const json& req, const SuiteInfo& s) {
  bytes msg = hex_field(req, "msg");
  bytes sig = hex_field(req, "sig");
  bytes ctx;
  SignOptions o = options(req, s, ctx);
  if (want_der(req, s)) {
    auto raw = classical::ecdsa_der_to_raw(sig, s.id == "ecdsa-p384-sha384" ? 48 : 32);
    if (!raw) return json{{"ok", false}, {"reason", raw.error().what()}};
    sig = std::move(raw.value());
  }
  Status st;
  if (s.cls == SuiteClass::mac) {
    SigningKey k = signing_key(req, s);
    st = k.verify(msg, sig, o);
  } else {
    auto pem = opt_str_field(req, "pk_pem");
    auto pk = opt_hex_field(req, "pk");
    if (pem.has_value() == pk.has_value()) throw BadRequest("exactly one of \"pk\" and \"pk_pem\" is required");
    if (pem) {
      if (is_composite(s)) throw BadRequest("\"pk_pem\" is for classical keys only");
      auto imp = classical::import_pem(*pem, s.id);
      if (!imp) fail(imp.error());
      pk = std::move(imp->public_key);
    }
    auto vk = VerifyingKey::from_public(s, *pk);
    if (!vk) fail(vk.error());  // malformed key: a request error, not an invalid signature
    st = vk->verify(msg, sig, o);
  }
  if (st) return json{{"ok", true}};
  const Errc c = st.error().code;
  if (c != Errc::verify_failed && c != Errc::invalid_length && c != Errc::invalid_encoding) fail(st.error());
  return json{{"ok", false}, {"reason", st.error().what()}};
}

json classical_handle(const json& req) {
  const SuiteInfo* s = suite_of(str_field(req, "alg"));
  if (!s) throw BadRequest("unknown alg");
  const std::string op = str_field(req, "op");
  if (op == "keygen") return keygen(req, *s);
  if (op == "sign") return sign(req, *s);
  if (op == "verify") return verify(req, *s);
  throw BadRequest("unknown op \"" + op + "\" for " + std::string(s->id));
}
}  // namespace

const Family& classical_family() {
  static const Family f{"classical", &classical_handles, &classical_handle};
  return f;
}
}  // namespace pqsig::batch
