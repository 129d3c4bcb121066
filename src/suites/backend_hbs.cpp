// Stateful hash-based suite backend (lms: LMS/HSS, RFC 8554; xmss: XMSS/XMSS^MT, RFC 8391):
// verification only. Keys and signatures of these suites exist only together with their state
// (lms::StatefulSigner / xmss::StatefulSigner): the suite API refuses a SigningKey for them
// (src/suites/keys.cpp, Errc::stateful_key), so this backend offers no signing entry point.
//
// A suite is one parameter set: the public key must carry the suite's codes (HSS: L, the LMS and
// LM-OTS typecodes; XMSS: the OID in the suite's registry) and a signature must have the suite's
// size (every HSS level alike), so a key or signature of another set is refused before hashing.
//
// A family whose keys carry their parameter set (lms, xmss: HTTP's family-level algs "hss-lms",
// "xmss"): hbs_suite_for_key reads the set from the key, checks and bounds it, and gives the
// registry row of that set or a row made once per set (bounded: at most 8 levels × 20 LMS × 4
// LM-OTS sets; the 21 XMSS and 56 XMSS^MT sets of pqsig/xmss.hpp).
#include <array>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "pqsig/lms.hpp"
#include "pqsig/stateful_key.hpp"
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

// RFC 8554 §6.1: the HSS parameter set an encoded public key names, every level taken to repeat
// the top one (the levels below are not in the key; pqsig's keys repeat it, lms::check_levels).
Result<std::vector<lms::Level>> hbs_hss_levels_of_key(byte_span pub) {
  if (pub.size() < 12) return Error{Errc::invalid_length, "HSS public key: shorter than its header"};
  const std::uint32_t L = hbs_be32(pub, 0);
  if (L < 1 || L > lms::kMaxLevels) return Error{Errc::invalid_encoding, "HSS public key: L must be 1..8"};
  const lms::Level lv{lms::find_lms(hbs_be32(pub, 4)), lms::find_lmots(hbs_be32(pub, 8))};
  if (!lv.lms) return Error{Errc::unknown_suite, "HSS public key: unknown LMS typecode"};
  if (!lv.ots) return Error{Errc::unknown_suite, "HSS public key: unknown LM-OTS typecode"};
  std::vector<lms::Level> levels(L, lv);
  if (auto st = lms::check_levels(levels); !st)
    return Error{Errc::invalid_encoding, "HSS public key: " + st.error().message};
  if (pub.size() != lms::hss_public_key_bytes(levels))
    return Error{Errc::invalid_length, "HSS public key: " + std::to_string(pub.size()) + " bytes, expected " +
                                           std::to_string(lms::hss_public_key_bytes(levels))};
  return levels;
}

// One row per HSS parameter set outside the registry, made on first use and never freed (a
// VerifyingKey or PreparedKey points at its row). Bounded by the sets hbs_hss_levels_of_key admits.
struct HbsKeySuiteRow {
  std::string id;
  SuiteInfo info{};
};
const SuiteInfo* hbs_key_suite_row(const std::vector<lms::Level>& levels) {
  const lms::Level& top = levels.front();
  const auto L = static_cast<std::uint32_t>(levels.size());
  static std::mutex mu;
  static auto* rows = new std::map<std::array<std::uint32_t, 3>, std::unique_ptr<HbsKeySuiteRow>>();
  std::lock_guard<std::mutex> lock(mu);
  auto& row = (*rows)[{L, top.lms->type, top.ots->type}];
  if (!row) {
    auto r = std::make_unique<HbsKeySuiteRow>();
    r->id = lms::levels_name(levels);
    SuiteInfo& s = r->info;
    s.id = r->id;
    s.version = 1;
    s.cls = SuiteClass::signature;
    s.family = Family::lms;
    s.standard = top.lms->hash == lms::HashFamily::sha256 && top.lms->m == 32 ? "RFC 8554 / SP 800-208"
                                                                              : "RFC 8554 / RFC 9858";
    s.jose_alg = "";
    s.http_alg = "";
    s.http_registered = false;
    s.public_key_size = lms::hss_public_key_bytes(levels);
    // Our private key "PQHSS1" || u32 L || L x (u32 lms, u32 ots) || I || SEED (pqsig/lms.hpp).
    s.private_key_size = 6 + 4 + 8 * std::size_t{L} + lms::kIdBytes + top.ots->n;
    s.expanded_key_size = s.private_key_size;
    s.output_size = lms::hss_signature_bytes(levels);
    s.shared_secret_size = 0;
    s.variable_output = false;
    s.params.hbs = HbsParams{top.lms->type, top.ots->type, static_cast<std::uint8_t>(L), false,
                             static_cast<std::uint8_t>(top.lms->h * L)};  // <= 63 (check_levels)
    s.stateful = true;
    row = std::move(r);
  }
  return &row->info;
}

