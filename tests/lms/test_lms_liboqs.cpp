// LMS / HSS against an independent implementation, both ways: liboqs' OQS_SIG_STFL (Cisco's
// hash-sigs). pqsig signs → liboqs verifies (and rejects a changed message or signature); liboqs
// generates and signs → pqsig verifies (and rejects them changed). Sets: LMS SHA-256/M32 H5 and
// H10 with W1, W2, W4, W8, and two-level HSS. Skipped only when liboqs is not compiled in or was
// built without its stateful signatures (the reason is named).
// pqsig → liboqs runs every set under the unit label (pqsig builds each tree once); liboqs → pqsig
// runs the H5 sets and H5/H5 HSS there, and the H10 ones (liboqs rebuilds the whole tree on every
// OQS_SIG_STFL_sign) as LmsLiboqsSlow.*, labelled slow (tests/lms/CMakeLists.txt).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pqsig/lms.hpp"
#include "support/oqs_stfl.hpp"

using namespace pqsig;

namespace {

struct LmsOqsCase {
  const char* oqs;   // liboqs' name
  const char* spec;  // pqsig's level list
  bool slow;         // liboqs signs → pqsig verifies only under the slow label
};

const LmsOqsCase kLmsOqsCases[] = {
    {"LMS_SHA256_H5_W1", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W1", false},
    {"LMS_SHA256_H5_W2", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W2", false},
    {"LMS_SHA256_H5_W4", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4", false},
    {"LMS_SHA256_H5_W8", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8", false},
    {"LMS_SHA256_H10_W1", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W1", true},
    {"LMS_SHA256_H10_W2", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W2", true},
    {"LMS_SHA256_H10_W4", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4", true},
    {"LMS_SHA256_H10_W8", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8", true},
    {"LMS_SHA256_H5_W8_H5_W8", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8", false},
    {"LMS_SHA256_H10_W4_H5_W8", "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8", true},
};

[[maybe_unused]] bytes lms_oqs_msg(const std::string& tag) { return bytes(tag.begin(), tag.end()); }

// pqsig signs (first two indices and the last) → liboqs verifies, and rejects them changed.
void lms_oqs_pqsig_signs() {
  using namespace pqsig_oqs_stfl;
  for (const auto& c : kLmsOqsCases) {
    SCOPED_TRACE(c.oqs);
    if (const std::string why = oqs_stfl_skip_reason(c.oqs); !why.empty()) PQSIG_LIBOQS_STFL_SKIP_OR_FAIL(why);
#if defined(PQSIG_TEST_HAVE_OQS_STFL)
    auto lv = lms::parse_levels(c.spec);
    ASSERT_TRUE(lv.ok()) << c.spec;
    auto key = lms::HssPrivateKey::generate(*lv);
    ASSERT_TRUE(key.ok());
    const std::uint64_t max = key->max_signatures();
    auto signer = lms::HssSigner::create(std::move(*key));
    ASSERT_TRUE(signer.ok()) << signer.error().what();
    const bytes pk = signer->public_key();
    // The first two indices and the last (HSS: another lower tree; LMS: the other edge of the tree).
    for (std::uint64_t idx : {std::uint64_t{0}, std::uint64_t{1}, max - 1}) {
      const bytes m = lms_oqs_msg(std::string("pqsig message at ") + std::to_string(idx));
      auto sig = signer->sign_at(idx, m);
      ASSERT_TRUE(sig.ok()) << sig.error().what();
      EXPECT_TRUE(oqs_stfl_verify(c.oqs, pk, m, *sig)) << "liboqs rejected pqsig's signature at " << idx;
      bytes m2 = m;
      m2[0] ^= 1;
      EXPECT_FALSE(oqs_stfl_verify(c.oqs, pk, m2, *sig)) << "liboqs accepted another message";
      bytes s2 = *sig;
      s2[s2.size() / 2] ^= 0x40;
      EXPECT_FALSE(oqs_stfl_verify(c.oqs, pk, m, s2)) << "liboqs accepted a changed signature";
    }
#endif
  }
}

// liboqs generates and signs → pqsig verifies, and rejects them changed.
void lms_oqs_liboqs_signs(bool slow) {
  using namespace pqsig_oqs_stfl;
  for (const auto& c : kLmsOqsCases) {
    if (c.slow != slow) continue;
    SCOPED_TRACE(c.oqs);
    if (const std::string why = oqs_stfl_skip_reason(c.oqs); !why.empty()) PQSIG_LIBOQS_STFL_SKIP_OR_FAIL(why);
#if defined(PQSIG_TEST_HAVE_OQS_STFL)
    OqsStflKey k(c.oqs);
    ASSERT_TRUE(k.ok()) << "liboqs key generation failed";
    auto lv = lms::parse_levels(c.spec);
    ASSERT_TRUE(lv.ok());
    EXPECT_EQ(k.pk.size(), lms::hss_public_key_bytes(*lv));
    // Two signatures: liboqs reloads its working key (the whole tree) on every OQS_SIG_STFL_sign.
    for (int i = 0; i < 2; ++i) {
      const bytes m = lms_oqs_msg("liboqs message " + std::to_string(i));
      const bytes sig = k.sign(m);
      ASSERT_FALSE(sig.empty()) << "liboqs signing failed";
      EXPECT_EQ(sig.size(), lms::hss_signature_bytes(*lv));
      auto st = lms::hss_verify(k.pk, m, sig);
      EXPECT_TRUE(st.ok()) << (st ? "" : st.error().what());
      bytes m2 = m;
      m2.back() ^= 1;
      EXPECT_FALSE(lms::hss_verify(k.pk, m2, sig).ok());
      bytes s2 = sig;
      s2[s2.size() - 7] ^= 1;  // a node of the last authentication path
      EXPECT_FALSE(lms::hss_verify(k.pk, m, s2).ok());
      s2 = sig;
      s2[12] ^= 1;  // inside the (first) LM-OTS signature
      EXPECT_FALSE(lms::hss_verify(k.pk, m, s2).ok());
    }
#endif
  }
}

}  // namespace

TEST(LmsLiboqs, PqsigSignsLiboqsVerifies) { lms_oqs_pqsig_signs(); }
TEST(LmsLiboqs, LiboqsSignsPqsigVerifies) { lms_oqs_liboqs_signs(false); }
TEST(LmsLiboqsSlow, LiboqsSignsPqsigVerifies) { lms_oqs_liboqs_signs(true); }
