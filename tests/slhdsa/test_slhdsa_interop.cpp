// SLH-DSA external interface cross-checked against an independent implementation
// (@noble/post-quantum, installed by scripts/interop-deps.sh; driven by
// tests/interop/slhdsa_noble.mjs). For every parameter set:
//   * keygen from the same (SK.seed, SK.prf, PK.seed) gives the same PK and SK;
//   * noble verifies our deterministic signatures (pure with context, two pre-hash functions)
//     and our randomized ones (pure and pre-hash), and rejects a tampered one;
//   * noble's deterministic signatures are byte-identical to ours (pure with context and two
//     pre-hash functions) and we verify noble's randomized signature — for every `f` set and for
//     SLH-DSA-SHA2-128s. noble needs 3–50 s per `s`-set signature, so the other `s` sets only get
//     noble signing when PQSIG_INTEROP_FULL=1 is set (run by hand; see docs/slhdsa.md).
// Tests whose name contains "Heavy" carry the ctest label `slow` as well as `interop`.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "pqsig/slhdsa.hpp"

using namespace pqsig;
using namespace pqsig::slhdsa;
using json = nlohmann::json;

namespace {

std::string interop_dir() { return std::string(PQSIG_SOURCE_DIR) + "/tests/interop"; }

bool oracle_available() {
  return std::filesystem::exists(interop_dir() + "/node_modules/@noble/post-quantum/slh-dsa.js");
}

// Runs the oracle on a request array; returns the answer array (or a json null on failure).
json run_noble(const json& reqs, const std::string& tag) {
  const std::string base = std::string(PQSIG_BINARY_DIR) + "/slhdsa_interop_" + tag;
  {
    std::ofstream f(base + ".req.json");
    f << reqs.dump();
  }
  const std::string cmd = "cd '" + interop_dir() + "' && node slhdsa_noble.mjs '" + base + ".req.json' > '" + base +
                          ".resp.json'";
  const int rc = std::system(cmd.c_str());
  if (rc != 0) return json();
  std::ifstream in(base + ".resp.json");
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return json::parse(ss.str());
  } catch (...) {
    return json();
  }
}

bytes pattern(std::size_t n, std::uint8_t mul, std::uint8_t add) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * mul + add);
  return b;
}

std::string hx(byte_span b) { return to_hex(b); }
bytes unhex(const json& v) {
  auto r = from_hex(v.get<std::string>());
  return r ? std::move(r.value()) : bytes{};
}

// Two pre-hash functions per security category that noble accepts (collision strength ≥ category).
std::pair<hash::PreHash, hash::PreHash> prehashes_for(const ParamInfo& pi) {
  if (pi.n == 16) return {hash::PreHash::sha2_256, hash::PreHash::shake_128};
  if (pi.n == 24) return {hash::PreHash::sha2_384, hash::PreHash::sha3_384};
  return {hash::PreHash::sha2_512, hash::PreHash::shake_256};
}

bool full_requested() {
  const char* e = std::getenv("PQSIG_INTEROP_FULL");
  return e && std::string(e) == "1";
}

