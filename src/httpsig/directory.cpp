// HTTP Message Signatures Directory (draft-meunier-http-message-signatures-directory): the JWKS
// at /.well-known/http-message-signatures-directory and its signed response.
#include <nlohmann/json.hpp>

#include "jose/json_strict.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/webbotauth.hpp"

namespace pqsig::webbotauth {
namespace {
using json = nlohmann::ordered_json;

// Every key object of a JWK or JWKS text.
Result<std::vector<std::string>> key_objects(std::string_view text) {
  // JSON safety (harden-keys): strict parse with size and depth limits (dump() recurses).
  auto pj = jose::detail::parse_strict(text, "directory");
  if (!pj) return pj.error();
  json j = json(std::move(*pj));
  if (!j.is_object()) return Error{Errc::invalid_encoding, "not a JSON object (JWK or JWKS)"};
  std::vector<std::string> out;
  if (j.contains("keys")) {
    if (!j["keys"].is_array()) return Error{Errc::invalid_encoding, "JWKS \"keys\" is not an array"};
    for (const auto& k : j["keys"]) out.push_back(k.dump());
  } else {
    out.push_back(j.dump());
  }
  return out;
}
// Adds a loaded key under its "kid" and its thumbprint.
void add_loaded(httpsig::KeyStore& store, const jose::LoadedKey& k) {
  std::vector<std::string> ids;
  if (!k.kid.empty()) ids.push_back(k.kid);
  if (!k.thumbprint.empty() && k.thumbprint != k.kid) ids.push_back(k.thumbprint);
  for (const auto& id : ids) {
    if (k.verifying) {
      auto vk = VerifyingKey::from_public(k.verifying->suite(), k.verifying->public_key());
      if (vk) store.add(id, std::move(vk.value()));
    } else if (k.signing && k.suite && k.suite->cls == SuiteClass::mac) {
      auto sk = SigningKey::from_private(*k.suite, k.signing->private_key());
      if (sk) store.add_mac(id, std::move(sk.value()));
    }
  }
}
}  // namespace

Result<std::string> build_directory(const std::vector<std::string>& inputs) {
  json keys = json::array();
  for (const auto& in : inputs) {
    auto objs = key_objects(in);
    if (!objs) return objs.error();
    for (const auto& o : objs.value()) {
      if (jose::is_hbs_jwk(o)) {  // HSS / XMSS (pqsig's AKP form, jose.hpp): public only
        auto hk = jose::hbs_from_jwk(o);
        if (!hk) return Error{hk.error().code, "directory key: " + hk.error().message};
        auto pub = jose::hbs_to_jwk(*hk);
        if (!pub) return Error{pub.error().code, "directory key: " + pub.error().message};
        json pj = json::parse(pub.value(), nullptr, false);
        if (pj.is_discarded()) return Error{Errc::internal, "hbs_to_jwk produced invalid JSON"};
        pj["use"] = "sig";
        keys.push_back(std::move(pj));
        continue;
      }
      auto k = jose::load_jwk(o);
      if (!k) return Error{k.error().code, "directory key: " + k.error().message};
      Result<std::string> pub = Error{Errc::invalid_argument, "key has no public signature part"};
      if (k->verifying) pub = jose::to_jwk(*k->verifying);
      else if (k->signing && k->suite && k->suite->cls == SuiteClass::signature) pub = jose::to_jwk(*k->signing, false);
      if (!pub) return Error{pub.error().code, "directory key: " + pub.error().message};
      json pj = json::parse(pub.value(), nullptr, false);
      if (pj.is_discarded()) return Error{Errc::internal, "to_jwk produced invalid JSON"};
      auto tp = jose::thumbprint(pub.value());
      if (!tp) return tp.error();
      pj["kid"] = tp.value();
      pj["use"] = "sig";
      keys.push_back(std::move(pj));
    }
  }
  json d;
  d["keys"] = std::move(keys);
  return d.dump();
}

namespace {
// A stateful hash-based JWK (our AKP form) as a key of its suite: the parameter set read from
// the key by the seam (suite_for_public_key; family-level algs hss-lms and xmss). The JWK's
// kind names the family and, for XMSS, the OID registry (XMSS or XMSS^MT).
Result<VerifyingKey> dir_hbs_verifying_key(const jose::HbsPublicKey& k) {
  auto s = suite_for_public_key(k.kind == jose::HbsKind::hss ? Family::lms : Family::xmss, k.key,
                                k.kind == jose::HbsKind::xmssmt);
  if (!s) return s.error();
  return VerifyingKey::from_public(**s, k.key);
}

// The loadings of one JWK: keys whose JWK names no single suite (RSA without "alg", oct) are
// loaded once per suite they can serve; the signature's alg picks one (KeyStore::resolve_for).
std::vector<Result<jose::LoadedKey>> load_entry(const std::string& o) {
  std::vector<Result<jose::LoadedKey>> loaded;
  loaded.push_back(jose::load_jwk(o));
  if (!loaded.front()) {
    json j = json::parse(o, nullptr, false);
    // JSON safety (harden-keys): j.value("kty", "") threw type_error for a non-string kty.
    std::string kty;
    if (j.is_object())
      if (auto it = j.find("kty"); it != j.end() && it->is_string()) kty = it->get<std::string>();
    std::vector<std::string_view> hints;
    if (kty == "RSA") hints = {"rsa-pss-sha512", "rsa-v1_5-sha256"};
    else if (kty == "oct") hints = {"hmac-sha256"};
    if (!hints.empty()) loaded.clear();
    for (auto h : hints) loaded.push_back(jose::load_jwk(o, h));
  }
  return loaded;
}
}  // namespace

Result<std::size_t> add_jwks(httpsig::KeyStore& store, std::string_view text) {
  auto objs = key_objects(text);
  if (!objs) return objs.error();
  std::size_t n = 0;
  std::string errors;
  for (const auto& o : objs.value()) {
    bool any = false;
    if (jose::is_hbs_jwk(o)) {  // an HSS or XMSS key (alg hss-lms, xmss) under its kid and its thumbprint
      std::string tp, kid;
      auto hk = jose::hbs_from_jwk(o, &tp, &kid);
      auto vk = hk ? dir_hbs_verifying_key(*hk) : Result<VerifyingKey>(hk.error());
      if (!vk) {
        errors += vk.error().message + "; ";
        continue;
      }
      if (!kid.empty() && kid != tp) {
        if (auto again = VerifyingKey::from_public(vk->suite(), vk->public_key())) store.add(kid, std::move(*again));
      }
      store.add(tp, std::move(vk.value()));
      ++n;
      continue;
    }
    for (auto& k : load_entry(o)) {
      if (!k) {  // a key this build cannot load is left out (its labels will be unknown/skipped)
        errors += k.error().message + "; ";
        continue;
      }
      any = true;
      add_loaded(store, k.value());
    }
    if (any) ++n;
  }
  if (n == 0 && !objs->empty()) return Error{Errc::unsupported, "no usable key: " + errors};
  return n;
}

Result<FetchedKeys> add_fetched_jwks(httpsig::KeyStore& store, std::string_view text, bool kid_is_thumbprint) {
  auto objs = key_objects(text);
  if (!objs) return objs.error();
  FetchedKeys out;
  std::string errors;
  for (const auto& o : objs.value()) {
    bool any = false, mismatch = false;
    if (jose::is_hbs_jwk(o)) {  // an HSS or XMSS key: filed under its thumbprint only, like the others
      std::string tp, kid;
      auto hk = jose::hbs_from_jwk(o, &tp, &kid);
      auto vk = hk ? dir_hbs_verifying_key(*hk) : Result<VerifyingKey>(hk.error());
      if (!vk) {
        errors += vk.error().message + "; ";
        ++out.unusable;
      } else if (kid_is_thumbprint && !kid.empty() && kid != tp) {
        ++out.kid_mismatch;
        errors += "an entry's kid is not its key's thumbprint; ";
      } else {
        store.add(tp, std::move(vk.value()));
        ++out.filed;
      }
      continue;
    }
    for (auto& k : load_entry(o)) {
      if (!k) {
        errors += k.error().message + "; ";
        continue;
      }
      // Shared secrets are never taken from a stranger (the draft: MUST NOT use shared HMAC).
      if (k->thumbprint.empty() || !k->verifying) continue;
      // draft-ietf-webbotauth-httpsig-protocol: at the well-known URI "kid" MUST be the
      // thumbprint; a key is filed under its own thumbprint only, never under a label it chose.
      if (kid_is_thumbprint && !k->kid.empty() && k->kid != k->thumbprint) {
        mismatch = true;
        break;
      }
      jose::LoadedKey own = std::move(k.value());
      own.kid.clear();
      add_loaded(store, own);
      any = true;
    }
    if (mismatch) {
      ++out.kid_mismatch;
      errors += "an entry's kid is not its key's thumbprint; ";
    } else if (any) {
      ++out.filed;
    } else {
      ++out.unusable;
    }
  }
  out.errors = std::move(errors);
  return out;
}

httpsig::Message directory_request(std::string_view authority) {
  httpsig::Message m;
  m.is_request = true;
  m.method = "GET";
  m.target = std::string(kDirectoryPath);
  m.add("Host", std::string(authority));
  m.add("Accept", std::string(kDirectoryMediaType));
  return m;
}

Result<httpsig::Message> sign_directory(std::string_view jwks_body, const std::vector<DirectoryKey>& keys,
                                        const DirectorySignOptions& opt) {
  if (opt.authority.empty()) return Error{Errc::invalid_argument, "directory authority (host) not set"};
  if (keys.empty()) return Error{Errc::invalid_argument, "no directory signing key"};
  if (opt.created <= 0) return Error{Errc::invalid_argument, "created time not set"};
  if (opt.expires_in <= 0) return Error{Errc::invalid_argument, "expires must be after created"};
  auto req = directory_request(opt.authority);
  httpsig::Message resp;
  resp.is_request = false;
  resp.status = 200;
  resp.reason = "OK";
  resp.body = std::string(jwks_body);
  resp.add("Content-Type", std::string(kDirectoryMediaType));
  resp.add("Cache-Control", "max-age=" + std::to_string(opt.max_age.value_or(opt.expires_in)));
  resp.add("Content-Digest", httpsig::content_digest(jwks_body, httpsig::DigestAlg::sha256));
  std::vector<httpsig::SignSpec> specs;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    httpsig::SignSpec s;
    s.label = keys.size() == 1 ? "binding" : "binding" + std::to_string(i + 1);
    s.key = keys[i].key;
    s.components = {httpsig::parse_component("@authority;req").value(), httpsig::component("content-digest")};
    s.created = opt.created;
    s.include_alg = false;
    // parameter order as in the draft's test vector: created;expires;keyid;tag
    s.extra.emplace_back("expires", sf::BareItem::integer(opt.created + opt.expires_in));
    s.extra.emplace_back("keyid", sf::BareItem::string(keys[i].keyid));
    s.extra.emplace_back("tag", sf::BareItem::string(std::string(kDirectoryTag)));
    specs.push_back(std::move(s));
  }
  auto r = httpsig::sign_message(resp, specs, &req);
  if (!r) return r.error();
  return resp;
}

httpsig::VerifyReport verify_directory(const httpsig::Message& response, std::string_view authority, std::int64_t now,
                                       std::int64_t clock_skew, std::optional<std::int64_t> max_window) {
  httpsig::KeyStore store;
  // The keys it publishes, each under its own thumbprint (the directory's keyid rule).
  auto added = add_fetched_jwks(store, response.body, true);
  auto req = directory_request(authority);
  httpsig::VerifyPolicy pol;
  pol.now = now;
  pol.clock_skew = clock_skew;
  pol.max_window = max_window;
  pol.tag = std::string(kDirectoryTag);
  pol.required_components = {"\"@authority\";req", "\"content-digest\""};
  pol.check_content_digest = true;
  auto rep = httpsig::verify_message(response, store, pol, &req);
  if ((!added || added->filed == 0) && rep.policy_satisfied) {
    rep.policy_satisfied = false;
    rep.policy_detail = "directory body: " + (added ? "no usable key: " + added->errors : added.error().message);
  }
  if (!response.has("content-digest") && rep.policy_satisfied) {
    rep.policy_satisfied = false;
    rep.policy_detail = "directory response has no Content-Digest";
  }
  return rep;
}

}  // namespace pqsig::webbotauth
