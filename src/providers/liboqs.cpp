// The "liboqs" provider: Open Quantum Safe's liboqs as an independent second verifier.
// Compiled in when CMake finds liboqs (cmake/liboqs.cmake defines PQSIG_HAVE_LIBOQS).
//
// Through liboqs' public API (OQS_SIG): ML-DSA-44/65/87 and the SLH-DSA sets enabled in that
// liboqs build, external interface, pure and with context. liboqs' public API has no HashML-DSA,
// no external μ and no internal interface. When the linked liboqs exports mldsa-native's portable
// core (`PQCP_MLDSA_NATIVE_MLDSA{44,65,87}_C_verify_internal` / `_verify_pre_hash_internal`,
// checked at configure time: PQSIG_LIBOQS_MLDSA_INTERNAL), ML-DSA's internal interface, external μ
// and HashML-DSA are verified through it; without it they are Errc::unsupported, never emulated.
// When the linked liboqs exports its SLH-DSA core (`slh_verify_internal` and the parameter
// tables, checked at configure time: PQSIG_LIBOQS_SLH_INTERNAL), the internal interface of all
// twelve SLH-DSA sets is verified through it as well.
//
// Stateful hash-based suites (Family::lms: LMS/HSS, RFC 8554; Family::xmss: XMSS/XMSS^MT, RFC
// 8391): verification only, through liboqs' OQS_SIG_STFL (Cisco's hash-sigs, xmss-reference), for
// the sets the linked liboqs has enabled (OQS_SIG_STFL_alg_is_enabled at run time). liboqs' name is
// made from the suite's typed parameters (HbsParams: LMS and LM-OTS typecodes, levels; the XMSS /
// XMSS^MT OID); a set it has no name for (HSS with L > 2, most mixed trees) is Errc::unsupported.
#include <array>
#include <cctype>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "pqsig/hash.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/mldsa.hpp"
#include "pqsig/mlkem.hpp"
#include "pqsig/xmss.hpp"
#include "providers/table.hpp"
#include "suites/backend.hpp"

#if defined(PQSIG_HAVE_LIBOQS)
#include <oqs/oqs.h>

#if defined(PQSIG_LIBOQS_SLH_INTERNAL)
extern "C" {
struct pqsig_oqs_slh_param;  // liboqs' slh_param_t, opaque here
extern const pqsig_oqs_slh_param slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f,
    slh_dsa_sha2_256s, slh_dsa_sha2_256f, slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s,
    slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f;
// FIPS 205, Algorithm 20 (liboqs slh_dsa_c): 1 = valid, 0 = invalid.
int slh_verify_internal(const std::uint8_t* m, std::size_t m_sz, const std::uint8_t* sig, std::size_t sig_sz,
                        const std::uint8_t* pk, const pqsig_oqs_slh_param* prm);
#if defined(PQSIG_LIBOQS_SLH_PREHASH)
// FIPS 205, Algorithm 25 (liboqs slh_dsa_c): PH(M) by liboqs' own hashes, named as in ACVP.
int hash_slh_verify(const std::uint8_t* m, std::size_t m_sz, const std::uint8_t* sig, std::size_t sig_sz,
                    const std::uint8_t* ctx, std::size_t ctx_sz, const char* ph, const std::uint8_t* pk,
                    const pqsig_oqs_slh_param* prm);
#endif
}
#endif

#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
// liboqs' ML-DSA (mldsa-native, portable C core; checked at configure time, cmake/liboqs.cmake).
// Return 0 = valid. liboqs builds it without the optional trailing context parameter.
extern "C" {
#define PQSIG_OQS_MLDSA_DECL(N)                                                                          \
  int PQCP_MLDSA_NATIVE_MLDSA##N##_C_verify_internal(const std::uint8_t* sig, std::size_t siglen,        \
                                                     const std::uint8_t* m, std::size_t mlen,            \
                                                     const std::uint8_t* pre, std::size_t prelen,        \
                                                     const std::uint8_t* pk, int externalmu);            \
  int PQCP_MLDSA_NATIVE_MLDSA##N##_C_verify_pre_hash_internal(                                           \
      const std::uint8_t* sig, std::size_t siglen, const std::uint8_t* ph, std::size_t phlen,            \
      const std::uint8_t* ctx, std::size_t ctxlen, const std::uint8_t* pk, int hashalg);
