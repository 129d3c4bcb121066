// `pqsig kem keygen | encaps | decaps` (tools/cmd_kem.cpp) for every KEM suite, through the binary.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {
const std::string kBin = std::string(PQSIG_BINARY_DIR) + "/pqsig";

struct Run {
  int code;
  std::vector<std::string> lines;
};
Run run(const std::string& args) {
  Run r{-1, {}};
  FILE* p = ::popen((kBin + " " + args + " 2>/dev/null").c_str(), "r");
  if (!p) return r;
  std::string cur;
  int ch;
  while ((ch = std::fgetc(p)) != EOF) {
    if (ch == '\n') {
      r.lines.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(static_cast<char>(ch));
    }
  }
  const int st = ::pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}
std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
}  // namespace

TEST(KemCli, KeygenEncapsDecapsEveryKem) {
  const auto dir = std::filesystem::temp_directory_path() / ("pqsig_kem_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::pair<const char*, const char*> algs[] = {
      {"ml-kem-512", "ML-KEM-512"}, {"ml-kem-768", "ML-KEM-768"}, {"ml-kem-1024", "ML-KEM-1024"},
      {"x-wing", "X-Wing"},         {"x25519-ml-kem-768", ""},   {"ml-kem-768+x25519-hkdf", ""}};
  for (const auto& [alg, jose_alg] : algs) {
    SCOPED_TRACE(alg);
    const auto key = dir / (std::string(alg) + ".jwk"), pub = dir / (std::string(alg) + ".pub.jwk");
    auto kg = run(std::string("kem keygen --alg ") + alg + " -o '" + key.string() + "' --pub '" + pub.string() + "'");
    ASSERT_EQ(kg.code, 0);
    struct stat st {};
    ASSERT_EQ(::stat(key.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    auto priv_jwk = nlohmann::json::parse(slurp(key));
    auto pub_jwk = nlohmann::json::parse(slurp(pub));
    EXPECT_TRUE(priv_jwk.contains("priv"));
    EXPECT_FALSE(pub_jwk.contains("priv"));
    if (*jose_alg) {
      EXPECT_EQ(priv_jwk.value("kty", ""), "AKP");
      EXPECT_EQ(priv_jwk.value("alg", ""), jose_alg);
    }
    // Without --print-secret only the ciphertext is printed.
    auto e1 = run("kem encaps --pub '" + pub.string() + "'");
    ASSERT_EQ(e1.code, 0);
    EXPECT_EQ(e1.lines.size(), 1u);
    auto e = run("kem encaps --pub '" + pub.string() + "' --print-secret");
    ASSERT_EQ(e.code, 0);
    ASSERT_EQ(e.lines.size(), 2u);
    auto d = run("kem decaps --key '" + key.string() + "' --ciphertext " + e.lines[0]);
    ASSERT_EQ(d.code, 0);
    ASSERT_EQ(d.lines.size(), 1u);
    EXPECT_EQ(d.lines[0], e.lines[1]);
    // hex format and stdin
    auto eh = run("kem encaps --pub '" + pub.string() + "' --print-secret --format hex");
    ASSERT_EQ(eh.code, 0);
    ASSERT_EQ(eh.lines.size(), 2u);
    auto dh2 = run("kem decaps --key '" + key.string() + "' --format hex --ciphertext " + eh.lines[0]);
    ASSERT_EQ(dh2.code, 0);
    EXPECT_EQ(dh2.lines.at(0), eh.lines[1]);
    // Errors: a public key cannot decapsulate; a truncated ciphertext; keygen refuses to overwrite.
    EXPECT_EQ(run("kem decaps --key '" + pub.string() + "' --ciphertext " + e.lines[0]).code, 2);
    EXPECT_EQ(run("kem decaps --key '" + key.string() + "' --ciphertext " + e.lines[0].substr(0, 40)).code, 2);
    EXPECT_EQ(run(std::string("kem keygen --alg ") + alg + " -o '" + key.string() + "'").code, 2);
  }
  EXPECT_EQ(run("kem keygen --alg ml-dsa-65 -o '" + (dir / "x.jwk").string() + "'").code, 2);
  EXPECT_EQ(run("kem keygen --alg nope -o '" + (dir / "x.jwk").string() + "'").code, 2);
  std::filesystem::remove_all(dir);
}
