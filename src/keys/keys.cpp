// Purpose-bound key records and two-way rotation proofs (include/pqsig/keys.hpp).
#include "pqsig/keys.hpp"

#include <algorithm>
#include <ctime>
#include <string>

#include "jose/internal.hpp"
#include "jose/json_strict.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/jose.hpp"

namespace pqsig::keys {

namespace {
using jose::detail::json;
using jose::detail::ojson;

constexpr std::string_view kRecordDomain = "PQSIG:KEYRECORD:v1";
constexpr std::string_view kRotationProtocol = "pqsig-key-rotation";
constexpr std::string_view kRevocationProtocol = "pqsig-key-revocation";

Error refuse(Refusal r, const std::string& detail, Refusal* why) {
  if (why) *why = r;
  return Error{r == Refusal::malformed ? Errc::invalid_encoding : Errc::policy,
               std::string(refusal_code(r)) + ": " + detail};
}

bool printable(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
}

void put16(bytes& o, byte_span b) {
  o.push_back(static_cast<u8>(b.size() >> 8));
  o.push_back(static_cast<u8>(b.size()));
  o.insert(o.end(), b.begin(), b.end());
}
void put_be(bytes& o, std::uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i) o.push_back(static_cast<u8>(v >> (8 * i)));
}

std::string suite_ref(const SuiteInfo& s) { return std::string(s.id) + "@v" + std::to_string(s.version); }

// Suites whose signatures take a context string (FIPS 204 / 205 / composite).
bool has_context(const SuiteInfo& s) { return s.family == Family::ml_dsa || s.family == Family::slh_dsa || s.family == Family::composite; }

Status well_formed(const KeyRecord& r) {
  if (!r.suite) return Error{Errc::invalid_encoding, "record has no suite"};
  if (r.suite->cls != SuiteClass::signature) return Error{Errc::invalid_encoding, "record suite is not a signature suite"};
  if (r.participant.empty() || r.participant.size() > 255 || !printable(r.participant))
    return Error{Errc::invalid_encoding, "participant must be 1..255 printable ASCII bytes"};
  if (static_cast<int>(r.purpose) < 1 || static_cast<int>(r.purpose) > 6) return Error{Errc::invalid_encoding, "bad purpose"};
  if (r.not_after <= r.not_before) return Error{Errc::invalid_encoding, "empty validity window (not_after <= not_before)"};
  if (r.public_key.empty() || (r.suite->public_key_size && r.public_key.size() != r.suite->public_key_size))
    return Error{Errc::invalid_encoding, "public key has the wrong length for " + std::string(r.suite->id)};
  if (r.kid.empty() || r.kid.size() > 255 || !printable(r.kid)) return Error{Errc::invalid_encoding, "bad kid"};
  if (r.rotation) {
    const auto& p = *r.rotation;
    if (!p.previous_suite || p.previous_suite->cls != SuiteClass::signature)
      return Error{Errc::invalid_encoding, "rotation: previous suite is not a signature suite"};
    if (p.previous_kid.empty() || p.previous_kid.size() > 255 || !printable(p.previous_kid))
      return Error{Errc::invalid_encoding, "rotation: bad previous kid"};
    if (p.previous_public_key.empty()) return Error{Errc::invalid_encoding, "rotation: no previous public key"};
  }
  return {};
}

std::uint64_t now_unix() { return static_cast<std::uint64_t>(std::time(nullptr)); }

Result<const SuiteInfo*> suite_from(const json& j, const char* name) {
  auto s = jose::detail::get_string(j, name, "key record");
  if (!s) return s.error();
  return parse_suite_ref(*s);
}

Result<std::uint64_t> get_u64(const json& j, const char* name) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_number_unsigned())
    return Error{Errc::invalid_encoding, std::string("key record: \"") + name + "\" must be a non-negative integer"};
  return it->get<std::uint64_t>();
}

