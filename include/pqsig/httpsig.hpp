// pqsig — HTTP Message Signatures (RFC 9421): a small HTTP/1.1 message model, signature base
// construction, signing and verifying any number of labels, Content-Digest (RFC 9530),
// Accept-Signature, and a verification policy (windows, skew, nonces, required labels/algs).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/sf.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::httpsig {

/// pqsig's own RFC 9421 alg token for HSS/LMS signatures (RFC 8554 §6.2 encoding): not in the IANA
/// HTTP Signature Algorithms registry — ours, like "ml-dsa-44" (docs/lms.md, "Web Bot Auth").
/// A family-level alg (family_for_alg): it names Family::lms, and each key names its parameter
/// set (suite_for_public_key; JWK {"kty":"AKP","alg":"HSS-LMS",...}). Keys are VerifyingKeys of
/// that suite like any other; signing goes through a StatefulKey (SignSpec::stateful), which
/// reserves every index before use.
inline constexpr std::string_view kHssLmsAlg = "hss-lms";
/// pqsig's own RFC 9421 alg token for XMSS and XMSS^MT signatures (RFC 8391 §4.1.8 / §4.2.3
/// encodings): not registered — ours, like kHssLmsAlg (docs/lms.md, "Web Bot Auth"). A
/// family-level alg: it names Family::xmss (XMSS and XMSS^MT alike), and each key names its
/// parameter set (suite_for_public_key; JWK {"kty":"AKP","alg":"XMSS"|"XMSSMT",...}, whose alg
/// names the OID registry). Signing, as for kHssLmsAlg, only through a StatefulKey.
inline constexpr std::string_view kXmssAlg = "xmss";

// ------------------------------------------------------------------ message model

struct FieldLine {
  std::string name;   ///< as received (case preserved)
  std::string value;  ///< as received, without leading/trailing whitespace
};

/// An HTTP/1.1 request or response: start line, ordered header fields, trailers, body.
struct Message {
  bool is_request = true;
  std::string method;          ///< request
  std::string target;          ///< request-target as in the request line
  int status = 0;              ///< response
  std::string reason;          ///< response reason phrase
  std::string version = "HTTP/1.1";
  std::vector<FieldLine> headers;
  std::vector<FieldLine> trailers;
  std::string body;
  std::string scheme = "https";  ///< used to derive @scheme / @target-uri for origin-form targets
  bool crlf = true;              ///< line ending used when printing

  /// Field lines of `name` (case-insensitive), in order.
  std::vector<std::string> lines(std::string_view name, bool trailer = false) const;
  bool has(std::string_view name, bool trailer = false) const;
  /// Combined field value (lines joined by ", ") or nullopt when the field is absent.
  std::optional<std::string> get(std::string_view name, bool trailer = false) const;
  /// The same value without copying it when the field is one line (the usual case): a view into
  /// the message, or into `buf` (lines combined there). Valid while both live and are unchanged.
  std::optional<std::string_view> value(std::string_view name, std::string& buf, bool trailer = false) const;
  /// Replace all lines of `name` by one line.
  void set(std::string_view name, std::string value);
  void add(std::string_view name, std::string value);
  void remove(std::string_view name);
};

/// Limits of parse_message (exceeding one is Errc::policy).
struct MessageLimits {
  std::size_t max_header_bytes = 256 * 1024;  ///< start line + field lines
  std::size_t max_field_lines = 1024;
};
/// Parses an HTTP/1.1 message (request or response). Line ends LF or CRLF; obs-fold refused;
/// the body is everything after the blank line (chunked framing is not decoded). A status code
/// is exactly three digits, 100..999 (RFC 9110 §15: the first digit is the class; `020` refused).
Result<Message> parse_message(std::string_view text, const MessageLimits& limits = {});
/// Prints the message in HTTP/1.1 form (CRLF or LF per `crlf`).
std::string serialize_message(const Message& m);
/// Total size in bytes of the start line and header section as sent (CRLF line ends, final
/// empty line included) — what servers compare against their request-header limits.
std::size_t header_section_size(const Message& m);

