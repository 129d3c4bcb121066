// OpenSSL 3.5 and the RFC 9802 SPKI of HSS / XMSS / XMSS^MT keys (label openssl35).
// What OpenSSL 3.5 does with them: its ASN.1 parser reads our DER (asn1parse: one SEQUENCE, the
// AlgorithmIdentifier with the OID alone, a BIT STRING of 1 + key bytes), but it has no LMS/HSS
// or XMSS key manager: `openssl pkey -pubin` refuses the key (LMS verification arrived in
// OpenSSL 3.6). When the OpenSSL under test lists an LMS signature algorithm, the test instead
// requires it to import our SPKI and verify a pqsig HSS signature (and refuse a tampered one).
// Started through tests/providers/openssl35-run.sh (cli mode), which sets PQSIG_OPENSSL35_RUN;
// without the OpenSSL 3.5 cache it skips naming the command that makes it, or fails when
// PQSIG_REQUIRE_OPENSSL35=1.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <fstream>
#include <sstream>

#include "pqsig/jose.hpp"
#include "pqsig/lms.hpp"
#include "support/openssl35.hpp"

using namespace pqsig;
namespace fs = std::filesystem;

namespace {

std::string hbs35_q(const std::string& s) { return "'" + s + "'"; }
std::string hbs35_openssl() { return hbs35_q(pqsig::test::openssl35_cli()); }

struct Hbs35Dir {
  fs::path p;
  Hbs35Dir() {
    char tmpl[] = "/tmp/pqsig_hbs35_XXXXXX";
    p = ::mkdtemp(tmpl);
  }
  ~Hbs35Dir() {
    std::error_code ec;
    fs::remove_all(p, ec);
  }
  std::string file(const std::string& n) const { return (p / n).string(); }
};

void hbs35_write(const std::string& path, byte_span b) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}
std::string hbs35_slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Hbs35Run {
  int code = -1;
  std::string out, err;
};
Hbs35Run hbs35_sh(const Hbs35Dir& d, const std::string& cmd) {
  const std::string o = d.file(".out"), e = d.file(".err");
  const int st = std::system(("cd " + hbs35_q(d.p.string()) + " && ( " + cmd + " ) >" + hbs35_q(o) + " 2>" + hbs35_q(e)).c_str());
  Hbs35Run r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = hbs35_slurp(o);
  r.err = hbs35_slurp(e);
  return r;
}

}  // namespace

TEST(OpenSsl35Hbs, HssSpkiParsesAndVerifiesWhereSupported) {
  PQSIG_REQUIRE_OPENSSL35_RUNNER();
  Hbs35Dir d;
  auto lv = lms::parse_levels("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8");
  ASSERT_TRUE(lv.ok());
  auto key = lms::HssPrivateKey::from_seed(*lv, bytes(16, 7), bytes(32, 9));
  ASSERT_TRUE(key.ok());
  auto signer = lms::HssSigner::create(std::move(*key), 1);
  ASSERT_TRUE(signer.ok());
  const bytes pk = signer->public_key();
  const jose::HbsPublicKey hk{jose::HbsKind::hss, pk};
  hbs35_write(d.file("hss.der"), jose::hbs_to_spki_der(hk).value());
  {
    std::ofstream f(d.file("hss.pem"));
    f << jose::hbs_to_spki_pem(hk).value();
  }
  const std::string msg = "pqsig HSS signature for OpenSSL";
  hbs35_write(d.file("msg"), as_bytes(msg));
  const bytes sig = signer->sign_at(0, as_bytes(msg)).value();
  hbs35_write(d.file("sig"), sig);
  bytes bad = sig;
  bad[bad.size() / 2] ^= 1;
  hbs35_write(d.file("bad"), bad);

  auto v = hbs35_sh(d, hbs35_openssl() + " version");
  ASSERT_EQ(v.code, 0) << v.err;
  ASSERT_NE(v.out.find("OpenSSL 3."), std::string::npos) << v.out;

  // OpenSSL's ASN.1 parser reads our DER and PEM: OID alone (parameters absent), raw key in the BIT STRING.
  for (const char* in : {"-inform DER -in hss.der", "-in hss.pem"}) {
    auto a = hbs35_sh(d, hbs35_openssl() + " asn1parse " + in);
    ASSERT_EQ(a.code, 0) << a.err;
    EXPECT_TRUE(a.out.find(":1.2.840.113549.1.9.16.3.17") != std::string::npos ||
                a.out.find("hss") != std::string::npos || a.out.find("HSS") != std::string::npos)
        << a.out;
    EXPECT_NE(a.out.find("l=  61 prim: BIT STRING"), std::string::npos) << a.out;  // 1 + 60 key bytes
    EXPECT_EQ(a.out.find("NULL"), std::string::npos) << a.out;
  }
  // Does this OpenSSL implement LMS?
  auto l = hbs35_sh(d, hbs35_openssl() + " list -signature-algorithms");
  ASSERT_EQ(l.code, 0) << l.err;
  std::string lower = l.out;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool has_lms = lower.find("lms") != std::string::npos;
  auto p = hbs35_sh(d, hbs35_openssl() + " pkey -pubin -in hss.pem -noout");
  if (!has_lms) {
    // OpenSSL 3.5: no LMS key manager; the key is refused as unsupported, never mis-read.
    EXPECT_NE(p.code, 0) << p.out;
    std::cout << "OpenSSL under test has no LMS (" << v.out.substr(0, v.out.find('\n'))
              << "): SPKI checked with asn1parse only; pkey says: " << p.err.substr(0, 200) << "\n";
    return;
  }
  // OpenSSL >= 3.6: it imports our SPKI and verifies our HSS signature (and refuses a tampered one).
  ASSERT_EQ(p.code, 0) << p.err;
  auto ok = hbs35_sh(d, hbs35_openssl() + " pkeyutl -verify -pubin -inkey hss.pem -rawin -in msg -sigfile sig");
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  auto no = hbs35_sh(d, hbs35_openssl() + " pkeyutl -verify -pubin -inkey hss.pem -rawin -in msg -sigfile bad");
  EXPECT_NE(no.code, 0) << no.out << no.err;
}

TEST(OpenSsl35Hbs, XmssSpkiParses) {
  PQSIG_REQUIRE_OPENSSL35_RUNNER();
  Hbs35Dir d;
  bytes pk = {0, 0, 0, 1};
  pk.resize(68, 0x42);
  for (auto [kind, oid] : {std::pair{jose::HbsKind::xmss, std::string(":1.3.6.1.5.5.7.6.34")},
                           std::pair{jose::HbsKind::xmssmt, std::string(":1.3.6.1.5.5.7.6.35")}}) {
    hbs35_write(d.file("x.der"), jose::hbs_to_spki_der({kind, pk}).value());
    auto a = hbs35_sh(d, hbs35_openssl() + " asn1parse -inform DER -in x.der");
    ASSERT_EQ(a.code, 0) << a.err;
    // OpenSSL prints the OID dotted, or its name when it knows one.
    EXPECT_TRUE(a.out.find(oid) != std::string::npos || a.out.find("xmss") != std::string::npos ||
                a.out.find("XMSS") != std::string::npos)
        << a.out;
    EXPECT_NE(a.out.find("l=  69 prim: BIT STRING"), std::string::npos) << a.out;
  }
}
