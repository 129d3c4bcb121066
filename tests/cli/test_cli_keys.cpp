// `pqsig keygen | pubkey | sign | verify` end to end through the built binary.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_util.hpp"
#include "pqsig/suite.hpp"

using nlohmann::json;

namespace {
bool not_built(const RunResult& r) { return r.err.find("not available in this build") != std::string::npos; }
#define SKIP_IF_NOT_BUILT(r) \
  if (not_built(r)) GTEST_FAIL() << r.err

// Suites whose signing is slow enough to leave out of the every-suite loop (covered elsewhere).
bool slow_suite(std::string_view id) {
  return id.starts_with("slh-dsa-") && id != "slh-dsa-sha2-128f" && id != "slh-dsa-shake-128f";
}
}  // namespace

TEST(CliKeys, RoundTripEverySuite) {
  TempDir d;
  write_text(d.file("msg.txt"), "pay 100 to bob\n");
  write_text(d.file("evil.txt"), "pay 900 to bob\n");
  int done = 0;
  for (const auto& s : pqsig::all_suites()) {
    std::string id(s.id);
    if (s.cls == pqsig::SuiteClass::kem || slow_suite(id)) continue;
    if (s.stateful) continue;  // keys only with their state (`pqsig hbs`): StatefulSuitesRefusedByKeygen
    auto g = run_pqsig(d, "keygen --alg " + id + " -o " + id + ".jwk");
    if (not_built(g)) continue;
    ASSERT_EQ(g.code, 0) << id << ": " << g.err;
    std::string pubfile = id + ".jwk";
    if (s.cls != pqsig::SuiteClass::mac) {
      auto p = run_pqsig(d, "pubkey " + id + ".jwk -o " + id + ".pub.jwk");
      ASSERT_EQ(p.code, 0) << id << ": " << p.err;
      auto pj = json::parse(slurp_file(d.file(id + ".pub.jwk")));
      EXPECT_FALSE(pj.contains("priv") || pj.contains("d") || pj.contains("k")) << id;
      pubfile = id + ".pub.jwk";
    }
    // Every format for a few suites; the default (base64) for the rest keeps the test short.
    std::vector<std::string> formats{"base64"};
    if (id == "ml-dsa-44" || id == "ed25519" || id == "ml-dsa-65+ed25519") formats = {"base64", "hex", "raw"};
    for (const std::string& fmt : formats) {
      auto sg = run_pqsig(d, "sign --key " + id + ".jwk --format " + fmt + " -o " + id + ".sig." + fmt + " msg.txt");
      ASSERT_EQ(sg.code, 0) << id << " " << fmt << ": " << sg.err;
      auto v = run_pqsig(d, "verify --key " + pubfile + " --format " + fmt + " --sig " + id + ".sig." + fmt + " msg.txt");
      EXPECT_EQ(v.code, 0) << id << " " << fmt << ": " << v.err;
      auto bad = run_pqsig(d, "verify --key " + pubfile + " --format " + fmt + " --sig " + id + ".sig." + fmt + " evil.txt");
      EXPECT_EQ(bad.code, 1) << id << " " << fmt << ": " << bad.err;
      EXPECT_NE(bad.err.find("invalid signature"), std::string::npos);
    }
    ++done;
  }
  if (done == 0) GTEST_FAIL() << "no signature backend in this build";
}

