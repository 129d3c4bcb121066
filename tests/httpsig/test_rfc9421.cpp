// RFC 9421 Appendix B: every example reproduces its exact signature base and verifies; the
// deterministic ones (B.2.5 HMAC, B.2.6 / B.4 Ed25519) reproduce the exact signature bytes.
#include <gtest/gtest.h>

#include "pqsig/httpsig.hpp"
#include "pqsig/webbotauth.hpp"
#include "support.hpp"

using namespace pqsig;
using namespace pqsig::httpsig;
using pqsig::test::load_json;

namespace {

const nlohmann::json& examples() {
  static const nlohmann::json j = load_json("rfc9421/examples.json");
  return j;
}

const nlohmann::json& example(const std::string& id) {
  for (const auto& e : examples()["examples"])
    if (e["id"] == id) return e;
  throw std::runtime_error("no example " + id);
}

Message message_for(const nlohmann::json& e) {
  const auto& msgs = examples()["messages"];
  std::string which = e["message"];
  auto m = parse_message(msgs[which]["text"].get<std::string>());
  EXPECT_TRUE(m.ok());
  Message out = m.value();
  if (which == "test-response") {
    // vectors/README.md §2: the printed Content-Digest of test-response is wrong; B.2.4 uses the real one.
    out.set("Content-Digest", msgs[which]["contentDigestIssue"]["sha512OfBody"].get<std::string>());
  }
  return out;
}

SignatureParams params_of(const nlohmann::json& e) {
  std::string label = e["label"];
  auto d = sf::parse_dictionary(e["signatureInputHeader"].get<std::string>());
  EXPECT_TRUE(d.ok());
  auto* m = sf::find_member(d.value(), label);
  EXPECT_NE(m, nullptr);
  return SignatureParams{m->inner};
}

// Keys of Appendix B.1 that the suite API can build from raw JWK members.
KeyStore appendix_b_keys(std::vector<std::string>& missing) {
  KeyStore ks;
  const auto& keys = examples()["keys"];
  for (const char* kid : {"test-key-ed25519", "test-key-ecc-p256", "test-key-rsa-pss", "test-key-rsa"}) {
    auto n = pqsig::webbotauth::add_jwks(ks, keys[kid]["jwk"].dump());  // through jose::load_jwk
    if (!n) missing.push_back(std::string(kid) + ": " + n.error().message);
  }
  auto secret = base64_decode(keys["test-shared-secret"]["base64"].get<std::string>());
  auto mac = SigningKey::from_private(*find_suite("hmac-sha256").value(), secret.value());
  if (mac) ks.add_mac("test-shared-secret", std::move(mac.value()));
  else missing.push_back("test-shared-secret: " + mac.error().message);
  return ks;
}

// The Appendix B examples predate the safe defaults: B.2.1 / B.2.4 / B.2.5 / B.3 do not cover
// "@authority". Verifying them needs this explicit relaxation (issue 10, item 1).
VerifyPolicy at_vector_time() {
  VerifyPolicy p;
  p.now = 1618884473;
  p.fail_on_invalid = true;
  p.require_authority = false;
  return p;
}

}  // namespace

TEST(Rfc9421Base, B2RequestAndResponseExamples) {
  int n = 0;
  for (const char* id : {"B.2.1", "B.2.2", "B.2.3", "B.2.4", "B.2.5", "B.2.6"}) {
    const auto& e = example(id);
    Message m = message_for(e);
    BaseError be;
    auto base = signature_base(m, params_of(e), nullptr, &be);
    ASSERT_TRUE(base.ok()) << id << ": " << base.error().what();
    EXPECT_EQ(base.value(), e["signatureBase"].get<std::string>()) << id;
    // Canonical re-serialization of Signature-Input reproduces the printed value.
    EXPECT_EQ(e["label"].get<std::string>() + "=" + params_of(e).serialize().value(),
              e["signatureInputHeader"].get<std::string>());
    ++n;
  }
  EXPECT_EQ(n, 6);
}

TEST(Rfc9421Base, B3ProxyExample) {
  const auto& e = example("B.3");
  auto m = parse_message(e["signedRequest"]["text"].get<std::string>());
  ASSERT_TRUE(m.ok());
  auto base = signature_base(m.value(), params_of(e));
  ASSERT_TRUE(base.ok()) << base.error().what();
  EXPECT_EQ(base.value(), e["signatureBase"].get<std::string>());
}

