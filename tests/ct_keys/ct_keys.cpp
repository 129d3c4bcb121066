// Constant-time check for key import and use (run under valgrind memcheck, see CMakeLists.txt).
// The secret members of private JWKs are marked undefined after the (public) JSON structure is
// parsed; decoding them (constant-time base64url), building the keys (ML-DSA keygen from the
// seed and its prepared form, libsodium Ed25519, HMAC pads), checking the derived public key
// against the JWK's and signing must not branch on or index by them. Also: the constant-time hex
// and base64 decoders, prepared ML-DSA keys, composite ML-DSA + Ed25519 signing.
// Out of scope (documented): nlohmann's lexer scans the secret characters for '"' and '\\'
// while parsing, and OpenSSL's EC / RSA private-key code is not constant time under memcheck.
#include <cstdio>
#include <cstring>
#include <string>

#include "common/ct.hpp"
#include "jose/internal.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/mldsa.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;

namespace {
int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

const SuiteInfo& S(std::string_view id) { return *find_suite(id).value(); }

// Private JWK text of a suite from a fixed private key (public data at this point).
std::string jwk_for(std::string_view suite, std::uint8_t fill) {
  bytes priv(S(suite).private_key_size, fill);
  for (std::size_t i = 0; i < priv.size(); ++i) priv[i] = static_cast<std::uint8_t>(fill + 31 * i);
  auto k = SigningKey::from_private(S(suite), priv);
  if (!k) return {};
  return jose::to_jwk(*k, true).value();
}

// Parse the JWK (public structure), mark the secret member's characters undefined, then import.
void import_and_sign(std::string_view suite, const char* member, std::uint8_t fill) {
  const std::string text = jwk_for(suite, fill);
  check(!text.empty(), "key generation for the test");
  if (text.empty()) return;
  auto j = jose::detail::parse_strict(text, "JWK");
  check(j.ok(), "parse");
  if (!j) return;
  auto& secret = (*j)[member].get_ref<jose::detail::json::string_t&>();
  CT_SECRET(secret.data(), secret.size());
  auto m = jose::detail::material_from_json(*j, {});
  check(m.ok(), "material_from_json");
  if (!m) return;
  auto k = jose::detail::load_material(std::move(*m));
  check(k.ok() && k->signing.has_value(), "load_material");
  if (!k || !k->signing) return;
  const std::uint8_t msg[7] = {'m', 'e', 's', 's', 'a', 'g', 'e'};
  SignOptions o;
  o.deterministic = suite.starts_with("ml-dsa") && suite.find('+') == std::string_view::npos;
  auto sig = k->signing->sign(byte_span(msg, sizeof msg), o);
  check(sig.ok(), "sign");
  if (sig) {
    CT_DECLASSIFY(sig->data(), sig->size());  // a signature / tag is public output
    if (k->suite->cls == SuiteClass::mac) {
      check(k->signing->verify(byte_span(msg, sizeof msg), *sig).ok(), "mac verify");
    } else {
      check(k->verifying && k->verifying->verify(byte_span(msg, sizeof msg), *sig).ok(), "verify");
    }
  }
  CT_DECLASSIFY(secret.data(), secret.size());
  std::printf("%s: JWK \"%s\" import + sign ran with the secret marked undefined\n", std::string(suite).c_str(), member);
}
}  // namespace

int main() {
  // Constant-time decoders on secret text.
  {
    std::string b64u = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8";  // 0..31
    std::string b64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    std::string hex = "000102030405060708090a0b0c0d0e0f101112131415161718191A1B1C1D1E1F";
    CT_SECRET(b64u.data(), b64u.size());
    CT_SECRET(b64.data(), b64.size() - 1);  // the pad decides the public length
    CT_SECRET(hex.data(), hex.size());
    auto a = secret_base64url_decode(b64u);
    auto b = secret_base64_decode(b64);
    auto c = secret_from_hex(hex);
    check(a.ok() && b.ok() && c.ok(), "secret decoders");
    if (a && b && c) {
      std::string enc = secret_base64url_encode(a->span());  // encoding a secret: no secret-indexed table
      CT_DECLASSIFY(enc.data(), enc.size());
      check(enc == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", "secret_base64url_encode");
      CT_DECLASSIFY(a->data(), a->size());
      CT_DECLASSIFY(b->data(), b->size());
      CT_DECLASSIFY(c->data(), c->size());
      bool same = a->size() == 32 && b->size() == 32 && c->size() == 32;
      for (std::size_t i = 0; same && i < 32; ++i) same = (*a).data()[i] == i && (*b).data()[i] == i && (*c).data()[i] == i;
      check(same, "secret decoders' output");
    }
    std::printf("secret_base64url_decode / secret_base64_decode / secret_from_hex ran on secret text\n");
  }
  // Key import from private JWKs into prepared keys, then signing.
  import_and_sign("ml-dsa-44", "priv", 1);
  import_and_sign("ml-dsa-65", "priv", 2);
  import_and_sign("ed25519", "d", 3);
  import_and_sign("hmac-sha256", "k", 4);
  import_and_sign("ml-dsa-44+ed25519", "priv", 5);
  import_and_sign("ml-dsa-65+ed25519", "priv", 6);
  // Prepared ML-DSA keys directly (expanded secret key marked undefined).
  {
    auto k = SigningKey::from_private(S("ml-dsa-44"), bytes(32, 7)).value();
    auto sk = k.expanded_private_key().value();
    CT_SECRET(sk.data(), sk.size());
    auto p = mldsa::PreparedSigningKey::create(mldsa::Level::ml_dsa_44, sk);
    check(p.ok(), "PreparedSigningKey::create");
    if (p) {
      static std::uint8_t sig[mldsa::kMaxSigBytes];
      std::uint8_t rnd[32] = {9};
      CT_SECRET(rnd, sizeof rnd);
      mldsa::Options o;
      o.rnd = rnd;
      const std::uint8_t msg[3] = {1, 2, 3};
      check(p->sign(byte_span(msg, 3), mut_byte_span(sig, 2420), o).ok(), "prepared sign");
      CT_DECLASSIFY(sig, 2420);
      check(k.verify(byte_span(msg, 3), byte_span(sig, 2420)).ok() ||
                VerifyingKey::from_public(k.suite(), k.public_key())->verify(byte_span(msg, 3), byte_span(sig, 2420)).ok(),
            "prepared signature verifies");
    }
    CT_DECLASSIFY(sk.data(), sk.size());
    std::printf("ml-dsa-44: PreparedSigningKey create + sign ran with the expanded key marked undefined\n");
  }
  if (failures) std::printf("%d checks failed\n", failures);
  return failures == 0 ? 0 : 2;
}
