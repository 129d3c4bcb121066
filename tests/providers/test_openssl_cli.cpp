// Cross-CLI interop with OpenSSL 3.5 (label interop;openssl35): OpenSSL's own CLI (`openssl genpkey /
// pkey / pkeyutl`, Debian 13's, run through scripts/openssl35.sh's wrapper) against `pqsig`, both
// directions, for every family:
//   ML-DSA-44/65/87   PKCS#8 and SPKI both ways, signatures both ways
//   SLH-DSA (all 12)  PKCS#8 and SPKI both ways (RFC 9909), signatures both ways for the fast sets
//                     and the two 128s sets
//   ML-KEM-512/768/1024  PKCS#8 in the seed, expanded and both forms (ml-kem.output_formats) and
//                     SPKI, read by pqsig; pqsig's keys read by OpenSSL; encapsulation both ways
// and `pqsig ledger providers / verify / bench` run against OpenSSL 3.5's libcrypto.
// ctest starts it through tests/providers/openssl35-run.sh, which sets PQSIG_OPENSSL35_RUN; without
// the OpenSSL 3.5 cache the test skips, naming the command that makes it (bash scripts/openssl35.sh).
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "../cli/cli_util.hpp"
#include "acvp_sigver.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/suite.hpp"
#include "support/openssl35.hpp"

using namespace pqsig;
using nlohmann::json;

namespace {

std::string q(const std::string& s) { return "'" + s + "'"; }

std::string run35() { return pqsig::test::openssl35_runner(); }
std::string openssl35() { return pqsig::test::openssl35_cli(); }

// Run a shell command inside the directory; stdout and stderr captured.
RunResult sh(const TempDir& d, const std::string& cmd) {
  const std::string o = d.file(".out"), e = d.file(".err");
  const int st = std::system(("cd " + q(d.path()) + " && ( " + cmd + " ) >" + q(o) + " 2>" + q(e)).c_str());
  RunResult r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp_file(o);
  r.err = slurp_file(e);
  return r;
}
std::string ossl() { return q(openssl35()); }
std::string pq() { return q(PQSIG_BINARY_DIR "/pqsig"); }

#define OK(r, what) ASSERT_EQ((r).code, 0) << what << "\nstdout: " << (r).out << "\nstderr: " << (r).err

void pqsig_private(const TempDir& d, const std::string& f) { ::chmod(d.file(f).c_str(), 0600); }

// Keys both ways and signatures both ways for one signature suite.
void signature_suite_both_ways(const std::string& id, bool signatures) {
  TempDir d;
  const SuiteInfo& s = *find_suite(id).value();
  const std::string alg(s.jose_alg);  // OpenSSL's name: ML-DSA-44, SLH-DSA-SHA2-128s, ...
  write_text(d.file("msg.txt"), "interop with OpenSSL 3.5: " + id + "\n");

  // OpenSSL → pqsig: its PKCS#8 and SPKI; pqsig derives the same public key from the private key.
  OK(sh(d, ossl() + " genpkey -algorithm " + alg + " -out o.key"), id << " openssl genpkey");
  OK(sh(d, ossl() + " pkey -in o.key -pubout -out o.pub"), id);
  pqsig_private(d, "o.key");
  auto r = sh(d, pq() + " pubkey --pem o.key");
  OK(r, id << " pqsig reads OpenSSL's PKCS#8");
  EXPECT_EQ(r.out, slurp_file(d.file("o.pub"))) << id << ": SPKI of pqsig and OpenSSL differ";
  OK(sh(d, pq() + " pubkey o.pub > o.pub.jwk"), id << " pqsig reads OpenSSL's SPKI");

  // pqsig → OpenSSL: pqsig's PKCS#8 and SPKI read by OpenSSL, which derives the same SPKI.
  OK(sh(d, pq() + " keygen --alg " + id + " --pem -o p.key"), id);
  OK(sh(d, pq() + " pubkey --pem p.key -o p.pub"), id);
  r = sh(d, ossl() + " pkey -in p.key -pubout");
  OK(r, id << " OpenSSL reads pqsig's PKCS#8");
  EXPECT_EQ(r.out, slurp_file(d.file("p.pub"))) << id;
  r = sh(d, ossl() + " pkey -pubin -in p.pub -pubout");
  OK(r, id << " OpenSSL reads pqsig's SPKI");
  EXPECT_EQ(r.out, slurp_file(d.file("p.pub"))) << id;
  if (!signatures) return;

  // Signatures: OpenSSL signs with its key, pqsig verifies with the SPKI; pqsig signs with
  // OpenSSL's key, OpenSSL verifies. Then the same with pqsig's key. Tampered: rejected by both.
  for (const std::string k : {"o", "p"}) {
    const std::string how = id + " key by " + (k == "o" ? "OpenSSL" : "pqsig");
    OK(sh(d, ossl() + " pkeyutl -sign -rawin -inkey " + k + ".key -in msg.txt -out " + k + ".osig"), how);
    OK(sh(d, pq() + " verify --key " + k + ".pub --format raw --sig " + k + ".osig msg.txt"),
       how << ": pqsig verifies OpenSSL's signature");
    OK(sh(d, pq() + " sign --key " + k + ".key --format raw -o " + k + ".psig msg.txt"), how);
    OK(sh(d, ossl() + " pkeyutl -verify -rawin -pubin -inkey " + k + ".pub -in msg.txt -sigfile " + k + ".psig"),
       how << ": OpenSSL verifies pqsig's signature");
    std::string sig = slurp_file(d.file(k + ".psig"));
    ASSERT_EQ(sig.size(), s.output_size) << how;
    sig[sig.size() / 2] ^= 1;
    write_text(d.file("bad.sig"), sig);
    r = sh(d, ossl() + " pkeyutl -verify -rawin -pubin -inkey " + k + ".pub -in msg.txt -sigfile bad.sig");
    EXPECT_NE(r.code, 0) << how << ": OpenSSL accepted a tampered signature";
    r = sh(d, pq() + " verify --key " + k + ".pub --format raw --sig bad.sig msg.txt");
    EXPECT_EQ(r.code, 1) << how << ": " << r.err;
  }
}

// NAME.der → NAME.pem ("PRIVATE KEY"), by the shell: pqsig's PEM reader sees the bytes as given.
std::string pem_of(const std::string& name) {
  return "{ printf -- '-----BEGIN PRIVATE KEY-----\\n'; base64 -w 64 " + name + ".der; printf -- '-----END PRIVATE KEY-----\\n'; } > " +
         name + ".pem";
}

bytes hex_bytes(const std::string& text) {
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t.push_back(c);
  return from_hex(t).value();
}

}  // namespace