TEST(Rfc9421Base, B4TransformationVariants) {
  const auto& e = example("B.4");
  int matched = 0, differed = 0;
  for (const auto& v : e["variants"]) {
    auto m = parse_message(v["message"]["text"].get<std::string>());
    ASSERT_TRUE(m.ok());
    auto base = signature_base(m.value(), params_of(e));
    ASSERT_TRUE(base.ok()) << base.error().what();
    if (v["expectedVerification"].get<bool>()) {
      EXPECT_EQ(base.value(), e["signatureBase"].get<std::string>()) << v["description"];
      ++matched;
    } else {
      EXPECT_NE(base.value(), e["signatureBase"].get<std::string>()) << v["description"];
      ++differed;
    }
  }
  EXPECT_EQ(matched, 4);
  EXPECT_EQ(differed, 2);
}

TEST(Rfc9421Verify, AppendixBExamplesVerify) {
  std::vector<std::string> missing;
  KeyStore ks = appendix_b_keys(missing);
  EXPECT_TRUE(missing.empty()) << missing.front();
  int valid = 0;
  for (const char* id : {"B.2.1", "B.2.2", "B.2.3", "B.2.4", "B.2.5", "B.2.6"}) {
    const auto& e = example(id);
    Message m = message_for(e);
    m.set("Signature-Input", e["signatureInputHeader"].get<std::string>());
    m.set("Signature", e["signatureHeader"].get<std::string>());
    auto rep = verify_message(m, ks, at_vector_time());
    ASSERT_EQ(rep.verdicts.size(), 1u) << id;
    const auto& v = rep.verdicts[0];
    EXPECT_EQ(v.outcome, Outcome::valid) << id << ": " << reason_name(v.reason) << " " << v.detail;
    EXPECT_EQ(v.signature_base, e["signatureBase"].get<std::string>());
    EXPECT_TRUE(rep.policy_satisfied) << rep.policy_detail;
    ++valid;
  }
  // B.3 and B.4 (valid variants verify; changed covered components do not)
  {
    const auto& e = example("B.3");
    auto m = parse_message(e["signedRequest"]["text"].get<std::string>()).value();
    auto rep = verify_message(m, ks, at_vector_time());
    ASSERT_EQ(rep.verdicts.size(), 1u);
    EXPECT_EQ(rep.verdicts[0].outcome, Outcome::valid) << rep.verdicts[0].detail;
    ++valid;
  }
  {
    const auto& e = example("B.4");
    for (const auto& var : e["variants"]) {
      auto m = parse_message(var["message"]["text"].get<std::string>()).value();
      auto rep = verify_message(m, ks, at_vector_time());
      ASSERT_EQ(rep.verdicts.size(), 1u);
      const auto& v = rep.verdicts[0];
      if (var["expectedVerification"].get<bool>()) {
        EXPECT_EQ(v.outcome, Outcome::valid) << var["description"] << " " << v.detail;
        ++valid;
      } else {
        EXPECT_EQ(v.outcome, Outcome::invalid) << var["description"];
        EXPECT_EQ(v.reason, Reason::signature_mismatch);
      }
    }
  }
  EXPECT_EQ(valid, 11) << "B.2.1-B.2.6, B.3, 4 valid B.4 variants";
}