TEST(CliKeys, PrivateKeyFileMode0600AndNoOverwrite) {
  TempDir d;
  auto g = run_pqsig(d, "keygen --alg ml-dsa-44 -o k.jwk");
  SKIP_IF_NOT_BUILT(g);
  ASSERT_EQ(g.code, 0) << g.err;
  struct stat st {};
  ASSERT_EQ(::stat(d.file("k.jwk").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto again = run_pqsig(d, "keygen --alg ml-dsa-44 -o k.jwk");
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.err.find("exists"), std::string::npos);
  EXPECT_EQ(run_pqsig(d, "keygen --alg ml-dsa-44 --force -o k.jwk").code, 0);
  ASSERT_EQ(::stat(d.file("k.jwk").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // no temp files left behind
  auto ls = std::system(("test $(ls -A '" + d.path() + "' | grep -c tmp) -eq 0").c_str());
  EXPECT_EQ(ls, 0);
}

TEST(CliKeys, DilithiumSeedsReproduceExampleKid) {
  TempDir d;
  const std::pair<const char*, const char*> ex[] = {{"ml-dsa-44", "T4xl70S7MT6Zeq6r9V9fPJGVn76wfnXJ21-gyo0Gu6o"},
                                                    {"ml-dsa-65", "Suiu29qbfuaBaR4Ats-c6XQBePB_OpAxAwcTR_0KXVM"},
                                                    {"ml-dsa-87", "tRn1JNIkgMsABVQBlXeDHxAIcclh-2IX0UdDEzPt5XU"}};
  for (auto [alg, kid] : ex) {
    auto g = run_pqsig(d, std::string("keygen --alg ") + alg + " --seed " + std::string(64, '0'));
    SKIP_IF_NOT_BUILT(g);
    ASSERT_EQ(g.code, 0) << g.err;
    auto j = json::parse(g.out);
    EXPECT_EQ(j["kid"], kid);
    EXPECT_EQ(j["kty"], "AKP");
    EXPECT_EQ(j["priv"], "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    write_private(d.file("k.jwk"), g.out);
    auto t = run_pqsig(d, "pubkey --thumbprint k.jwk");
    EXPECT_EQ(t.out, std::string(kid) + "\n");
  }
}

TEST(CliKeys, ExitCodesForBadInput) {
  TempDir d;
  write_text(d.file("msg.txt"), "hello");
  write_text(d.file("garbage.jwk"), "this is not a key");
  write_text(d.file("dup.jwk"), R"({"kty":"AKP","alg":"ML-DSA-44","pub":"AA","pub":"AA"})");
  auto r = run_pqsig(d, "sign --key garbage.jwk msg.txt");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("pqsig: "), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // one line
  EXPECT_EQ(run_pqsig(d, "sign --key dup.jwk msg.txt").code, 2);
  EXPECT_EQ(run_pqsig(d, "sign --key missing.jwk msg.txt").code, 2);
  EXPECT_EQ(run_pqsig(d, "keygen --alg ml-dsa-13").code, 2);
  EXPECT_EQ(run_pqsig(d, "keygen --alg ml-dsa-44 --seed 00zz").code, 2);
  EXPECT_EQ(run_pqsig(d, "keygen --alg ml-dsa-44 --seed 0000").code, 2);
  EXPECT_EQ(run_pqsig(d, "sign msg.txt").code, 2);  // --key missing
  auto g = run_pqsig(d, "keygen --alg ml-dsa-44 -o k.jwk");
  if (not_built(g)) return;
  ASSERT_EQ(g.code, 0);
  ASSERT_EQ(run_pqsig(d, "pubkey k.jwk -o k.pub").code, 0);
  EXPECT_EQ(run_pqsig(d, "sign --key k.pub msg.txt").code, 2);  // public key cannot sign
  ASSERT_EQ(run_pqsig(d, "sign --key k.jwk -o s.b64 msg.txt").code, 0);
  write_text(d.file("bad.b64"), "!!!not base64!!!");
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig bad.b64 msg.txt").code, 2);
  write_text(d.file("short.b64"), "AAAA");
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig short.b64 msg.txt").code, 1);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig missing.sig msg.txt").code, 2);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig s.b64 --ctx-hex 0g msg.txt").code, 2);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig s.b64 --ctx " + std::string(256, 'a') + " msg.txt").code, 2);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig s.b64 --prehash SHA9 msg.txt").code, 2);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig s.b64 --purpose lunch msg.txt").code, 2);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig s.b64 msg.txt").code, 0);
}

// A stateful hash-based suite (LMS/HSS, XMSS) has no stateless key: `keygen` refuses it (exit 2,
// Errc::stateful_key) and names the commands that keep the state.
TEST(CliKeys, StatefulSuitesRefusedByKeygen) {
  TempDir d;
  for (const char* id : {"lms-sha256-m32-h10-w4", "xmss-sha2_10_256"}) {
    auto g = run_pqsig(d, std::string("keygen --alg ") + id + " -o k.jwk");
    EXPECT_EQ(g.code, 2) << id;
    EXPECT_NE(g.err.find("stateful_key"), std::string::npos) << g.err;
    EXPECT_NE(g.err.find("pqsig hbs keygen"), std::string::npos) << g.err;
  }
}

TEST(CliKeys, KemSuitesRefusedForSigning) {
  TempDir d;
  write_text(d.file("msg.txt"), "hello");
  auto g = run_pqsig(d, "keygen --alg ml-kem-768 -o kem.jwk");
  SKIP_IF_NOT_BUILT(g);
  ASSERT_EQ(g.code, 0) << g.err;
  auto r = run_pqsig(d, "sign --key kem.jwk msg.txt");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("pqsig kem"), std::string::npos) << r.err;
}