TEST(OpenSslCli, MlDsaKeysAndSignaturesBothWays) {
  PQSIG_REQUIRE_OPENSSL35_RUNNER();
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87"}) signature_suite_both_ways(id, true);
}

TEST(OpenSslCli, SlhDsaKeysEveryTwelveSetsAndSignaturesBothWays) {
  PQSIG_REQUIRE_OPENSSL35_RUNNER();
  int n = 0;
  for (const auto& s : all_suites()) {
    if (s.family != "slh-dsa") continue;
    const bool sign = s.id.back() == 'f' || s.id.find("-128s") != std::string_view::npos;
    signature_suite_both_ways(std::string(s.id), sign);
    ++n;
  }
  EXPECT_EQ(n, 12);
}

// ML-KEM: OpenSSL writes each private key form (ml-kem.output_formats); pqsig reads each, derives
// the same SPKI, and decapsulates OpenSSL's ciphertexts; OpenSSL reads pqsig's keys and
// decapsulates pqsig's. A corrupted expandedKey (FIPS 203 §7.3 hash check) and a "both" whose halves
// disagree are refused by pqsig.
TEST(OpenSslCli, MlKemEveryPrivateKeyFormAndEncapsulationBothWays) {
  PQSIG_REQUIRE_OPENSSL35_RUNNER();
  for (const char* id : {"ml-kem-512", "ml-kem-768", "ml-kem-1024"}) {
    TempDir d;
    const SuiteInfo& s = *find_suite(id).value();
    const std::string alg(s.jose_alg);
    OK(sh(d, ossl() + " genpkey -algorithm " + alg + " -out o.key"), id);
    OK(sh(d, ossl() + " genpkey -algorithm " + alg + " -out o2.key"), id);
    OK(sh(d, ossl() + " pkey -in o.key -pubout -out o.pub"), id);
    const std::string pub = slurp_file(d.file("o.pub"));
    for (const std::string form : {"seed-only", "priv-only", "seed-priv"}) {
      const std::string how = std::string(id) + " " + form;
      const std::string f = "o-" + form + ".key";
      OK(sh(d, ossl() + " pkey -in o.key -provparam ml-kem.output_formats=" + form + " -out " + f), how);
      pqsig_private(d, f);
      auto r = sh(d, pq() + " pubkey --pem " + f);
      OK(r, how << ": pqsig reads OpenSSL's PKCS#8");
      EXPECT_EQ(r.out, pub) << how;
      // OpenSSL encapsulates to its SPKI; pqsig decapsulates with this form of the key.
      OK(sh(d, ossl() + " pkeyutl -encap -pubin -inkey o.pub -out ct.bin -secret ss.bin"), how);
      const std::string ct = slurp_file(d.file("ct.bin"));
      ASSERT_EQ(ct.size(), s.output_size) << how;
      write_text(d.file("ct.hex"), to_hex(as_bytes(ct)));
      r = sh(d, pq() + " kem decaps --key " + f + " --format hex --in ct.hex");
      OK(r, how << ": pqsig decapsulates OpenSSL's ciphertext");
      EXPECT_EQ(to_hex(hex_bytes(r.out)), to_hex(as_bytes(slurp_file(d.file("ss.bin"))))) << how;
    }
    // pqsig encapsulates to OpenSSL's SPKI; OpenSSL decapsulates.
    auto r = sh(d, pq() + " kem encaps --pub o.pub --print-secret --format hex");
    OK(r, id << ": pqsig reads OpenSSL's SPKI");
    {
      std::istringstream lines(r.out);
      std::string ct_hex, ss_hex;
      std::getline(lines, ct_hex);
      std::getline(lines, ss_hex);
      const bytes ct = hex_bytes(ct_hex);
      write_text(d.file("pct.bin"), std::string(ct.begin(), ct.end()));
      OK(sh(d, ossl() + " pkeyutl -decap -inkey o.key -in pct.bin -out pss.bin"), id);
      EXPECT_EQ(to_hex(as_bytes(slurp_file(d.file("pss.bin")))), to_hex(hex_bytes(ss_hex))) << id;
    }
    // pqsig's own keys (seed-only PKCS#8 and SPKI), read by OpenSSL; encapsulation both ways.
    OK(sh(d, pq() + " kem keygen --alg " + id + " --pem -o p.key --pub p.pub"), id);
    r = sh(d, ossl() + " pkey -in p.key -pubout");
    OK(r, id << ": OpenSSL reads pqsig's PKCS#8");
    EXPECT_EQ(r.out, slurp_file(d.file("p.pub"))) << id;
    OK(sh(d, ossl() + " pkeyutl -encap -pubin -inkey p.pub -out ct2.bin -secret ss2.bin"), id);
    write_text(d.file("ct2.hex"), to_hex(as_bytes(slurp_file(d.file("ct2.bin")))));
    r = sh(d, pq() + " kem decaps --key p.key --format hex --in ct2.hex");
    OK(r, id);
    EXPECT_EQ(to_hex(hex_bytes(r.out)), to_hex(as_bytes(slurp_file(d.file("ss2.bin"))))) << id;

    // Corrupted forms: the expandedKey's H(ek) (§7.3) flipped; "both" made of two different keys.
    OK(sh(d, ossl() + " pkey -in o.key -provparam ml-kem.output_formats=priv-only -outform DER -out exp.der"), id);
    std::string der = slurp_file(d.file("exp.der"));
    der[der.size() - 40] ^= 1;  // inside H(ek) = dk[768k+32 .. 768k+64), i.e. before the final 32-byte z
    write_text(d.file("bad-exp.der"), der);
    OK(sh(d, pem_of("bad-exp")), id);
    pqsig_private(d, "bad-exp.pem");
    r = sh(d, pq() + " pubkey bad-exp.pem");
    EXPECT_EQ(r.code, 2) << id << ": pqsig accepted an expandedKey failing the FIPS 203 §7.3 hash check";
    EXPECT_NE(r.err.find("check"), std::string::npos) << r.err;
    // "both" = seed of o.key, expanded key of o2.key.
    OK(sh(d, ossl() + " pkey -in o.key -provparam ml-kem.output_formats=seed-priv -outform DER -out b1.der"), id);
    OK(sh(d, ossl() + " pkey -in o2.key -provparam ml-kem.output_formats=seed-priv -outform DER -out b2.der"), id);
    std::string b1 = slurp_file(d.file("b1.der")), b2 = slurp_file(d.file("b2.der"));
    ASSERT_EQ(b1.size(), b2.size()) << id;
    // Layout: ... 04 40 <seed 64> 04 82 xx xx <dk>: keep b1 up to and with the seed, then b2's dk.
    const std::size_t seed_at = b1.find(std::string("\x04\x40", 2));
    ASSERT_NE(seed_at, std::string::npos) << id;
    const std::string mixed = b1.substr(0, seed_at + 2 + 64) + b2.substr(seed_at + 2 + 64);
    write_text(d.file("mixed.der"), mixed);
    OK(sh(d, pem_of("mixed")), id);
    pqsig_private(d, "mixed.pem");
    r = sh(d, ossl() + " pkey -in mixed.pem -noout");
    EXPECT_NE(r.code, 0) << id << ": OpenSSL too refuses a seed and expandedKey that disagree";
    r = sh(d, pq() + " pubkey mixed.pem");
    EXPECT_EQ(r.code, 2) << id;
    EXPECT_NE(r.err.find("disagree"), std::string::npos) << id << ": " << r.err;
  }
}