// Issue 10 item 1: the DEFAULT policy refuses what does not bind the authority or is not fresh.
TEST(Rfc9421Verify, DefaultPolicyRequiresAuthorityAndFreshness) {
  std::vector<std::string> missing;
  KeyStore ks = appendix_b_keys(missing);
  auto signed_example = [&](const char* id) {
    const auto& e = example(id);
    Message m = message_for(e);
    m.set("Signature-Input", e["signatureInputHeader"].get<std::string>());
    m.set("Signature", e["signatureHeader"].get<std::string>());
    return m;
  };
  VerifyPolicy dflt;
  dflt.now = 1618884473;
  // B.2.1 covers no component at all: valid signature, but it binds no authority.
  auto r1 = verify_message(signed_example("B.2.1"), ks, dflt);
  ASSERT_EQ(r1.verdicts.size(), 1u);
  EXPECT_EQ(r1.verdicts[0].reason, Reason::required_component_not_covered) << r1.verdicts[0].detail;
  EXPECT_FALSE(r1.policy_satisfied);
  // B.2.2 covers "@authority": accepted at its time, and for default_lifetime after it.
  auto r2 = verify_message(signed_example("B.2.2"), ks, dflt);
  EXPECT_TRUE(r2.policy_satisfied) << r2.policy_detail;
  VerifyPolicy later = dflt;
  later.now = 1618884473 + kDefaultLifetime + later.clock_skew;
  EXPECT_TRUE(verify_message(signed_example("B.2.2"), ks, later).policy_satisfied);
  // ... but no longer once that lifetime is over (it has no expires): not fresh.
  later.now += 1;
  auto r3 = verify_message(signed_example("B.2.2"), ks, later);
  EXPECT_EQ(r3.verdicts[0].reason, Reason::too_old) << r3.verdicts[0].detail;
  EXPECT_FALSE(r3.policy_satisfied);
  // A changed Host breaks the signature of the label that covers it.
  Message moved = signed_example("B.2.2");
  moved.set("Host", "example.org");
  EXPECT_EQ(verify_message(moved, ks, dflt).verdicts[0].reason, Reason::signature_mismatch);
  // B.2.3 covers "@authority" too; and a response binds the request's authority only with ;req.
  EXPECT_TRUE(verify_message(signed_example("B.2.3"), ks, dflt).policy_satisfied);
  auto r4 = verify_message(signed_example("B.2.4"), ks, dflt);
  EXPECT_EQ(r4.verdicts[0].reason, Reason::required_component_not_covered);
  // Relaxing is explicit.
  VerifyPolicy relaxed = dflt;
  relaxed.require_authority = false;
  EXPECT_TRUE(verify_message(signed_example("B.2.1"), ks, relaxed).policy_satisfied);
}

TEST(Rfc9421Verify, DefaultPolicyBoundsTheValidityWindow) {
  auto key = SigningKey::from_private(*find_suite("hmac-sha256").value(), bytes(32, 7));
  ASSERT_TRUE(key.ok()) << key.error().what();
  KeyStore ks;
  ks.add_mac("k", SigningKey::from_private(*find_suite("hmac-sha256").value(), bytes(32, 7)).value());
  auto sign = [&](std::int64_t created, std::optional<std::int64_t> expires) {
    auto m = parse_message("GET / HTTP/1.1\r\nHost: a.example\r\n\r\n").value();
    SignSpec s;
    s.label = "s";
    s.key = &key.value();
    s.components = {component("@authority")};
    s.created = created;
    s.expires = expires;
    s.keyid = "k";
    EXPECT_TRUE(sign_message(m, {s}).ok());
    return m;
  };
  VerifyPolicy dflt;
  dflt.now = 2000;
  EXPECT_TRUE(verify_message(sign(1000, 1000 + kDefaultMaxWindow), ks, dflt).policy_satisfied);
  auto r = verify_message(sign(1000, 1000 + kDefaultMaxWindow + 1), ks, dflt);
  EXPECT_EQ(r.verdicts[0].reason, Reason::invalid_window);
  VerifyPolicy unbounded = dflt;
  unbounded.max_window = std::nullopt;
  EXPECT_TRUE(verify_message(sign(1000, 1000 + 100 * kDefaultMaxWindow), ks, unbounded).policy_satisfied);
  // created is required by default (no created: no freshness).
  auto m = parse_message("GET / HTTP/1.1\r\nHost: a.example\r\n\r\n").value();
  SignSpec s;
  s.label = "s";
  s.key = &key.value();
  s.components = {component("@authority")};
  s.keyid = "k";
  ASSERT_TRUE(sign_message(m, {s}).ok());
  EXPECT_EQ(verify_message(m, ks, dflt).verdicts[0].reason, Reason::missing_created);
}

