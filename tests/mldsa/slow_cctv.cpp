// Slow ML-DSA tests (label `slow`): C2SP CCTV accumulated tests A with N = 10,000 for all three
// parameter sets and test B (exhaustive field operations over Z_q), per
// ../shared/vectors/cctv/README.md.
#include <gtest/gtest.h>

#include "cctv_accumulated.hpp"
#include "mldsa/rounding.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/mldsa.hpp"

using namespace pqsig;
using namespace pqsig::mldsa;

using cctv_test::cctv_accumulated;

TEST(MldsaCctvSlow, Accumulated10000_44) {
  EXPECT_EQ(cctv_accumulated(Level::ml_dsa_44, 10000), "e7fd21f6a59bcba60d65adc44404bb29a7c00e5d8d3ec06a732c00a306a7d143");
}
TEST(MldsaCctvSlow, Accumulated10000_65) {
  EXPECT_EQ(cctv_accumulated(Level::ml_dsa_65, 10000), "5ff5e196f0b830c3b10a9eb5358e7c98a3a20136cb677f3ae3b90175c3ace329");
}
TEST(MldsaCctvSlow, Accumulated10000_87) {
  EXPECT_EQ(cctv_accumulated(Level::ml_dsa_87, 10000), "80a8cf39317f7d0be0e24972c51ac152bd2a3e09bc0c32ce29dd82c4e7385e60");
}

TEST(MldsaCctvSlow, FieldOperations) {
  using detail::Q;
  using R88 = detail::Rounding<(kQ - 1) / 88>;
  using R32 = detail::Rounding<(kQ - 1) / 32>;
  hash::Shake128 acc;
  char buf[16 * 12];
  for (std::int32_t r = 0; r < Q; ++r) {
    char* p = buf;
    auto put = [&](std::int32_t v) {
      char tmp[12];
      int n = 0;
      std::uint32_t u = static_cast<std::uint32_t>(v < 0 ? -v : v);
      do {
        tmp[n++] = static_cast<char>('0' + u % 10);
        u /= 10;
      } while (u != 0);
      if (v < 0) *p++ = '-';
      while (n > 0) *p++ = tmp[--n];
      *p++ = '\n';
    };
    const std::int32_t c = r > (Q - 1) / 2 ? r - Q : r;
    put(c);
    put(c < 0 ? -c : c);
    std::int32_t r1, r0;
    detail::Power2Round(r, r1, r0);
    put(r1);
    put(r0 < 0 ? r0 + Q : r0);
    const std::int32_t l88 = R88::LowBits(r), l32 = R32::LowBits(r);
    put(R88::HighBits(r));
    put(R88::UseHint(1, r));
    put(l88);
    put(l88 < 0 ? -l88 : l88);
    put(R32::HighBits(r));
    put(R32::UseHint(1, r));
    put(l32);
    put(l32 < 0 ? -l32 : l32);
    acc.absorb(buf, static_cast<std::size_t>(p - buf));
  }
  std::uint8_t out[32];
  acc.squeeze(out, 32);
  EXPECT_EQ(to_hex(byte_span(out, 32)), "f930663417278156ab05d940294a77210a809c924d8ab63ec72f4526247602c7");
}