// ------------------------------------------------------------------ reasons

/// Every negative outcome has its own code (printed by `reason_name`).
enum class Reason {
  ok,
  // skipped labels (never fail the whole message on their own)
  unsupported_alg,        ///< alg (or the key's algorithm) not supported here
  not_selected,           ///< filtered out by label / tag / keyid selection
  unknown_keyid,          ///< no key for this keyid (skipped; a message with no valid label fails)
  alg_not_allowed,        ///< alg outside the verifier's allowed list (skipped)
  // malformed input
  malformed_signature_input,
  malformed_signature,
  missing_signature,      ///< label in Signature-Input without a Signature member
  duplicate_component,    ///< a component identifier is repeated
  invalid_component,      ///< bad component identifier or parameters
  missing_component,      ///< a covered component is absent from the message
  missing_request,        ///< ;req used but no request supplied
  // key / algorithm
  missing_keyid,
  alg_mismatch,           ///< alg parameter disagrees with the key
  signature_mismatch,     ///< cryptographic verification failed (modified message or wrong key)
  // time / replay
  missing_created,
  created_in_future,
  expired,
  too_old,                ///< created older than the policy's max age
  invalid_window,         ///< expires before created, or window longer than allowed
  missing_nonce,
  nonce_replayed,
  nonce_store_unavailable,  ///< the nonce store could not answer (VerifyPolicy::nonce_fail_open = false)
  // policy / profile
  wrong_tag,
  required_component_not_covered,
  content_digest_mismatch,
  signature_agent_not_covered,
  missing_signature_agent,
  profile_violation,
  too_many_labels,        ///< more labels than VerifyPolicy::max_labels (none is verified)
};
std::string_view reason_name(Reason r) noexcept;

// ------------------------------------------------------------------ algorithms

/// RFC 9421 algorithm name → suite ("ed25519" → ed25519 ...; the three "ml-dsa-*" names are
/// pqsig's unregistered ones). nullptr when the name is unknown.
const SuiteInfo* suite_for_alg(std::string_view alg) noexcept;
/// A family-level alg name → its family (kHssLmsAlg → Family::lms, kXmssAlg → Family::xmss): the key, not the name, holds
/// the parameter set (suite_for_public_key). nullopt for any other name.
std::optional<Family> family_for_alg(std::string_view alg) noexcept;
/// The RFC 9421 alg name used for a suite: its family's family-level alg (kHssLmsAlg for every
/// lms suite, kXmssAlg for every xmss one), else SuiteInfo::http_alg, or the suite id for suites without one (never registered).
std::string alg_name(const SuiteInfo& s);
/// True for the six entries of the IANA HTTP Signature Algorithms registry.
bool alg_registered(std::string_view alg) noexcept;

// ------------------------------------------------------------------ signature base

/// A component identifier: an sf String item (the name) with parameters (sf, key, bs, req, tr, name).
using Component = sf::Item;
Component component(std::string_view name);
/// Parse `"@query-param";name="x"` or `content-digest` (bare names are accepted too).
Result<Component> parse_component(std::string_view text);

/// Signature parameters: covered components plus created/expires/nonce/alg/keyid/tag (and any
/// other parameters, kept in order). The Inner List form is what Signature-Input carries.
struct SignatureParams {
  sf::InnerList list;

  std::optional<std::int64_t> created() const;
  std::optional<std::int64_t> expires() const;
  std::optional<std::string> nonce() const;
  std::optional<std::string> alg() const;
  std::optional<std::string> keyid() const;
  std::optional<std::string> tag() const;
  /// A String parameter without copying it (nullptr when absent or not a String).
  const std::string* string_param(std::string_view key) const;
  const std::vector<Component>& components() const { return list.items; }
  Result<std::string> serialize() const { return sf::serialize_inner_list(list); }
};

/// Error carrying a reason code (the message names the component or parameter).
struct BaseError {
  Reason reason = Reason::ok;
  std::string detail;
};