Status only_members(const json& j, std::initializer_list<const char*> allowed, const char* what) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return it.key() == a; }))
      return Error{Errc::invalid_encoding,
                   std::string(what) + ": unknown member \"" + std::string(it.key().begin(), it.key().end()) + "\""};
  }
  return {};
}
}  // namespace

std::string_view refusal_code(Refusal r) noexcept {
  switch (r) {
    case Refusal::malformed: return "malformed";
    case Refusal::key_mismatch: return "key_mismatch";
    case Refusal::wrong_purpose: return "wrong_purpose";
    case Refusal::not_yet_valid: return "not_yet_valid";
    case Refusal::expired: return "expired";
    case Refusal::revoked: return "revoked";
    case Refusal::bad_rotation_signature: return "bad_rotation_signature";
    case Refusal::broken_chain: return "broken_chain";
    case Refusal::bad_revocation: return "bad_revocation";
    case Refusal::unanchored: return "unanchored";
  }
  return "?";
}

Result<std::string> key_id(const SuiteInfo& suite, byte_span public_key) {
  auto j = jose::detail::jwk_from_material(suite, public_key, nullptr);
  if (!j) return j.error();
  return jose::thumbprint(*j);
}

Result<KeyRecord> make_record(const SuiteInfo& suite, byte_span public_key, std::string participant, Purpose purpose,
                              std::uint32_t generation, std::uint64_t not_before, std::uint64_t not_after) {
  KeyRecord r;
  r.participant = std::move(participant);
  r.purpose = purpose;
  r.suite = &suite;
  r.generation = generation;
  r.not_before = not_before;
  r.not_after = not_after;
  r.public_key.assign(public_key.begin(), public_key.end());
  auto kid = key_id(suite, public_key);
  if (!kid) return kid.error();
  r.kid = *kid;
  if (auto st = well_formed(r); !st) return st.error();
  return r;
}

// ---------------------------------------------------------------- canonical encodings
Result<bytes> encode_record(const KeyRecord& r) {
  if (auto st = well_formed(r); !st) return st.error();
  bytes o;
  put16(o, as_bytes(kRecordDomain));
  put16(o, as_bytes(r.participant));
  o.push_back(static_cast<u8>(r.purpose));
  put16(o, as_bytes(r.suite->id));
  put_be(o, static_cast<std::uint64_t>(r.suite->version), 4);
  put_be(o, r.generation, 4);
  put_be(o, r.not_before, 8);
  put_be(o, r.not_after, 8);
  put16(o, as_bytes(r.kid));
  put_be(o, r.public_key.size(), 4);
  o.insert(o.end(), r.public_key.begin(), r.public_key.end());
  if (r.rotation) {
    const auto& p = *r.rotation;
    o.push_back(1);
    put16(o, as_bytes(p.previous_kid));
    put16(o, as_bytes(p.previous_suite->id));
    put_be(o, static_cast<std::uint64_t>(p.previous_suite->version), 4);
    put_be(o, p.previous_generation, 4);
  } else {
    o.push_back(0);
  }
  return o;
}

namespace {
Result<bytes> rotation_input(const KeyRecord& r, bool old_signs_new) {
  if (!r.rotation) return Error{Errc::invalid_argument, "record has no rotation proof"};
  canonical::SigningInput in;
  in.protocol = std::string(kRotationProtocol);
  in.version = 1;
  in.contract = r.participant;
  in.kind = old_signs_new ? "old-signs-new" : "new-signs-old";
  in.purpose = Purpose::key_rotation;
  in.object_ids = {bytes(r.rotation->previous_kid.begin(), r.rotation->previous_kid.end()),
                   bytes(r.kid.begin(), r.kid.end())};
  in.nonce = r.generation;
  in.expiry = r.not_after;
  in.suite = old_signs_new ? r.rotation->previous_suite : r.suite;
  if (old_signs_new) {
    auto body = encode_record(r);  // the new key's record
    if (!body) return body.error();
    in.set_body(*body);
  } else {
    in.set_body(as_bytes(r.rotation->previous_kid));  // the old key's id
  }
  return canonical::encode(in);
}
}  // namespace