TEST(Rfc9421Sign, DeterministicExamplesReproduceSignatureBytes) {
  const auto& keys = examples()["keys"];
  int reproduced = 0;
  for (const char* id : {"B.2.5", "B.2.6"}) {
    const auto& e = example(id);
    Result<SigningKey> key = Error{Errc::internal, ""};
    if (std::string(id) == "B.2.5") {
      auto secret = base64_decode(keys["test-shared-secret"]["base64"].get<std::string>()).value();
      key = SigningKey::from_private(*find_suite("hmac-sha256").value(), secret);
    } else {
      key = pqsig::test::sk_from_jwk(keys["test-key-ed25519"]["jwk"]);
    }
    ASSERT_TRUE(key.ok()) << id << ": " << key.error().what();
    Message m = message_for(e);
    SignatureParams p = params_of(e);
    SignSpec spec;
    spec.label = e["label"];
    spec.key = &key.value();
    spec.components = p.components();
    spec.created = p.created();
    spec.keyid = p.keyid();
    spec.include_alg = false;
    auto bases = sign_message(m, {spec});
    ASSERT_TRUE(bases.ok()) << bases.error().what();
    EXPECT_EQ(bases.value()[0], e["signatureBase"].get<std::string>());
    EXPECT_EQ(m.get("signature-input").value(), e["signatureInputHeader"].get<std::string>());
    EXPECT_EQ(m.get("signature").value(), e["signatureHeader"].get<std::string>()) << id;
    ++reproduced;
  }
  // B.4 (Ed25519) as well
  {
    const auto& e = example("B.4");
    auto key = pqsig::test::sk_from_jwk(keys["test-key-ed25519"]["jwk"]);
    ASSERT_TRUE(key.ok()) << key.error().what();
    auto m = parse_message(e["variants"][0]["message"]["text"].get<std::string>()).value();
    m.remove("Signature-Input");
    m.remove("Signature");
    SignatureParams p = params_of(e);
    SignSpec spec{e["label"], &key.value(), p.components(), p.created(), {}, {}, p.keyid(), {}, false, {}};
    auto bases = sign_message(m, {spec});
    ASSERT_TRUE(bases.ok()) << bases.error().what();
    EXPECT_EQ(m.get("signature").value(), e["signatureHeader"].get<std::string>());
    ++reproduced;
  }
  EXPECT_EQ(reproduced, 3);
}

TEST(Rfc9421Base, DerivedComponents) {
  // RFC 9421 §2.2 examples
  auto m = parse_message("POST /path?param=value HTTP/1.1\nHost: www.example.com\n\n").value();
  auto val = [&](const char* c) {
    auto comp = parse_component(c).value();
    auto r = component_value(m, comp);
    return r ? r.value() : "ERR:" + r.error().message;
  };
  EXPECT_EQ(val("@method"), "POST");
  EXPECT_EQ(val("@target-uri"), "https://www.example.com/path?param=value");
  EXPECT_EQ(val("@authority"), "www.example.com");
  EXPECT_EQ(val("@scheme"), "https");
  EXPECT_EQ(val("@request-target"), "/path?param=value");
  EXPECT_EQ(val("@path"), "/path");
  EXPECT_EQ(val("@query"), "?param=value");
  EXPECT_EQ(val("@query-param;name=\"param\""), "value");
  EXPECT_EQ(val("@status").rfind("ERR:", 0), 0u);

  auto m2 = parse_message("GET /path HTTP/1.1\nHost: WWW.Example.COM:443\n\n").value();
  EXPECT_EQ(component_value(m2, component("@query")).value(), "?");
  EXPECT_EQ(component_value(m2, component("@authority")).value(), "www.example.com");

  // §2.2.8 query parameters, re-encoded
  auto m3 = parse_message(
                "GET /parameters?var=this%20is%20a%20big%0Amultiline%20value&bar=with+plus+whitespace"
                "&fa%C3%A7ade%22%3A%20=something HTTP/1.1\nHost: example.com\n\n")
                .value();
  auto qp = [&](const char* name) {
    Component c = component("@query-param");
    c.params.emplace_back("name", sf::BareItem::string(name));
    auto r = component_value(m3, c);
    return r ? r.value() : "ERR";
  };
  EXPECT_EQ(qp("var"), "this%20is%20a%20big%0Amultiline%20value");
  EXPECT_EQ(qp("bar"), "with%20plus%20whitespace");
  EXPECT_EQ(qp("fa%C3%A7ade%22%3A%20"), "something");
  EXPECT_EQ(qp("missing"), "ERR");
  auto m4 = parse_message("GET /p?a=1&a=2 HTTP/1.1\nHost: example.com\n\n").value();
  Component ca = component("@query-param");
  ca.params.emplace_back("name", sf::BareItem::string("a"));
  EXPECT_FALSE(component_value(m4, ca).ok());

  auto resp = parse_message("HTTP/1.1 200 OK\nDate: x\n\n").value();
  EXPECT_EQ(component_value(resp, component("@status")).value(), "200");
  // ;req against the request
  auto c = parse_component("@authority;req").value();
  EXPECT_EQ(component_value(resp, c, &m).value(), "www.example.com");
  BaseError be;
  EXPECT_FALSE(component_value(resp, c, nullptr, &be).ok());
  EXPECT_EQ(be.reason, Reason::missing_request);
}

