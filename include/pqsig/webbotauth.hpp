// pqsig — the Web Bot Auth profile of RFC 9421 (draft-meunier-webbotauth-httpsig-protocol):
// a signer with several labels (sig1 Ed25519 first, sig2 ML-DSA-44 second by default), graceful
// degradation, a header budget, a profile verifier, and the signed key directory
// (draft-meunier-http-message-signatures-directory).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/httpsig.hpp"

namespace pqsig::webbotauth {

inline constexpr std::string_view kTag = "web-bot-auth";
inline constexpr std::string_view kDirectoryTag = "http-message-signatures-directory";
inline constexpr std::string_view kDirectoryPath = "/.well-known/http-message-signatures-directory";
inline constexpr std::string_view kDirectoryMediaType = "application/http-message-signatures-directory+json";
inline constexpr std::int64_t kDefaultExpiresIn = 3600;  ///< created + 1 h
inline constexpr std::int64_t kMaxExpiresIn = 86400;     ///< 24 h at most
inline constexpr std::size_t kDefaultHeaderBudget = 6 * 1024;  ///< warn above (total request header bytes)
inline constexpr std::size_t kDefaultHeaderCap = 8 * 1024;     ///< refuse above (most servers cap at ~8 KiB)

/// The Signature-Agent rule, shared by Signer and check_profile (issue 10, item 5): a label
/// vouches for an agent only by covering it.
///  - Dictionary form (default): a label with an agent gets the member `<label>="<agent>"` and
///    covers `"signature-agent";key="<label>"`; a label without an agent gets no member and
///    covers no signature-agent component. The verifier refuses a label whose own member exists
///    but is not covered (signature_agent_not_covered) or that covers an absent member
///    (missing_signature_agent); a label covering the whole field is fine; a label with no member
///    of its own and no signature-agent component is valid and vouches for no agent.
///  - Legacy form (one sf-string): every label with an agent must name the same agent (the signer
///    refuses different ones: Errc::invalid_argument) and covers the whole "signature-agent"
///    field; labels without an agent cover none and vouch for no agent.
///  - A label with an agent is always covered by that label: cover_signature_agent = false with
///    an agent is refused by the signer.

/// One label of the signer.
struct LabelKey {
  std::string label;                 ///< "sig1", "sig2"
  const SigningKey* key = nullptr;   ///< nullptr = key missing (the label degrades away unless it is the first)
  std::string keyid;                 ///< the key's JWK thumbprint (RFC 7638)
  std::string agent;                 ///< Signature-Agent member for this label ("https://…"); empty = none
  /// A stateful key instead of `key` (HSS/LMS: alg "hss-lms", httpsig::kHssLmsAlg; XMSS /
  /// XMSS^MT: alg "xmss", httpsig::kXmssAlg; ours and unregistered; pqsig::stateful_key of an
  /// lms::StatefulSigner or xmss::StatefulSigner): every signature reserves its
  /// one-time index on disk first. keyid = the thumbprint of its JWK (jose::hbs_to_jwk). Not
  /// owned; the Signer is then not thread-safe.
  StatefulKey* stateful = nullptr;
};

struct SignerOptions {
  std::int64_t created = 0;                       ///< UNIX time (the caller's clock)
  std::int64_t expires_in = kDefaultExpiresIn;    ///< 1 .. kMaxExpiresIn seconds
  bool nonce = true;                              ///< random 64-byte nonce per label
  std::vector<httpsig::Component> components = {httpsig::component("@authority")};
  bool cover_signature_agent = true;              ///< add "signature-agent";key="<label>" when the label has an agent
  /// Older drafts' form: Signature-Agent is one sf-string (the first label's agent) and labels
  /// cover the whole "signature-agent" field. For verifiers such as npm web-bot-auth 0.1.3.
  bool legacy_signature_agent = false;
  std::size_t header_budget = kDefaultHeaderBudget;
  std::size_t header_cap = kDefaultHeaderCap;
};

struct SignResult {
  std::vector<std::string> signed_labels;
  std::vector<std::string> dropped_labels;  ///< degraded away (their reason is in warnings)
  std::vector<std::string> warnings;
  std::size_t header_bytes = 0;             ///< total request header section after signing
  std::vector<std::string> bases;           ///< signature base per signed label
};

/// A label as the header budget sees it (no key needed: sizes come from the suite registry).
struct BudgetLabel {
  std::string label;
  const SuiteInfo* suite = nullptr;
  std::string keyid;
  std::string agent;
};
/// Estimated total request header bytes once `labels` are signed into `request`. Errc::policy
/// (with the reason: which label, how many bytes, why servers refuse it) above `opt.header_cap`;
/// a warning is appended above `opt.header_budget`.
Result<std::size_t> check_header_budget(const httpsig::Message& request, const std::vector<BudgetLabel>& labels,
                                        const SignerOptions& opt, std::vector<std::string>* warnings = nullptr);

/// Degradation messages go through this sink, once per process per distinct failure kind
/// (default: pqsig::log_message, i.e. the sink set with pqsig::set_log_sink; no output without
/// one — the library never writes to stderr). Replace it before signing (not thread-safe to swap concurrently).
void set_log_sink(std::function<void(std::string_view)> sink);
/// Test hook: forget which failures were already logged.
void reset_log_once();

/// Signs requests per the Web Bot Auth profile. The first label is mandatory; a later label whose
/// key is missing or whose signing fails is dropped (request still signed by the others) and
/// the failure is logged once per process. The header cap is checked before any signing work.
class Signer {
 public:
  Signer(std::vector<LabelKey> labels, SignerOptions opt);
  Result<SignResult> sign(httpsig::Message& request) const;