PQSIG_OQS_MLDSA_DECL(44)
PQSIG_OQS_MLDSA_DECL(65)
PQSIG_OQS_MLDSA_DECL(87)
#undef PQSIG_OQS_MLDSA_DECL
}
#endif
#endif

namespace pqsig::detail {

#if defined(PQSIG_HAVE_LIBOQS)
namespace {

void oqs_init_once() {
  static std::once_flag once;
  std::call_once(once, [] { OQS_init(); });
}

// "ml-dsa-44" → "ML-DSA-44"; "slh-dsa-sha2-128s" → "SLH_DSA_PURE_SHA2_128S".
std::string oqs_name(const SuiteInfo& s) {
  std::string out;
  if (s.family == Family::ml_dsa) {
    for (char c : s.id) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
  }
  if (s.family == Family::slh_dsa) {
    out = "SLH_DSA_PURE_";
    for (char c : s.id.substr(8)) out += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
  }
  return {};
}

struct OqsSigDeleter {
  void operator()(OQS_SIG* s) const noexcept { OQS_SIG_free(s); }
};

// One OQS_SIG descriptor per suite, made once (OQS_SIG objects are immutable method tables).
const OQS_SIG* oqs_sig(const SuiteInfo& s) {
  struct Entry {
    std::once_flag once;
    std::unique_ptr<OQS_SIG, OqsSigDeleter> sig;
  };
  static Entry table[64];
  const auto all = all_suites();
  std::size_t idx = 0;
  while (idx < all.size() && all[idx].id != s.id) ++idx;
  if (idx >= all.size() || idx >= std::size(table)) return nullptr;
  Entry& e = table[idx];
  std::call_once(e.once, [&] {
    oqs_init_once();
    const std::string name = oqs_name(s);
    if (!name.empty() && OQS_SIG_alg_is_enabled(name.c_str())) e.sig.reset(OQS_SIG_new(name.c_str()));
  });
  return e.sig.get();
}

#if defined(PQSIG_LIBOQS_SLH_INTERNAL)
const pqsig_oqs_slh_param* slh_param(const SuiteInfo& s) {
  static constexpr struct {
    std::string_view id;
    const pqsig_oqs_slh_param* p;
  } kParams[] = {{"slh-dsa-sha2-128s", &slh_dsa_sha2_128s},   {"slh-dsa-sha2-128f", &slh_dsa_sha2_128f},
                 {"slh-dsa-sha2-192s", &slh_dsa_sha2_192s},   {"slh-dsa-sha2-192f", &slh_dsa_sha2_192f},
                 {"slh-dsa-sha2-256s", &slh_dsa_sha2_256s},   {"slh-dsa-sha2-256f", &slh_dsa_sha2_256f},
                 {"slh-dsa-shake-128s", &slh_dsa_shake_128s}, {"slh-dsa-shake-128f", &slh_dsa_shake_128f},
                 {"slh-dsa-shake-192s", &slh_dsa_shake_192s}, {"slh-dsa-shake-192f", &slh_dsa_shake_192f},
                 {"slh-dsa-shake-256s", &slh_dsa_shake_256s}, {"slh-dsa-shake-256f", &slh_dsa_shake_256f}};
  for (const auto& e : kParams)
    if (e.id == s.id) return e.p;
  return nullptr;
}
#endif

#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
struct MldsaCore {
  int (*verify_internal)(const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t, const std::uint8_t*,
                         std::size_t, const std::uint8_t*, int);
  int (*verify_pre_hash_internal)(const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t,
                                  const std::uint8_t*, std::size_t, const std::uint8_t*, int);
};
const MldsaCore* mldsa_core(const SuiteInfo& s) {
  static constexpr MldsaCore k44{&PQCP_MLDSA_NATIVE_MLDSA44_C_verify_internal,
                                 &PQCP_MLDSA_NATIVE_MLDSA44_C_verify_pre_hash_internal};
  static constexpr MldsaCore k65{&PQCP_MLDSA_NATIVE_MLDSA65_C_verify_internal,
                                 &PQCP_MLDSA_NATIVE_MLDSA65_C_verify_pre_hash_internal};
  static constexpr MldsaCore k87{&PQCP_MLDSA_NATIVE_MLDSA87_C_verify_internal,
                                 &PQCP_MLDSA_NATIVE_MLDSA87_C_verify_pre_hash_internal};
  if (s.family != Family::ml_dsa) return nullptr;
  switch (s.params.mldsa) {
    case mldsa::Level::ml_dsa_44: return &k44;
    case mldsa::Level::ml_dsa_65: return &k65;
    case mldsa::Level::ml_dsa_87: return &k87;
  }
  return nullptr;
}
// mldsa-native's hash identifiers (MLD_PREHASH_*): 1 = SHA2-224 ... 12 = SHAKE-256, the order of
// hash::PreHash.
int mldsa_hashalg(hash::PreHash id) noexcept { return static_cast<int>(id) + 1; }
static_assert(static_cast<int>(hash::PreHash::sha2_224) == 0 && static_cast<int>(hash::PreHash::shake_256) == 11);
#endif

// liboqs' OQS_SIG_STFL name of a stateful hash-based suite, from its typed parameters; empty when
// liboqs has no such set. LMS/HSS: "LMS_SHA256" then "_H<h>_W<w>" per level (SHA-256/M32 only;
// every level of a registry suite has the same LMS and LM-OTS types). XMSS / XMSS^MT: the RFC 8391
// name of the OID in its registry ("XMSS-SHA2_10_256", "XMSSMT-SHA2_20/2_256"), which liboqs uses.
std::string oqs_stfl_name(const SuiteInfo& s) {
  const HbsParams& h = s.params.hbs;
  if (!s.stateful) return {};
  if (s.family == Family::lms) {
    const lms::LmsParams* tree = lms::find_lms(h.code);
    const lms::LmotsParams* ots = lms::find_lmots(h.ots);
    if (!tree || !ots || tree->hash != lms::HashFamily::sha256 || ots->hash != lms::HashFamily::sha256 ||
        tree->m != 32 || ots->n != 32 || h.levels < 1)
      return {};
    std::string out = "LMS_SHA256";
    for (unsigned i = 0; i < h.levels; ++i) out += "_H" + std::to_string(tree->h) + "_W" + std::to_string(ots->w);
    return out;
  }
  if (s.family == Family::xmss) {
    const xmss::Params* p = h.mt ? xmss::find_xmssmt(h.code) : xmss::find_xmss(h.code);
    return p ? std::string(p->name) : std::string{};
  }
  return {};
}

struct OqsStflDeleter {
  void operator()(OQS_SIG_STFL* s) const noexcept { OQS_SIG_STFL_free(s); }
};

// One OQS_SIG_STFL descriptor per stateful suite, made once (verification needs no secret key
// object and no state). nullptr when liboqs has no such set or it is not enabled in this build.
const OQS_SIG_STFL* oqs_stfl(const SuiteInfo& s) {
  struct Entry {
    std::once_flag once;
    std::unique_ptr<OQS_SIG_STFL, OqsStflDeleter> sig;
  };
  if (!s.stateful || (s.family != Family::lms && s.family != Family::xmss)) return nullptr;
  const auto all = all_suites();
  static const std::unique_ptr<Entry[]> table = std::make_unique<Entry[]>(all.size());
  std::size_t idx = 0;
  while (idx < all.size() && &all[idx] != &s && all[idx].id != s.id) ++idx;
  if (idx >= all.size()) return nullptr;
  Entry& e = table[idx];
  std::call_once(e.once, [&] {
    oqs_init_once();
    const std::string name = oqs_stfl_name(s);
    if (!name.empty() && OQS_SIG_STFL_alg_is_enabled(name.c_str())) e.sig.reset(OQS_SIG_STFL_new(name.c_str()));
  });
  return e.sig.get();
}

unsigned liboqs_interfaces(const SuiteInfo& s) noexcept {
  unsigned m = 0;
  if (oqs_stfl(s)) m |= provider::kPure;  // no context string, no pre-hash
  if (const OQS_SIG* sig = oqs_sig(s)) {
    m |= provider::kPure;
    if (sig->sig_with_ctx_support) m |= provider::kContext;
  }
#if defined(PQSIG_LIBOQS_SLH_INTERNAL)
  if (slh_param(s)) m |= provider::kInternal;
#endif
#if defined(PQSIG_LIBOQS_SLH_PREHASH)
  if (slh_param(s)) m |= provider::kPreHash;
#endif
#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
  if (mldsa_core(s) && oqs_sig(s)) m |= provider::kInternal | provider::kExternalMu | provider::kPreHash;
#endif
  return m;
}

Error length_error(const SuiteInfo& s, const char* what, std::size_t want, std::size_t got) {
  return Error{Errc::invalid_length, std::string(s.id) + ": " + what + " must be " + std::to_string(want) +
                                         " bytes, got " + std::to_string(got)};
}

struct OqsVerifier final : VerifierImpl {
  const OQS_SIG* sig = nullptr;  // null when only the internal interface is available
  bytes pk;
  byte_span public_key() const noexcept override { return pk; }

