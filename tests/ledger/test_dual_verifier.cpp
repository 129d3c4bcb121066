#include <gtest/gtest.h>

#include "pqsig/ledger.hpp"

using namespace pqsig;
using namespace pqsig::ledger;

namespace {
const SuiteInfo& any_suite() { return *find_suite("ml-dsa-44").value(); }
VerifyFn fixed(bool ok, int* calls) {
  return [ok, calls](const SuiteInfo&, byte_span, byte_span, byte_span) -> Status {
    ++*calls;
    if (ok) return {};
    return Status(Errc::verify_failed, "bad signature");
  };
}
}  // namespace

TEST(DualVerifier, EnforceRejectsIfEitherRejectsAndSkipsSecondAfterFirstRejects) {
  int c1 = 0, c2 = 0;
  DualVerifier both_ok(fixed(true, &c1), fixed(true, &c2), Mode::enforce);
  EXPECT_TRUE(both_ok.verify(any_suite(), {}, {}, {}).accepted);
  EXPECT_EQ(c2, 1);

  c1 = c2 = 0;
  DualVerifier first_bad(fixed(false, &c1), fixed(true, &c2), Mode::enforce);
  Verdict v = first_bad.verify(any_suite(), {}, {}, {});
  EXPECT_FALSE(v.accepted);
  EXPECT_FALSE(v.second_ran);
  EXPECT_EQ(c2, 0) << "second verifier must be skipped when the first rejects";
  EXPECT_EQ(first_bad.stats().second_skipped, 1u);

  c1 = c2 = 0;
  DualVerifier second_bad(fixed(true, &c1), fixed(false, &c2), Mode::enforce);
  v = second_bad.verify(any_suite(), {}, {}, {});
  EXPECT_FALSE(v.accepted);
  EXPECT_TRUE(v.disagreement);
  EXPECT_EQ(second_bad.stats().disagreements, 1u);
  EXPECT_NE(v.reason.find("second"), std::string::npos);
}

TEST(DualVerifier, ShadowAlwaysRunsBothAndCountsDisagreements) {
  int c1 = 0, c2 = 0;
  DualVerifier d(fixed(false, &c1), fixed(true, &c2), Mode::shadow);
  for (int i = 0; i < 3; ++i) {
    Verdict v = d.verify(any_suite(), {}, {}, {});
    EXPECT_FALSE(v.accepted);  // the first verifier decides
    EXPECT_TRUE(v.second_ran);
    EXPECT_TRUE(v.disagreement);
  }
  EXPECT_EQ(c2, 3);
  EXPECT_EQ(d.stats().disagreements, 3u);
  EXPECT_EQ(d.stats().rejected, 3u);
  EXPECT_EQ(d.stats().second_skipped, 0u);
}

TEST(VerifyUnits, CeilOfHundredTimesRatio) {
  EXPECT_EQ(verify_units(100.0, 100.0), 100u);  // ML-DSA-44 itself is 100 VU
  EXPECT_EQ(verify_units(101.0, 100.0), 101u);
  EXPECT_EQ(verify_units(100.5, 100.0), 101u);  // ceil
  EXPECT_EQ(verify_units(33.3, 100.0), 34u);
  EXPECT_EQ(verify_units(10.0, 0.0), 0u);       // no anchor → 0, never a division by zero
}
