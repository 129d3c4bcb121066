// Malformed inputs → typed errors: every length off by one, ek with a coefficient ≥ q,
// dk with a corrupted hash; plus round trips, implicit rejection and OS-random keygen.
#include <gtest/gtest.h>

#include <cstring>

#include "pqsig/mlkem.hpp"

using namespace pqsig;

namespace {
const mlkem::ParameterSet kAll[] = {mlkem::ParameterSet::ml_kem_512, mlkem::ParameterSet::ml_kem_768,
                                    mlkem::ParameterSet::ml_kem_1024};
bytes seq(std::size_t n, std::uint8_t start) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(start + i);
  return b;
}
bytes to_vec(const SecretBytes& s) { return bytes(s.data(), s.data() + s.size()); }
}  // namespace

TEST(MlKemMalformed, LengthsOffByOne) {
  for (auto ps : kAll) {
    SCOPED_TRACE(std::string(mlkem::name(ps)));
    const auto& P = mlkem::params(ps);
    auto kp = mlkem::keygen_from_seed(ps, seq(64, 1));
    ASSERT_TRUE(kp.ok());
    auto e = mlkem::encaps_internal(ps, kp->ek, seq(32, 9));
    ASSERT_TRUE(e.ok());
    for (int delta : {-1, 1}) {
      auto resize = [&](bytes b, std::size_t n) {
        b.resize(n, 0);
        return b;
      };
      const bytes dk = to_vec(kp->dk);
      // seed, d, z
      EXPECT_EQ(mlkem::keygen_from_seed(ps, seq(64 + delta, 1)).error().code, Errc::invalid_length);
      EXPECT_EQ(mlkem::keygen_internal(ps, seq(32 + delta, 1), seq(32, 1)).error().code, Errc::invalid_length);
      EXPECT_EQ(mlkem::keygen_internal(ps, seq(32, 1), seq(32 + delta, 1)).error().code, Errc::invalid_length);
      // ek, m
      EXPECT_EQ(mlkem::check_encaps_key(ps, resize(kp->ek, P.ek_size + delta)).error().code, Errc::invalid_length);
      EXPECT_EQ(mlkem::encaps_internal(ps, resize(kp->ek, P.ek_size + delta), seq(32, 0)).error().code,
                Errc::invalid_length);
      EXPECT_EQ(mlkem::encaps_internal(ps, kp->ek, seq(32 + delta, 0)).error().code, Errc::invalid_length);
      EXPECT_EQ(mlkem::encaps(ps, resize(kp->ek, P.ek_size + delta)).error().code, Errc::invalid_length);
      // dk, c
      EXPECT_EQ(mlkem::check_decaps_key(ps, resize(dk, P.dk_size + delta)).error().code, Errc::invalid_length);
      EXPECT_EQ(mlkem::decaps(ps, resize(dk, P.dk_size + delta), e->c).error().code, Errc::invalid_length);
      EXPECT_EQ(mlkem::decaps(ps, dk, resize(e->c, P.ct_size + delta)).error().code, Errc::invalid_length);
      EXPECT_EQ(mlkem::decaps_checked_key(ps, dk, resize(e->c, P.ct_size + delta)).error().code,
                Errc::invalid_length);
    }
    // Empty inputs.
    EXPECT_EQ(mlkem::decaps(ps, {}, {}).error().code, Errc::invalid_length);
    EXPECT_EQ(mlkem::check_encaps_key(ps, {}).error().code, Errc::invalid_length);
  }
}

