// XMSS / XMSS^MT against an independent implementation, both ways: liboqs' OQS_SIG_STFL
// (xmss-reference). pqsig signs → liboqs verifies (and rejects a changed message or signature);
// liboqs generates and signs → pqsig verifies (and rejects them changed). Sets: XMSS-SHA2_10_256,
// XMSS-SHAKE_10_256, XMSSMT-SHA2_20/2_256, XMSSMT-SHAKE_20/2_256. Skipped only when liboqs is not
// compiled in or was built without these sets or its stateful signing (the reason is named).
// Every set has trees of height 10 (liboqs has no smaller one), so the unit label runs one set per
// direction (XMSS-SHA2_10_256); the rest (liboqs key generation alone builds a height-10 tree per
// layer) is XmssLiboqsSlow.*, labelled slow like the KAT regeneration (tests/xmss/CMakeLists.txt).
#include <gtest/gtest.h>

#include <string>

#include "pqsig/xmss.hpp"
#include "support/oqs_stfl.hpp"

using namespace pqsig;

namespace {
struct XmssOqsCase {
  const char* name;  // liboqs' and RFC 8391's name
  bool slow;         // only under the slow label (both directions)
};
const XmssOqsCase kXmssOqsSets[] = {{"XMSS-SHA2_10_256", false},
                                    {"XMSS-SHAKE_10_256", true},
                                    {"XMSSMT-SHA2_20/2_256", true},
                                    {"XMSSMT-SHAKE_20/2_256", true}};
[[maybe_unused]] bytes xmss_oqs_msg(const std::string& tag) { return bytes(tag.begin(), tag.end()); }

// pqsig signs (first two indices and the last) → liboqs verifies, and rejects them changed.
void xmss_oqs_pqsig_signs(bool slow) {
  using namespace pqsig_oqs_stfl;
  for (const auto& c : kXmssOqsSets) {
    if (c.slow != slow) continue;
    const char* name = c.name;
    SCOPED_TRACE(name);
    if (const std::string why = oqs_stfl_skip_reason(name); !why.empty()) PQSIG_LIBOQS_STFL_SKIP_OR_FAIL(why);
#if defined(PQSIG_TEST_HAVE_OQS_STFL)
    const xmss::Params* p = xmss::find_params(name);
    ASSERT_NE(p, nullptr);
    auto key = xmss::PrivateKey::generate(*p);
    ASSERT_TRUE(key.ok()) << key.error().what();
    auto signer = xmss::Signer::create(std::move(*key));
    ASSERT_TRUE(signer.ok()) << signer.error().what();
    const bytes pk = signer->public_key();
    for (std::uint64_t idx : {std::uint64_t{0}, std::uint64_t{1}, p->max_signatures() - 1}) {
      const bytes m = xmss_oqs_msg(std::string("pqsig message at ") + std::to_string(idx));
      auto sig = signer->sign_at(idx, m);
      ASSERT_TRUE(sig.ok()) << sig.error().what();
      EXPECT_TRUE(oqs_stfl_verify(name, pk, m, *sig)) << "liboqs rejected pqsig's signature at " << idx;
      bytes m2 = m;
      m2[0] ^= 1;
      EXPECT_FALSE(oqs_stfl_verify(name, pk, m2, *sig)) << "liboqs accepted another message";
      bytes s2 = *sig;
      s2[s2.size() / 2] ^= 0x40;
      EXPECT_FALSE(oqs_stfl_verify(name, pk, m, s2)) << "liboqs accepted a changed signature";
    }
#endif
  }
}

// liboqs generates and signs → pqsig verifies, and rejects them changed.
void xmss_oqs_liboqs_signs(bool slow) {
  using namespace pqsig_oqs_stfl;
  for (const auto& c : kXmssOqsSets) {
    if (c.slow != slow) continue;
    const char* name = c.name;
    SCOPED_TRACE(name);
    if (const std::string why = oqs_stfl_skip_reason(name); !why.empty()) PQSIG_LIBOQS_STFL_SKIP_OR_FAIL(why);
#if defined(PQSIG_TEST_HAVE_OQS_STFL)
    const xmss::Params* p = xmss::find_params(name);
    ASSERT_NE(p, nullptr);
    OqsStflKey k(name);
    ASSERT_TRUE(k.ok()) << "liboqs key generation failed";
    EXPECT_EQ(k.pk.size(), p->public_key_bytes());
    for (int i = 0; i < 3; ++i) {
      const bytes m = xmss_oqs_msg("liboqs message " + std::to_string(i));
      const bytes sig = k.sign(m);
      ASSERT_FALSE(sig.empty()) << "liboqs signing failed";
      EXPECT_EQ(sig.size(), p->signature_bytes());
      auto st = xmss::verify(*p, k.pk, m, sig);
      EXPECT_TRUE(st.ok()) << (st ? "" : st.error().what());
      bytes m2 = m;
      m2.back() ^= 1;
      EXPECT_FALSE(xmss::verify(*p, k.pk, m2, sig).ok());
      bytes s2 = sig;
      s2[s2.size() - 5] ^= 1;  // a node of the last authentication path
      EXPECT_FALSE(xmss::verify(*p, k.pk, m, s2).ok());
      s2 = sig;
      s2[p->index_bytes() + p->n + 3] ^= 1;  // inside the first WOTS+ signature
      EXPECT_FALSE(xmss::verify(*p, k.pk, m, s2).ok());
    }
#endif
  }
}

}  // namespace

TEST(XmssLiboqs, PqsigSignsLiboqsVerifies) { xmss_oqs_pqsig_signs(false); }
TEST(XmssLiboqs, LiboqsSignsPqsigVerifies) { xmss_oqs_liboqs_signs(false); }
TEST(XmssLiboqsSlow, PqsigSignsLiboqsVerifies) { xmss_oqs_pqsig_signs(true); }
TEST(XmssLiboqsSlow, LiboqsSignsPqsigVerifies) { xmss_oqs_liboqs_signs(true); }