Result<bytes> old_signs_new_input(const KeyRecord& r) { return rotation_input(r, true); }
Result<bytes> new_signs_old_input(const KeyRecord& r) { return rotation_input(r, false); }

SignOptions rotation_options(const SuiteInfo& suite, std::string& ctx_store) {
  SignOptions o;
  if (has_context(suite)) {
    ctx_store = canonical::purpose_context(Purpose::key_rotation, suite);
    o.ctx = as_bytes(ctx_store);
  }
  return o;
}

Result<KeyRecord> rotate(const KeyRecord& prev, const SigningKey& old_key, const SigningKey& new_key,
                         std::uint64_t not_before, std::uint64_t not_after) {
  if (auto st = well_formed(prev); !st) return st.error();
  if (&old_key.suite() != prev.suite ||
      !std::equal(prev.public_key.begin(), prev.public_key.end(), old_key.public_key().begin(), old_key.public_key().end()))
    return Error{Errc::invalid_argument, "rotate: the old key is not the key of the previous record"};
  if (new_key.suite().cls != SuiteClass::signature) return Error{Errc::invalid_argument, "rotate: new key is not a signature key"};
  auto r = make_record(new_key.suite(), new_key.public_key(), prev.participant, prev.purpose, prev.generation + 1,
                       not_before, not_after);
  if (!r) return r.error();
  if (r->kid == prev.kid) return Error{Errc::invalid_argument, "rotate: the new key equals the old key"};
  RotationProof p;
  p.previous_kid = prev.kid;
  p.previous_suite = prev.suite;
  p.previous_public_key = prev.public_key;
  p.previous_generation = prev.generation;
  r->rotation = std::move(p);
  auto a = old_signs_new_input(*r);
  if (!a) return a.error();
  auto b = new_signs_old_input(*r);
  if (!b) return b.error();
  std::string c1, c2;
  auto s1 = old_key.sign(*a, rotation_options(old_key.suite(), c1));
  if (!s1) return s1.error();
  auto s2 = new_key.sign(*b, rotation_options(new_key.suite(), c2));
  if (!s2) return s2.error();
  r->rotation->old_signature = std::move(*s1);
  r->rotation->new_signature = std::move(*s2);
  return r;
}

// The signed content of a revocation: the record's canonical encoding, `at` and the reason.
Result<bytes> revocation_input(const KeyRecord& r) {
  if (!r.revocation) return Error{Errc::invalid_argument, "record has no revocation"};
  auto body = encode_record(r);
  if (!body) return body.error();
  put16(*body, as_bytes(r.revocation->reason.size() > 0xFFFF ? std::string_view{} : std::string_view(r.revocation->reason)));
  canonical::SigningInput in;
  in.protocol = std::string(kRevocationProtocol);
  in.version = 1;
  in.contract = r.participant;
  in.kind = "revoke";
  in.purpose = Purpose::key_rotation;
  in.object_ids = {bytes(r.kid.begin(), r.kid.end()), bytes(r.revocation->signer_kid.begin(), r.revocation->signer_kid.end())};
  in.nonce = r.revocation->at;
  in.expiry = r.not_after;
  in.suite = r.revocation->signer_kid == r.kid ? r.suite : (r.rotation ? r.rotation->previous_suite : nullptr);
  if (!in.suite) return Error{Errc::invalid_argument, "revocation signer is neither the record's key nor its previous key"};
  in.set_body(*body);
  return canonical::encode(in);
}

