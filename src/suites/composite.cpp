// Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs-19): ML-DSA-44/65/87 with Ed25519,
// ECDSA P-256 or Ed448. The ML-DSA component comes through the suite API (its backend caches
// the expanded key), the traditional one through the classical backend.
#include <cstring>
#include <optional>
#include <string>

#include "classical/internal.hpp"
#include "pqsig/classical.hpp"
#include "pqsig/composite.hpp"
#include "pqsig/hash.hpp"
#include "suites/backend.hpp"
#include "suites/composite_internal.hpp"

namespace pqsig::composite {

namespace {
// draft §7 (algorithm table) and §6 (labels / pre-hash).
constexpr CompositeInfo kComposites[] = {
    {"ml-dsa-44+ed25519", "MLDSA44-Ed25519-SHA512", "COMPSIG-MLDSA44-Ed25519-SHA512", "ml-dsa-44", "ed25519", "SHA-512"},
    {"ml-dsa-65+ed25519", "MLDSA65-Ed25519-SHA512", "COMPSIG-MLDSA65-Ed25519-SHA512", "ml-dsa-65", "ed25519", "SHA-512"},
    {"ml-dsa-44+ecdsa-p256", "MLDSA44-ECDSA-P256-SHA256", "COMPSIG-MLDSA44-ECDSA-P256-SHA256", "ml-dsa-44",
     "ecdsa-p256-sha256", "SHA-256"},
    {"ml-dsa-65+ecdsa-p256", "MLDSA65-ECDSA-P256-SHA512", "COMPSIG-MLDSA65-ECDSA-P256-SHA512", "ml-dsa-65",
     "ecdsa-p256-sha256", "SHA-512"},
    {"ml-dsa-87+ed448", "MLDSA87-Ed448-SHAKE256", "COMPSIG-MLDSA87-Ed448-SHAKE256", "ml-dsa-87", "ed448",
     "SHAKE256/512"},
};

constexpr std::size_t kSeedLen = 32;  // ML-DSA private key = seed ξ (draft §4.1)

// RFC 5915 ECPrivateKey for P-256 with parameters and without publicKey (the draft's form):
// SEQUENCE { INTEGER 1, OCTET STRING d(32), [0] OID prime256v1 }.
constexpr std::uint8_t kEcPrivHead[] = {0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20};
constexpr std::uint8_t kEcPrivTail[] = {0xa0, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
constexpr std::size_t kEcPrivLen = sizeof kEcPrivHead + 32 + sizeof kEcPrivTail;  // 51

bool is_ecdsa(const CompositeInfo& c) { return c.trad_id == "ecdsa-p256-sha256"; }

const SuiteInfo& mldsa_suite(const CompositeInfo& c) { return *find_suite(c.mldsa_id).value(); }
const SuiteInfo& trad_suite(const CompositeInfo& c) { return *find_suite(c.trad_id).value(); }

std::size_t trad_pk_len(const CompositeInfo& c) { return trad_suite(c).public_key_size; }

// Traditional private key: composite form -> the classical suite's raw form.
Result<SecretBytes> trad_priv_to_raw(const CompositeInfo& c, byte_span tsk) {
  if (!is_ecdsa(c)) {
    if (tsk.size() != trad_suite(c).private_key_size)
      return Error{Errc::invalid_length, std::string(c.suite_id) + ": traditional private key must be " +
                                             std::to_string(trad_suite(c).private_key_size) + " bytes"};
    return SecretBytes(tsk);
  }
  if (tsk.size() == kEcPrivLen && std::equal(std::begin(kEcPrivHead), std::end(kEcPrivHead), tsk.begin()) &&
      std::equal(std::begin(kEcPrivTail), std::end(kEcPrivTail), tsk.end() - sizeof kEcPrivTail))
    return SecretBytes(tsk.subspan(sizeof kEcPrivHead, 32));
  // Other valid ECPrivateKey encodings (e.g. with the publicKey field) are accepted too.
  std::size_t hdr = tsk.size() > 2 && tsk[1] == 0x81 ? 3 : 2;
  if (tsk.size() < hdr + 3 || tsk[0] != 0x30 || tsk[hdr] != 0x02 || tsk[hdr + 1] != 0x01 || tsk[hdr + 2] != 0x01)
    return Error{Errc::invalid_encoding, std::string(c.suite_id) + ": traditional private key is not an ECPrivateKey"};
  auto imp = classical::import_der_raw(tsk, "ecdsa-p256-sha256");
  if (!imp) return Error{Errc::invalid_encoding, std::string(c.suite_id) + ": bad ECPrivateKey: " + imp.error().message};
  if (!imp->has_private()) return Error{Errc::invalid_encoding, "ECPrivateKey without private key"};
  return std::move(imp->private_key);
}

SecretBytes trad_raw_to_priv(const CompositeInfo& c, byte_span raw) {
  if (!is_ecdsa(c)) return SecretBytes(raw);
  SecretBytes out(kEcPrivLen);
  std::copy(std::begin(kEcPrivHead), std::end(kEcPrivHead), out.data());
  std::copy(raw.begin(), raw.end(), out.data() + sizeof kEcPrivHead);
  std::copy(std::begin(kEcPrivTail), std::end(kEcPrivTail), out.data() + sizeof kEcPrivHead + 32);
  return out;
}

Status check_options(const CompositeInfo& c, const SignOptions& o, bool signing) {
  if (o.ctx.size() > 255) return Error{Errc::invalid_context, "composite context longer than 255 bytes"};
  if (o.prehash) return Error{Errc::unsupported, std::string(c.suite_id) + ": the composite pre-hash is fixed (" +
                                                     std::string(c.prehash) + "); no HashML-DSA variant"};
  if (signing && o.deterministic && is_ecdsa(c))
    return Error{Errc::unsupported, std::string(c.suite_id) + ": ECDSA component cannot sign deterministically"};
  return {};
}

// M' = Prefix || Label || len(ctx) || ctx || PH(M) (draft §3.2, Composite-ML-DSA.Sign step 2).
bytes representative(const CompositeInfo& c, byte_span msg, byte_span ctx) {
  std::uint8_t ph[64];
  std::size_t phlen = 64;
  if (c.prehash == "SHA-256") {
    auto d = hash::sha256(msg);
    std::memcpy(ph, d.data(), d.size());
    phlen = d.size();
  } else if (c.prehash == "SHA-512") {
    auto d = hash::sha512(msg);
    std::memcpy(ph, d.data(), d.size());
  } else {  // SHAKE256 with 512-bit output
    hash::shake256(mut_byte_span(ph, 64), msg);
  }
  const std::size_t np = kPrefix.size(), nl = c.label.size();
  bytes m(np + nl + 1 + ctx.size() + phlen);
  std::uint8_t* w = m.data();
  std::memcpy(w, kPrefix.data(), np);
  std::memcpy(w + np, c.label.data(), nl);
  w[np + nl] = static_cast<std::uint8_t>(ctx.size());
  if (!ctx.empty()) std::memcpy(w + np + nl + 1, ctx.data(), ctx.size());
  std::memcpy(w + np + nl + 1 + ctx.size(), ph, phlen);
  return m;
}

Result<const CompositeInfo*> info_of(const SuiteInfo& s) {
  for (const auto& c : kComposites)
    if (c.suite_id == s.id) return &c;
  return Error{Errc::unknown_suite, "not a composite suite: " + std::string(s.id)};
}

// ------------------------------------------------------------------ suite objects
struct CompositeSigner final : pqsig::detail::SignerImpl {
  const CompositeInfo* ci = nullptr;
  std::optional<SigningKey> mldsa, trad;
  SecretBytes priv;
  bytes pub;
  byte_span public_key() const noexcept override { return pub; }
  byte_span private_key() const noexcept override { return priv.span(); }
  Result<bytes> sign(byte_span msg, const SignOptions& opt) const override {
    auto st = check_options(*ci, opt, true);
    if (!st) return st.error();
    const bytes mp = representative(*ci, msg, opt.ctx);
    SignOptions mo;
    mo.ctx = as_bytes(ci->label);  // the ML-DSA component's context is the Label
    mo.deterministic = opt.deterministic;
    auto ms = mldsa->sign(mp, mo);
    if (!ms) return ms.error();
    auto ts = trad->sign(mp);
    if (!ts) return ts.error();
    bytes out = std::move(ms.value());
    if (is_ecdsa(*ci)) {
      auto der = classical::ecdsa_raw_to_der(*ts);
      if (!der) return der.error();
      out.insert(out.end(), der->begin(), der->end());
    } else {
      out.insert(out.end(), ts->begin(), ts->end());
    }
    return out;
  }
};

struct CompositeVerifier final : pqsig::detail::VerifierImpl {
  const CompositeInfo* ci = nullptr;
  std::optional<VerifyingKey> mldsa, trad;
  bytes pub;
  byte_span public_key() const noexcept override { return pub; }
  Status verify(byte_span msg, byte_span sig, const SignOptions& opt) const override {
    auto st = check_options(*ci, opt, false);
    if (!st) return st;
    auto parts = split_signature(*info, sig);
    if (!parts) return parts.error();
    bytes trad_sig(parts->trad.begin(), parts->trad.end());
    if (is_ecdsa(*ci)) {
      auto raw = classical::ecdsa_der_to_raw(parts->trad, 32);
      if (!raw) return Error{Errc::verify_failed, std::string(ci->suite_id) + ": malformed ECDSA component"};
      trad_sig = std::move(raw.value());
    }
    const bytes mp = representative(*ci, msg, opt.ctx);
    SignOptions mo;
    mo.ctx = as_bytes(ci->label);
    // Both components are always checked; the result does not say which one failed.
    const bool ok_pq = mldsa->verify(mp, parts->mldsa, mo).ok();
    const bool ok_trad = trad->verify(mp, trad_sig).ok();
    if (ok_pq && ok_trad) return {};
    return Error{Errc::verify_failed, std::string(ci->suite_id) + " signature did not verify"};
  }
};

}  // namespace

Result<SecretBytes> generate(const SuiteInfo& s) {
  auto c = info_of(s);
  if (!c) return c.error();
  SecretBytes seed(kSeedLen);
  if (!random_bytes(seed.mut_span())) return Error{Errc::rng_failure, "OS random source failed"};
  auto tk = SigningKey::generate(trad_suite(**c));
  if (!tk) return tk.error();
  SecretBytes tsk = trad_raw_to_priv(**c, tk->private_key());
  SecretBytes out(kSeedLen + tsk.size());
  std::copy(seed.data(), seed.data() + kSeedLen, out.data());
  std::copy(tsk.data(), tsk.data() + tsk.size(), out.data() + kSeedLen);
  return out;
}

Result<std::unique_ptr<pqsig::detail::SignerImpl>> signer(const SuiteInfo& s, byte_span sk) {
  auto c = info_of(s);
  if (!c) return c.error();
  if (sk.size() <= kSeedLen) return Error{Errc::invalid_length, std::string(s.id) + ": private key too short"};
  auto traw = trad_priv_to_raw(**c, sk.subspan(kSeedLen));
  if (!traw) return traw.error();
  auto m = SigningKey::from_private(mldsa_suite(**c), sk.first(kSeedLen));
  if (!m) return m.error();
  auto t = SigningKey::from_private(trad_suite(**c), traw->span());
  if (!t) return t.error();
  auto out = std::make_unique<CompositeSigner>();
  out->ci = *c;
  SecretBytes tsk = trad_raw_to_priv(**c, t->private_key());  // canonical form
  out->priv = SecretBytes(kSeedLen + tsk.size());
  std::copy(sk.begin(), sk.begin() + kSeedLen, out->priv.data());
  std::copy(tsk.data(), tsk.data() + tsk.size(), out->priv.data() + kSeedLen);
  out->pub.assign(m->public_key().begin(), m->public_key().end());
  out->pub.insert(out->pub.end(), t->public_key().begin(), t->public_key().end());
  out->mldsa.emplace(std::move(m.value()));
  out->trad.emplace(std::move(t.value()));
  return std::unique_ptr<pqsig::detail::SignerImpl>(std::move(out));
}

Result<std::unique_ptr<pqsig::detail::VerifierImpl>> verifier(const SuiteInfo& s, byte_span pk) {
  auto c = info_of(s);
  if (!c) return c.error();
  auto parts = split_public_key(s, pk);
  if (!parts) return parts.error();
  auto m = VerifyingKey::from_public(mldsa_suite(**c), parts->mldsa);
  if (!m) return m.error();
  auto t = VerifyingKey::from_public(trad_suite(**c), parts->trad);
  if (!t) return t.error();
  auto out = std::make_unique<CompositeVerifier>();
  out->ci = *c;
  out->pub.assign(pk.begin(), pk.end());
  out->mldsa.emplace(std::move(m.value()));
  out->trad.emplace(std::move(t.value()));
  return std::unique_ptr<pqsig::detail::VerifierImpl>(std::move(out));
}

Result<const CompositeInfo*> composite_info(const SuiteInfo& suite) { return info_of(suite); }

Result<bytes> message_representative(const SuiteInfo& suite, byte_span msg, byte_span ctx) {
  auto c = info_of(suite);
  if (!c) return c.error();
  if (ctx.size() > 255) return Error{Errc::invalid_context, "composite context longer than 255 bytes"};
  return representative(**c, msg, ctx);
}

Result<bytes> application_context(std::string_view purpose, const SuiteInfo& suite) {
  if (purpose.empty() || purpose.size() > 64)
    return Error{Errc::invalid_argument, "purpose must be 1..64 characters"};
  for (char ch : purpose)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-'))
      return Error{Errc::invalid_argument, "purpose may only contain a-z 0-9 . _ -"};
  std::string s = "pqsig/v1/";
  s += purpose;
  s += '/';
  s += suite.id;
  if (suite.version != 1) {
    s += "@v";
    s += std::to_string(suite.version);
  }
  if (s.size() > 255) return Error{Errc::invalid_context, "application context longer than 255 bytes"};
  return bytes(s.begin(), s.end());
}

Result<Parts> split_public_key(const SuiteInfo& suite, byte_span pk) {
  auto c = info_of(suite);
  if (!c) return c.error();
  const std::size_t ml = mldsa_suite(**c).public_key_size, tl = trad_pk_len(**c);
  if (pk.size() != ml + tl)
    return Error{Errc::invalid_length, std::string(suite.id) + " public key must be " + std::to_string(ml + tl) + " bytes"};
  return Parts{pk.first(ml), pk.subspan(ml)};
}

Result<Parts> split_signature(const SuiteInfo& suite, byte_span sig) {
  auto c = info_of(suite);
  if (!c) return c.error();
  const std::size_t ml = mldsa_suite(**c).output_size;
  const SuiteInfo& t = trad_suite(**c);
  if (is_ecdsa(**c)) {
    // ECDSA-Sig-Value DER for P-256: 8..72 bytes.
    if (sig.size() < ml + 8 || sig.size() > ml + 72)
      return Error{Errc::invalid_length, std::string(suite.id) + " signature has the wrong length"};
  } else if (sig.size() != ml + t.output_size) {
    return Error{Errc::invalid_length,
                 std::string(suite.id) + " signature must be " + std::to_string(ml + t.output_size) + " bytes"};
  }
  return Parts{sig.first(ml), sig.subspan(ml)};
}

}  // namespace pqsig::composite

