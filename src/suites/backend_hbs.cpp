// Stateful hash-based suite backend (lms: LMS/HSS, RFC 8554; xmss: XMSS/XMSS^MT, RFC 8391):
// verification only. Keys and signatures of these suites exist only together with their state
// (lms::StatefulSigner / xmss::StatefulSigner): the suite API refuses a SigningKey for them
// (src/suites/keys.cpp, Errc::stateful_key), so this backend offers no signing entry point.
//
// A suite is one parameter set: the public key must carry the suite's codes (HSS: L, the LMS and
// LM-OTS typecodes; XMSS: the OID in the suite's registry) and a signature must have the suite's
// size (every HSS level alike), so a key or signature of another set is refused before hashing.
#include <string>

#include "pqsig/lms.hpp"
#include "pqsig/xmss.hpp"
#include "suites/backend.hpp"

namespace pqsig::detail {
namespace {

std::uint32_t hbs_be32(byte_span b, std::size_t off) {
  return (std::uint32_t{b[off]} << 24) | (std::uint32_t{b[off + 1]} << 16) | (std::uint32_t{b[off + 2]} << 8) |
         std::uint32_t{b[off + 3]};
}

// RFC 8554 §6.1: u32str(L) || u32str(lms_type) || u32str(lmots_type) || I || T[1].
Status hbs_check_hss_public(const SuiteInfo& s, byte_span pub) {
  const HbsParams& h = s.params.hbs;
  if (hbs_be32(pub, 0) != h.levels || hbs_be32(pub, 4) != h.code || hbs_be32(pub, 8) != h.ots)
    return Error{Errc::invalid_encoding, std::string(s.id) + ": public key is of another LMS/HSS parameter set (L " +
                                             std::to_string(hbs_be32(pub, 0)) + ", LMS type " +
                                             std::to_string(hbs_be32(pub, 4)) + ", LM-OTS type " +
                                             std::to_string(hbs_be32(pub, 8)) + ")"};
  return {};
}

struct HbsVerifier final : VerifierImpl {
  bytes pk;
  const xmss::Params* xp = nullptr;  // xmss only
  byte_span public_key() const noexcept override { return pk; }
  Status verify(byte_span msg, byte_span sig, const SignOptions& opt) const override {
    if (!opt.ctx.empty()) return Error{Errc::invalid_context, std::string(info->id) + ": takes no context string"};
    if (opt.prehash) return Error{Errc::unsupported, std::string(info->id) + ": no pre-hash variant"};
    if (sig.size() != info->output_size)
      return Error{Errc::invalid_length, std::string(info->id) + ": signature must be " +
                                             std::to_string(info->output_size) + " bytes, got " +
                                             std::to_string(sig.size())};
    // RFC 8554 §6.3 (HSS) / RFC 8391 Algorithm 14 or 17 (XMSS / XMSS^MT).
    if (info->family == Family::lms) return lms::hss_verify(pk, msg, sig);
    return xmss::verify(*xp, pk, msg, sig);
  }
};

Result<std::unique_ptr<VerifierImpl>> hbs_verifier_from_public(const SuiteInfo& s, byte_span pub) {
  if (!s.stateful || (s.family != Family::lms && s.family != Family::xmss))
    return Error{Errc::unknown_suite, "not a stateful hash-based suite: " + std::string(s.id)};
  if (pub.size() != s.public_key_size)
    return Error{Errc::invalid_length, std::string(s.id) + ": public key must be " + std::to_string(s.public_key_size) +
                                           " bytes, got " + std::to_string(pub.size())};
  auto impl = std::make_unique<HbsVerifier>();
  impl->info = &s;
  if (s.family == Family::lms) {
    if (auto ok = hbs_check_hss_public(s, pub); !ok) return ok.error();
  } else {
    auto p = xmss::parse_public_key(s.params.hbs.mt, pub);
    if (!p) return p.error();
    if ((*p)->oid != s.params.hbs.code)
      return Error{Errc::invalid_encoding, std::string(s.id) + ": public key is of another parameter set (" +
                                               std::string((*p)->name) + ")"};
    impl->xp = *p;
  }
  impl->pk.assign(pub.begin(), pub.end());
  return std::unique_ptr<VerifierImpl>(std::move(impl));
}

unsigned hbs_interfaces(const SuiteInfo&) noexcept { return provider::kPure; }

// Verification only: no generate_private / signer_* / keypair (the suite API refuses those with
// Errc::stateful_key before it looks for them).
const Backend kHbsBackend{nullptr, nullptr, nullptr, &hbs_verifier_from_public, nullptr, nullptr, &hbs_interfaces};
}  // namespace

const Backend* hbs_backend() noexcept { return &kHbsBackend; }
}  // namespace pqsig::detail