Status revoke(KeyRecord& r, const SigningKey& authority, std::uint64_t at, std::string reason) {
  if (auto st = well_formed(r); !st) return st.error();
  if (reason.size() > 1024) return Error{Errc::invalid_argument, "revoke: reason longer than 1024 bytes"};
  auto akid = key_id(authority.suite(), authority.public_key());
  if (!akid) return akid.error();
  const bool own = *akid == r.kid && &authority.suite() == r.suite;
  const bool prev = r.rotation && *akid == r.rotation->previous_kid && &authority.suite() == r.rotation->previous_suite;
  if (!own && !prev)
    return Error{Errc::invalid_argument,
                 "revoke: only the record's own key or the key it was rotated from may revoke it (got " + *akid + ")"};
  KeyRecord out = r;
  out.revocation = Revocation{at, std::move(reason), *akid, {}};
  auto in = revocation_input(out);
  if (!in) return in.error();
  std::string ctx;
  auto sig = authority.sign(*in, rotation_options(authority.suite(), ctx));
  if (!sig) return sig.error();
  out.revocation->signature = std::move(*sig);
  r = std::move(out);
  return {};
}

// ---------------------------------------------------------------- JSON
std::string to_json(const KeyRecord& r) {
  ojson j;
  j["type"] = "pqsig-key-record";
  j["version"] = 1;
  j["participant"] = r.participant;
  j["purpose"] = std::string(canonical::purpose_name(r.purpose));
  j["suite"] = r.suite ? suite_ref(*r.suite) : "";
  j["generation"] = r.generation;
  j["not_before"] = r.not_before;
  j["not_after"] = r.not_after;
  j["kid"] = r.kid;
  j["public_key"] = base64url_encode(r.public_key);
  if (r.revocation)
    j["revocation"] = ojson{{"at", r.revocation->at},
                            {"reason", r.revocation->reason},
                            {"signer_kid", r.revocation->signer_kid},
                            {"signature", base64url_encode(r.revocation->signature)}};
  if (r.rotation) {
    const auto& p = *r.rotation;
    ojson q;
    q["previous_kid"] = p.previous_kid;
    q["previous_suite"] = p.previous_suite ? suite_ref(*p.previous_suite) : "";
    q["previous_generation"] = p.previous_generation;
    q["previous_public_key"] = base64url_encode(p.previous_public_key);
    q["old_signature"] = base64url_encode(p.old_signature);
    q["new_signature"] = base64url_encode(p.new_signature);
    j["rotation"] = std::move(q);
  }
  // Free-text members (revocation reason) may hold any bytes: invalid UTF-8 is replaced (U+FFFD),
  // never thrown (nlohmann type_error 316).
  return j.dump(2, ' ', false, ojson::error_handler_t::replace);
}

