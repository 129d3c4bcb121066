// CCTV accumulated test, N = 10 000, against the FINAL FIPS 203 hashes (label slow).
#include <gtest/gtest.h>

#include "mlkem/accumulated.hpp"

using namespace pqsig;
using pqsig::test::accumulated;

// 10 000 iterations against the FINAL FIPS 203 hashes (not CCTV's published ipd ones).
TEST(MlKemCctv, Accumulated10000Final512) {
  EXPECT_EQ(accumulated(mlkem::ParameterSet::ml_kem_512, 10000),
            "705dcffc87f4e67e35a09dcaa31772e86f3341bd3ccf1e78a5fef99ae6a35a13");
}
TEST(MlKemCctv, Accumulated10000Final768) {
  EXPECT_EQ(accumulated(mlkem::ParameterSet::ml_kem_768, 10000),
            "f959d18d3d1180121433bf0e05f11e7908cf9d03edc150b2b07cb90bef5bc1c1");
}
TEST(MlKemCctv, Accumulated10000Final1024) {
  EXPECT_EQ(accumulated(mlkem::ParameterSet::ml_kem_1024, 10000),
            "e3bf82b013307b2e9d47dde791ff6dfc82e694e6382404abdb948b908b75bad5");
}
