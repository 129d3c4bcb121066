// Suite backend for the KEM rows of the registry: ml-kem-512/768/1024 (FIPS 203) and the hybrid
// KEMs x-wing, x25519-ml-kem-768 and ml-kem-768+x25519-hkdf (include/pqsig/kem.hpp).
//
// Private keys: ML-KEM takes the 64-byte seed d ‖ z (canonical) or the expanded FIPS 203 dk
// (hash-checked, §7.3); private_key() returns whichever form the key was created from.
// The hybrids take their seed (layouts in include/pqsig/kem.hpp and docs/settlement-kem.md).
// encaps_derand(eseed): ML-KEM eseed = m (32 bytes); hybrids eseed = m ‖ ek_X (64 bytes).
#include <optional>
#include <string>

#include "pqsig/kem.hpp"
#include "pqsig/mlkem.hpp"
#include "suites/backend.hpp"

namespace pqsig::detail {

namespace {

std::optional<mlkem::ParameterSet> mlkem_set(const SuiteInfo& s) {
  if (s.family == Family::ml_kem) return s.params.mlkem;
  return std::nullopt;
}
std::optional<kem::Hybrid> hybrid_kind(const SuiteInfo& s) {
  if (s.family == Family::hybrid_kem) return s.params.hybrid;
  return std::nullopt;
}
Error not_ours(const SuiteInfo& s) {
  return Error{Errc::unsupported, std::string(s.id) + ": not an ML-KEM or hybrid KEM suite"};
}

Result<Encapsulation> to_encapsulation(Result<mlkem::Encapsulated> r) {
  if (!r) return r.error();
  return Encapsulation{std::move(r->c), std::move(r->k)};
}

// ---------------------------------------------------------------- ML-KEM
// Prepared keys: the matrix Â, t̂ and H(ek) are computed once when the key is imported (and
// ŝ decoded for the private key), so each Encaps / Decaps skips SampleNTT, the hash of ek and
// the decoding.
struct MlKemDecaps final : KemDecapsImpl {
  explicit MlKemDecaps(mlkem::DecapsKey k) : key(std::move(k)) {}
  mlkem::DecapsKey key;
  SecretBytes priv;  // the form the key was imported from (seed or expanded dk)
  byte_span public_key() const noexcept override { return key.encaps_key(); }
  byte_span private_key() const noexcept override { return priv.span(); }
  Result<SecretBytes> decaps(byte_span ct) const override { return key.decaps(ct); }
  byte_span expanded_key() const noexcept override { return key.expanded(); }
};

struct MlKemEncaps final : KemEncapsImpl {
  explicit MlKemEncaps(mlkem::EncapsKey k) : key(std::move(k)) {}
  mlkem::EncapsKey key;
  byte_span public_key() const noexcept override { return key.bytes(); }
  Result<Encapsulation> encaps() const override { return to_encapsulation(key.encaps()); }
  Result<Encapsulation> encaps_derand(byte_span m) const override {
    return to_encapsulation(key.encaps_internal(m));
  }
};

// ---------------------------------------------------------------- hybrids
struct HybridDecaps final : KemDecapsImpl {
  explicit HybridDecaps(kem::HybridPrivateKey k) : key(std::move(k)) {}
  kem::HybridPrivateKey key;
  byte_span public_key() const noexcept override { return key.public_key(); }
  byte_span private_key() const noexcept override { return key.seed(); }
  Result<SecretBytes> decaps(byte_span ct) const override { return key.decaps(ct); }
};

struct HybridEncaps final : KemEncapsImpl {
  kem::Hybrid kind{};
  bytes pk;
  byte_span public_key() const noexcept override { return pk; }
  Result<Encapsulation> encaps() const override { return to_encapsulation(kem::encaps(kind, pk)); }
  Result<Encapsulation> encaps_derand(byte_span eseed) const override {
    return to_encapsulation(kem::encaps_derand(kind, pk, eseed));
  }
};

// ---------------------------------------------------------------- entry points
Result<std::unique_ptr<KemDecapsImpl>> mlkem_from_private(const SuiteInfo& s, byte_span priv) {
  if (auto ps = mlkem_set(s)) {
    const auto& P = mlkem::params(*ps);
    if (priv.size() != mlkem::kSeedSize && priv.size() != P.dk_size)
      return Error{Errc::invalid_length, std::string(s.id) + ": private key must be the 64-byte seed or the " +
                                             std::to_string(P.dk_size) + "-byte expanded key, got " +
                                             std::to_string(priv.size())};
    // The seed runs KeyGen once (Â kept); the expanded dk is hash-checked (FIPS 203 §7.3).
    auto key = priv.size() == mlkem::kSeedSize ? mlkem::DecapsKey::from_seed(*ps, priv)
                                               : mlkem::DecapsKey::from_expanded(*ps, priv);
    if (!key) return key.error();
    auto impl = std::make_unique<MlKemDecaps>(std::move(key.value()));
    impl->priv = SecretBytes(priv);
    return std::unique_ptr<KemDecapsImpl>(std::move(impl));
  }
  if (auto h = hybrid_kind(s)) {
    auto k = kem::HybridPrivateKey::from_seed(*h, priv);
    if (!k) return k.error();
    return std::unique_ptr<KemDecapsImpl>(std::make_unique<HybridDecaps>(std::move(k.value())));
  }
  return not_ours(s);
}

// Key generation into a new key (Backend::kem_generate): ML-KEM.KeyGen (FIPS 203 Algorithm 19)
// with d ‖ z drawn into the key's own buffer (no second copy of the seed); a hybrid's seed, then
// its import above.
Result<std::unique_ptr<KemDecapsImpl>> mlkem_generate(const SuiteInfo& s) {
  const auto ps = mlkem_set(s);
  const auto h = hybrid_kind(s);
  if (!ps && !h) return not_ours(s);
  SecretBytes seed(ps ? mlkem::kSeedSize : kem::sizes(*h).seed);
  if (!random_bytes(seed.mut_span())) return Error{Errc::rng_failure, std::string(s.id) + ": OS random source failed"};
  if (!ps) return mlkem_from_private(s, seed.span());
  auto key = mlkem::DecapsKey::from_seed(*ps, seed.span());
  if (!key) return key.error();
  auto impl = std::make_unique<MlKemDecaps>(std::move(key.value()));
  impl->priv = std::move(seed);
  return std::unique_ptr<KemDecapsImpl>(std::move(impl));
}

Result<std::unique_ptr<KemEncapsImpl>> mlkem_from_public(const SuiteInfo& s, byte_span pub) {
  if (auto ps = mlkem_set(s)) {
    auto key = mlkem::EncapsKey::from_bytes(*ps, pub);
    if (!key) return key.error();
    return std::unique_ptr<KemEncapsImpl>(std::make_unique<MlKemEncaps>(std::move(key.value())));
  }
  if (auto h = hybrid_kind(s)) {
    if (auto st = kem::check_public_key(*h, pub); !st) return st.error();
    auto impl = std::make_unique<HybridEncaps>();
    impl->kind = *h;
    impl->pk.assign(pub.begin(), pub.end());
    return std::unique_ptr<KemEncapsImpl>(std::move(impl));
  }
  return not_ours(s);
}

// The cold path (Backend::kem_encaps_once / kem_decaps_once): FIPS 203 Encaps from the encoded
// ek (§7.2 check fused with its decoding) and Decaps from the expanded dk (§7.3 hash check), no
// prepared key. A 64-byte seed runs KeyGen first (that is what decapsulating from a seed costs).
Result<Encapsulation> mlkem_encaps_once(const SuiteInfo& s, byte_span pub) {
  if (auto ps = mlkem_set(s)) return to_encapsulation(mlkem::encaps(*ps, pub));
  auto k = mlkem_from_public(s, pub);
  if (!k) return k.error();
  return (*k)->encaps();
}
Result<SecretBytes> mlkem_decaps_once(const SuiteInfo& s, byte_span priv, byte_span ct) {
  if (auto ps = mlkem_set(s); ps && priv.size() == mlkem::params(*ps).dk_size) return mlkem::decaps(*ps, priv, ct);
  auto k = mlkem_from_private(s, priv);
  if (!k) return k.error();
  return (*k)->decaps(ct);
}

// Provider operations: ML-KEM only (the hybrids have no FIPS dk form to exchange).
unsigned mlkem_operations(const SuiteInfo& s) noexcept {
  return mlkem_set(s) ? provider::kKeygen | provider::kEncaps | provider::kDecaps : 0u;
}
// FIPS 203, Algorithm 19: ML-KEM.KeyGen → (ek, dk).
Result<EncodedKeyPair> mlkem_keypair(const SuiteInfo& s) {
  const auto ps = mlkem_set(s);
  if (!ps) return not_ours(s);
  auto k = mlkem::keygen(*ps);
  if (!k) return k.error();
  return EncodedKeyPair{std::move(k->ek), std::move(k->dk)};
}

}  // namespace

const Backend* mlkem_backend() noexcept {
  static const Backend b = [] {
    Backend x;
    x.kem_from_private = &mlkem_from_private;
    x.kem_from_public = &mlkem_from_public;
    x.kem_generate = &mlkem_generate;
    x.kem_encaps_once = &mlkem_encaps_once;
    x.kem_decaps_once = &mlkem_decaps_once;
    x.operations = &mlkem_operations;
    x.keypair = &mlkem_keypair;
    return x;
  }();
  return &b;
}

}  // namespace pqsig::detail