Result<KeyRecord> from_json(std::string_view text) {
  using jose::detail::get_b64u;
  using jose::detail::get_string;
  auto pj = jose::detail::parse_strict(text, "key record");
  if (!pj) return pj.error();
  const json& j = *pj;
  if (!j.is_object()) return Error{Errc::invalid_encoding, "key record: not a JSON object"};
  if (auto st = only_members(j, {"type", "version", "participant", "purpose", "suite", "generation", "not_before",
                                 "not_after", "kid", "public_key", "revocation", "rotation"},
                             "key record");
      !st)
    return st.error();
  auto type = get_string(j, "type", "key record");
  if (!type) return type.error();
  if (*type != "pqsig-key-record") return Error{Errc::invalid_encoding, "key record: type is not pqsig-key-record"};
  auto ver = get_u64(j, "version");
  if (!ver) return ver.error();
  if (*ver != 1) return Error{Errc::invalid_encoding, "key record: unsupported version " + std::to_string(*ver)};
  KeyRecord r;
  auto part = get_string(j, "participant", "key record");
  if (!part) return part.error();
  r.participant = *part;
  auto pur = get_string(j, "purpose", "key record");
  if (!pur) return pur.error();
  auto p = canonical::parse_purpose(*pur);
  if (!p) return Error{Errc::invalid_encoding, "key record: " + p.error().message};
  r.purpose = *p;
  auto s = suite_from(j, "suite");
  if (!s) return s.error();
  r.suite = *s;
  auto gen = get_u64(j, "generation");
  if (!gen) return gen.error();
  if (*gen > 0xFFFFFFFFu) return Error{Errc::invalid_encoding, "key record: generation too large"};
  r.generation = static_cast<std::uint32_t>(*gen);
  auto nb = get_u64(j, "not_before");
  if (!nb) return nb.error();
  auto na = get_u64(j, "not_after");
  if (!na) return na.error();
  r.not_before = *nb;
  r.not_after = *na;
  auto kid = get_string(j, "kid", "key record");
  if (!kid) return kid.error();
  r.kid = *kid;
  auto pk = get_b64u(j, "public_key", "key record");
  if (!pk) return pk.error();
  r.public_key = std::move(*pk);
  if (auto it = j.find("revocation"); it != j.end()) {
    if (!it->is_object()) return Error{Errc::invalid_encoding, "key record: revocation is not an object"};
    if (auto st = only_members(*it, {"at", "reason", "signer_kid", "signature"}, "revocation"); !st) return st.error();
    auto at = get_u64(*it, "at");
    if (!at) return at.error();
    auto why = get_string(*it, "reason", "revocation");
    if (!why) return why.error();
    // Unsigned revocations (older files) parse, and are then refused by every check.
    bool has_signer = false, has_sig = false;
    auto signer = jose::detail::get_opt_string(*it, "signer_kid", "revocation", has_signer);
    if (!signer) return signer.error();
    bytes sig;
    if (it->contains("signature")) {
      has_sig = true;
      auto sb = get_b64u(*it, "signature", "revocation");
      if (!sb) return sb.error();
      sig = std::move(*sb);
    }
    (void)has_sig;
    r.revocation = Revocation{*at, *why, *signer, std::move(sig)};
  }
  if (auto it = j.find("rotation"); it != j.end()) {
    const json& q = *it;
    if (!q.is_object()) return Error{Errc::invalid_encoding, "key record: rotation is not an object"};
    if (auto st = only_members(q, {"previous_kid", "previous_suite", "previous_generation", "previous_public_key",
                                   "old_signature", "new_signature"},
                               "rotation");
        !st)
      return st.error();
    RotationProof rp;
    auto pk2 = get_string(q, "previous_kid", "rotation");
    if (!pk2) return pk2.error();
    rp.previous_kid = *pk2;
    auto ps = suite_from(q, "previous_suite");
    if (!ps) return ps.error();
    rp.previous_suite = *ps;
    auto pg = get_u64(q, "previous_generation");
    if (!pg) return pg.error();
    if (*pg > 0xFFFFFFFFu) return Error{Errc::invalid_encoding, "rotation: generation too large"};
    rp.previous_generation = static_cast<std::uint32_t>(*pg);
    auto ppk = get_b64u(q, "previous_public_key", "rotation");
    if (!ppk) return ppk.error();
    rp.previous_public_key = std::move(*ppk);
    auto os = get_b64u(q, "old_signature", "rotation");
    if (!os) return os.error();
    rp.old_signature = std::move(*os);
    auto ns = get_b64u(q, "new_signature", "rotation");
    if (!ns) return ns.error();
    rp.new_signature = std::move(*ns);
    r.rotation = std::move(rp);
  }
  if (auto st = well_formed(r); !st) return Error{Errc::invalid_encoding, "key record: " + st.error().message};
  return r;
}

// ---------------------------------------------------------------- checks
namespace {
Status verify_with(const SuiteInfo& suite, byte_span pub, byte_span msg, byte_span sig, const char* which, Refusal* why) {
  auto vk = VerifyingKey::from_public(suite, pub);
  if (!vk) {
    if (vk.error().code == Errc::unsupported) return vk.error();
    return refuse(Refusal::bad_rotation_signature, std::string(which) + ": unusable key: " + vk.error().message, why);
  }
  std::string ctx;
  auto st = vk->verify(msg, sig, rotation_options(suite, ctx));
  if (!st) {
    if (st.error().code == Errc::unsupported) return st.error();
    return refuse(Refusal::bad_rotation_signature, std::string(which) + " does not verify", why);
  }
  return {};
}
}  // namespace