void cross_check(ParamSet p, bool noble_signs) {
  if (!oracle_available()) GTEST_SKIP() << "oracle missing: run scripts/interop-deps.sh";
  const ParamInfo& pi = param_info(p);
  const std::string alg(pi.suite_id);
  const std::size_t n = pi.n;
  const bytes seed = pattern(3 * n, 7, static_cast<std::uint8_t>(pi.id) + 1);
  auto kp_r = slh_keygen_internal(p, byte_span(seed).subspan(0, n), byte_span(seed).subspan(n, n),
                                  byte_span(seed).subspan(2 * n, n));
  ASSERT_TRUE(kp_r.ok());
  const KeyPair& kp = *kp_r;
  const bytes sk(kp.sk.span().begin(), kp.sk.span().end());
  const bytes msg = pattern(77 + static_cast<std::size_t>(pi.id), 13, 5);
  // Context lengths vary per set (incl. empty and the maximum 255).
  const std::size_t ctx_len[12] = {0, 255, 1, 33, 200, 5, 64, 0, 17, 255, 9, 128};
  const bytes ctx = pattern(ctx_len[static_cast<int>(pi.id)], 3, 1);
  const auto [ph0, ph1] = prehashes_for(pi);
  const std::string ph0n(hash::prehash_info(ph0).acvp_name), ph1n(hash::prehash_info(ph1).acvp_name);

  auto det_pure = slh_sign(p, msg, ctx, sk, OptRand::deterministic());
  auto det_ph0 = hash_slh_sign(p, msg, ctx, ph0, sk, OptRand::deterministic());
  auto det_ph1 = hash_slh_sign(p, msg, ctx, ph1, sk, OptRand::deterministic());
  auto rnd_pure = slh_sign(p, msg, ctx, sk);
  auto rnd_ph = hash_slh_sign(p, msg, ctx, ph1, sk);
  ASSERT_TRUE(det_pure.ok() && det_ph0.ok() && det_ph1.ok() && rnd_pure.ok() && rnd_ph.ok());
  bytes tampered = *rnd_pure;
  tampered[tampered.size() / 2] ^= 0x01;

  json reqs = json::array();
  reqs.push_back({{"op", "keygen"}, {"alg", alg}, {"seed", hx(seed)}});
  auto verify_req = [&](const bytes& sig, const std::string& ph) {
    json r{{"op", "verify"}, {"alg", alg}, {"pk", hx(kp.pk)}, {"msg", hx(msg)}, {"sig", hx(sig)}, {"ctx", hx(ctx)}};
    if (!ph.empty()) r["prehash"] = ph;
    return r;
  };
  reqs.push_back(verify_req(*det_pure, ""));      // 1
  reqs.push_back(verify_req(*det_ph0, ph0n));     // 2
  reqs.push_back(verify_req(*det_ph1, ph1n));     // 3
  reqs.push_back(verify_req(*rnd_pure, ""));      // 4
  reqs.push_back(verify_req(*rnd_ph, ph1n));      // 5
  reqs.push_back(verify_req(tampered, ""));       // 6: must be rejected
  reqs.push_back(verify_req(*det_ph0, ph1n));     // 7: wrong pre-hash: must be rejected
  if (noble_signs) {
    auto sign_req = [&](const std::string& ph, bool det) {
      json r{{"op", "sign"}, {"alg", alg}, {"sk", hx(sk)}, {"msg", hx(msg)}, {"ctx", hx(ctx)}, {"deterministic", det}};
      if (!ph.empty()) r["prehash"] = ph;
      return r;
    };
    reqs.push_back(sign_req("", true));     // 8
    reqs.push_back(sign_req(ph0n, true));   // 9
    reqs.push_back(sign_req(ph1n, true));   // 10
    reqs.push_back(sign_req("", false));    // 11
    reqs.push_back(sign_req(ph0n, false));  // 12
  }

  json resp = run_noble(reqs, alg);
  ASSERT_TRUE(resp.is_array()) << "oracle failed";
  ASSERT_EQ(resp.size(), reqs.size());
  for (std::size_t i = 0; i < resp.size(); ++i) ASSERT_FALSE(resp[i].contains("error")) << i << ": " << resp[i];

  EXPECT_EQ(resp[0]["pk"], hx(kp.pk)) << alg;
  EXPECT_EQ(resp[0]["sk"], hx(sk)) << alg;
  EXPECT_TRUE(resp[1]["ok"].get<bool>()) << alg << " noble rejects our deterministic pure signature";
  EXPECT_TRUE(resp[2]["ok"].get<bool>()) << alg << " noble rejects our deterministic " << ph0n;
  EXPECT_TRUE(resp[3]["ok"].get<bool>()) << alg << " noble rejects our deterministic " << ph1n;
  EXPECT_TRUE(resp[4]["ok"].get<bool>()) << alg << " noble rejects our randomized pure signature";
  EXPECT_TRUE(resp[5]["ok"].get<bool>()) << alg << " noble rejects our randomized " << ph1n;
  EXPECT_FALSE(resp[6]["ok"].get<bool>()) << alg << " noble accepts a tampered signature";
  EXPECT_FALSE(resp[7]["ok"].get<bool>()) << alg << " noble accepts the wrong pre-hash";
  if (noble_signs) {
    EXPECT_EQ(resp[8]["sig"], hx(*det_pure)) << alg << " deterministic pure signatures differ";
    EXPECT_EQ(resp[9]["sig"], hx(*det_ph0)) << alg << " deterministic " << ph0n << " signatures differ";
    EXPECT_EQ(resp[10]["sig"], hx(*det_ph1)) << alg << " deterministic " << ph1n << " signatures differ";
    const bytes nr = unhex(resp[11]["sig"]);
    const bytes nr_ph = unhex(resp[12]["sig"]);
    EXPECT_NE(nr, *det_pure) << "noble randomized signature equals the deterministic one";
    EXPECT_TRUE(slh_verify(p, msg, nr, ctx, kp.pk).ok()) << alg << " we reject noble's randomized signature";
    EXPECT_TRUE(hash_slh_verify(p, msg, nr_ph, ctx, ph0, kp.pk).ok()) << alg << " we reject noble's " << ph0n;
  }
}

std::string test_name(ParamSet p) {
  std::string s(param_info(p).suite_id);
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

class SlhDsaInterop : public ::testing::TestWithParam<ParamSet> {};
class SlhDsaInteropHeavy : public ::testing::TestWithParam<ParamSet> {};
}  // namespace

// Cheap: noble signs in well under a second (unloaded).
TEST_P(SlhDsaInterop, CrossCheck) { cross_check(GetParam(), true); }
INSTANTIATE_TEST_SUITE_P(Sets, SlhDsaInterop,
                         ::testing::Values(ParamSet::sha2_128f, ParamSet::sha2_192f, ParamSet::sha2_256f,
                                           ParamSet::shake_128f),
                         [](const auto& tp) { return test_name(tp.param); });

// Heavy (label slow): the SHAKE f sets and SHA2-128s with noble signing; the other s sets with
// noble verifying only (noble signing them takes 10–50 s each; PQSIG_INTEROP_FULL=1 forces it).
TEST_P(SlhDsaInteropHeavy, CrossCheck) {
  const ParamSet p = GetParam();
  const bool s_set = param_info(p).d <= 8;  // the s sets have d = 7 or 8, the f sets 17 or 22
  const bool noble_signs = !s_set || p == ParamSet::sha2_128s || full_requested();
  cross_check(p, noble_signs);
}
INSTANTIATE_TEST_SUITE_P(Sets, SlhDsaInteropHeavy,
                         ::testing::Values(ParamSet::shake_192f, ParamSet::shake_256f, ParamSet::sha2_128s,
                                           ParamSet::shake_128s, ParamSet::sha2_192s, ParamSet::shake_192s,
                                           ParamSet::sha2_256s, ParamSet::shake_256s),
                         [](const auto& tp) { return test_name(tp.param); });
