// Hybrid KEMs over ML-KEM-768 and X25519: X-Wing (draft-connolly-cfrg-xwing-kem),
// X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem) and the pqsig settlement combiner
// ml-kem-768+x25519-hkdf (docs/settlement-kem.md).
#include "pqsig/kem.hpp"

#include <cstring>

#include "classical/hkdf.hpp"
#include "classical/x25519.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::kem {

namespace {
constexpr auto kPs = mlkem::ParameterSet::ml_kem_768;
constexpr std::size_t kEkM = mlkem::kMlKem768.ek_size;  // 1184
constexpr std::size_t kCtM = mlkem::kMlKem768.ct_size;  // 1088
constexpr std::size_t kX = 32;

constexpr HybridSizes kXWing{kEkM + kX, 32, kCtM + kX, 32, 64};
constexpr HybridSizes kTls{kEkM + kX, 96, kCtM + kX, 64, 64};
constexpr HybridSizes kSettle{kEkM + kX, 96, kCtM + kX, 32, 64};

// draft-connolly-cfrg-xwing-kem §5.2: XWingLabel = "\./" "/^\" (0x5c2e2f2f5e5c).
constexpr std::uint8_t kXWingLabel[6] = {0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c};

void put_u32be(bytes& out, std::size_t n) {
  out.push_back(static_cast<std::uint8_t>(n >> 24));
  out.push_back(static_cast<std::uint8_t>(n >> 16));
  out.push_back(static_cast<std::uint8_t>(n >> 8));
  out.push_back(static_cast<std::uint8_t>(n));
}
// L(x) = u32be(len(x)) ‖ x
void put_lp(bytes& out, byte_span x) {
  put_u32be(out, x.size());
  out.insert(out.end(), x.begin(), x.end());
}

Error length_error(Hybrid h, const char* what, std::size_t want, std::size_t got) {
  return Error{Errc::invalid_length, std::string(id(h)) + ": " + what + " must be " + std::to_string(want) +
                                         " bytes, got " + std::to_string(got)};
}
}  // namespace

const HybridSizes& sizes(Hybrid h) noexcept {
  switch (h) {
    case Hybrid::x_wing: return kXWing;
    case Hybrid::x25519_mlkem768: return kTls;
    case Hybrid::mlkem768_x25519_hkdf: break;
  }
  return kSettle;
}

std::string_view id(Hybrid h) noexcept {
  switch (h) {
    case Hybrid::x_wing: return "x-wing";
    case Hybrid::x25519_mlkem768: return "x25519-ml-kem-768";
    case Hybrid::mlkem768_x25519_hkdf: break;
  }
  return "ml-kem-768+x25519-hkdf";
}

// draft-connolly-cfrg-xwing-kem §5.3: Combiner(ss_M, ss_X, ct_X, pk_X).
SecretBytes xwing_combine(byte_span ss_m, byte_span ss_x, byte_span ct_x, byte_span pk_x) {
  hash::Sha3_256 h;
  h.absorb(ss_m);
  h.absorb(ss_x);
  h.absorb(ct_x);
  h.absorb(pk_x);
  h.absorb(kXWingLabel, sizeof kXWingLabel);
  SecretBytes out(32);
  h.squeeze(out.mut_span());
  return out;
}

// docs/settlement-kem.md, "Key derivation":
//   PRK = HKDF-Extract(salt = L(suite_id), IKM = L(ss_M) ‖ L(ss_X))
//   K   = HKDF-Expand(PRK, info = L(suite_id) ‖ L(ct_M) ‖ L(ct_X) ‖ L(ek_M) ‖ L(pk_X), 32)
Result<SecretBytes> settlement_combine(byte_span ss_m, byte_span ss_x, byte_span ct_m, byte_span ct_x,
                                       byte_span ek_m, byte_span pk_x) {
  bytes salt;
  put_lp(salt, as_bytes(kSettlementSuiteId));
  SecretBytes ikm(8 + ss_m.size() + ss_x.size());
  {
    bytes tmp;
    put_u32be(tmp, ss_m.size());
    std::memcpy(ikm.data(), tmp.data(), 4);
    std::memcpy(ikm.data() + 4, ss_m.data(), ss_m.size());
    tmp.clear();
    put_u32be(tmp, ss_x.size());
    std::memcpy(ikm.data() + 4 + ss_m.size(), tmp.data(), 4);
    std::memcpy(ikm.data() + 8 + ss_m.size(), ss_x.data(), ss_x.size());
  }
  std::uint8_t prk[32];
  ScopedWipe<std::uint8_t[32]> wipe(prk);
  if (auto st = classical::hkdf::extract_sha256(salt, ikm.span(), prk); !st) return st.error();
  bytes info;
  info.reserve(20 + kSettlementSuiteId.size() + ct_m.size() + ct_x.size() + ek_m.size() + pk_x.size());
  put_lp(info, as_bytes(kSettlementSuiteId));
  put_lp(info, ct_m);
  put_lp(info, ct_x);
  put_lp(info, ek_m);
  put_lp(info, pk_x);
  SecretBytes k(32);
  if (auto st = classical::hkdf::expand_sha256(prk, info, k.mut_span()); !st) return st.error();
  return k;
}