namespace {
// A revocation, when present, must be signed by a key with the authority to revoke the record.
Status revocation_valid(const KeyRecord& r, Refusal* why) {
  if (!r.revocation) return {};
  const auto& v = *r.revocation;
  if (v.signer_kid.empty() || v.signature.empty())
    return refuse(Refusal::bad_revocation, "the revocation is not signed (re-issue it with `pqsig key revoke --key`)", why);
  const SuiteInfo* suite = nullptr;
  byte_span pub;
  if (v.signer_kid == r.kid) {
    suite = r.suite;
    pub = r.public_key;
  } else if (r.rotation && v.signer_kid == r.rotation->previous_kid) {
    suite = r.rotation->previous_suite;
    pub = r.rotation->previous_public_key;
  } else {
    return refuse(Refusal::bad_revocation, "revocation signed by " + v.signer_kid + ", which has no authority over " + r.kid, why);
  }
  auto in = revocation_input(r);
  if (!in) return refuse(Refusal::bad_revocation, in.error().message, why);
  auto vk = VerifyingKey::from_public(*suite, pub);
  if (!vk) return refuse(Refusal::bad_revocation, "revocation signer key unusable: " + vk.error().message, why);
  std::string ctx;
  if (!vk->verify(*in, v.signature, rotation_options(*suite, ctx)))
    return refuse(Refusal::bad_revocation, "the revocation signature does not verify", why);
  return {};
}

bool has_anchor(const CheckOptions& opt, std::string_view kid) {
  return std::find(opt.anchors.begin(), opt.anchors.end(), kid) != opt.anchors.end();
}

// Key id and, when present, the rotation proof (both signatures); no time or purpose checks.
Status identity_and_proof(const KeyRecord& r, Refusal* why) {
  if (auto st = well_formed(r); !st) return refuse(Refusal::malformed, st.error().message, why);
  auto kid = key_id(*r.suite, r.public_key);
  if (!kid) return refuse(Refusal::malformed, kid.error().message, why);
  if (*kid != r.kid) return refuse(Refusal::key_mismatch, "kid " + r.kid + " is not the key's thumbprint " + *kid, why);
  if (!r.rotation) return {};
  const auto& p = *r.rotation;
  auto pkid = key_id(*p.previous_suite, p.previous_public_key);
  if (!pkid || *pkid != p.previous_kid)
    return refuse(Refusal::broken_chain, "previous kid is not the thumbprint of the previous public key", why);
  if (p.previous_generation + 1 != r.generation)
    return refuse(Refusal::broken_chain, "generation " + std::to_string(r.generation) + " does not follow " +
                                             std::to_string(p.previous_generation), why);
  auto a = old_signs_new_input(r);
  if (!a) return refuse(Refusal::malformed, a.error().message, why);
  auto b = new_signs_old_input(r);
  if (!b) return refuse(Refusal::malformed, b.error().message, why);
  if (auto st = verify_with(*p.previous_suite, p.previous_public_key, *a, p.old_signature, "old key's signature", why); !st)
    return st;
  return verify_with(*r.suite, r.public_key, *b, p.new_signature, "new key's signature", why);
}
}  // namespace

