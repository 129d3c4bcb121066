// No exception crosses the public API from a JSON input: every public parser of the library
// (JWK, JWKS, thumbprint, JWS protected header, key records, Web Bot Auth directories, the price
// workload, structured-field test JSON) is driven with every member of a valid document replaced
// by each mistyped value (numbers, huge numbers, bools, null, strings, arrays, objects), with
// members removed, with deep nesting, and with invalid UTF-8 on the serialising side.
// Regression: a JWK whose "kty" is a number threw nlohmann::type_error out of add_jwks and
// verify_directory (issue 10 item 3).
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pqsig/httpsig.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/keys.hpp"
#include "pqsig/price.hpp"
#include "pqsig/sf.hpp"
#include "pqsig/webbotauth.hpp"

using namespace pqsig;
using nlohmann::json;

namespace {

const SuiteInfo& S(std::string_view id) { return *find_suite(id).value(); }

std::string private_jwk(std::string_view suite) {
  auto k = SigningKey::generate(S(suite));
  EXPECT_TRUE(k.ok()) << suite << ": " << (k.ok() ? "" : k.error().what());
  return jose::to_jwk(*k, true).value();
}

// Every JSON pointer below the root (objects' members and arrays' elements).
void pointers(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      auto p = at / it.key();
      out.push_back(p);
      pointers(*it, p, out);
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      auto p = at / i;
      out.push_back(p);
      pointers(j[i], p, out);
    }
  }
}

const std::vector<json>& mistyped() {
  static const std::vector<json> v = {
      json(42),   json(-1),     json(1.5),          json(1e308),  json(18446744073709551615ull),
      json(true), json(false),  json(nullptr),      json(""),     json("x"),
      json::array(), json::array({1, "a"}), json::object(), json::object({{"a", 1}}),
  };
  return v;
}

// Calls `parse` on `doc` with each member replaced by each mistyped value and with each member
// removed; the call must return (never throw). Returns how many variants were tried.
std::size_t drive(const std::string& doc_text, const std::function<void(const std::string&)>& parse) {
  const json doc = json::parse(doc_text);
  std::vector<json::json_pointer> ps;
  pointers(doc, json::json_pointer(), ps);
  std::size_t n = 0;
  for (const auto& p : ps) {
    for (const auto& v : mistyped()) {
      json m = doc;
      m[p] = v;
      const std::string text = m.dump();
      EXPECT_NO_THROW(parse(text)) << "at " << p.to_string() << " = " << v.dump();
      ++n;
    }
    json m = doc;
    const auto parent = p.parent_pointer();
    if (m[parent].is_object()) m[parent].erase(p.back());
    else m[parent].erase(static_cast<std::size_t>(std::stoul(p.back())));
    EXPECT_NO_THROW(parse(m.dump())) << "without " << p.to_string();
    ++n;
  }
  for (const auto& v : mistyped()) {  // the whole document replaced
    EXPECT_NO_THROW(parse(v.dump()));
    ++n;
  }
  return n;
}

}  // namespace

TEST(JsonSafety, KtyNumberIsATypedErrorNotAnException) {
  // The reported case: add_jwks / verify_directory with {"kty": 1}.
  const std::string bad = R"({"keys":[{"kty":1,"crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]})";
  httpsig::KeyStore store;
  Result<std::size_t> r = Error{};
  ASSERT_NO_THROW(r = webbotauth::add_jwks(store, bad));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::unsupported);
  httpsig::Message resp;
  resp.is_request = false;
  resp.status = 200;
  resp.body = bad;
  httpsig::VerifyReport rep;
  ASSERT_NO_THROW(rep = webbotauth::verify_directory(resp, "example.com", 1700000000, 60));
  EXPECT_FALSE(rep.policy_satisfied);
  auto j = jose::load_jwk(R"({"kty":1})");
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.error().code, Errc::invalid_encoding);
}

TEST(JsonSafety, JwkAndJwksParsersWithMistypedMembers) {
  std::vector<std::string> jwks;
  for (auto id : {"ed25519", "ecdsa-p256-sha256", "ml-dsa-44", "hmac-sha256"}) jwks.push_back(private_jwk(id));
  std::size_t n = 0;
  for (const auto& k : jwks) {
    n += drive(k, [](const std::string& t) {
      (void)jose::load_jwk(t);
      (void)jose::load_jwk(t, "ed25519");
      (void)jose::thumbprint(t);
      (void)jose::thumbprint_input(t);
      (void)jose::public_jwk(t);
      (void)jose::load_key_text(t);
      (void)jose::make_jwks({t});
    });
  }
  auto set = jose::make_jwks(jwks);
  ASSERT_TRUE(set.ok()) << set.error().what();
  n += drive(*set, [](const std::string& t) {
    (void)jose::load_jwks(t);
    httpsig::KeyStore store;
    (void)webbotauth::add_jwks(store, t);
    (void)webbotauth::build_directory({t});
    httpsig::Message resp;
    resp.is_request = false;
    resp.status = 200;
    resp.body = t;
    (void)webbotauth::verify_directory(resp, "example.com", 1700000000, 60);
  });
  EXPECT_GT(n, 500u);
}

