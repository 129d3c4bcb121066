// C2SP CCTV ML-KEM vectors (../shared/vectors/cctv/ML-KEM, see its README): strcmp,
// modulus (every line rejected), the final-FIPS-203 unlucky-sample vectors (PR #13), the
// ipd unlucky-sample Encaps/Decaps halves, and the accumulated test against the FINAL hashes.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include "mlkem/accumulated.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/mlkem.hpp"

using namespace pqsig;

namespace {
const std::string kDir = std::string(PQSIG_SHARED_DIR) + "/vectors/cctv/ML-KEM/";

struct Set {
  mlkem::ParameterSet ps;
  const char* name;
};
const Set kSets[] = {{mlkem::ParameterSet::ml_kem_512, "ML-KEM-512"},
                     {mlkem::ParameterSet::ml_kem_768, "ML-KEM-768"},
                     {mlkem::ParameterSet::ml_kem_1024, "ML-KEM-1024"}};

// "key = hex" lines → map.
std::map<std::string, bytes> read_kv(const std::string& path) {
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << path;
  std::map<std::string, bytes> m;
  std::string line;
  while (std::getline(f, line)) {
    auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    auto v = from_hex(line.substr(eq + 3));
    EXPECT_TRUE(v.ok()) << line.substr(0, eq);
    if (v.ok()) m[line.substr(0, eq)] = v.value();
  }
  return m;
}
bytes to_vec(const SecretBytes& s) { return bytes(s.data(), s.data() + s.size()); }
}  // namespace

// dk, c → K: c's re-encryption agrees on the first byte only; a strcmp-style compare accepts it.
TEST(MlKemCctv, Strcmp) {
  for (const auto& s : kSets) {
    SCOPED_TRACE(s.name);
    auto v = read_kv(kDir + "strcmp/" + s.name + ".txt");
    ASSERT_EQ(v.count("dk") + v.count("c") + v.count("K"), 3u);
    auto k = mlkem::decaps(s.ps, v["dk"], v["c"]);
    ASSERT_TRUE(k.ok());
    EXPECT_EQ(to_vec(*k), v["K"]);
    // K is the implicit-rejection key J(z ‖ c).
    hash::Shake256 j;
    j.absorb(byte_span(v["dk"]).last(32));
    j.absorb(v["c"]);
    bytes kbar(32);
    j.squeeze(kbar);
    EXPECT_EQ(kbar, v["K"]);
  }
}

// Every line of the modulus files (decompressed with gzip at test time) must be rejected.
TEST(MlKemCctv, ModulusEveryLineRejected) {
  const std::size_t expect_lines[] = {775, 780, 1040};
  int idx = 0;
  for (const auto& s : kSets) {
    SCOPED_TRACE(s.name);
    const std::string cmd = "gzip -dc '" + kDir + "modulus/" + s.name + ".txt.gz'";
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string line;
    std::size_t lines = 0, rejected = 0;
    int ch;
    auto flush = [&]() {
      if (line.empty()) return;
      auto ek = from_hex(line);
      EXPECT_TRUE(ek.ok());
      if (ek.ok()) {
        EXPECT_EQ(ek->size(), mlkem::params(s.ps).ek_size);
        auto st = mlkem::check_encaps_key(s.ps, *ek);
        if (!st.ok() && st.error().code == Errc::key_check_failed) ++rejected;
        auto e = mlkem::encaps_internal(s.ps, *ek, bytes(32, 0x42));  // the fused §7.2 check
        EXPECT_FALSE(e.ok());
        if (!e.ok()) { EXPECT_EQ(e.error().code, Errc::key_check_failed); }
      }
      ++lines;
      line.clear();
    };
    while ((ch = std::fgetc(p)) != EOF) {
      if (ch == '\n' || ch == '\r') flush();
      else line.push_back(static_cast<char>(ch));
    }
    flush();
    EXPECT_EQ(::pclose(p), 0);
    EXPECT_EQ(lines, expect_lines[idx]);
    EXPECT_EQ(rejected, lines);
    // The uncompressed -short subset too.
    std::ifstream sf(kDir + "modulus/" + s.name + ".short.txt");
    std::size_t nshort = 0;
    while (std::getline(sf, line)) {
      if (line.empty()) continue;
      auto ek = from_hex(line);
      ASSERT_TRUE(ek.ok());
      auto st = mlkem::check_encaps_key(s.ps, *ek);
      EXPECT_FALSE(st.ok());
      if (!st.ok()) { EXPECT_EQ(st.error().code, Errc::key_check_failed); }
      auto e = mlkem::encaps_internal(s.ps, *ek, bytes(32, 0x42));
      ASSERT_FALSE(e.ok());
      EXPECT_EQ(e.error().code, Errc::key_check_failed);
      ++nshort;
    }
    EXPECT_EQ(nshort, 4u * static_cast<std::size_t>(mlkem::params(s.ps).k));
    ++idx;
  }
}