 private:
  std::vector<LabelKey> labels_;
  SignerOptions opt_;
};

/// What a server's Accept-Signature (RFC 9421 §5.1) may ask of a Web Bot Auth signer.
inline constexpr std::size_t kMaxChallengeNonceBytes = 256;  ///< a server-chosen nonce
inline constexpr std::size_t kMaxChallengeLabels = 4;        ///< labels requested at once
inline constexpr std::size_t kMaxChallengeComponents = 32;   ///< components per label
inline constexpr std::size_t kMaxChallengeExtraParams = 8;   ///< parameters beyond the profile's

/// The signature a Web Bot Auth signer gives in answer to one requested signature: the safe
/// profile — "@authority", the label's own Signature-Agent member when it has an agent
/// (`"signature-agent";key="<label>"`), created = now, expires = now + expires_in, keyid, alg,
/// tag "web-bot-auth", a random nonce — plus what the server adds: more components, its own nonce
/// (at most kMaxChallengeNonceBytes), other parameters. A challenge never removes anything from
/// the profile: a tag other than "web-bot-auth" is refused (Errc::policy), as are a nonce or a
/// component list past the limits; a keyid / alg naming another key is Errc::invalid_argument
/// (the caller tries its next key). The caller checks the header cap on the final header section.
Result<httpsig::SignSpec> challenge_spec(const httpsig::SignatureRequest& req, const SigningKey& key, const std::string& keyid,
                                         bool has_agent, std::int64_t now, std::int64_t expires_in = kDefaultExpiresIn);

struct VerifierOptions {
  std::int64_t now = 0;
  std::int64_t clock_skew = 60;
  httpsig::NonceStore* nonces = nullptr;
  bool require_nonce = false;
  std::vector<std::string> required_labels;
  std::vector<std::string> allowed_algs;  ///< empty = every supported alg
  std::size_t min_valid = 1;
  /// Longest accepted expires - created: kMaxExpiresIn (24 h, what our signer never exceeds)
  /// by default. The drafts' own test vectors carry a 100-year window: verifying them needs an
  /// explicit `max_window = std::nullopt`.
  std::optional<std::int64_t> max_window = kMaxExpiresIn;
};

// ------------------------------------------------------------------ Signature-Agent and key binding

/// How a Signature-Agent member resolves to keys (its `type` parameter; absent = directory).
/// draft-ietf-webbotauth-httpsig-protocol, "Key Distribution and Discovery".
enum class AgentType { directory, jwks_uri, cimd };
std::string_view agent_type_name(AgentType t) noexcept;

/// One Signature-Agent member: where candidate keys for the labels that cover it are found.
struct AgentRef {
  std::string url;
  AgentType type = AgentType::directory;
  bool typed = false;  ///< the member carried an explicit `type` parameter
};

inline constexpr std::size_t kMaxSignatureAgentBytes = 4096;
inline constexpr std::size_t kMaxSignatureAgentMembers = 16;

/// A parsed Signature-Agent field: member key -> agent, in field order. The older single
/// sf-string form is one member with the key "" (a dictionary key is never empty).
using SignatureAgents = std::vector<std::pair<std::string, AgentRef>>;

/// The one parser of the Signature-Agent field (the profile check, the key binding and the
/// verifier service all use it): a dictionary of sf-strings with an optional `type` (token or
/// string: directory, jwks_uri, cimd), or the legacy single sf-string. Errors: invalid_length
/// above kMaxSignatureAgentBytes / kMaxSignatureAgentMembers, invalid_encoding for any other
/// form, unsupported for an unknown type.
Result<SignatureAgents> parse_signature_agent(std::string_view field);

/// Which Signature-Agent member one label vouches for (draft-ietf-webbotauth-httpsig-protocol,
/// "Multiple Signatures": a verifier MUST NOT attribute a signature to a member that signature
/// does not cover). The rule, shared by check_profile and AgentKeyResolver:
///  - dictionary form: the member the label covers with `"signature-agent";key="<m>"` (its own
///    member when it covers several; several others and not its own = ambiguous, refused); a
///    label covering the whole field vouches for the member named after it, or for the only member;
///  - legacy form: the one agent, when the label covers the whole field;
///  - otherwise none: the label vouches for no agent (only keys configured out of band verify it).
/// Refusals carry the profile reason (missing_signature_agent, signature_agent_not_covered,
/// profile_violation) and a detail.
struct AgentBinding {
  httpsig::Reason reason = httpsig::Reason::ok;
  std::string detail;
  std::optional<std::string> member;  ///< key of the member the label vouches for ("" = legacy form)
};
/// `agents` = the request's parsed Signature-Agent, nullptr when the request has none.
AgentBinding bind_label_agent(const SignatureAgents* agents, std::string_view label, const httpsig::SignatureParams& p);

/// Key binding (draft-ietf-webbotauth-httpsig-protocol: "Key lookup MUST be keyed on the (URL,
/// key) pair, not on the key alone"). A label's key comes from
///  - the keys configured out of band (`out_of_band`, e.g. `serve verify --keys`): trusted for
///    any label, or
///  - the keys of the agent that label's own covered member names (set_agent_keys), never
///    from another agent of the same request, whatever the keyid.
/// resolve() / resolve_for() (no label) see the out-of-band keys only.
class AgentKeyResolver : public httpsig::KeyResolver {
 public:
  AgentKeyResolver(const SignatureAgents* agents, const httpsig::KeyResolver* out_of_band)
      : agents_(agents), oob_(out_of_band) {}
  /// The keys fetched for the agent of member `member` (kept alive by the caller).
  void set_agent_keys(std::string member, const httpsig::KeyResolver* keys);
  std::optional<httpsig::ResolvedKey> resolve(std::string_view keyid) const override;
  std::optional<httpsig::ResolvedKey> resolve_for(std::string_view keyid, const SuiteInfo* alg) const override;
  std::optional<httpsig::ResolvedKey> resolve_label(const httpsig::Message& msg, std::string_view label,
                                                    const httpsig::SignatureParams& p, const SuiteInfo* alg) const override;