// One row per XMSS / XMSS^MT parameter set outside the registry, made on first use and never
// freed, as for HSS. Bounded by the sets pqsig/xmss.hpp implements (77).
const SuiteInfo* hbs_xmss_key_suite_row(const xmss::Params& p) {
  static std::mutex mu;
  static auto* rows = new std::map<std::pair<bool, std::uint32_t>, std::unique_ptr<HbsKeySuiteRow>>();
  std::lock_guard<std::mutex> lock(mu);
  auto& row = (*rows)[{p.mt, p.oid}];
  if (!row) {
    auto r = std::make_unique<HbsKeySuiteRow>();
    r->id.reserve(p.name.size());
    for (char c : p.name) r->id.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c == '/' ? '-' : c);
    SuiteInfo& s = r->info;
    s.id = r->id;
    s.version = 1;
    s.cls = SuiteClass::signature;
    s.family = Family::xmss;
    s.standard = "RFC 8391 / SP 800-208";
    s.jose_alg = "";
    s.http_alg = "";
    s.http_registered = false;
    s.public_key_size = p.public_key_bytes();
    // Our private key "PQXMSS1" || u8 mt || u32 oid || SK_SEED || SK_PRF || PUB_SEED || root.
    s.private_key_size = 7 + 1 + 4 + 4 * p.n;
    s.expanded_key_size = s.private_key_size;
    s.output_size = p.signature_bytes();
    s.shared_secret_size = 0;
    s.variable_output = false;
    s.params.hbs = HbsParams{p.oid, 0, static_cast<std::uint8_t>(p.d), p.mt, static_cast<std::uint8_t>(p.h)};
    s.stateful = true;
    row = std::move(r);
  }
  return &row->info;
}

// RFC 8391 Appendix B.3 / C.3: u32str(oid) || root || SEED, the OID in the XMSS or the XMSS^MT
// registry (multi_tree). xmss::parse_public_key checks the OID and the set's exact length.
Result<const SuiteInfo*> hbs_xmss_suite_for_key(byte_span pub, bool multi_tree) {
  auto p = xmss::parse_public_key(multi_tree, pub);
  if (!p) return Error{p.error().code, std::string(multi_tree ? "XMSS^MT" : "XMSS") + " public key: " + p.error().message};
  for (const SuiteInfo& s : all_suites())
    if (s.family == Family::xmss && s.params.hbs.mt == (*p)->mt && s.params.hbs.code == (*p)->oid) return &s;
  return hbs_xmss_key_suite_row(**p);
}

Result<const SuiteInfo*> hbs_suite_for_key(Family family, byte_span pub, bool multi_tree) {
  if (family == Family::xmss) return hbs_xmss_suite_for_key(pub, multi_tree);
  if (family != Family::lms)
    return Error{Errc::unsupported, "family " + std::string(family_name(family)) +
                                        ": its parameter set is named by a suite, not read from a key"};
  auto levels = hbs_hss_levels_of_key(pub);
  if (!levels) return levels.error();
  const lms::Level& top = levels->front();
  for (const SuiteInfo& s : all_suites())
    if (s.family == Family::lms && s.params.hbs.levels == levels->size() && s.params.hbs.code == top.lms->type &&
        s.params.hbs.ots == top.ots->type)
      return &s;
  return hbs_key_suite_row(*levels);
}

// Verification only: no generate_private / signer_* / keypair (the suite API refuses those with
// Errc::stateful_key before it looks for them). Signing goes through StatefulKey (below).
constexpr Backend kHbsBackend{.verifier_from_public = &hbs_verifier_from_public,
                               .interfaces = &hbs_interfaces,
                               .suite_for_key = &hbs_suite_for_key};

// RFC 8554 §6.2 through the state: lms::StatefulSigner reserves (and syncs) each index first.
class HbsLmsStatefulKey final : public StatefulKey {
 public:
  HbsLmsStatefulKey(lms::StatefulSigner& signer, const SuiteInfo& suite) : signer_(signer), suite_(suite) {}
  const SuiteInfo& suite() const noexcept override { return suite_; }
  byte_span public_key() const noexcept override { return signer_.public_key(); }
  Result<bytes> sign(byte_span msg) override {
    auto r = signer_.sign(msg);
    if (!r) return r.error();
    return std::move(r->signature);
  }

 private:
  lms::StatefulSigner& signer_;
  const SuiteInfo& suite_;
};

// RFC 8391 Algorithm 12 / 15 through the state: xmss::StatefulSigner reserves (and syncs) first.
class HbsXmssStatefulKey final : public StatefulKey {
 public:
  HbsXmssStatefulKey(xmss::StatefulSigner& signer, const SuiteInfo& suite) : signer_(signer), suite_(suite) {}
  const SuiteInfo& suite() const noexcept override { return suite_; }
  byte_span public_key() const noexcept override { return signer_.public_key(); }
  Result<bytes> sign(byte_span msg) override {
    auto r = signer_.sign(msg);
    if (!r) return r.error();
    return std::move(r->signature);
  }

 private:
  xmss::StatefulSigner& signer_;
  const SuiteInfo& suite_;
};
}  // namespace

const Backend* hbs_backend() noexcept { return &kHbsBackend; }
}  // namespace pqsig::detail

namespace pqsig {
Result<std::unique_ptr<StatefulKey>> stateful_key(lms::StatefulSigner& signer) {
  auto s = suite_for_public_key(Family::lms, signer.public_key());
  if (!s) return s.error();
  return std::unique_ptr<StatefulKey>(std::make_unique<detail::HbsLmsStatefulKey>(signer, **s));
}
Result<std::unique_ptr<StatefulKey>> stateful_key(xmss::StatefulSigner& signer) {
  auto s = suite_for_public_key(Family::xmss, signer.public_key(), signer.params().mt);
  if (!s) return s.error();
  return std::unique_ptr<StatefulKey>(std::make_unique<detail::HbsXmssStatefulKey>(signer, **s));
}
}  // namespace pqsig
