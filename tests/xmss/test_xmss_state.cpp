// XMSS through the LMS/HSS state store: indices advance and never repeat across reopenings (a
// reopened signer starts after the whole persisted reservation), the audit log is clean,
// exhaustion and another key's state are typed refusals; and `pqsig hbs` with an XMSS^MT key.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cli/cli_util.hpp"
#include "pqsig/xmss.hpp"

using namespace pqsig;

namespace {
std::string xmss_trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}
}  // namespace

TEST(XmssState, ReserveSignReopenAuditExhaust) {
  TempDir d;
  const auto* p = xmss::find_params("XMSSMT-SHA2_20/4_256");
  ASSERT_NE(p, nullptr);
  auto key = xmss::PrivateKey::generate(*p);
  ASSERT_TRUE(key.ok());
  const bytes pk = key->public_key();
  const SecretBytes enc = key->serialize();
  const std::string state = d.file("k.state");
  ASSERT_TRUE(xmss::StatefulSigner::create_state(*key, state).ok());
  EXPECT_FALSE(xmss::StatefulSigner::create_state(*key, state).ok());  // never overwritten
  std::set<std::uint64_t> used;
  {
    auto s = xmss::StatefulSigner::open(std::move(*key), state, 3);
    ASSERT_TRUE(s.ok()) << s.error().what();
    for (int i = 0; i < 5; ++i) {
      const bytes m = {static_cast<std::uint8_t>(i)};
      auto r = s->sign(m);
      ASSERT_TRUE(r.ok()) << r.error().what();
      EXPECT_TRUE(used.insert(r->index).second);
      EXPECT_TRUE(xmss::xmssmt_verify(pk, m, r->signature).ok());
    }
  }
  EXPECT_EQ(used, (std::set<std::uint64_t>{0, 1, 2, 3, 4}));
  // Reopened: the rest of the second block (5) is burnt; signing goes on at 6.
  auto key2 = xmss::PrivateKey::parse(enc.span());
  ASSERT_TRUE(key2.ok());
  auto s2 = xmss::StatefulSigner::open(std::move(*key2), state, 1);
  ASSERT_TRUE(s2.ok());
  auto r = s2->sign(bytes{9});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->index, 6u);
  auto audit = s2->store().audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_TRUE(audit->clean());
  EXPECT_EQ(audit->signatures, 6u);
  // Burn all but one index; then one signature, then a typed refusal.
  auto inf = s2->store().info();
  ASSERT_TRUE(inf.ok());
  EXPECT_EQ(inf->limit, std::uint64_t{1} << 20);
  ASSERT_TRUE(s2->store().reserve(inf->remaining() - 1).ok());
  r = s2->sign(bytes{10});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->index, (std::uint64_t{1} << 20) - 1);
  EXPECT_TRUE(xmss::xmssmt_verify(pk, bytes{10}, r->signature).ok());
  EXPECT_EQ(s2->sign(bytes{11}).error().code, Errc::key_exhausted);
  // Another key's state: refused before any signing.
  auto other = xmss::PrivateKey::generate(*p);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(xmss::StatefulSigner::open(std::move(*other), state).error().code, Errc::state_rejected);
}

TEST(XmssCli, KeygenSignVerifyAudit) {
  TempDir d;
  auto r = run_pqsig(d, "hbs keygen --alg XMSSMT-SHA2_20/4_256 -o k.xmss --pub k.pub");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("1048576 signatures"), std::string::npos) << r.err;
  std::set<std::string> indices;
  for (int i = 0; i < 3; ++i) {
    const std::string m = "m" + std::to_string(i);
    write_text(d.file(m), "message " + std::to_string(i));
    r = run_pqsig(d, "hbs sign --key k.xmss --block 2 -i " + m + " -o " + m + ".sig");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(indices.insert(xmss_trim(r.err)).second) << r.err;
    r = run_pqsig(d, "hbs verify --family xmssmt --pub k.pub --sig " + m + ".sig -i " + m);
    EXPECT_EQ(r.code, 0) << r.err;
  }
  EXPECT_EQ(indices, (std::set<std::string>{"index 0", "index 2", "index 4"}));
  // Wrong family or message: invalid.
  EXPECT_EQ(run_pqsig(d, "hbs verify --family xmss --pub k.pub --sig m0.sig -i m0").code, 1);
  EXPECT_EQ(run_pqsig(d, "hbs verify --family xmssmt --pub k.pub --sig m0.sig -i m1").code, 1);
  r = run_pqsig(d, "hbs audit --pub k.pub --state k.xmss.state");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("signatures 3\nreservations 3\nreused 0\n"), std::string::npos) << r.out;
}