  Status verify(byte_span msg, byte_span s, const SignOptions& opt) const override {
    if (opt.prehash) return verify_prehash(msg, s, opt);
    if (!sig) return Error{Errc::unsupported, std::string(info->id) + ": not enabled in this liboqs build"};
    if (opt.ctx.size() > 255) return Error{Errc::invalid_context, "context longer than 255 bytes"};
    if (!opt.ctx.empty() && !sig->sig_with_ctx_support)
      return Error{Errc::unsupported, std::string(info->id) + ": liboqs has no context string for it"};
    if (s.size() != sig->length_signature) return length_error(*info, "signature", sig->length_signature, s.size());
    const OQS_STATUS rc = opt.ctx.empty()
                              ? OQS_SIG_verify(sig, msg.data(), msg.size(), s.data(), s.size(), pk.data())
                              : OQS_SIG_verify_with_ctx_str(sig, msg.data(), msg.size(), s.data(), s.size(),
                                                            opt.ctx.data(), opt.ctx.size(), pk.data());
    if (rc == OQS_SUCCESS) return {};
    return Error{Errc::verify_failed, std::string(info->id) + ": liboqs rejected the signature"};
  }

  Status verify_internal(byte_span mprime, byte_span s) const override {
#if defined(PQSIG_LIBOQS_SLH_INTERNAL)
    if (const pqsig_oqs_slh_param* p = slh_param(*info)) {
      if (s.size() != info->output_size) return length_error(*info, "signature", info->output_size, s.size());
      if (slh_verify_internal(mprime.data(), mprime.size(), s.data(), s.size(), pk.data(), p) == 1) return {};
      return Error{Errc::verify_failed, std::string(info->id) + ": liboqs rejected the signature"};
    }
#endif
#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
    if (const MldsaCore* c = mldsa_core(*info); c && sig) {
      // FIPS 204, Algorithm 8 (ML-DSA.Verify_internal): μ = H(tr || M′), no prefix added.
      if (s.size() != sig->length_signature) return length_error(*info, "signature", sig->length_signature, s.size());
      if (c->verify_internal(s.data(), s.size(), mprime.data(), mprime.size(), nullptr, 0, pk.data(), 0) == 0) return {};
      return Error{Errc::verify_failed, std::string(info->id) + ": liboqs rejected the signature"};
    }
#endif
    (void)mprime;
    (void)s;
    return VerifierImpl::verify_internal({}, {});
  }