/// RFC 9421 §2.5: the signature base for `params` over `msg`. `request` is the request a response
/// answers (for ;req components). On failure `err` (if given) receives the reason.
Result<std::string> signature_base(const Message& msg, const SignatureParams& params,
                                   const Message* request = nullptr, BaseError* err = nullptr);

/// The value of one component (RFC 9421 §2.1 / §2.2) as it appears after "name": in the base.
Result<std::string> component_value(const Message& msg, const Component& c, const Message* request = nullptr,
                                    BaseError* err = nullptr);

// ------------------------------------------------------------------ Content-Digest (RFC 9530)

enum class DigestAlg { sha256, sha512 };
/// "sha-256=:…:" for the body.
std::string content_digest(std::string_view body, DigestAlg alg = DigestAlg::sha256);
/// Checks a Content-Digest field value against the body: every member with a known algorithm
/// (sha-256, sha-512) must match and at least one must be present.
Status verify_content_digest(std::string_view field_value, std::string_view body);

// ------------------------------------------------------------------ signing

struct SignSpec {
  std::string label;
  const SigningKey* key = nullptr;     ///< signature or MAC key
  std::vector<Component> components;
  std::optional<std::int64_t> created;  ///< set by the caller (no implicit clock)
  std::optional<std::int64_t> expires;
  std::optional<std::string> nonce;
  std::optional<std::string> keyid;
  std::optional<std::string> tag;
  bool include_alg = true;              ///< add alg="…" (recommended when the key is shared)
  sf::Parameters extra;                 ///< any further signature parameters
  /// Or a stateful key (a stateful suite: HSS/LMS with alg kHssLmsAlg, XMSS with kXmssAlg) instead of `key`: each
  /// signature takes its next index, reserved and synced to disk before the signature exists (never
  /// the stateless SigningKey path). Not owned; one thread at a time.
  StatefulKey* stateful = nullptr;
};

/// Build the SignatureParams for a spec (order: created, keyid, alg, expires, nonce, tag, extra).
SignatureParams make_params(const SignSpec& spec);

/// Signs `msg` once per spec and appends the labels to Signature-Input / Signature (existing
/// labels are kept; reusing one is an error). Returns the signature bases (one per spec).
Result<std::vector<std::string>> sign_message(Message& msg, const std::vector<SignSpec>& specs,
                                              const Message* request = nullptr);

// ------------------------------------------------------------------ verification

/// Resolves a keyid to a key. Implementations: KeyStore (in memory) below.
struct ResolvedKey {
  const SuiteInfo* suite = nullptr;
  const VerifyingKey* verifying = nullptr;  ///< signature suites
  const SigningKey* mac = nullptr;          ///< MAC suites (shared secret)
};
class KeyResolver {
 public:
  virtual ~KeyResolver() = default;
  virtual std::optional<ResolvedKey> resolve(std::string_view keyid) const = 0;
  /// Resolution knowing the algorithm the signature names (nullptr when it names none): a keyid
  /// may carry several keys (e.g. one RSA key usable as rsa-pss-sha512 and rsa-v1_5-sha256).
  virtual std::optional<ResolvedKey> resolve_for(std::string_view keyid, const SuiteInfo* alg) const {
    (void)alg;
    return resolve(keyid);
  }
  /// Resolution for one label of `msg`: which key a label may use can depend on what the label
  /// covers (Web Bot Auth binds a label's key to the Signature-Agent member it covers:
  /// webbotauth::AgentKeyResolver). verify_message calls this. Default: resolve_for(keyid, alg).
  virtual std::optional<ResolvedKey> resolve_label(const Message& msg, std::string_view label, const SignatureParams& p,
                                                   const SuiteInfo* alg) const {
    (void)msg;
    (void)label;
    auto keyid = p.keyid();
    if (!keyid) return std::nullopt;
    return resolve_for(*keyid, alg);
  }
};