namespace {
Status check_record_unanchored(const KeyRecord& r, const CheckOptions& opt, Refusal* why) {
  if (auto st = well_formed(r); !st) return refuse(Refusal::malformed, st.error().message, why);
  auto kid = key_id(*r.suite, r.public_key);
  if (!kid) return refuse(Refusal::malformed, kid.error().message, why);
  if (*kid != r.kid) return refuse(Refusal::key_mismatch, "kid " + r.kid + " is not the key's thumbprint " + *kid, why);
  if (auto st = revocation_valid(r, why); !st) return st;
  const std::uint64_t at = opt.at ? *opt.at : now_unix();
  if (r.revocation && at >= r.revocation->at)
    return refuse(Refusal::revoked, "revoked at " + std::to_string(r.revocation->at) +
                                        (r.revocation->reason.empty() ? "" : " (" + r.revocation->reason + ")"), why);
  if (at < r.not_before) return refuse(Refusal::not_yet_valid, "valid from " + std::to_string(r.not_before), why);
  if (at >= r.not_after) return refuse(Refusal::expired, "expired at " + std::to_string(r.not_after), why);
  if (opt.purpose && *opt.purpose != r.purpose)
    return refuse(Refusal::wrong_purpose, "key is for " + std::string(canonical::purpose_name(r.purpose)) + ", not " +
                                              std::string(canonical::purpose_name(*opt.purpose)), why);
  if (auto st = identity_and_proof(r, why); !st) return st;
  return {};
}

Status anchored(std::span<const KeyRecord> chain, const CheckOptions& opt, Refusal* why) {
  if (opt.anchors.empty()) {
    if (opt.allow_unanchored) return {};
    return refuse(Refusal::unanchored,
                  "no trusted anchor given: the records are only self-consistent (anyone can make such a chain)", why);
  }
  for (const auto& r : chain) {
    if (has_anchor(opt, r.kid)) return {};
  }
  // The last record's own rotation proof names (and verifies) the key it was rotated from.
  const auto& last = chain.back();
  if (last.rotation && has_anchor(opt, last.rotation->previous_kid)) return {};
  return refuse(Refusal::unanchored, "no record of the chain is one of the trusted anchors", why);
}
}  // namespace

Status check_record(const KeyRecord& r, const CheckOptions& opt, Refusal* why) {
  if (auto st = check_record_unanchored(r, opt, why); !st) return st;
  return anchored(std::span<const KeyRecord>(&r, 1), opt, why);
}

Status check_chain(std::span<const KeyRecord> chain, const CheckOptions& opt, Refusal* why) {
  if (chain.empty()) return refuse(Refusal::malformed, "empty chain", why);
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const KeyRecord& r = chain[i];
    if (auto st = well_formed(r); !st) return refuse(Refusal::malformed, "record " + std::to_string(i) + ": " + st.error().message, why);
    if (auto st = revocation_valid(r, why); !st)
      return Error{st.error().code, st.error().message + " (record " + std::to_string(i) + ")"};
    if (i == 0) {
      if (auto st = identity_and_proof(r, why); !st) return Error{st.error().code, st.error().message + " (record 0)"};
      continue;
    }
    const KeyRecord& prev = chain[i - 1];
    const std::string at = "record " + std::to_string(i) + ": ";
    if (!r.rotation) return refuse(Refusal::broken_chain, at + "no rotation proof", why);
    const auto& p = *r.rotation;
    if (p.previous_kid != prev.kid) return refuse(Refusal::broken_chain, at + "rotates from " + p.previous_kid + ", not " + prev.kid, why);
    if (p.previous_suite != prev.suite || p.previous_public_key != prev.public_key)
      return refuse(Refusal::broken_chain, at + "previous key differs from the previous record", why);
    if (r.participant != prev.participant) return refuse(Refusal::broken_chain, at + "participant changed", why);
    if (r.purpose != prev.purpose) return refuse(Refusal::broken_chain, at + "purpose changed", why);
    if (r.generation != prev.generation + 1 || p.previous_generation != prev.generation)
      return refuse(Refusal::broken_chain, at + "generation does not follow", why);
    // The rotation takes effect at the new record's not_before; the old key must still be
    // valid (inside its window, not revoked) then to vouch for its successor.
    if (r.not_before < prev.not_before || r.not_before >= prev.not_after)
      return refuse(Refusal::broken_chain, at + "rotated outside the previous key's validity window", why);
    if (prev.revocation && r.not_before >= prev.revocation->at)
      return refuse(Refusal::broken_chain, at + "rotated by a key revoked at " + std::to_string(prev.revocation->at), why);
    // Key ids and both signatures of this link (time and purpose of use: last record only).
    if (auto st = identity_and_proof(r, why); !st)
      return Error{st.error().code, st.error().message + " (record " + std::to_string(i) + ")"};
  }
  if (auto st = check_record_unanchored(chain.back(), opt, why); !st) return st;
  return anchored(chain, opt, why);
}

}  // namespace pqsig::keys