  Status verify_mu(byte_span mu, byte_span s) const override {
#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
    if (const MldsaCore* c = mldsa_core(*info); c && sig) {
      // FIPS 204, Algorithm 8 with μ given (external μ, Section 6.3).
      if (mu.size() != 64) return length_error(*info, "mu", 64, mu.size());
      if (s.size() != sig->length_signature) return length_error(*info, "signature", sig->length_signature, s.size());
      if (c->verify_internal(s.data(), s.size(), mu.data(), mu.size(), nullptr, 0, pk.data(), 1) == 0) return {};
      return Error{Errc::verify_failed, std::string(info->id) + ": liboqs rejected the signature"};
    }
#endif
    (void)mu;
    (void)s;
    return VerifierImpl::verify_mu({}, {});
  }

  // FIPS 204, Algorithm 5 (HashML-DSA.Verify): PH(M) is computed here (pqsig's hash functions);
  // liboqs builds M′ = 1 || |ctx| || ctx || OID || PH(M) itself and verifies.
  Status verify_prehash(byte_span msg, byte_span s, const SignOptions& opt) const {
#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
    if (const MldsaCore* c = mldsa_core(*info); c && sig) {
      if (opt.ctx.size() > 255) return Error{Errc::invalid_context, "context longer than 255 bytes"};
      if (s.size() != sig->length_signature) return length_error(*info, "signature", sig->length_signature, s.size());
      const hash::PreHashInfo& ph = hash::prehash_info(*opt.prehash);
      std::array<std::uint8_t, 64> digest{};
      if (ph.out_len > digest.size()) return Error{Errc::unsupported, std::string(info->id) + ": pre-hash too long"};
      hash::prehash_compute(*opt.prehash, msg, mut_byte_span(digest.data(), ph.out_len));
      if (c->verify_pre_hash_internal(s.data(), s.size(), digest.data(), ph.out_len, opt.ctx.data(), opt.ctx.size(),
                                      pk.data(), mldsa_hashalg(*opt.prehash)) == 0)
        return {};
      return Error{Errc::verify_failed, std::string(info->id) + ": liboqs rejected the signature"};
    }
#endif
#if defined(PQSIG_LIBOQS_SLH_PREHASH)
    if (const pqsig_oqs_slh_param* p = slh_param(*info)) {
      if (opt.ctx.size() > 255) return Error{Errc::invalid_context, "context longer than 255 bytes"};
      if (s.size() != info->output_size) return length_error(*info, "signature", info->output_size, s.size());
      const std::string ph(hash::prehash_info(*opt.prehash).acvp_name);
      if (hash_slh_verify(msg.data(), msg.size(), s.data(), s.size(), opt.ctx.data(), opt.ctx.size(), ph.c_str(),
                          pk.data(), p) == 1)
        return {};
      return Error{Errc::verify_failed, std::string(info->id) + ": liboqs rejected the signature"};
    }
#endif
    (void)msg;
    (void)s;
    (void)opt;
    return Error{Errc::unsupported, std::string(info->id) + ": liboqs has no pre-hash variant of it"};
  }
};

// RFC 8554 §6.3 (HSS) / RFC 8391 Algorithm 14 or 17 (XMSS / XMSS^MT) through liboqs'
// OQS_SIG_STFL_verify. The public key must carry the suite's codes, as with pqsig's own backend,
// so a key of another set of the same size is refused before liboqs runs.
struct OqsStflVerifier final : VerifierImpl {
  const OQS_SIG_STFL* sig = nullptr;
  bytes pk;
  byte_span public_key() const noexcept override { return pk; }
  Status verify(byte_span msg, byte_span s, const SignOptions& opt) const override {
    if (!opt.ctx.empty())
      return Error{Errc::unsupported, std::string(info->id) + ": liboqs has no context string for it"};
    if (opt.prehash) return Error{Errc::unsupported, std::string(info->id) + ": liboqs has no pre-hash variant of it"};
    if (s.size() != sig->length_signature) return length_error(*info, "signature", sig->length_signature, s.size());
    if (OQS_SIG_STFL_verify(sig, msg.data(), msg.size(), s.data(), s.size(), pk.data()) == OQS_SUCCESS) return {};
    return Error{Errc::verify_failed, std::string(info->id) + ": liboqs rejected the signature"};
  }
};

std::uint32_t oqs_stfl_be32(byte_span b, std::size_t off) {
  return (std::uint32_t{b[off]} << 24) | (std::uint32_t{b[off + 1]} << 16) | (std::uint32_t{b[off + 2]} << 8) |
         std::uint32_t{b[off + 3]};
}

Result<std::unique_ptr<VerifierImpl>> liboqs_stfl_verifier(const SuiteInfo& s, const OQS_SIG_STFL* sig,
                                                           byte_span pub) {
  if (pub.size() != sig->length_public_key) return length_error(s, "public key", sig->length_public_key, pub.size());
  const HbsParams& h = s.params.hbs;
  // RFC 8554 §6.1: u32str(L) || u32str(lms_type) || u32str(lmots_type) || I || T[1].
  // RFC 8391 §4.1.7 / §4.2.5: u32str(oid) || root || SEED.
  const bool same_set =
      s.family == Family::lms
          ? oqs_stfl_be32(pub, 0) == h.levels && oqs_stfl_be32(pub, 4) == h.code && oqs_stfl_be32(pub, 8) == h.ots
          : oqs_stfl_be32(pub, 0) == h.code;
  if (!same_set)
    return Error{Errc::invalid_encoding, std::string(s.id) + ": public key is of another parameter set"};
  auto impl = std::make_unique<OqsStflVerifier>();
  impl->info = &s;
  impl->sig = sig;
  impl->pk.assign(pub.begin(), pub.end());
  return std::unique_ptr<VerifierImpl>(std::move(impl));
}

// Signing through liboqs (external interface) from the FIPS 204 / 205 secret key encoding,
// which liboqs uses as its secret key. No public_key(): the provider only signs with it.
struct OqsSigner final : SignerImpl {
  const OQS_SIG* sig = nullptr;
  SecretBytes sk;
  byte_span public_key() const noexcept override { return {}; }
  byte_span private_key() const noexcept override { return sk.span(); }
  Result<bytes> sign(byte_span msg, const SignOptions& opt) const override {
    if (opt.prehash) return Error{Errc::unsupported, std::string(info->id) + ": liboqs has no pre-hash variant"};
    if (opt.deterministic) return Error{Errc::unsupported, std::string(info->id) + ": liboqs signs hedged only"};
    if (opt.ctx.size() > 255) return Error{Errc::invalid_context, "context longer than 255 bytes"};
    bytes out(sig->length_signature);
    std::size_t len = out.size();
    const OQS_STATUS rc = OQS_SIG_sign_with_ctx_str(sig, out.data(), &len, msg.data(), msg.size(), opt.ctx.data(),
                                                    opt.ctx.size(), sk.span().data());
    if (rc != OQS_SUCCESS) return Error{Errc::crypto_backend, std::string(info->id) + ": liboqs signing failed"};
    out.resize(len);
    return out;
  }
};

Result<std::unique_ptr<SignerImpl>> liboqs_signer_from_expanded(const SuiteInfo& s, byte_span sk) {
  const OQS_SIG* sig = oqs_sig(s);
  if (!sig || !sig->sig_with_ctx_support)
    return Error{Errc::unsupported, std::string(s.id) + ": liboqs cannot sign it in this build"};
  if (sk.size() != sig->length_secret_key) return length_error(s, "secret key", sig->length_secret_key, sk.size());
  auto impl = std::make_unique<OqsSigner>();
  impl->info = &s;
  impl->sig = sig;
  impl->sk = SecretBytes(sk);
  return std::unique_ptr<SignerImpl>(std::move(impl));
}

Result<std::unique_ptr<VerifierImpl>> liboqs_verifier_from_public(const SuiteInfo& s, byte_span pub) {
  if (liboqs_interfaces(s) == 0) return Error{Errc::unsupported, std::string(s.id) + ": not in this liboqs build"};
  if (pub.size() != s.public_key_size) return length_error(s, "public key", s.public_key_size, pub.size());
  if (const OQS_SIG_STFL* st = oqs_stfl(s)) return liboqs_stfl_verifier(s, st, pub);
  auto impl = std::make_unique<OqsVerifier>();
  impl->info = &s;
  impl->sig = oqs_sig(s);
  impl->pk.assign(pub.begin(), pub.end());
  return std::unique_ptr<VerifierImpl>(std::move(impl));
}

struct OqsKemDeleter {
  void operator()(OQS_KEM* k) const noexcept { OQS_KEM_free(k); }
};

// One OQS_KEM descriptor per ML-KEM set ("ml-kem-768" -> "ML-KEM-768"), made once.
const OQS_KEM* oqs_kem(const SuiteInfo& s) {
  struct Entry {
    std::once_flag once;
    std::unique_ptr<OQS_KEM, OqsKemDeleter> kem;
  };
  static constexpr mlkem::ParameterSet kSets[] = {mlkem::ParameterSet::ml_kem_512, mlkem::ParameterSet::ml_kem_768,
                                                   mlkem::ParameterSet::ml_kem_1024};
  static Entry table[std::size(kSets)];
  if (s.family != Family::ml_kem) return nullptr;
  for (std::size_t i = 0; i < std::size(kSets); ++i) {
    if (kSets[i] != s.params.mlkem) continue;
    std::call_once(table[i].once, [&] {
      oqs_init_once();
      std::string name;
      for (char c : s.id) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (OQS_KEM_alg_is_enabled(name.c_str())) table[i].kem.reset(OQS_KEM_new(name.c_str()));
    });
    return table[i].kem.get();
  }
  return nullptr;
}

Error not_here(const SuiteInfo& s, const char* what) {
  return Error{Errc::unsupported, std::string("liboqs cannot ") + what + " " + std::string(s.id) + " in this build"};
}

unsigned oqs_operations(const SuiteInfo& s) noexcept {
  if (s.cls == SuiteClass::kem) return oqs_kem(s) ? provider::kKeygen | provider::kEncaps | provider::kDecaps : 0;
  const OQS_SIG* sig = oqs_sig(s);
  if (!sig) return 0;
  return provider::kKeygen | (sig->sig_with_ctx_support ? provider::kSign : 0u);
}

Result<EncodedKeyPair> oqs_keypair(const SuiteInfo& s) {
  EncodedKeyPair kp;
  OQS_STATUS rc = OQS_ERROR;
  if (s.cls == SuiteClass::kem) {
    const OQS_KEM* kem = oqs_kem(s);
    if (!kem) return not_here(s, "generate keys for");
    kp.public_key.resize(kem->length_public_key);
    kp.secret_key = SecretBytes(kem->length_secret_key);
    rc = OQS_KEM_keypair(kem, kp.public_key.data(), kp.secret_key.mut_span().data());
  } else {
    const OQS_SIG* sig = oqs_sig(s);
    if (!sig) return not_here(s, "generate keys for");
    kp.public_key.resize(sig->length_public_key);
    kp.secret_key = SecretBytes(sig->length_secret_key);
    rc = OQS_SIG_keypair(sig, kp.public_key.data(), kp.secret_key.mut_span().data());
  }
  if (rc != OQS_SUCCESS) return Error{Errc::crypto_backend, std::string(s.id) + ": liboqs key generation failed"};
  return kp;
}

// FIPS 203, Algorithm 20 (ML-KEM.Encaps) through liboqs; liboqs runs the §7.2 input check.
Result<Encapsulation> oqs_encaps(const SuiteInfo& s, byte_span ek) {
  const OQS_KEM* kem = oqs_kem(s);
  if (!kem) return not_here(s, "encapsulate with");
  if (ek.size() != kem->length_public_key) return length_error(s, "encapsulation key", kem->length_public_key, ek.size());
  Encapsulation e;
  e.ciphertext.resize(kem->length_ciphertext);
  e.shared_secret = SecretBytes(kem->length_shared_secret);
  if (OQS_KEM_encaps(kem, e.ciphertext.data(), e.shared_secret.mut_span().data(), ek.data()) != OQS_SUCCESS)
    return Error{Errc::key_check_failed, std::string(s.id) + ": liboqs refused the encapsulation key"};
  return e;
}

// FIPS 203, Algorithm 21 (ML-KEM.Decaps) through liboqs; liboqs runs the §7.3 input check.
Result<SecretBytes> oqs_decaps(const SuiteInfo& s, byte_span dk, byte_span ct) {
  const OQS_KEM* kem = oqs_kem(s);
  if (!kem) return not_here(s, "decapsulate with");
  if (dk.size() != kem->length_secret_key) return length_error(s, "decapsulation key", kem->length_secret_key, dk.size());
  if (ct.size() != kem->length_ciphertext) return length_error(s, "ciphertext", kem->length_ciphertext, ct.size());
  SecretBytes ss(kem->length_shared_secret);
  if (OQS_KEM_decaps(kem, ss.mut_span().data(), ct.data(), dk.data()) != OQS_SUCCESS)
    return Error{Errc::key_check_failed, std::string(s.id) + ": liboqs refused the decapsulation key"};
  return ss;
}

// One entry point set for both families liboqs serves here: the signatures (verification,
// signing from the expanded key, key pairs) and ML-KEM (key pairs, encaps from ek, decaps from dk).
constexpr Backend kLiboqsBackend{.signer_from_expanded = &liboqs_signer_from_expanded,
                                 .verifier_from_public = &liboqs_verifier_from_public,
                                 .interfaces = &liboqs_interfaces,
                                 .kem_encaps_once = &oqs_encaps,
                                 .kem_decaps_once = &oqs_decaps,
                                 .operations = &oqs_operations,
                                 .keypair = &oqs_keypair};
}  // namespace

const Backend* liboqs_backend() noexcept { return &kLiboqsBackend; }

provider::ProviderInfo liboqs_info() {
  oqs_init_once();
  std::string v = std::string("liboqs ") + OQS_version();
#if defined(PQSIG_LIBOQS_SLH_INTERNAL)
  v += " (+ SLH-DSA internal interface)";
#endif
#if defined(PQSIG_LIBOQS_SLH_PREHASH)
  v += " (+ HashSLH-DSA)";
#endif
#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
  v += " (+ ML-DSA internal, external mu, HashML-DSA)";
#endif
  return provider::ProviderInfo{"liboqs", true, "", v};
}

#else  // !PQSIG_HAVE_LIBOQS

const Backend* liboqs_backend() noexcept { return nullptr; }

provider::ProviderInfo liboqs_info() {
  return provider::ProviderInfo{"liboqs", false,
                                "not compiled in: liboqs was not found when pqsig was configured "
                                "(PQSIG_WITH_LIBOQS, -Dliboqs_DIR=, scripts/liboqs.sh)",
                                ""};
}

#endif

}  // namespace pqsig::detail