class KeyStore : public KeyResolver {
 public:
  void add(std::string keyid, VerifyingKey key);
  void add_mac(std::string keyid, SigningKey key);
  std::optional<ResolvedKey> resolve(std::string_view keyid) const override;
  std::optional<ResolvedKey> resolve_for(std::string_view keyid, const SuiteInfo* alg) const override;
  std::size_t size() const { return keys_.size(); }
  std::vector<std::string> keyids() const;

 private:
  struct Entry {
    std::unique_ptr<VerifyingKey> vk;
    std::unique_ptr<SigningKey> mac;
  };
  static ResolvedKey to_resolved(const Entry& e);
  std::map<std::string, std::vector<Entry>, std::less<>> keys_;
};

/// What a nonce store answers for one (keyid, nonce): `refused` = the store answered but will not
/// take this nonce (a quota or bound reached): the label fails like a replay, never fails open.
enum class NonceOutcome { fresh, replayed, error, refused };

/// Nonce replay detection, pluggable: an atomic set-if-absent with expiry keyed by (keyid, nonce).
/// `record` answers `replayed` when the pair was seen and has not expired, `error` when the store
/// cannot answer (unreachable, full: never guessed as fresh); otherwise it remembers the pair until
/// `forget_after` (UNIX time) and answers `fresh`. verify_message calls it only once the whole
/// policy is satisfied, for the labels that verified, so forged or rejected requests never burn
/// nonces.
class NonceStore {
 public:
  virtual ~NonceStore() = default;
  virtual NonceOutcome record(std::string_view keyid, std::string_view nonce, std::int64_t forget_after,
                              std::int64_t now) = 0;
  /// As record(), counting the nonce against `owner` (the agent a key came from) for stores with
  /// per-owner quotas; by default the same as record().
  virtual NonceOutcome record_for(std::string_view owner, std::string_view keyid, std::string_view nonce,
                                  std::int64_t forget_after, std::int64_t now) {
    (void)owner;
    return record(keyid, nonce, forget_after, now);
  }
  /// The fixed-size key every store files (a, b) under: hex SHA-256 of the length-prefixed pair, so
  /// a stranger's long nonce or agent URL costs a store no more than a short one.
  static std::string entry_key(std::string_view a, std::string_view b);
  /// record() == fresh (an error counts as not fresh).
  bool check_and_store(std::string_view keyid, std::string_view nonce, std::int64_t forget_after, std::int64_t now) {
    return record(keyid, nonce, forget_after, now) == NonceOutcome::fresh;
  }
};

/// The in-process nonce store (thread-safe), bounded three ways so that strangers cannot fill it
/// for others: in entries, per owner, and in time.
///  - `max_retention`: a nonce is kept at most this long, whatever the signer's `expires` says
///    (a verifier using it must refuse labels older than max_retention - 2 * clock skew, so a
///    forgotten nonce cannot be replayed: serve::Verifier does);
///  - `max_per_owner`: live nonces of one owner (record_for; record() uses the keyid): more are
///    refused (quota) without touching anyone else's;
///  - `max_entries`: when full, a new nonce of an owner holding fewer than the heaviest owner
///    makes room by dropping that heaviest owner's soonest-expiring nonce; otherwise refused.
/// A refusal is NonceOutcome::refused (never guessed fresh, never failed open).
class InMemoryNonceStore : public NonceStore {
 public:
  struct Options {
    std::size_t max_entries = 1'000'000;
    std::size_t max_per_owner = 1'000'000;
    std::int64_t max_retention = 86400 + 120;
  };
  InMemoryNonceStore() : InMemoryNonceStore(Options{}) {}
  explicit InMemoryNonceStore(Options o) : opt_(o) {}
  explicit InMemoryNonceStore(std::size_t max_entries) { opt_.max_entries = max_entries; opt_.max_per_owner = max_entries; }
  NonceOutcome record(std::string_view keyid, std::string_view nonce, std::int64_t forget_after,
                      std::int64_t now) override {
    return record_for(keyid, keyid, nonce, forget_after, now);
  }
  /// As record(), counting the nonce against `owner` (e.g. the agent the key came from).
  NonceOutcome record_for(std::string_view owner, std::string_view keyid, std::string_view nonce,
                          std::int64_t forget_after, std::int64_t now) override;
  std::size_t size() const;
  std::size_t owner_count(std::string_view owner) const;
  std::uint64_t refused_quota() const;
  std::uint64_t refused_full() const;
  std::uint64_t evicted() const;  ///< nonces of the heaviest owner dropped to make room
  const Options& options() const { return opt_; }