TEST(JsonSafety, RsaJwkWithMistypedMembers) {
  // RSA: no "alg" → the directory loader retries with suite hints (the path that threw).
  // (public members only: private RSA key checks would make 200 variants slow)
  std::string k = jose::public_jwk(private_jwk("rsa-pss-sha512")).value();
  json j = json::parse(k);
  j.erase("alg");
  std::size_t n = drive(j.dump(), [](const std::string& t) {
    (void)jose::load_jwk(t, "rsa-pss-sha512");
    httpsig::KeyStore store;
    (void)webbotauth::add_jwks(store, t);
  });
  EXPECT_GT(n, 70u);
}

TEST(JsonSafety, JwsProtectedHeaderWithMistypedMembers) {
  auto key = SigningKey::generate(S("ed25519")).value();
  auto vk = VerifyingKey::from_public(key.suite(), key.public_key()).value();
  const std::string hdr = R"({"alg":"EdDSA","kid":"k1","typ":"JWT"})";
  std::size_t n = drive(hdr, [&](const std::string& t) {
    std::string jws = base64url_encode(as_bytes(t)) + ".cGF5bG9hZA." + std::string(86, 'A');
    (void)jose::jws_verify_compact(vk, jws);
    (void)jose::jws_protected_header(jws);
  });
  EXPECT_GT(n, 20u);
  // The signing side: a kid that is not UTF-8 is a typed error, not nlohmann type_error 316.
  Result<std::string> s = Error{};
  ASSERT_NO_THROW(s = jose::jws_sign_compact(key, as_bytes("x"), "\xff\xfe"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::invalid_argument);
}

TEST(JsonSafety, KeyRecordWithMistypedMembers) {
  const auto& suite = S("ed25519");
  auto k0 = SigningKey::generate(suite).value();
  auto k1 = SigningKey::generate(suite).value();
  auto r0 = keys::make_record(suite, k0.public_key(), "bank-a", keys::Purpose::quote, 0, 1000, 100000).value();
  auto r1 = keys::rotate(r0, k0, k1, 2000, 90000).value();
  ASSERT_TRUE(keys::revoke(r1, k1, 50000, "test").ok());
  std::size_t n = drive(keys::to_json(r1), [](const std::string& t) { (void)keys::from_json(t); });
  EXPECT_GT(n, 200u);
  // Serialising free text that is not UTF-8 replaces it (never throws).
  keys::KeyRecord bad = r0;
  bad.revocation = keys::Revocation{5, "\xff\xfe bad", {}, {}};
  std::string out;
  ASSERT_NO_THROW(out = keys::to_json(bad));
  EXPECT_NE(out.find("bad"), std::string::npos);
}

TEST(JsonSafety, WorkloadWithMistypedMembers) {
  std::size_t n = drive(price::workload_to_json(price::default_workload()),
                        [](const std::string& t) { (void)price::workload_from_json(t); });
  EXPECT_GT(n, 100u);
  // A number beyond the double range is a typed error (out_of_range.406 escaped before).
  Result<price::Workload> w = Error{};
  ASSERT_NO_THROW(w = price::workload_from_json(R"({"cpu_budget_ms": 1e999})"));
  EXPECT_FALSE(w.ok());
  // An integer beyond int64 is refused, not wrapped.
  ASSERT_NO_THROW(w = price::workload_from_json(R"({"request":{"created": 18446744073709551615}})"));
  EXPECT_FALSE(w.ok());
  price::Workload bad = price::default_workload();
  bad.request.path = "/\xff\xfe";
  EXPECT_NO_THROW((void)price::workload_to_json(bad));
}

TEST(JsonSafety, StructuredFieldTestJsonWithMistypedMembers) {
  const std::string dict = R"([["a",[{"__type":"token","value":"x"},[["p",1],["q",{"__type":"date","value":5}]]]],)"
                           R"(["b",[[[1,[]],["s",[]]],[["r",true]]]]])";
  std::size_t n = drive(dict, [](const std::string& t) {
    (void)sf::from_test_json(sf::FieldType::dictionary, t);
    (void)sf::from_test_json(sf::FieldType::list, t);
    (void)sf::from_test_json(sf::FieldType::item, t);
  });
  EXPECT_GT(n, 100u);
  auto r = sf::from_test_json(sf::FieldType::item, R"([{"__type":7,"value":"x"},[]])");
  EXPECT_FALSE(r.ok());
}

TEST(JsonSafety, DeepNestingAndSizeAreBounded) {
  const std::string deep = "{\"keys\":" + std::string(200000, '[') + std::string(200000, ']') + "}";
  Result<std::vector<jose::LoadedKey>> a = Error{};
  ASSERT_NO_THROW(a = jose::load_jwks(deep));
  ASSERT_FALSE(a.ok());
  httpsig::KeyStore store;
  Result<std::size_t> b = Error{};
  ASSERT_NO_THROW(b = webbotauth::add_jwks(store, deep));
  EXPECT_FALSE(b.ok());
  EXPECT_FALSE(jose::load_jwk(deep).ok());
  EXPECT_FALSE(keys::from_json(deep).ok());
  std::string big(17u << 20, ' ');
  big[0] = '{';
  big.back() = '}';
  auto c = jose::load_jwk(big);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, Errc::invalid_length);
}

TEST(JsonSafety, VerifyReportToJsonNeverThrows) {
  httpsig::VerifyReport rep;
  rep.policy_detail = "label \xff\xfe";
  EXPECT_NO_THROW((void)rep.to_json());
}
