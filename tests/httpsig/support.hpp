// Test support for the httpsig tests: vector loading and keys built through the suite API.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "pqsig/httpsig.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::test {

inline std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline nlohmann::json load_json(const std::string& rel) {
  return nlohmann::json::parse(read_text(std::string(PQSIG_SHARED_DIR) + "/vectors/" + rel));
}

inline bytes b64u(const std::string& s) {
  auto r = base64url_decode(s);
  EXPECT_TRUE(r.ok()) << s;
  return r.ok() ? r.value() : bytes{};
}

/// Public verifying key from a JWK (OKP Ed25519, EC P-256, AKP ML-DSA) via the suite API.
inline Result<VerifyingKey> vk_from_jwk(const nlohmann::json& j) {
  std::string kty = j.value("kty", "");
  if (kty == "OKP" && j.value("crv", "") == "Ed25519")
    return VerifyingKey::from_public(*find_suite("ed25519").value(), b64u(j["x"]));
  if (kty == "EC" && j.value("crv", "") == "P-256") {
    bytes pub{0x04};
    auto x = b64u(j["x"]), y = b64u(j["y"]);
    pub.insert(pub.end(), x.begin(), x.end());
    pub.insert(pub.end(), y.begin(), y.end());
    return VerifyingKey::from_public(*find_suite("ecdsa-p256-sha256").value(), pub);
  }
  if (kty == "AKP") {
    std::string alg = j.value("alg", "");
    for (auto& c : alg) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto s = find_suite(alg);
    if (!s) return s.error();
    return VerifyingKey::from_public(*s.value(), b64u(j["pub"]));
  }
  return Error{Errc::unsupported, "test support: key type " + kty};
}

inline Result<SigningKey> sk_from_jwk(const nlohmann::json& j) {
  std::string kty = j.value("kty", "");
  if (kty == "OKP" && j.value("crv", "") == "Ed25519")
    return SigningKey::from_private(*find_suite("ed25519").value(), b64u(j["d"]));
  if (kty == "EC" && j.value("crv", "") == "P-256")
    return SigningKey::from_private(*find_suite("ecdsa-p256-sha256").value(), b64u(j["d"]));
  return Error{Errc::unsupported, "test support: key type " + kty};
}

/// True when the error means "backend not in this build yet" (tests then skip the crypto part).
inline bool unavailable(const Error& e) { return e.code == Errc::unsupported; }

}  // namespace pqsig::test
