// `pqsig batch` handler for the twelve SLH-DSA algs slh-dsa-{sha2,shake}-{128,192,256}{s,f} (issue 3):
//   {"op":"keygen"[,"sk_seed","sk_prf","pk_seed"]}                      → {"pk","sk"}
//   {"op":"sign","sk","msg"[,"ctx"][,"prehash"][,"interface"][,"rnd"|"deterministic":true]} → {"sig"}
//   {"op":"verify","pk","msg","sig"[,"ctx"][,"prehash"][,"interface"]} → {"ok":true} | {"ok":false,"reason"}
// sk = SK.seed || SK.prf || PK.seed || PK.root (4n bytes). keygen without seeds uses OS randomness
// (and echoes the seeds). "interface":"internal" signs / verifies M′ = msg directly; "rnd" is
// opt_rand (n bytes); "deterministic":true sets opt_rand = PK.seed; neither = randomized.
// Malformed requests throw BadRequest → {"error"}.
#include <string>

#include "ledger/batch.hpp"
#include "pqsig/slhdsa.hpp"

namespace pqsig::batch {
namespace {

bool slhdsa_handles(std::string_view alg) {
  for (const auto& pi : slhdsa::all_param_sets())
    if (alg == pi.suite_id) return true;
  return false;
}

slhdsa::ParamSet param_set(const json& req) {
  auto p = slhdsa::find_param_set(str_field(req, "alg"));
  if (!p) throw BadRequest("unknown alg");
  return *p;
}

struct SlhdsaInput {
  bool internal = false;
  bytes msg;
  bytes ctx;
  std::optional<hash::PreHash> prehash;
};

SlhdsaInput parse_slhdsa_input(const json& req) {
  SlhdsaInput in;
  in.internal = internal_interface(req);
  in.msg = hex_field(req, "msg");
  auto ctx = opt_hex_field(req, "ctx");
  auto ph = opt_str_field(req, "prehash");
  if (in.internal) {
    if (ctx || ph) throw BadRequest("\"ctx\" and \"prehash\" do not apply to the internal interface");
    return in;
  }
  if (ctx) {
    if (ctx->size() > 255) throw BadRequest("field \"ctx\" must be at most 255 bytes, got " + std::to_string(ctx->size()));
    in.ctx = std::move(*ctx);
  }
  if (ph) {
    const auto* info = hash::find_prehash(*ph);
    if (!info) throw BadRequest("unknown prehash \"" + *ph + "\"");
    in.prehash = info->id;
  }
  return in;
}

json keygen(const json& req, slhdsa::ParamSet p) {
  const std::size_t n = slhdsa::param_info(p).n;
  auto sk_seed = opt_hex_field(req, "sk_seed");
  auto sk_prf = opt_hex_field(req, "sk_prf");
  auto pk_seed = opt_hex_field(req, "pk_seed");
  const bool given = sk_seed || sk_prf || pk_seed;
  if (given && !(sk_seed && sk_prf && pk_seed))
    throw BadRequest("give all of \"sk_seed\", \"sk_prf\", \"pk_seed\" or none");
  SecretBytes seeds(3 * n);
  if (given) {
    need_len("sk_seed", *sk_seed, n);
    need_len("sk_prf", *sk_prf, n);
    need_len("pk_seed", *pk_seed, n);
    std::copy(sk_seed->begin(), sk_seed->end(), seeds.data());
    std::copy(sk_prf->begin(), sk_prf->end(), seeds.data() + n);
    std::copy(pk_seed->begin(), pk_seed->end(), seeds.data() + 2 * n);
    secure_zero(sk_seed->data(), sk_seed->size());
    secure_zero(sk_prf->data(), sk_prf->size());
  } else if (!random_bytes(seeds.mut_span())) {
    throw BadRequest("OS random source failed");
  }
  byte_span s = seeds.span();
  auto kp = slhdsa::slh_keygen_internal(p, s.subspan(0, n), s.subspan(n, n), s.subspan(2 * n, n));
  if (!kp) throw BadRequest(kp.error().what());
  json r{{"pk", to_hex_str(kp->pk)}, {"sk", to_hex_str(kp->sk.span())}};
  if (!given) {
    r["sk_seed"] = to_hex_str(s.subspan(0, n));
    r["sk_prf"] = to_hex_str(s.subspan(n, n));
    r["pk_seed"] = to_hex_str(s.subspan(2 * n, n));
  }
  return r;
}

json sign(const json& req, slhdsa::ParamSet p) {
  const auto& pi = slhdsa::param_info(p);
  bytes skf = hex_field(req, "sk");
  need_len("sk", skf, pi.sk_bytes);
  SecretBytes sk(skf);
  secure_zero(skf.data(), skf.size());
  SlhdsaInput in = parse_slhdsa_input(req);
  auto rnd = opt_hex_field(req, "rnd");
  const bool det = opt_bool_field(req, "deterministic", false);
  if (rnd && det) throw BadRequest("\"rnd\" and \"deterministic\":true are exclusive");
  slhdsa::OptRand r = slhdsa::OptRand::randomized();
  if (rnd) {
    need_len("rnd", *rnd, pi.n);
    r = slhdsa::OptRand::given(*rnd);
  } else if (det) {
    r = slhdsa::OptRand::deterministic();
  }
  Result<bytes> sig = in.internal    ? slhdsa::slh_sign_internal(p, in.msg, sk.span(), r)
                      : in.prehash ? slhdsa::hash_slh_sign(p, in.msg, in.ctx, *in.prehash, sk.span(), r)
                                   : slhdsa::slh_sign(p, in.msg, in.ctx, sk.span(), r);
  if (!sig) throw BadRequest(sig.error().what());
  return json{{"sig", to_hex_str(*sig)}};
}

json verify(const json& req, slhdsa::ParamSet p) {
  const auto& pi = slhdsa::param_info(p);
  bytes pk = hex_field(req, "pk");
  need_len("pk", pk, pi.pk_bytes);
  bytes sig = hex_field(req, "sig");
  SlhdsaInput in = parse_slhdsa_input(req);
  Status st = in.internal    ? slhdsa::slh_verify_internal(p, in.msg, sig, pk)
              : in.prehash ? slhdsa::hash_slh_verify(p, in.msg, sig, in.ctx, *in.prehash, pk)
                           : slhdsa::slh_verify(p, in.msg, sig, in.ctx, pk);
  if (st) return json{{"ok", true}};
  return json{{"ok", false}, {"reason", st.error().what()}};
}

json slhdsa_handle(const json& req) {
  const slhdsa::ParamSet p = param_set(req);
  const std::string op = str_field(req, "op");
  if (op == "keygen") return keygen(req, p);
  if (op == "sign") return sign(req, p);
  if (op == "verify") return verify(req, p);
  throw BadRequest("unknown op \"" + op + "\" for " + str_field(req, "alg"));
}
}  // namespace

const Family& slhdsa_family() {
  static const Family f{"slhdsa", &slhdsa_handles, &slhdsa_handle};
  return f;
}
}  // namespace pqsig::batch