TEST(CliKeys, ContextPurposePrehashAndStdin) {
  TempDir d;
  write_text(d.file("msg.txt"), "settle 42");
  auto g = run_pqsig(d, "keygen --alg ml-dsa-65 -o k.jwk");
  SKIP_IF_NOT_BUILT(g);
  ASSERT_EQ(g.code, 0);
  ASSERT_EQ(run_pqsig(d, "pubkey k.jwk -o k.pub").code, 0);
  // context
  ASSERT_EQ(run_pqsig(d, "sign --key k.jwk --ctx order-7 -o c.sig msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig c.sig --ctx order-7 msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig c.sig --ctx-hex 6f726465722d37 msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig c.sig --ctx order-8 msg.txt").code, 1);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig c.sig msg.txt").code, 1);
  // purpose: a settlement signature is not a governance signature
  ASSERT_EQ(run_pqsig(d, "sign --key k.jwk --purpose settlement-instruction -o p.sig msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig p.sig --purpose settlement-instruction msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig p.sig --purpose governance msg.txt").code, 1);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig p.sig msg.txt").code, 1);
  // deterministic signatures are reproducible; stdin input equals file input
  ASSERT_EQ(run_pqsig(d, "sign --key k.jwk --deterministic -o d1.sig msg.txt").code, 0);
  ASSERT_EQ(run_pqsig(d, "sign --key k.jwk --deterministic -o d2.sig -", d.file("msg.txt")).code, 0);
  EXPECT_EQ(slurp_file(d.file("d1.sig")), slurp_file(d.file("d2.sig")));
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig d1.sig -", d.file("msg.txt")).code, 0);
  // HashML-DSA
  ASSERT_EQ(run_pqsig(d, "sign --key k.jwk --prehash SHA2-256 -o h.sig msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig h.sig --prehash SHA2-256 msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig h.sig msg.txt").code, 1);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub --sig h.sig --prehash SHA2-512 msg.txt").code, 1);
}