// Final FIPS 203 unlucky-sample vectors (CCTV PR #13): all fields. SampleNTT needs > 575 bytes.
TEST(MlKemCctv, UnluckySampleFinal) {
  for (const auto& s : kSets) {
    SCOPED_TRACE(s.name);
    auto v = read_kv(kDir + "unluckysample-fips203final-pr13/" + s.name + ".txt");
    auto kp = mlkem::keygen_internal(s.ps, v["d"], v["z"]);
    ASSERT_TRUE(kp.ok());
    EXPECT_EQ(kp->ek, v["ek"]);
    EXPECT_EQ(to_vec(kp->dk), v["dk"]);
    auto e = mlkem::encaps_internal(s.ps, v["ek"], v["m"]);
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(e->c, v["c"]);
    EXPECT_EQ(to_vec(e->k), v["K"]);
    auto k = mlkem::decaps(s.ps, v["dk"], v["c"]);
    ASSERT_TRUE(k.ok());
    EXPECT_EQ(to_vec(*k), v["K"]);
  }
}

// The ipd-era unlucky-sample files: Encaps and Decaps are valid as given (KeyGen is not).
TEST(MlKemCctv, UnluckySampleIpdEncapsDecaps) {
  for (const auto& s : kSets) {
    SCOPED_TRACE(s.name);
    auto v = read_kv(kDir + "unluckysample/" + s.name + ".txt");
    auto e = mlkem::encaps_internal(s.ps, v["ek"], v["m"]);
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(e->c, v["c"]);
    EXPECT_EQ(to_vec(e->k), v["K"]);
    auto k = mlkem::decaps(s.ps, v["dk"], v["c"]);
    ASSERT_TRUE(k.ok());
    EXPECT_EQ(to_vec(*k), v["K"]);
  }
}


TEST(MlKemCctv, RngFirstBytes) {
  hash::Shake128 rng;
  bytes b(16);
  rng.squeeze(b);
  EXPECT_EQ(to_hex(b), "7f9c2ba4e88f827d616045507605853e");
}

TEST(MlKemCctv, Accumulated100Final) {
  EXPECT_EQ(pqsig::test::accumulated(mlkem::ParameterSet::ml_kem_512, 100),
            "449120c6e320ef3e9fbfa2316e5f2d2e1e6dd37d8ff5d086d5d2db7d42aff0a1");
  EXPECT_EQ(pqsig::test::accumulated(mlkem::ParameterSet::ml_kem_768, 100),
            "8d65b902f28edc683cebee2872962fd165a4d197c9e24ec74caa4470270df0b7");
  EXPECT_EQ(pqsig::test::accumulated(mlkem::ParameterSet::ml_kem_1024, 100),
            "c3ffe9ebecfa479c142656cbfbc6417efa05b77e994fe538eef4daed166363df");
}

