// The library's nonce store path (RFC 9421 §7.2.2): verify_message records the nonces of the
// labels that verified only once the whole policy is satisfied; a replay or a store error (fail
// closed by default) makes the label invalid; errors are counted in the report.
#include <gtest/gtest.h>

#include "pqsig/httpsig.hpp"

using namespace pqsig;
using namespace pqsig::httpsig;

namespace {

constexpr std::int64_t kNow = 1'790'000'000;

struct Signed {
  SigningKey key;
  KeyStore store;
  Message msg;
};

Signed make(std::vector<std::string> labels, const std::string& nonce_prefix = "n") {
  Signed s{SigningKey::generate(*find_suite("ed25519").value()).value(), {}, {}};
  s.store.add("k1", VerifyingKey::from_public(s.key.suite(), s.key.public_key()).value());
  s.msg.method = "GET";
  s.msg.target = "/a";
  s.msg.add("Host", "origin.example");
  std::vector<SignSpec> specs;
  for (const auto& l : labels) {
    SignSpec sp;
    sp.label = l;
    sp.key = &s.key;
    sp.keyid = "k1";
    sp.components = {component("@authority")};
    sp.created = kNow;
    sp.expires = kNow + 60;
    sp.nonce = nonce_prefix + l;
    specs.push_back(sp);
  }
  EXPECT_TRUE(sign_message(s.msg, specs).ok());
  return s;
}

class FlakyStore : public NonceStore {
 public:
  NonceOutcome answer = NonceOutcome::error;
  int calls = 0;
  NonceOutcome record(std::string_view, std::string_view, std::int64_t, std::int64_t) override {
    ++calls;
    return answer;
  }
};

VerifyPolicy policy(NonceStore* st) {
  VerifyPolicy p;
  p.now = kNow;
  p.nonces = st;
  return p;
}

}  // namespace

TEST(NonceStore, RecordedOnlyOnceThePolicyIsSatisfied) {
  auto s = make({"sig1", "sig2"});
  InMemoryNonceStore st;
  auto pol = policy(&st);
  pol.required_labels = {"sig1", "sig3"};  // both verify, the policy still refuses
  auto rep = verify_message(s.msg, s.store, pol);
  EXPECT_FALSE(rep.policy_satisfied);
  EXPECT_EQ(rep.verdicts[0].outcome, Outcome::valid);
  EXPECT_EQ(st.size(), 0u);  // nothing burned
  pol.required_labels = {};
  rep = verify_message(s.msg, s.store, pol);
  EXPECT_TRUE(rep.policy_satisfied) << rep.policy_detail;
  EXPECT_EQ(st.size(), 2u);
  EXPECT_EQ(rep.verdicts[0].nonce.value_or(""), "nsig1");
  rep = verify_message(s.msg, s.store, pol);  // replayed
  EXPECT_FALSE(rep.policy_satisfied);
  EXPECT_EQ(rep.verdicts[0].outcome, Outcome::invalid);
  EXPECT_EQ(rep.verdicts[0].reason, Reason::nonce_replayed);
}

TEST(NonceStore, ForgedLabelsNeverBurnNonces) {
  auto s = make({"sig1"});
  InMemoryNonceStore st;
  Message forged = s.msg;
  forged.set("Host", "evil.example");
  auto rep = verify_message(forged, s.store, policy(&st));
  EXPECT_FALSE(rep.policy_satisfied);
  EXPECT_EQ(st.size(), 0u);
  EXPECT_TRUE(verify_message(s.msg, s.store, policy(&st)).policy_satisfied);
}

TEST(NonceStore, StoreErrorsFailClosedByDefaultAndAreCounted) {
  auto s = make({"sig1"});
  FlakyStore st;
  auto rep = verify_message(s.msg, s.store, policy(&st));
  EXPECT_FALSE(rep.policy_satisfied);
  EXPECT_EQ(rep.verdicts[0].reason, Reason::nonce_store_unavailable);
  EXPECT_EQ(reason_name(rep.verdicts[0].reason), "nonce_store_unavailable");
  EXPECT_EQ(rep.nonce_errors, 1u);
  auto open = policy(&st);
  open.nonce_fail_open = true;
  rep = verify_message(s.msg, s.store, open);
  EXPECT_TRUE(rep.policy_satisfied) << rep.policy_detail;
  EXPECT_EQ(rep.nonce_errors, 1u);
  st.answer = NonceOutcome::replayed;
  rep = verify_message(s.msg, s.store, open);  // fail-open never accepts a replay
  EXPECT_FALSE(rep.policy_satisfied);
  EXPECT_EQ(rep.verdicts[0].reason, Reason::nonce_replayed);
  EXPECT_EQ(st.calls, 3);
}

TEST(NonceStore, InMemoryStoreAnswers) {
  InMemoryNonceStore st;
  EXPECT_EQ(st.record("k", "n", kNow + 10, kNow), NonceOutcome::fresh);
  EXPECT_EQ(st.record("k", "n", kNow + 10, kNow + 5), NonceOutcome::replayed);
  EXPECT_EQ(st.record("k2", "n", kNow + 10, kNow + 5), NonceOutcome::fresh);
  EXPECT_EQ(st.record("k", "n", kNow + 30, kNow + 11), NonceOutcome::fresh);  // expired, forgotten
  EXPECT_FALSE(st.check_and_store("k", "n", kNow + 30, kNow + 12));
}
