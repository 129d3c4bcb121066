// Keccak / SHA-3 / SHAKE / SHA-2: FIPS 202 / FIPS 180-4 examples and OpenSSL cross-checks.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <random>

#include "pqsig/hash.hpp"

using namespace pqsig;
using namespace pqsig::hash;

namespace {
std::string hx(byte_span b) { return to_hex(b); }

bytes evp_digest(const char* name, byte_span in, std::size_t outlen) {
  EVP_MD* md = EVP_MD_fetch(nullptr, name, nullptr);
  EXPECT_NE(md, nullptr) << name;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bytes out(outlen);
  EVP_DigestInit_ex(ctx, md, nullptr);
  EVP_DigestUpdate(ctx, in.data(), in.size());
  if (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) {
    EVP_DigestFinalXOF(ctx, out.data(), outlen);
  } else {
    unsigned int n = 0;
    bytes full(EVP_MAX_MD_SIZE);
    EVP_DigestFinal_ex(ctx, full.data(), &n);
    out.assign(full.begin(), full.begin() + n);
  }
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
  return out;
}
}  // namespace

TEST(Sha3, Fips202EmptyAndAbc) {
  EXPECT_EQ(hx(sha3_256({})), "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
  EXPECT_EQ(hx(sha3_256(as_bytes("abc"))), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
  EXPECT_EQ(hx(sha3_512(as_bytes("abc"))),
            "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0");
  bytes o(32);
  shake128(o, {});
  EXPECT_EQ(hx(o), "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26");
  shake256(o, {});
  EXPECT_EQ(hx(o), "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f");
}

TEST(Sha2, Fips180Abc) {
  EXPECT_EQ(hx(sha256(as_bytes("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hx(sha224(as_bytes("abc"))), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
  EXPECT_EQ(hx(sha512(as_bytes("abc"))),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  EXPECT_EQ(hx(sha384(as_bytes("abc"))),
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7");
}

TEST(Hash, IncrementalMatchesOpenSSLOnRandomInputs) {
  std::mt19937_64 rng(12345);
  struct Case {
    const char* evp;
    PreHash ph;
  } cases[] = {{"SHA2-224", PreHash::sha2_224}, {"SHA2-256", PreHash::sha2_256},   {"SHA2-384", PreHash::sha2_384},
               {"SHA2-512", PreHash::sha2_512}, {"SHA2-512/224", PreHash::sha2_512_224},
               {"SHA2-512/256", PreHash::sha2_512_256}, {"SHA3-224", PreHash::sha3_224}, {"SHA3-256", PreHash::sha3_256},
               {"SHA3-384", PreHash::sha3_384}, {"SHA3-512", PreHash::sha3_512}, {"SHAKE-128", PreHash::shake_128},
               {"SHAKE-256", PreHash::shake_256}};
  for (int iter = 0; iter < 200; ++iter) {
    std::size_t len = rng() % 700;
    if (iter < 300) len = static_cast<std::size_t>(iter);  // every length around block sizes
    bytes msg(len);
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
    for (const auto& c : cases) {
      const auto& info = prehash_info(c.ph);
      bytes ours(info.out_len);
      prehash_compute(c.ph, msg, ours);
      EXPECT_EQ(hx(ours), hx(evp_digest(c.evp, msg, info.out_len))) << c.evp << " len " << len;
    }
  }
}

TEST(Keccak, AbsorbSqueezeSplitsAreEquivalent) {
  std::mt19937_64 rng(7);
  bytes msg(1000);
  for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
  bytes ref(1000);
  shake256(ref, msg);
  EXPECT_EQ(hx(ref), hx(evp_digest("SHAKE-256", msg, 1000)));
  for (int trial = 0; trial < 50; ++trial) {
    Shake256 h;
    std::size_t off = 0;
    while (off < msg.size()) {
      std::size_t n = std::min<std::size_t>(msg.size() - off, rng() % 300);
      h.absorb(byte_span(msg.data() + off, n));
      off += n;
    }
    bytes out(1000);
    off = 0;
    while (off < out.size()) {
      std::size_t n = std::min<std::size_t>(out.size() - off, rng() % 300);
      h.squeeze(mut_byte_span(out.data() + off, n));
      off += n;
    }
    ASSERT_EQ(hx(out), hx(ref));
  }
  // squeeze_blocks continues the same stream.
  Shake128 a, b;
  a.absorb(msg);
  b.absorb(msg);
  bytes x(168 * 5), y(168 * 5);
  a.squeeze_blocks(x.data(), 3);
  a.squeeze(mut_byte_span(x.data() + 504, 10));
  a.squeeze(mut_byte_span(x.data() + 514, 168 * 5 - 514));
  b.squeeze(y);
  EXPECT_EQ(hx(x), hx(y));
}

TEST(Keccak, X4MatchesScalar) {
  bytes in[4];
  const std::uint8_t* ptr[4];
  for (int j = 0; j < 4; ++j) {
    in[j].assign(34, static_cast<std::uint8_t>(j * 17 + 1));
    ptr[j] = in[j].data();
  }
  Shake128x4 x4;
  x4.absorb_once(ptr, 34);
  bytes out[4];
  std::uint8_t* optr[4];
  for (int j = 0; j < 4; ++j) {
    out[j].resize(168 * 3);
    optr[j] = out[j].data();
  }
  x4.squeeze_blocks(optr, 3);
  for (int j = 0; j < 4; ++j) {
    bytes ref(168 * 3);
    shake128(ref, in[j]);
    EXPECT_EQ(hx(out[j]), hx(ref));
  }
}

TEST(PreHash, LookupByAcvpName) {
  ASSERT_NE(find_prehash("SHA2-512/256"), nullptr);
  EXPECT_EQ(find_prehash("SHA2-512/256")->id, PreHash::sha2_512_256);
  EXPECT_EQ(find_prehash("shake-128")->out_len, 32u);
  EXPECT_EQ(find_prehash("MD5"), nullptr);
}

#include "common/cpu.hpp"
#include "hash/keccak_backend.hpp"

TEST(Keccak, X4BackendMatchesScalarReference) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 100; ++trial) {
    std::uint64_t a[4][25], b[4][25];
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 25; ++i) a[j][i] = b[j][i] = rng();
    keccak_f1600_x4(a);  // dispatched (AVX2 when available)
    detail::keccak_f1600_x4_scalar(b);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 25; ++i) ASSERT_EQ(a[j][i], b[j][i]);
  }
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
  if (!cpu::has_avx2()) GTEST_SKIP() << "CPU without AVX2: only the scalar path was exercised";
#endif
}

TEST(Keccak, ForcedPortableGivesSameShakeX4) {
  const std::uint8_t seed[34] = {1, 2, 3};
  const std::uint8_t* in[4] = {seed, seed, seed, seed};
  bytes o1(168 * 2), o2(168 * 2);
  std::uint8_t* p1[4] = {o1.data(), o1.data(), o1.data(), o1.data()};
  std::uint8_t* p2[4] = {o2.data(), o2.data(), o2.data(), o2.data()};
  Shake128x4 a;
  a.absorb_once(in, 34);
  a.squeeze_blocks(p1, 2);
  cpu::force_portable(true);
  Shake128x4 b;
  b.absorb_once(in, 34);
  b.squeeze_blocks(p2, 2);
  cpu::force_portable(false);
  EXPECT_EQ(o1, o2);
}

TEST(Sha2, EmptyUpdatesAreNoOps) {
  // byte_span{} has a null data(): update() must not hand it to memcpy (UBSan checks this).
  Sha256 a;
  a.update(byte_span{});
  a.update(as_bytes("abc"));
  a.update(byte_span{});
  std::uint8_t d[32];
  a.final(d);
  EXPECT_EQ(hx(byte_span(d, 32)), hx(sha256(as_bytes("abc"))));
  Sha512 b;
  b.update(byte_span{});
  std::uint8_t e[64];
  b.final(e);
  EXPECT_EQ(hx(byte_span(e, 64)), hx(sha512({})));
}
