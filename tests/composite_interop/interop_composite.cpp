// Composite ML-DSA cross-check: for each of the five composites, an independent implementation
// (@noble/post-quantum ML-DSA + @noble/curves Ed25519/Ed448/P-256, assembled per the draft in
// tests/interop/composite_noble.mjs) derives the same public key from the same sk, verifies our
// signatures, and its signatures verify here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pqsig/composite.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;
using nlohmann::json;

TEST(CompositeInterop, NobleAssembledComposite) {
  namespace fs = std::filesystem;
  const fs::path src = PQSIG_SOURCE_DIR;
  const fs::path script = src / "tests/interop/composite_noble.mjs";
  if (!fs::exists(src / "tests/interop/node_modules/@noble/post-quantum") ||
      !fs::exists(src / "tests/interop/node_modules/@noble/curves"))
    GTEST_FAIL() << "run scripts/interop-deps.sh first (npm oracles not installed)";
  if (std::system("node --version > /dev/null 2>&1") != 0) GTEST_FAIL() << "node not found";
  if (!SigningKey::generate(*find_suite("ml-dsa-44").value()).ok()) GTEST_FAIL() << "no ML-DSA in this build";

  struct Case {
    const char* id;
    const char* trad;
    const char* ph;
  } cases[] = {{"ml-dsa-44+ed25519", "ed25519", "sha512"},
               {"ml-dsa-65+ed25519", "ed25519", "sha512"},
               {"ml-dsa-44+ecdsa-p256", "p256", "sha256"},
               {"ml-dsa-65+ecdsa-p256", "p256", "sha512"},
               {"ml-dsa-87+ed448", "ed448", "shake256"}};
  json in{{"cases", json::array()}};
  std::vector<SigningKey> keys;
  std::vector<bytes> msgs, ctxs;
  for (int rep = 0; rep < 2; ++rep) {
    for (const auto& c : cases) {
      const auto& s = *find_suite(c.id).value();
      auto ci = *composite::composite_info(s);
      auto k = SigningKey::generate(s);
      ASSERT_TRUE(k.ok());
      bytes msg(static_cast<std::size_t>(17 + 100 * rep), static_cast<std::uint8_t>(rep + 1));
      bytes ctx = rep ? *composite::application_context("settlement", s) : bytes{};
      SignOptions o;
      o.ctx = ctx;
      auto sig = k->sign(msg, o);
      ASSERT_TRUE(sig.ok());
      byte_span sk = k->private_key();
      // Traditional raw private key: Ed seeds as is; ECDSA scalar = bytes 7..39 of the ECPrivateKey.
      byte_span tsk = std::string_view(c.trad) == "p256" ? sk.subspan(32 + 7, 32) : sk.subspan(32);
      in["cases"].push_back({{"label", std::string(ci->label)}, {"mldsa", std::string(ci->mldsa_id)},
                             {"trad", c.trad}, {"ph", c.ph}, {"seed", to_hex(sk.first(32))},
                             {"trad_sk", to_hex(tsk)}, {"msg", to_hex(msg)}, {"ctx", to_hex(ctx)},
                             {"our_pk", to_hex(k->public_key())}, {"our_sig", to_hex(*sig)}});
      keys.push_back(std::move(k.value()));
      msgs.push_back(msg);
      ctxs.push_back(ctx);
    }
  }
  const auto dir = fs::temp_directory_path();
  const auto inp = dir / ("pqsig_comp_in_" + std::to_string(::getpid()) + ".json");
  const auto outp = dir / ("pqsig_comp_out_" + std::to_string(::getpid()) + ".json");
  std::ofstream(inp) << in.dump();
  const std::string cmd = "node " + script.string() + " " + inp.string() + " " + outp.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(outp);
  std::stringstream ss;
  ss << f.rdbuf();
  json out = json::parse(ss.str());
  fs::remove(inp);
  fs::remove(outp);
  ASSERT_EQ(out["results"].size(), keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto& r = out["results"][i];
    const auto& s = keys[i].suite();
    SCOPED_TRACE(std::string(s.id));
    EXPECT_EQ(r["pk"].get<std::string>(), to_hex(keys[i].public_key()));
    EXPECT_TRUE(r["verifies_ours"].get<bool>());
    auto vk = VerifyingKey::from_public(s, keys[i].public_key());
    ASSERT_TRUE(vk.ok());
    SignOptions o;
    o.ctx = ctxs[i];
    auto theirs = from_hex(r["sig"].get<std::string>());
    ASSERT_TRUE(theirs.ok());
    EXPECT_TRUE(vk->verify(msgs[i], *theirs, o).ok());
    bytes other = msgs[i];
    other[0] ^= 1;
    EXPECT_EQ(vk->verify(other, *theirs, o).error().code, Errc::verify_failed);
  }
}