TEST(Rfc9421Base, FieldComponents) {
  // RFC 9421 §2.1 examples
  auto m = parse_message(
               "GET / HTTP/1.1\nHost: www.example.com\nX-OWS-Header:   Leading and trailing whitespace.   \n"
               "X-Obs-Fold-Header: Obsolete line folding.\nCache-Control: max-age=60\nCache-Control:    must-revalidate\n"
               "Example-Dict:  a=1,    b=2;x=1;y=2,   c=(a   b   c)\nExample-Header: value, with, lots\n"
               "Example-Header: of, commas\n\n")
               .value();
  auto val = [&](const char* c) {
    auto r = component_value(m, parse_component(c).value());
    return r ? r.value() : "ERR";
  };
  EXPECT_EQ(val("x-ows-header"), "Leading and trailing whitespace.");
  EXPECT_EQ(val("cache-control"), "max-age=60, must-revalidate");
  EXPECT_EQ(val("example-dict"), "a=1,    b=2;x=1;y=2,   c=(a   b   c)");
  EXPECT_EQ(val("example-dict;sf"), "a=1, b=2;x=1;y=2, c=(a b c)");
  EXPECT_EQ(val("example-dict;key=\"a\""), "1");
  EXPECT_EQ(val("example-dict;key=\"b\""), "2;x=1;y=2");
  EXPECT_EQ(val("example-dict;key=\"c\""), "(a b c)");
  EXPECT_EQ(val("example-dict;key=\"d\""), "ERR");
  EXPECT_EQ(val("example-header"), "value, with, lots, of, commas");
  EXPECT_EQ(val("example-header;bs"), ":dmFsdWUsIHdpdGgsIGxvdHM=:, :b2YsIGNvbW1hcw==:");
  EXPECT_EQ(val("missing-header"), "ERR");
  EXPECT_EQ(val("example-header;sf;bs"), "ERR");
  EXPECT_EQ(val("example-header;foo"), "ERR");  // unknown parameter
  EXPECT_EQ(val("Example-Header"), "ERR");      // names must be lowercase
}

TEST(Rfc9421Base, RepeatedComponentsRefused) {
  auto m = parse_message("GET / HTTP/1.1\nHost: example.com\n\n").value();
  auto p = sf::parse_inner_list("(\"@authority\" \"@method\" \"@authority\");created=1").value();
  BaseError be;
  auto r = signature_base(m, SignatureParams{p}, nullptr, &be);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(be.reason, Reason::duplicate_component);
  // same name, different parameters: distinct identifiers
  auto p2 = sf::parse_inner_list("(\"host\" \"host\";bs)").value();
  EXPECT_TRUE(signature_base(m, SignatureParams{p2}).ok());
}

TEST(Rfc9421Digest, ContentDigest) {
  const auto& req = examples()["messages"]["test-request"];
  std::string body = req["body"];
  EXPECT_EQ(content_digest(body, DigestAlg::sha512),
            "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:");
  // RFC 9530 Appendix B example body {"hello": "world"}
  EXPECT_EQ(content_digest(body, DigestAlg::sha256), "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:");
  EXPECT_TRUE(verify_content_digest(content_digest(body), body).ok());
  EXPECT_FALSE(verify_content_digest(content_digest(body), body + " ").ok());
  EXPECT_FALSE(verify_content_digest("md5=:AAAA:", body).ok());
  EXPECT_TRUE(verify_content_digest("md5=:AAAA:, " + content_digest(body, DigestAlg::sha512), body).ok());
  const auto& resp = examples()["messages"]["test-response"];
  EXPECT_EQ(content_digest(resp["body"].get<std::string>(), DigestAlg::sha512),
            resp["contentDigestIssue"]["sha512OfBody"].get<std::string>());
}