// `pqsig ledger providers`, `ledger verify` and `ledger bench` with libcrypto 3.5 (the pqsig binary
// started through the wrapper, so its libcrypto.so.3 is OpenSSL 3.5's).
TEST(OpenSslCli, LedgerProvidersVerifyAndBenchUnderOpenSsl35) {
  PQSIG_REQUIRE_OPENSSL35_RUNNER();
  TempDir d;
  const std::string pq35 = q(run35()) + " " + pq();
  auto r = sh(d, pq35 + " ledger providers --json");
  OK(r, "ledger providers");
  const json j = json::parse(r.out);
  bool found = false;
  for (const auto& p : j.at("providers")) {
    if (p.at("name") != "openssl") continue;
    found = true;
    EXPECT_TRUE(p.at("available").get<bool>()) << p.dump();
    EXPECT_NE(p.at("version").get<std::string>().find("OpenSSL 3."), std::string::npos) << p.dump();
    EXPECT_EQ(p.at("suites").at("ml-dsa-44"), "pure,context,internal,external-mu") << p.dump();
    EXPECT_EQ(p.at("suites").at("slh-dsa-shake-256s"), "pure,context,internal") << p.dump();
    EXPECT_EQ(p.at("suites").size(), 15u) << p.dump();
    EXPECT_EQ(p.at("operations").at("ml-dsa-65"), "keygen,sign") << p.dump();  // price --engine openssl signs
    EXPECT_EQ(p.at("operations").at("slh-dsa-sha2-128s"), "keygen,sign") << p.dump();
    EXPECT_FALSE(p.at("operations").contains("ml-kem-768")) << p.dump();
  }
  EXPECT_TRUE(found) << r.out;
  r = sh(d, pq35 + " ledger providers");
  OK(r, "ledger providers (text)");
  EXPECT_NE(r.out.find("openssl"), std::string::npos) << r.out;

  // Every ACVP sigVer vector as a ledger item, pqsig first and openssl second and the reverse,
  // enforce and shadow: no disagreement; the HashML-DSA items refused (OpenSSL lacks them).
  std::string items;
  std::vector<bool> expected;
  for (const char* file : {"ml-dsa-sigVer.json", "slh-dsa-sigVer.json"}) {
    for (const auto& c : load_sigver(file)) {
      json it{{"alg", std::string(c.suite->id)}, {"pk", to_hex(c.pk)}, {"sig", to_hex(c.sig)}};
      if (c.opt.input == provider::VerifyOptions::Input::mu) it["mu"] = to_hex(c.msg);
      else it["msg"] = to_hex(c.msg);
      if (c.opt.input == provider::VerifyOptions::Input::internal) it["interface"] = "internal";
      if (!c.ctx.empty()) it["ctx"] = to_hex(c.ctx);
      if (c.opt.prehash) it["prehash"] = std::string(hash::prehash_info(*c.opt.prehash).acvp_name);
      items += it.dump() + "\n";
      expected.push_back(c.expected);
    }
  }
  write_text(d.file("items.jsonl"), items);
  for (const std::string pair : {"--first pqsig --second openssl", "--first openssl --second pqsig"}) {
    for (const std::string mode : {"enforce", "shadow"}) {
      const std::string how = pair + " --mode " + mode;
      r = sh(d, pq35 + " ledger verify " + pair + " --mode " + mode + " < items.jsonl");
      EXPECT_TRUE(r.code == 0 || r.code == 1) << how << ": " << r.err;
      std::istringstream lines(r.out);
      std::string line;
      std::size_t i = 0;
      int refused = 0;
      json summary;
      while (std::getline(lines, line)) {
        const json v = json::parse(line);
        if (v.contains("summary")) {
          summary = v.at("summary");
          continue;
        }
        ASSERT_LT(i, expected.size()) << how;
        if (v.value("refused", false)) ++refused;
        else EXPECT_EQ(v.at("ok").get<bool>(), expected[i]) << how << " item " << i << ": " << line;
        EXPECT_FALSE(v.at("disagreement").get<bool>()) << how << " item " << i << ": " << line;
        ++i;
      }
      EXPECT_EQ(i, expected.size()) << how;
      EXPECT_EQ(refused, 45) << how << ": the HashML-DSA items";
      EXPECT_EQ(summary.at("disagreements").get<int>(), 0) << how << ": " << summary.dump();
    }
  }

  // `ledger bench --second openssl` measures it (a short run).
  r = sh(d, pq35 + " ledger bench --second openssl --suites ml-dsa-44 --quick --rounds 1 --samples 5 --no-progress");
  OK(r, "ledger bench --second openssl");
  EXPECT_NE(r.out.find("second = OpenSSL 3."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("disagreements: 0, unexpected verdicts: 0"), std::string::npos) << r.out;
}
