// `pqsig key record | rotate | revoke | check` through the built binary.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_util.hpp"

namespace {
constexpr const char* T0 = "1767225600";
}

TEST(CliKeyRecords, RotateAndCheck) {
  TempDir d;
  auto g = run_pqsig(d, "keygen --alg ml-dsa-65+ed25519 -o old.jwk");
  if (g.err.find("not available in this build") != std::string::npos) GTEST_FAIL() << g.err;
  ASSERT_EQ(g.code, 0) << g.err;
  ASSERT_EQ(run_pqsig(d, "keygen --alg ml-dsa-65+ed25519 -o new.jwk").code, 0);
  auto r = run_pqsig(d, std::string("key record --key old.jwk --participant bank-a --purpose settlement-instruction "
                                    "--not-before ") + T0 + " --days 100 -o old.rec.json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto rot = run_pqsig(d, "key rotate --old old.jwk --new new.jwk --record old.rec.json --not-before 1771545600 "
                          "--days 365 -o new.rec.json");
  ASSERT_EQ(rot.code, 0) << rot.err;
  auto j = nlohmann::json::parse(slurp_file(d.file("new.rec.json")));
  EXPECT_EQ(j["generation"], 1);
  EXPECT_TRUE(j["rotation"].contains("old_signature"));
  EXPECT_TRUE(j["rotation"].contains("new_signature"));

  const std::string old_kid = nlohmann::json::parse(slurp_file(d.file("old.rec.json")))["kid"].get<std::string>();
  // ok: anchored at the old key, trusted out of band
  auto ok = run_pqsig(d, "key check new.rec.json --purpose settlement-instruction --at 1772000000 --chain old.rec.json "
                         "--anchor " + old_kid);
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("ok (anchored): bank-a settlement-instruction"), std::string::npos) << ok.out;
  // the new record alone names (and verifies) the key it was rotated from
  EXPECT_EQ(run_pqsig(d, "key check new.rec.json --at 1772000000 --anchor " + old_kid).code, 0);
  // no anchor: refused (exit 1) unless asked, and then it says so
  auto un = run_pqsig(d, "key check new.rec.json --at 1772000000 --chain old.rec.json");
  EXPECT_EQ(un.code, 1) << un.out;
  EXPECT_NE(un.err.find("refused: unanchored"), std::string::npos) << un.err;
  auto un_ok = run_pqsig(d, "key check new.rec.json --at 1772000000 --allow-unanchored");
  EXPECT_EQ(un_ok.code, 0) << un_ok.err;
  EXPECT_NE(un_ok.out.find("UNANCHORED"), std::string::npos) << un_ok.out;
  // each refusal: exit 1 and its reason code on stderr
  auto expect_refusal = [&](const std::string& args, const std::string& code) {
    auto res = run_pqsig(d, args);
    EXPECT_EQ(res.code, 1) << args << ": " << res.err;
    EXPECT_NE(res.err.find("refused: " + code), std::string::npos) << args << ": " << res.err;
  };
  expect_refusal("key check new.rec.json --purpose governance --at 1772000000", "wrong_purpose");
  expect_refusal("key check new.rec.json --at 1767225600", "not_yet_valid");
  expect_refusal("key check old.rec.json --at 1780000000", "expired");
  // revocations are signed by a key with authority over the record
  EXPECT_EQ(run_pqsig(d, "key revoke old.rec.json --at 1768000000 --reason compromise -o x.json").code, 2);  // no --key
  ASSERT_EQ(run_pqsig(d, "key revoke old.rec.json --key old.jwk --at 1768000000 --reason compromise -o old.revoked.json")
                .code, 0);
  expect_refusal("key check old.revoked.json --at 1768000000 --allow-unanchored", "revoked");
  auto rv = nlohmann::json::parse(slurp_file(d.file("old.revoked.json")));
  auto forged = rv;
  forged["revocation"]["at"] = 1779000000;  // moved by someone without the key
  write_text(d.file("forged.json"), forged.dump());
  expect_refusal("key check forged.json --at 1768000000 --allow-unanchored", "bad_revocation");
  auto unsigned_rv = rv;
  unsigned_rv["revocation"].erase("signature");
  unsigned_rv["revocation"].erase("signer_kid");
  write_text(d.file("unsigned.json"), unsigned_rv.dump());
  expect_refusal("key check unsigned.json --at 1760000000 --allow-unanchored", "bad_revocation");
  expect_refusal("key check new.rec.json --at 1772000000 --chain old.revoked.json", "broken_chain");
  // tampered rotation proof
  auto t = j;
  t["not_after"] = t["not_after"].get<std::uint64_t>() + 1;
  write_text(d.file("tampered.json"), t.dump());
  expect_refusal("key check tampered.json --at 1772000000", "bad_rotation_signature");
  // chain with a stranger anchor
  ASSERT_EQ(run_pqsig(d, "keygen --alg ml-dsa-65 -o stranger.jwk").code, 0);
  ASSERT_EQ(run_pqsig(d, std::string("key record --key stranger.jwk --participant bank-a --purpose settlement-instruction "
                                     "--not-before ") + T0 + " -o stranger.rec.json").code, 0);
  expect_refusal("key check new.rec.json --at 1772000000 --chain stranger.rec.json", "broken_chain");
  // malformed record → 2
  write_text(d.file("junk.json"), "{\"type\":\"pqsig-key-record\"}");
  EXPECT_EQ(run_pqsig(d, "key check junk.json").code, 2);
  EXPECT_EQ(run_pqsig(d, "key check missing.json").code, 2);
  // revoking with a key that has no authority over the record → 2
  EXPECT_EQ(run_pqsig(d, "key revoke old.rec.json --key stranger.jwk -o y.json").code, 2);
  // rotating with a key that is not the record's key → 2
  EXPECT_EQ(run_pqsig(d, "key rotate --old stranger.jwk --new new.jwk --record old.rec.json -o x.json").code, 2);
}
