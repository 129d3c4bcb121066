#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>

#include "common/aligned_new.hpp"
#include "common/cpu.hpp"
#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;

TEST(Encoding, HexRoundTripAndErrors) {
  bytes b = {0x00, 0xAB, 0xff};
  EXPECT_EQ(to_hex(b), "00abff");
  EXPECT_EQ(from_hex("00ABff").value(), b);
  EXPECT_EQ(from_hex("0").error().code, Errc::invalid_encoding);
  EXPECT_EQ(from_hex("zz").error().code, Errc::invalid_encoding);
}

TEST(Encoding, Base64Strict) {
  EXPECT_EQ(base64_encode(as_bytes("foobar")), "Zm9vYmFy");
  EXPECT_EQ(base64_encode(as_bytes("fo")), "Zm8=");
  EXPECT_EQ(base64url_encode(as_bytes("fo")), "Zm8");
  EXPECT_EQ(base64_decode("Zm8=").value(), bytes({'f', 'o'}));
  EXPECT_FALSE(base64_decode("Zm8").ok());
  EXPECT_FALSE(base64_decode("Zm9=").ok());  // non-zero trailing bits
  EXPECT_FALSE(base64url_decode("Zm8=").ok());
  EXPECT_EQ(base64url_decode("_-8").value(), bytes({0xff, 0xef}));
}

TEST(Secrets, SecretBytesIsMoveOnlyAndWipes) {
  static_assert(!std::is_copy_constructible_v<SecretBytes>);
  SecretBytes a(bytes{1, 2, 3});
  SecretBytes b = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b.size(), 3u);
  b.wipe();
  EXPECT_EQ(b.data()[0], 0);
  EXPECT_TRUE(ct_equal(bytes{1, 2}, bytes{1, 2}));
  EXPECT_FALSE(ct_equal(bytes{1, 2}, bytes{1, 3}));
}

TEST(Registry, UnknownSuiteAndVersionAreRefused) {
  EXPECT_EQ(find_suite("ml-dsa-99").error().code, Errc::unknown_suite);
  EXPECT_EQ(find_suite("ml-dsa-44", 2).error().code, Errc::unknown_suite);
  EXPECT_EQ(find_suite("ML-DSA-44").error().code, Errc::unknown_suite);  // exact, no guessing
  ASSERT_TRUE(parse_suite_ref("ml-dsa-65@v1").ok());
  EXPECT_FALSE(parse_suite_ref("ml-dsa-65@v").ok());
  EXPECT_FALSE(parse_suite_ref("ml-dsa-65@1").ok());
}

// Over-aligned heap objects (src/common/aligned_new.hpp): every alignment is honoured, the whole
// block is writable, and the pointer kept below it survives the object's use.
namespace {
struct alignas(64) Wide : pqsig::detail::MallocAligned {
  unsigned char b[1000];
};
}  // namespace
TEST(AlignedNew, AlignmentsAndWholeBlock) {
  for (std::size_t align : {16u, 32u, 64u, 128u, 4096u}) {
    for (std::size_t n : {1u, 15u, 64u, 1000u, 13000u}) {
      void* p = pqsig::detail::malloc_aligned(n, align);
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u) << "align " << align << " n " << n;
      std::memset(p, 0xA5, n);
      pqsig::detail::free_aligned(p);
    }
  }
  pqsig::detail::free_aligned(nullptr);
  for (int i = 0; i < 100; ++i) {
    auto w = std::make_unique<Wide>();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(w.get()) % 64, 0u);
    std::memset(w->b, i, sizeof w->b);
    EXPECT_EQ(w->b[999], static_cast<unsigned char>(i));
  }
}

// The AVX2 base64 decoder (32 characters a step) against the scalar reference: every length
// around the block size, every byte value at every position of a block (each must be refused
// when outside the alphabet, whichever path sees it), and round trips of random data.
TEST(Encoding, Base64VectorPathMatchesScalar) {
  struct Restore {
    ~Restore() { cpu::force_portable(false); }
  } restore;
  auto both = [](std::string_view s) {
    cpu::force_portable(false);
    auto fast = base64_decode(s);
    cpu::force_portable(true);
    auto ref = base64_decode(s);
    cpu::force_portable(false);
    EXPECT_EQ(fast.ok(), ref.ok()) << s;
    if (fast.ok() && ref.ok()) {
      EXPECT_EQ(fast.value(), ref.value()) << s;
    }
    return ref;
  };
  std::uint32_t x = 12345;
  auto rnd = [&x] { return x = x * 1664525u + 1013904223u, static_cast<std::uint8_t>(x >> 24); };
  for (std::size_t len = 0; len <= 200; ++len) {
    bytes b(len);
    for (auto& c : b) c = rnd();
    std::string enc = base64_encode(b);
    auto dec = both(enc);
    ASSERT_TRUE(dec.ok()) << len;
    EXPECT_EQ(dec.value(), b);
  }
  bytes b(120);  // 160 characters: five vector blocks
  for (auto& c : b) c = rnd();
  const std::string good = base64_encode(b);
  for (std::size_t pos : {0u, 5u, 31u, 32u, 63u, 100u, 159u}) {
    for (int c = 0; c < 256; ++c) {
      std::string t = good;
      t[pos] = static_cast<char>(c);
      const bool in_alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
      const bool ok = both(t).ok();
      if (c != '=' || pos != 159) {  // a final '=' may be padding
        EXPECT_EQ(ok, in_alphabet) << pos << " " << c;
      }
    }
  }
}