 private:
  struct Entry {
    std::int64_t expiry;
    std::string owner;
  };
  void drop(std::map<std::string, Entry>::iterator it);
  Options opt_;
  mutable std::mutex mu_;
  std::map<std::string, Entry> seen_;                      // (keyid, nonce) key -> entry
  std::multimap<std::int64_t, std::string> by_expiry_;     // expiry -> key
  std::map<std::string, std::set<std::pair<std::int64_t, std::string>>, std::less<>> owners_;  // owner -> (expiry, key)
  std::set<std::pair<std::size_t, std::string>> by_count_;  // (live nonces, owner): the heaviest owner in O(log n)
  std::uint64_t refused_quota_ = 0, refused_full_ = 0, evicted_ = 0;
};

/// Longest validity (expires - created) the default policy accepts: 24 h.
inline constexpr std::int64_t kDefaultMaxWindow = 86400;
/// How long after `created` the default policy accepts a label that has no `expires`: 5 min.
inline constexpr std::int64_t kDefaultLifetime = 300;

/// Verification policy. The defaults are safe (issue 10): a label only verifies when it binds
/// the authority (`"@authority"` or `"@target-uri"` covered; for a response, with `;req`) and is
/// fresh (created present and not in the future, not expired, validity bounded by max_window, a
/// label without expires valid for `default_lifetime` after created). Relaxing any of these is
/// an explicit assignment (require_authority = false, max_window = std::nullopt, ...).
struct VerifyPolicy {
  std::int64_t now = 0;                       ///< UNIX time used for every time check
  std::int64_t clock_skew = 60;               ///< seconds of tolerance for created / expires
  std::optional<std::int64_t> max_age;        ///< reject created older than now - max_age
  bool require_created = true;
  bool require_expires = false;
  bool require_nonce = false;
  bool require_authority = true;              ///< the authority must be covered (see above)
  std::optional<std::int64_t> max_window = kDefaultMaxWindow;  ///< expires - created must not exceed this (nullopt: unbounded)
  std::int64_t default_lifetime = kDefaultLifetime;  ///< validity of a label without expires (after created)
  std::vector<std::string> required_components;  ///< serialized ids, e.g. "@authority", "\"content-digest\""
  std::vector<std::string> required_labels;   ///< these labels must be present and valid
  std::vector<std::string> required_algs;     ///< at least one valid label per listed alg
  std::vector<std::string> allowed_algs;      ///< if non-empty, labels with any other alg are skipped (alg_not_allowed)
  std::optional<std::string> tag;             ///< expected tag (labels with another tag: wrong_tag)
  // selection: labels not matching are reported "not_selected" (skipped)
  std::vector<std::string> select_labels;
  std::optional<std::string> select_tag;
  std::optional<std::string> select_keyid;
  bool check_content_digest = true;  ///< when content-digest is covered, it must match the body
  bool fail_on_invalid = true;       ///< an invalid (not skipped) label fails the policy
  std::size_t min_valid = 1;         ///< at least this many labels must verify
  std::size_t max_labels = 16;       ///< more labels than this: the message fails before any verification work
  sf::Limits sf_limits;              ///< limits for parsing Signature-Input / Signature
  NonceStore* nonces = nullptr;      ///< replay detection, after the policy is satisfied (see NonceStore)
  bool nonce_fail_open = false;      ///< the store answers `error`: accept anyway (counted in VerifyReport::nonce_errors)
};

enum class Outcome { valid, invalid, skipped };
std::string_view outcome_name(Outcome o) noexcept;