TEST(Rfc9421Message, ParseAndPrint) {
  auto m = parse_message("GET /a HTTP/1.1\r\nHost: x\r\nA:  b  \r\n\r\nbody");
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->crlf);
  EXPECT_EQ(m->get("a").value(), "b");
  EXPECT_EQ(m->body, "body");
  EXPECT_EQ(serialize_message(m.value()), "GET /a HTTP/1.1\r\nHost: x\r\nA: b\r\n\r\nbody");
  EXPECT_EQ(header_section_size(m.value()), serialize_message(m.value()).size() - 4);
  EXPECT_FALSE(parse_message("GET /a HTTP/1.1\nHost: x\n folded\n\n").ok());
  EXPECT_FALSE(parse_message("GET /a\n\n").ok());
  EXPECT_FALSE(parse_message("HTTP/1.1 20 OK\n\n").ok());
  EXPECT_FALSE(parse_message("GET /a HTTP/1.1\nBad Name: x\n\n").ok());
}

// Issue 10 item 11: a status code is three digits 100..999; "020" printed back as "20".
TEST(Rfc9421Message, StatusCodeIsStrictlyThreeDigitsFrom100) {
  EXPECT_FALSE(parse_message("HTTP/1.1 020 OK\r\n\r\n").ok());
  EXPECT_FALSE(parse_message("HTTP/1.1 000\r\n\r\n").ok());
  EXPECT_FALSE(parse_message("HTTP/1.1 1000 OK\r\n\r\n").ok());
  EXPECT_FALSE(parse_message("HTTP/1.1 +20 OK\r\n\r\n").ok());
  for (const char* text : {"HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 200 OK\r\n\r\n", "HTTP/1.1 999\r\n\r\n"}) {
    auto m = parse_message(text);
    ASSERT_TRUE(m.ok()) << text;
    // What is printed parses back to the same status.
    auto again = parse_message(serialize_message(m.value()));
    ASSERT_TRUE(again.ok()) << text;
    EXPECT_EQ(again->status, m->status);
    EXPECT_EQ(serialize_message(again.value()), text);
  }
}

TEST(Rfc9421Message, HeaderLimitsAreTypedErrors) {
  std::string many = "GET / HTTP/1.1\r\n";
  for (int k = 0; k < 1025; ++k) many += "X-" + std::to_string(k) + ": v\r\n";
  auto r = parse_message(many + "\r\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::policy);
  MessageLimits lim;
  lim.max_field_lines = 2000;
  EXPECT_TRUE(parse_message(many + "\r\n", lim).ok());
  std::string big = "GET / HTTP/1.1\r\nX: " + std::string(300 * 1024, 'a') + "\r\n\r\n";
  EXPECT_EQ(parse_message(big).error().code, Errc::policy);
  std::string big_start = "GET /" + std::string(300 * 1024, 'a') + " HTTP/1.1\r\n\r\n";
  EXPECT_EQ(parse_message(big_start).error().code, Errc::policy);
  // Unlimited limits are unlimited (the check once overflowed: max + 2 == 1).
  const MessageLimits none{static_cast<std::size_t>(-1), static_cast<std::size_t>(-1)};
  EXPECT_TRUE(parse_message("GET / HTTP/1.1\r\nHost: x\r\n\r\n", none).ok());
  EXPECT_TRUE(parse_message(big, none).ok());
  // The body is not part of the header section.
  EXPECT_TRUE(parse_message("POST / HTTP/1.1\r\nHost: x\r\n\r\n" + std::string(300 * 1024, 'b')).ok());
}

TEST(Rfc9421Verify, TooManyLabelsRefusedBeforeAnyWork) {
  std::string si, sig;
  for (int k = 0; k < 17; ++k) {
    si += (k ? ", " : "") + std::string("l") + std::to_string(k) + "=(\"@authority\");created=1;keyid=\"k\"";
    sig += (k ? ", " : "") + std::string("l") + std::to_string(k) + "=:AAAA:";
  }
  auto m = parse_message("GET / HTTP/1.1\r\nHost: a\r\nSignature-Input: " + si + "\r\nSignature: " + sig + "\r\n\r\n").value();
  KeyStore ks;
  VerifyPolicy p;
  p.now = 1;
  auto rep = verify_message(m, ks, p);
  ASSERT_EQ(rep.verdicts.size(), 1u);
  EXPECT_EQ(rep.verdicts[0].reason, Reason::too_many_labels);
  EXPECT_FALSE(rep.policy_satisfied);
  p.max_labels = 17;
  EXPECT_EQ(verify_message(m, ks, p).verdicts.size(), 17u);
}
