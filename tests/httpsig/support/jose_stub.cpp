// Test-only stand-in for src/jose, compiled into test_httpsig only while src/jose has no
// implementation (see tests/httpsig/CMakeLists.txt). Covers OKP Ed25519, EC P-256 and AKP
// ML-DSA public/private JWKs through the suite API — enough for the Web Bot Auth tests.
#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "pqsig/hash.hpp"
#include "pqsig/jose.hpp"

namespace pqsig::jose {
namespace {
using json = nlohmann::json;

Result<bytes> b64u(const json& j, const char* k) {
  if (!j.contains(k) || !j[k].is_string()) return Error{Errc::invalid_encoding, std::string("missing ") + k};
  return base64url_decode(j[k].get<std::string>());
}

std::string canonical(const json& j) {
  std::string kty = j.value("kty", "");
  json c;
  if (kty == "OKP") c = {{"crv", j["crv"]}, {"kty", kty}, {"x", j["x"]}};
  else if (kty == "EC") c = {{"crv", j["crv"]}, {"kty", kty}, {"x", j["x"]}, {"y", j["y"]}};
  else if (kty == "RSA") c = {{"e", j["e"]}, {"kty", kty}, {"n", j["n"]}};
  else if (kty == "oct") c = {{"k", j["k"]}, {"kty", kty}};
  else if (kty == "AKP") c = {{"alg", j["alg"]}, {"kty", kty}, {"pub", j["pub"]}};
  return c.dump();  // nlohmann::json sorts keys
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

Result<std::string> thumbprint(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return Error{Errc::invalid_encoding, "JWK: not JSON"};
  auto d = hash::sha256(as_bytes(canonical(j)));
  return base64url_encode(d);
}

Result<LoadedKey> load_jwk(std::string_view text, std::string_view) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{Errc::invalid_encoding, "JWK: not a JSON object"};
  LoadedKey k;
  std::string kty = j.value("kty", "");
  bytes pub;
  std::optional<bytes> priv;
  if (kty == "OKP" && j.value("crv", "") == "Ed25519") {
    k.suite = find_suite("ed25519").value();
    auto x = b64u(j, "x");
    if (!x) return x.error();
    pub = x.value();
    if (j.contains("d")) {
      auto d = b64u(j, "d");
      if (!d) return d.error();
      priv = d.value();
    }
  } else if (kty == "EC" && j.value("crv", "") == "P-256") {
    k.suite = find_suite("ecdsa-p256-sha256").value();
    auto x = b64u(j, "x"), y = b64u(j, "y");
    if (!x || !y) return Error{Errc::invalid_encoding, "EC JWK without x/y"};
    pub = {0x04};
    pub.insert(pub.end(), x->begin(), x->end());
    pub.insert(pub.end(), y->begin(), y->end());
    if (j.contains("d")) {
      auto d = b64u(j, "d");
      if (!d) return d.error();
      priv = d.value();
    }
  } else if (kty == "AKP") {
    auto s = find_suite(lower(j.value("alg", "")));
    if (!s) return s.error();
    k.suite = s.value();
    auto p = b64u(j, "pub");
    if (!p) return p.error();
    pub = p.value();
    if (j.contains("priv")) {
      auto d = b64u(j, "priv");
      if (!d) return d.error();
      priv = d.value();
    }
  } else {
    return Error{Errc::unsupported, "test jose stub: unsupported JWK kty " + kty};
  }
  k.kid = j.value("kid", "");
  auto tp = thumbprint(text);
  if (!tp) return tp.error();
  k.thumbprint = tp.value();
  if (priv) {
    auto sk = SigningKey::from_private(*k.suite, *priv);
    if (!sk) return sk.error();
    k.signing = std::move(sk.value());
  }
  auto vk = VerifyingKey::from_public(*k.suite, pub);
  if (!vk) return vk.error();
  k.verifying = std::move(vk.value());
  return k;
}

Result<std::vector<LoadedKey>> load_jwks(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.contains("keys")) return Error{Errc::invalid_encoding, "JWKS: no keys"};
  std::vector<LoadedKey> out;
  for (const auto& e : j["keys"]) {
    auto k = load_jwk(e.dump());
    if (!k) return k.error();
    out.push_back(std::move(k.value()));
  }
  return out;
}

namespace {
Result<std::string> pub_jwk(const SuiteInfo& s, byte_span pub) {
  json j;
  std::string id(s.id);
  if (id == "ed25519") {
    j = {{"kty", "OKP"}, {"crv", "Ed25519"}, {"x", base64url_encode(pub)}};
  } else if (s.family == "ml-dsa") {
    j = {{"kty", "AKP"}, {"alg", std::string(s.jose_alg)}, {"pub", base64url_encode(pub)}};
  } else if (id == "ecdsa-p256-sha256" && pub.size() == 65) {
    j = {{"kty", "EC"}, {"crv", "P-256"}, {"x", base64url_encode(pub.subspan(1, 32))}, {"y", base64url_encode(pub.subspan(33, 32))}};
  } else {
    return Error{Errc::unsupported, "test jose stub: to_jwk for " + id};
  }
  auto tp = thumbprint(j.dump());
  j["kid"] = tp.value();
  return j.dump();
}
}  // namespace

Result<std::string> to_jwk(const SigningKey& key, bool include_private) {
  auto p = pub_jwk(key.suite(), key.public_key());
  if (!p || !include_private) return p;
  json j = json::parse(p.value());
  if (j["kty"] == "AKP") j["priv"] = base64url_encode(key.private_key());
  else j["d"] = base64url_encode(key.private_key());
  return j.dump();
}
Result<std::string> to_jwk(const VerifyingKey& key) { return pub_jwk(key.suite(), key.public_key()); }
Result<std::string> to_jwk(const KemPrivateKey&, bool) { return Error{Errc::unsupported, "stub"}; }
Result<std::string> to_jwk(const KemPublicKey&) { return Error{Errc::unsupported, "stub"}; }
Result<std::string> jws_sign_compact(const SigningKey&, byte_span, std::string_view) {
  return Error{Errc::unsupported, "stub"};
}
Result<bytes> jws_verify_compact(const VerifyingKey&, std::string_view) { return Error{Errc::unsupported, "stub"}; }

}  // namespace pqsig::jose
