// `pqsig batch` handler for ml-dsa-44 | ml-dsa-65 | ml-dsa-87 (issue 2 protocol):
//   {"op":"keygen","seed"}                                   → {"pk","sk"}   (sk = FIPS 204 expanded)
//   {"op":"sign","seed"|"sk","msg"[,"ctx"][,"prehash"]|"mu"[,"rnd"][,"interface"]} → {"sig"}
//   {"op":"verify","pk","sig","msg"[,"ctx"][,"prehash"]|"mu"[,"interface"]} → {"ok":true} | {"ok":false,"reason"}
// "rnd" given is used as is (32 zero bytes = deterministic); absent = hedged. "interface":"internal"
// with "msg" signs / verifies M′ directly. Malformed requests throw BadRequest → {"error"}.
#include <string>

#include "ledger/batch.hpp"
#include "pqsig/mldsa.hpp"

namespace pqsig::batch {
namespace {

bool mldsa_handles(std::string_view alg) { return alg == "ml-dsa-44" || alg == "ml-dsa-65" || alg == "ml-dsa-87"; }

mldsa::Level level(const json& req) {
  auto lv = mldsa::level_from_name(str_field(req, "alg"));
  if (!lv) throw BadRequest("unknown alg");
  return *lv;
}

// What is signed / verified: μ, M′ (internal interface) or M with options (external interface).
struct MldsaInput {
  enum Kind { mu, mprime, message } kind = message;
  bytes data;
  bytes ctx;
  mldsa::Options opt;
};

MldsaInput parse_mldsa_input(const json& req) {
  MldsaInput in;
  const bool internal = internal_interface(req);
  const bool has_msg = req.contains("msg") && !req["msg"].is_null();
  const bool has_mu = req.contains("mu") && !req["mu"].is_null();
  if (has_msg == has_mu) throw BadRequest("exactly one of \"msg\" and \"mu\" is required");
  auto ctx = opt_hex_field(req, "ctx");
  auto ph = opt_str_field(req, "prehash");
  if (has_mu) {
    if (ctx || ph) throw BadRequest("\"ctx\" and \"prehash\" do not apply to \"mu\"");
    in.kind = MldsaInput::mu;
    in.data = hex_field(req, "mu");
    need_len("mu", in.data, mldsa::kMuBytes);
    return in;
  }
  in.data = hex_field(req, "msg");
  if (internal) {
    if (ctx || ph) throw BadRequest("\"ctx\" and \"prehash\" do not apply to the internal interface");
    in.kind = MldsaInput::mprime;
    return in;
  }
  in.kind = MldsaInput::message;
  if (ctx) {
    if (ctx->size() > mldsa::kMaxContext)
      throw BadRequest("field \"ctx\" must be at most 255 bytes, got " + std::to_string(ctx->size()));
    in.ctx = std::move(*ctx);
  }
  if (ph) {
    const auto* info = hash::find_prehash(*ph);
    if (!info) throw BadRequest("unknown prehash \"" + *ph + "\"");
    in.opt.prehash = info->id;
  }
  return in;
}

json keygen(const json& req, mldsa::Level lv) {
  const auto& p = mldsa::params(lv);
  auto seed = opt_hex_field(req, "seed");
  bytes s(mldsa::kSeedBytes);
  if (seed) {
    need_len("seed", *seed, mldsa::kSeedBytes);
    s = *seed;
  } else if (!random_bytes(s)) {
    throw BadRequest("OS random source failed");
  }
  bytes pk(p.pk_bytes);
  SecretBytes sk(p.sk_bytes);
  if (auto st = mldsa::keygen_internal(lv, s, pk, sk.mut_span()); !st) throw BadRequest(st.error().what());
  json r{{"pk", to_hex_str(pk)}, {"sk", to_hex_str(sk.span())}};
  if (!seed) r["seed"] = to_hex_str(s);
  secure_zero(s.data(), s.size());
  return r;
}

json sign(const json& req, mldsa::Level lv) {
  const auto& p = mldsa::params(lv);
  auto seed = opt_hex_field(req, "seed");
  auto skf = opt_hex_field(req, "sk");
  if (seed.has_value() == skf.has_value()) throw BadRequest("exactly one of \"seed\" and \"sk\" is required");
  SecretBytes sk(p.sk_bytes);
  if (seed) {
    need_len("seed", *seed, mldsa::kSeedBytes);
    bytes pk(p.pk_bytes);
    auto st = mldsa::keygen_internal(lv, *seed, pk, sk.mut_span());
    secure_zero(seed->data(), seed->size());
    if (!st) throw BadRequest(st.error().what());
  } else {
    need_len("sk", *skf, p.sk_bytes);
    sk = SecretBytes(*skf);
    secure_zero(skf->data(), skf->size());
  }
  MldsaInput in = parse_mldsa_input(req);
  auto rnd_field = opt_hex_field(req, "rnd");
  bytes rnd(mldsa::kRndBytes, 0);
  if (rnd_field) {
    need_len("rnd", *rnd_field, mldsa::kRndBytes);
    rnd = *rnd_field;
  } else if (!random_bytes(rnd)) {
    throw BadRequest("OS random source failed");
  }
  bytes sig(p.sig_bytes);
  Status st;
  switch (in.kind) {
    case MldsaInput::mu: st = mldsa::sign_mu(lv, sk.span(), in.data, rnd, sig); break;
    case MldsaInput::mprime: st = mldsa::sign_internal(lv, sk.span(), in.data, rnd, sig); break;
    case MldsaInput::message:
      in.opt.ctx = in.ctx;
      in.opt.rnd = rnd.data();
      st = mldsa::sign(lv, sk.span(), in.data, sig, in.opt);
      break;
  }
  secure_zero(rnd.data(), rnd.size());
  if (!st) throw BadRequest(st.error().what());
  return json{{"sig", to_hex_str(sig)}};
}

json verify(const json& req, mldsa::Level lv) {
  const auto& p = mldsa::params(lv);
  bytes pk = hex_field(req, "pk");
  need_len("pk", pk, p.pk_bytes);
  bytes sig = hex_field(req, "sig");
  MldsaInput in = parse_mldsa_input(req);
  Status st;
  switch (in.kind) {
    case MldsaInput::mu: st = mldsa::verify_mu(lv, pk, in.data, sig); break;
    case MldsaInput::mprime: st = mldsa::verify_internal(lv, pk, in.data, sig); break;
    case MldsaInput::message:
      in.opt.ctx = in.ctx;
      st = mldsa::verify(lv, pk, in.data, sig, in.opt);
      break;
  }
  if (st) return json{{"ok", true}};
  return json{{"ok", false}, {"reason", st.error().what()}};
}

json mldsa_handle(const json& req) {
  const mldsa::Level lv = level(req);
  const std::string op = str_field(req, "op");
  if (op == "keygen") return keygen(req, lv);
  if (op == "sign") return sign(req, lv);
  if (op == "verify") return verify(req, lv);
  throw BadRequest("unknown op \"" + op + "\" for " + str_field(req, "alg"));
}
}  // namespace

const Family& mldsa_family() {
  static const Family f{"mldsa", &mldsa_handles, &mldsa_handle};
  return f;
}
}  // namespace pqsig::batch
