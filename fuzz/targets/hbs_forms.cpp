// Stateful hash-based public-key forms (pqsig/jose.hpp): RFC 9802 SPKI DER (HSS, XMSS, XMSS^MT),
// RFC 8778 COSE_Key (HSS), our AKP JWK, and the seam reading an HSS, XMSS or XMSS^MT key's parameter
// set (byte 0 mod 6: 3, 4, 5). Byte 0 picks the form.
// Properties: a key that parses passes check_hbs_public_key, re-encodes to the same SPKI bytes
// (DER is canonical), and its COSE_Key / JWK re-parse to the same key.
#include "harness.hpp"
#include "pqsig/httpsig.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/stateful_key.hpp"

using namespace pqsig;

namespace {
void hbs_forms_check_key(const jose::HbsPublicKey& k) {
  fuzz::check(jose::check_hbs_public_key(k).ok(), "a parsed HBS key fails its structure check");
  auto j = jose::hbs_to_jwk(k);
  fuzz::check(j.ok(), "a parsed HBS key has no JWK");
  auto kj = jose::hbs_from_jwk(*j);
  fuzz::check(kj.ok() && kj->key == k.key && kj->kind == k.kind, "JWK round trip changed the key");
  if (k.kind == jose::HbsKind::hss) {
    auto c = jose::hss_to_cose_key(k.key);
    fuzz::check(c.ok(), "a parsed HSS key has no COSE_Key");
    auto kc = jose::hss_from_cose_key(*c);
    fuzz::check(kc.ok() && *kc == k.key, "COSE_Key round trip changed the key");
  }
}
}  // namespace

PQSIG_FUZZ_TARGET(hbs_forms) {
  if (size == 0) return 0;
  const byte_span in(data + 1, size - 1);
  switch (data[0] % 6) {
    case 0: {
      auto k = jose::hbs_from_spki_der(in);
      if (!k) break;
      hbs_forms_check_key(*k);
      auto again = jose::hbs_to_spki_der(*k);
      fuzz::check(again.ok() && *again == bytes(in.begin(), in.end()), "SPKI is not re-encoded byte for byte");
      break;
    }
    case 1: {
      bytes kid;
      auto pk = jose::hss_from_cose_key(in, &kid);
      if (pk) hbs_forms_check_key({jose::HbsKind::hss, *pk});
      break;
    }
    case 2: {
      auto k = jose::hbs_from_jwk(fuzz::as_text(data + 1, size - 1));
      if (k) hbs_forms_check_key(*k);
      (void)jose::is_hbs_jwk(fuzz::as_text(data + 1, size - 1));
      break;
    }
    default: {
      // The seam reads a key's parameter set (suite_for_public_key, HTTP's family-level algs
      // hss-lms and xmss; for XMSS the registry named as a JWK's alg names it): it agrees with the
      // key forms' check, and a key it admits is a VerifyingKey filed in a KeyStore.
      struct HbsSeamForm {
        jose::HbsKind kind;
        Family family;
        bool multi_tree;
      };
      static constexpr HbsSeamForm kHbsSeamForms[] = {{jose::HbsKind::hss, Family::lms, false},
                                                      {jose::HbsKind::xmss, Family::xmss, false},
                                                      {jose::HbsKind::xmssmt, Family::xmss, true}};
      const HbsSeamForm& f = kHbsSeamForms[(data[0] % 6) - 3];
      auto s = suite_for_public_key(f.family, in, f.multi_tree);
      fuzz::check(s.ok() == jose::check_hbs_public_key({f.kind, bytes(in.begin(), in.end())}).ok(),
                  "the seam and the key forms disagree on a public key");
      if (!s) break;
      fuzz::check((*s)->family == f.family && (*s)->stateful && (*s)->public_key_size == in.size(),
                  "a key's suite does not describe the key");
      auto vk = VerifyingKey::from_public(**s, in);
      fuzz::check(vk.ok(), "an admitted key is not a verifying key of its suite");
      if (!vk) break;
      httpsig::KeyStore store;
      store.add("k", std::move(*vk));
      fuzz::check(store.resolve("k").has_value() && store.resolve("k")->suite == *s, "filed key not found");
      break;
    }
  }
  return 0;
}