TEST(MlKemMalformed, EkCoefficientAtLeastQ) {
  for (auto ps : kAll) {
    SCOPED_TRACE(std::string(mlkem::name(ps)));
    const auto& P = mlkem::params(ps);
    auto kp = mlkem::keygen_from_seed(ps, seq(64, 7));
    ASSERT_TRUE(kp.ok());
    ASSERT_TRUE(mlkem::check_encaps_key(ps, kp->ek).ok());
    // Set one 12-bit coefficient to q, q+1 and 4095 in the first, a middle and the last polynomial.
    for (std::size_t coeff : {std::size_t{0}, std::size_t{257}, std::size_t{256} * P.k - 1}) {
      for (std::uint16_t val : {std::uint16_t{3329}, std::uint16_t{3330}, std::uint16_t{4095}}) {
        bytes ek = kp->ek;
        const std::size_t byte = coeff / 2 * 3;
        if (coeff % 2 == 0) {
          ek[byte] = static_cast<std::uint8_t>(val);
          ek[byte + 1] = static_cast<std::uint8_t>((ek[byte + 1] & 0xF0) | (val >> 8));
        } else {
          ek[byte + 1] = static_cast<std::uint8_t>((ek[byte + 1] & 0x0F) | ((val & 0x0F) << 4));
          ek[byte + 2] = static_cast<std::uint8_t>(val >> 4);
        }
        auto st = mlkem::check_encaps_key(ps, ek);
        ASSERT_FALSE(st.ok());
        EXPECT_EQ(st.error().code, Errc::key_check_failed);
        EXPECT_EQ(mlkem::encaps_internal(ps, ek, seq(32, 0)).error().code, Errc::key_check_failed);
        EXPECT_EQ(mlkem::encaps(ps, ek).error().code, Errc::key_check_failed);
      }
    }
    // q − 1 is fine.
    bytes ek = kp->ek;
    ek[0] = 0x00;
    ek[1] = static_cast<std::uint8_t>((ek[1] & 0xF0) | 0x0D);  // 0xD00 = 3328
    EXPECT_TRUE(mlkem::check_encaps_key(ps, ek).ok());
    // and Encaps from the bytes (the §7.2 check fused with its decoding) accepts it, with the
    // same result as a key checked and prepared separately
    auto cold = mlkem::encaps_internal(ps, ek, seq(32, 3));
    ASSERT_TRUE(cold.ok());
    auto prepared = mlkem::EncapsKey::from_bytes(ps, ek);
    ASSERT_TRUE(prepared.ok());
    auto warm = prepared->encaps_internal(seq(32, 3));
    ASSERT_TRUE(warm.ok());
    EXPECT_EQ(cold->c, warm->c);
    EXPECT_EQ(0, std::memcmp(cold->k.data(), warm->k.data(), 32));
  }
}

TEST(MlKemMalformed, DkCorruptedHash) {
  for (auto ps : kAll) {
    SCOPED_TRACE(std::string(mlkem::name(ps)));
    const auto& P = mlkem::params(ps);
    auto kp = mlkem::keygen_from_seed(ps, seq(64, 3));
    ASSERT_TRUE(kp.ok());
    ASSERT_TRUE(mlkem::check_decaps_key(ps, kp->dk.span()).ok());
    auto e = mlkem::encaps_internal(ps, kp->ek, seq(32, 5));
    ASSERT_TRUE(e.ok());
    const std::size_t h_off = 768 * P.k + 32;
    // Corrupt the stored hash, and (separately) the embedded ek: both break H(ek) == h.
    for (std::size_t off : {h_off, h_off + 31, std::size_t{384} * P.k, std::size_t{384} * P.k + 100}) {
      bytes dk = to_vec(kp->dk);
      dk[off] ^= 0x01;
      auto st = mlkem::check_decaps_key(ps, dk);
      ASSERT_FALSE(st.ok());
      EXPECT_EQ(st.error().code, Errc::key_check_failed);
      EXPECT_EQ(mlkem::decaps(ps, dk, e->c).error().code, Errc::key_check_failed);
    }
  }
}

TEST(MlKemRoundTrip, RandomKeysAndImplicitRejection) {
  for (auto ps : kAll) {
    SCOPED_TRACE(std::string(mlkem::name(ps)));
    SecretBytes seed;
    auto kp = mlkem::keygen(ps, &seed);
    ASSERT_TRUE(kp.ok());
    ASSERT_EQ(seed.size(), 64u);
    auto kp2 = mlkem::keygen_from_seed(ps, seed.span());
    ASSERT_TRUE(kp2.ok());
    EXPECT_EQ(kp->ek, kp2->ek);
    EXPECT_EQ(to_vec(kp->dk), to_vec(kp2->dk));
    auto e = mlkem::encaps(ps, kp->ek);
    ASSERT_TRUE(e.ok());
    auto k = mlkem::decaps(ps, kp->dk.span(), e->c);
    ASSERT_TRUE(k.ok());
    EXPECT_EQ(to_vec(*k), to_vec(e->k));
    // Any single-bit change of the ciphertext gives a different (rejection) key, never an error.
    for (std::size_t pos : {std::size_t{0}, e->c.size() / 2, e->c.size() - 1}) {
      bytes c = e->c;
      c[pos] ^= 0x80;
      auto kr = mlkem::decaps(ps, kp->dk.span(), c);
      ASSERT_TRUE(kr.ok());
      EXPECT_NE(to_vec(*kr), to_vec(e->k));
    }
    auto e2 = mlkem::encaps(ps, kp->ek);
    ASSERT_TRUE(e2.ok());
    EXPECT_NE(e->c, e2->c);
  }
}