Result<HybridPrivateKey> HybridPrivateKey::from_seed(Hybrid h, byte_span seed) {
  const auto& S = sizes(h);
  if (seed.size() != S.seed) return length_error(h, "seed", S.seed, seed.size());
  HybridPrivateKey key;
  key.kind_ = h;
  key.seed_ = SecretBytes(seed);
  // Expanded seed: d ‖ z ‖ sk_X (96 bytes).
  SecretBytes expanded(96);
  if (h == Hybrid::x_wing) {
    // draft-connolly-cfrg-xwing-kem §5.2: expandDecapsulationKey — SHAKE256(sk, 96·8).
    hash::shake256(expanded.mut_span(), seed);
  } else {
    std::memcpy(expanded.data(), seed.data(), 96);
  }
  auto kp = mlkem::keygen_internal(kPs, expanded.span().subspan(0, 32), expanded.span().subspan(32, 32));
  if (!kp) return kp.error();
  key.dk_m_ = std::move(kp->dk);
  key.sk_x_ = SecretBytes(expanded.span().subspan(64, 32));
  std::uint8_t pk_x[32];
  if (auto st = classical::x25519::public_from_private(key.sk_x_.data(), pk_x); !st) return st.error();
  key.pk_ = std::move(kp->ek);
  key.pk_.insert(key.pk_.end(), pk_x, pk_x + 32);
  return key;
}

Result<HybridPrivateKey> HybridPrivateKey::generate(Hybrid h) {
  SecretBytes seed(sizes(h).seed);
  if (!random_bytes(seed.mut_span())) return Error{Errc::rng_failure, std::string(id(h)) + ": OS random source failed"};
  return from_seed(h, seed.span());
}

Status check_public_key(Hybrid h, byte_span pk) {
  const auto& S = sizes(h);
  if (pk.size() != S.pk) return length_error(h, "public key", S.pk, pk.size());
  return mlkem::check_encaps_key(kPs, pk.first(kEkM));
}

Result<mlkem::Encapsulated> encaps_derand(Hybrid h, byte_span pk, byte_span eseed) {
  const auto& S = sizes(h);
  if (auto st = check_public_key(h, pk); !st) return st.error();
  if (eseed.size() != S.eseed) return length_error(h, "eseed", S.eseed, eseed.size());
  const byte_span ek_m = pk.first(kEkM), pk_x = pk.subspan(kEkM, kX);
  auto em = mlkem::encaps_internal(kPs, ek_m, eseed.first(32));
  if (!em) return em.error();
  const std::uint8_t* ek_x = eseed.data() + 32;
  std::uint8_t ct_x[32];
  if (auto st = classical::x25519::public_from_private(ek_x, ct_x); !st) return st.error();
  SecretBytes ss_x(32);
  if (auto st = classical::x25519::dh(ek_x, pk_x.data(), ss_x.data()); !st) return st.error();

  mlkem::Encapsulated out;
  out.c = std::move(em->c);
  out.c.insert(out.c.end(), ct_x, ct_x + 32);
  switch (h) {
    case Hybrid::x_wing:
      out.k = xwing_combine(em->k.span(), ss_x.span(), byte_span(ct_x, 32), pk_x);
      break;
    case Hybrid::x25519_mlkem768: {
      // draft-ietf-tls-ecdhe-mlkem §3: shared secret = ML-KEM ss ‖ X25519 ss.
      out.k = SecretBytes(64);
      std::memcpy(out.k.data(), em->k.data(), 32);
      std::memcpy(out.k.data() + 32, ss_x.data(), 32);
      break;
    }
    case Hybrid::mlkem768_x25519_hkdf: {
      auto k = settlement_combine(em->k.span(), ss_x.span(), byte_span(out.c).first(kCtM), byte_span(ct_x, 32),
                                  ek_m, pk_x);
      if (!k) return k.error();
      out.k = std::move(k.value());
      break;
    }
  }
  return out;
}

Result<mlkem::Encapsulated> encaps(Hybrid h, byte_span pk) {
  SecretBytes eseed(sizes(h).eseed);
  if (!random_bytes(eseed.mut_span())) return Error{Errc::rng_failure, std::string(id(h)) + ": OS random source failed"};
  return encaps_derand(h, pk, eseed.span());
}

Result<SecretBytes> HybridPrivateKey::decaps(byte_span ct) const {
  const auto& S = sizes(kind_);
  if (ct.size() != S.ct) return length_error(kind_, "ciphertext", S.ct, ct.size());
  const byte_span ct_m = ct.first(kCtM), ct_x = ct.subspan(kCtM, kX);
  const byte_span pk = pk_;
  const byte_span ek_m = pk.first(kEkM), pk_x = pk.subspan(kEkM, kX);
  // dk_m_ was produced by KeyGen_internal here, so the §7.3 hash check is implied.
  auto ss_m = mlkem::decaps_checked_key(kPs, dk_m_.span(), ct_m);
  if (!ss_m) return ss_m.error();
  SecretBytes ss_x(32);
  if (auto st = classical::x25519::dh(sk_x_.data(), ct_x.data(), ss_x.data()); !st) return st.error();
  switch (kind_) {
    case Hybrid::x_wing:
      return xwing_combine(ss_m->span(), ss_x.span(), ct_x, pk_x);
    case Hybrid::x25519_mlkem768: {
      SecretBytes k(64);
      std::memcpy(k.data(), ss_m->data(), 32);
      std::memcpy(k.data() + 32, ss_x.data(), 32);
      return k;
    }
    case Hybrid::mlkem768_x25519_hkdf:
      break;
  }
  return settlement_combine(ss_m->span(), ss_x.span(), ct_m, ct_x, ek_m, pk_x);
}

}  // namespace pqsig::kem