 private:
  const SignatureAgents* agents_;
  const httpsig::KeyResolver* oob_;
  std::vector<std::pair<std::string, const httpsig::KeyResolver*>> by_member_;
};

/// Profile check of one label (tag, created/expires, @authority and the label's Signature-Agent
/// member covered, bind_label_agent). Usable as an httpsig::LabelCheck. `ctx`: null (the
/// Signature-Agent field is parsed from `msg`), or a `const SignatureAgents*` holding that field
/// as parse_signature_agent returned it for `msg` (so that it is parsed once per request).
httpsig::Reason check_profile(const httpsig::Message& msg, const std::string& label, const httpsig::SignatureParams& p,
                              std::string& detail, const void* ctx);

/// Verifies every label of a Web Bot Auth request and applies the profile + policy.
httpsig::VerifyReport verify_request(const httpsig::Message& request, const httpsig::KeyResolver& keys,
                                     const VerifierOptions& opt);

// ------------------------------------------------------------------ key directory

/// Builds the JWKS served at kDirectoryPath from public (or private: only the public part is
/// kept) JWKs; every key gets kid = RFC 7638 thumbprint and "use":"sig".
Result<std::string> build_directory(const std::vector<std::string>& jwks_or_jwks);

/// Key for signing the directory response.
struct DirectoryKey {
  const SigningKey* key = nullptr;
  std::string keyid;  ///< thumbprint
};
struct DirectorySignOptions {
  std::string authority;                 ///< host serving the directory (covered as "@authority";req)
  std::int64_t created = 0;
  std::int64_t expires_in = kMaxExpiresIn;
  std::optional<std::int64_t> max_age;   ///< Cache-Control max-age (default: expires_in)
};
/// The directory request a client sends (GET kDirectoryPath, Host, Accept).
httpsig::Message directory_request(std::string_view authority);
/// Signs the directory response: one signature per key, tag "http-message-signatures-directory",
/// covering ("@authority";req "content-digest"); Content-Digest is sha-256 of the body.
Result<httpsig::Message> sign_directory(std::string_view jwks_body, const std::vector<DirectoryKey>& keys,
                                        const DirectorySignOptions& opt);
/// Verifies a signed directory response with the keys it publishes (kid = keyid).
/// `max_window` bounds expires - created (24 h by default; std::nullopt = unbounded, explicitly).
httpsig::VerifyReport verify_directory(const httpsig::Message& response, std::string_view authority, std::int64_t now,
                                       std::int64_t clock_skew = 60,
                                       std::optional<std::int64_t> max_window = kMaxExpiresIn);

/// Loads a JWKS (or a single JWK) into a KeyStore: every key under its "kid" and its thumbprint.
/// For keys the operator configured; fetched key sets go through add_fetched_jwks.
Result<std::size_t> add_jwks(httpsig::KeyStore& store, std::string_view json);

/// What add_fetched_jwks did with the entries of a fetched key set.
struct FetchedKeys {
  std::size_t filed = 0;         ///< keys filed (under their thumbprint)
  std::size_t kid_mismatch = 0;  ///< entries refused: "kid" present and not the key's thumbprint
  std::size_t unusable = 0;      ///< entries this build cannot load (or shared-secret keys, never taken from a stranger)
  std::string errors;            ///< why entries were left out
};
/// Loads a key set fetched from a stranger (a Signature-Agent directory, JWKS URI or card):
/// every key is filed ONLY under its own RFC 7638 thumbprint — in Web Bot Auth the keyid is the
/// thumbprint, so a set cannot list its key under another key's keyid. `kid_is_thumbprint`
/// (key directories at the well-known URI, where the draft says kid MUST be the thumbprint): an
/// entry whose "kid" says otherwise is refused and counted; false (jwks_uri, cards, where kid is
/// the operator's label): "kid" is ignored. Errors only for a body that is no JWK / JWKS; the
/// caller decides what `filed == 0` means.
Result<FetchedKeys> add_fetched_jwks(httpsig::KeyStore& store, std::string_view json, bool kid_is_thumbprint);

}  // namespace pqsig::webbotauth