TEST(CliKeys, PemKeys) {
  TempDir d;
  write_text(d.file("msg.txt"), "pem");
  auto g = run_pqsig(d, "keygen --alg ml-dsa-44 --pem -o k.pem");
  SKIP_IF_NOT_BUILT(g);
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_EQ(slurp_file(d.file("k.pem")).rfind("-----BEGIN PRIVATE KEY-----\n", 0), 0u);
  ASSERT_EQ(run_pqsig(d, "pubkey --pem k.pem -o k.pub.pem").code, 0);
  EXPECT_EQ(slurp_file(d.file("k.pub.pem")).rfind("-----BEGIN PUBLIC KEY-----\n", 0), 0u);
  ASSERT_EQ(run_pqsig(d, "sign --key k.pem -o s.sig msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "verify --key k.pub.pem --sig s.sig msg.txt").code, 0);
  // same key as JWK → same kid
  auto a = run_pqsig(d, "pubkey --thumbprint k.pem"), b = run_pqsig(d, "pubkey --thumbprint k.pub.pem");
  EXPECT_EQ(a.out, b.out);
  // classical keys go through the classical layer's PKCS#8 / SPKI
  for (std::string alg : {"ed25519", "ecdsa-p256-sha256"}) {
    auto c = run_pqsig(d, "keygen --alg " + alg + " --pem -o " + alg + ".pem");
    if (c.err.find("not available in this build") != std::string::npos) continue;
    ASSERT_EQ(c.code, 0) << alg << ": " << c.err;
    ASSERT_EQ(run_pqsig(d, "pubkey --pem " + alg + ".pem -o " + alg + ".pub.pem").code, 0) << alg;
    ASSERT_EQ(run_pqsig(d, "sign --key " + alg + ".pem -o " + alg + ".sig msg.txt").code, 0) << alg;
    EXPECT_EQ(run_pqsig(d, "verify --key " + alg + ".pub.pem --sig " + alg + ".sig msg.txt").code, 0) << alg;
    auto jw = run_pqsig(d, "pubkey " + alg + ".pem");
    EXPECT_NE(jw.out.find("\"kty\":\"" + std::string(alg == "ed25519" ? "OKP" : "EC") + "\""), std::string::npos) << jw.out;
  }
}

// SLH-DSA keys as PKCS#8 / SPKI (RFC 9909) and ML-KEM keys as PKCS#8 / SPKI (RFC 9935) through the
// CLI: keygen --pem, pubkey --pem, kem keygen --pem; signing, verifying, encapsulating and
// decapsulating with the PEM files; the same kid as the JWK form.
TEST(CliKeys, SlhDsaAndMlKemPemKeys) {
  TempDir d;
  write_text(d.file("msg.txt"), "pem forms");
  for (std::string alg : {"slh-dsa-sha2-128f", "slh-dsa-shake-128f"}) {
    auto g = run_pqsig(d, "keygen --alg " + alg + " --pem -o " + alg + ".pem");
    ASSERT_EQ(g.code, 0) << alg << ": " << g.err;
    EXPECT_EQ(slurp_file(d.file(alg + ".pem")).rfind("-----BEGIN PRIVATE KEY-----\n", 0), 0u);
    ASSERT_EQ(run_pqsig(d, "pubkey --pem " + alg + ".pem -o " + alg + ".pub.pem").code, 0) << alg;
    ASSERT_EQ(run_pqsig(d, "sign --key " + alg + ".pem -o " + alg + ".sig msg.txt").code, 0) << alg;
    EXPECT_EQ(run_pqsig(d, "verify --key " + alg + ".pub.pem --sig " + alg + ".sig msg.txt").code, 0) << alg;
    auto a = run_pqsig(d, "pubkey --thumbprint " + alg + ".pem"), b = run_pqsig(d, "pubkey --thumbprint " + alg + ".pub.pem");
    EXPECT_EQ(a.out, b.out) << alg;
  }
  for (std::string alg : {"ml-kem-512", "ml-kem-768", "ml-kem-1024"}) {
    auto g = run_pqsig(d, "kem keygen --alg " + alg + " --pem -o " + alg + ".pem --pub " + alg + ".pub.pem");
    ASSERT_EQ(g.code, 0) << alg << ": " << g.err;
    EXPECT_EQ(slurp_file(d.file(alg + ".pem")).rfind("-----BEGIN PRIVATE KEY-----\n", 0), 0u);
    EXPECT_EQ(slurp_file(d.file(alg + ".pub.pem")).rfind("-----BEGIN PUBLIC KEY-----\n", 0), 0u);
    auto p = run_pqsig(d, "pubkey --pem " + alg + ".pem");
    EXPECT_EQ(p.out, slurp_file(d.file(alg + ".pub.pem"))) << alg;
    auto e = run_pqsig(d, "kem encaps --pub " + alg + ".pub.pem --print-secret --format hex");
    ASSERT_EQ(e.code, 0) << alg << ": " << e.err;
    const auto nl = e.out.find('\n');
    write_text(d.file("ct.hex"), e.out.substr(0, nl));
    auto k = run_pqsig(d, "kem decaps --key " + alg + ".pem --format hex --in ct.hex");
    ASSERT_EQ(k.code, 0) << alg << ": " << k.err;
    EXPECT_EQ(k.out, e.out.substr(nl + 1)) << alg;
    // keygen --pem for a KEM suite writes the same PKCS#8 form.
    auto g2 = run_pqsig(d, "keygen --alg " + alg + " --pem -o " + alg + "-2.pem");
    ASSERT_EQ(g2.code, 0) << alg << ": " << g2.err;
    EXPECT_EQ(run_pqsig(d, "pubkey " + alg + "-2.pem").code, 0) << alg;
  }
  // Hybrid KEMs have no PKCS#8 form: a clear error.
  auto x = run_pqsig(d, "kem keygen --alg x-wing --pem -o xw.pem");
  EXPECT_EQ(x.code, 2) << x.err;
  EXPECT_NE(x.err.find("no PKCS#8 form"), std::string::npos) << x.err;
}

// A private AKP JWK with "priv" alone (the seed): signs, and `pubkey` prints the full public JWK.
TEST(CliKeys, AkpJwkWithPrivOnly) {
  TempDir d;
  write_text(d.file("msg.txt"), "bare seed");
  ASSERT_EQ(run_pqsig(d, "keygen --alg ml-dsa-44 -o full.jwk").code, 0);
  const json full = json::parse(slurp_file(d.file("full.jwk")));
  const json bare = {{"kty", "AKP"}, {"alg", "ML-DSA-44"}, {"priv", full["priv"]}};
  write_private(d.file("bare.jwk"), bare.dump());
  auto p = run_pqsig(d, "pubkey bare.jwk");
  ASSERT_EQ(p.code, 0) << p.err;
  const json pub = json::parse(p.out);
  EXPECT_EQ(pub["pub"], full["pub"]);
  EXPECT_EQ(pub["kid"], full["kid"]);
  EXPECT_EQ(pub["kty"], "AKP");
  EXPECT_FALSE(pub.contains("priv"));
  write_text(d.file("pub.jwk"), p.out);
  ASSERT_EQ(run_pqsig(d, "sign --key bare.jwk -o s.sig msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "verify --key pub.jwk --sig s.sig msg.txt").code, 0);
  EXPECT_EQ(run_pqsig(d, "pubkey --thumbprint bare.jwk").out, full["kid"].get<std::string>() + "\n");
}