struct Verdict {
  std::string label;
  Outcome outcome = Outcome::invalid;
  Reason reason = Reason::ok;
  std::string detail;
  std::string alg;             ///< alg used (parameter or key's)
  bool alg_registered = false;  ///< in the IANA registry (false: pqsig's unregistered ml-dsa-*)
  std::string keyid;
  std::string tag;
  std::optional<std::int64_t> created, expires;
  std::string signature_base;  ///< the base that was checked (empty if not built)
  std::optional<std::string> nonce;  ///< the label's nonce parameter, if any
};

struct VerifyReport {
  std::vector<Verdict> verdicts;
  bool policy_satisfied = false;
  std::string policy_detail;
  std::size_t nonce_errors = 0;  ///< nonce store errors (fail closed: the label is invalid, nonce_store_unavailable)
  /// JSON: {"policy_satisfied":..,"policy":"..","labels":[{label,outcome,reason,...}]}
  std::string to_json() const;
};

/// Extra per-label checks (e.g. a profile). Return Reason::ok to accept.
using LabelCheck = Reason (*)(const Message& msg, const std::string& label, const SignatureParams& p,
                              std::string& detail, const void* ctx);

/// Verifies every label of the message and applies the policy. Never fails as a whole because
/// of a label it cannot process: such labels are "skipped".
VerifyReport verify_message(const Message& msg, const KeyResolver& keys, const VerifyPolicy& policy,
                            const Message* request = nullptr, LabelCheck extra = nullptr,
                            const void* extra_ctx = nullptr);

/// Signature-Input / Signature of a message parsed into label → params / signature bytes.
struct SignatureFields {
  sf::Dictionary input;
  sf::Dictionary signature;
};
Result<SignatureFields> parse_signature_fields(const Message& msg, const sf::Limits& limits = {});
/// verify_message for Signature-Input / Signature fields the caller has already parsed from `msg`
/// (parse_signature_fields with policy.sf_limits), so that a caller which looked at them first
/// (e.g. to bound the work) does not pay for parsing them twice. Same report as verify_message.
VerifyReport verify_message(const Message& msg, const SignatureFields& fields, const KeyResolver& keys,
                            const VerifyPolicy& policy, const Message* request = nullptr, LabelCheck extra = nullptr,
                            const void* extra_ctx = nullptr);
/// Each Signature-Input label's parameters, moved out of `fields.input` (whose inner lists are left
/// empty): params[i] belongs to input[i], empty when that member is not an Inner List. A caller
/// that works with the labels before verifying (the verifier service) and verify_message below
/// then share one copy of them instead of copying them per use.
std::vector<SignatureParams> take_label_params(SignatureFields& fields);
/// verify_message over fields whose parameters were taken out by take_label_params (`params` must
/// be its result for these fields; a size mismatch is a caller error, answered with an invalid report).
VerifyReport verify_message(const Message& msg, const SignatureFields& fields, std::span<const SignatureParams> params,
                            const KeyResolver& keys, const VerifyPolicy& policy, const Message* request = nullptr,
                            LabelCheck extra = nullptr, const void* extra_ctx = nullptr);

// ------------------------------------------------------------------ Accept-Signature (§5)

/// One requested signature: label, covered components and requested parameters.
struct SignatureRequest {
  std::string label;
  SignatureParams params;  ///< components + keyid/alg/tag/nonce/created/expires as requested
};
/// Serialize requests into an Accept-Signature field value.
Result<std::string> accept_signature(const std::vector<SignatureRequest>& reqs);
/// Parse the Accept-Signature field of a message (errors: malformed).
Result<std::vector<SignatureRequest>> parse_accept_signature(const Message& msg);
/// Turns a request into a SignSpec honouring it with `key` (created / expires set from `now`
/// and `expires_in` when requested; requested keyid / alg must match the key).
Result<SignSpec> honour_signature_request(const SignatureRequest& req, const SigningKey& key,
                                          std::string keyid, std::int64_t now, std::int64_t expires_in = 300);

}  // namespace pqsig::httpsig
