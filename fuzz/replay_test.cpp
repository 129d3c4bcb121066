// test_fuzz_replay (label unit): every committed input of fuzz/regressions/<target>/ (crashes and
// property violations the fuzzers found, kept after the fix) and fuzz/corpus/<target>/ (the seed
// corpus) through the same entry points the libFuzzer binaries use, in the ordinary build (and
// under ASan+UBSan in CI's sanitizer stage).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t replay(const char* kind) {
  std::size_t n = 0;
  for (const auto& t : pqsig::fuzz::targets()) {
    for (const auto& f : files_in(fs::path(PQSIG_FUZZ_DIR) / kind / t.name)) {
      std::ifstream in(f, std::ios::binary);
      std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      try {
        t.fn(data.data(), data.size());
      } catch (const pqsig::fuzz::Violation& v) {
        ADD_FAILURE() << t.name << ": " << f << ": " << v.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << t.name << ": " << f << ": exception escaped: " << e.what();
      }
      ++n;
    }
  }
  return n;
}

}  // namespace

TEST(FuzzReplay, RegressionCorpus) {
  ASSERT_GE(pqsig::fuzz::targets().size(), 16u);
  std::cout << "replayed " << replay("regressions") << " regression inputs\n";
}

TEST(FuzzReplay, SeedCorpus) {
  for (const auto& t : pqsig::fuzz::targets())
    EXPECT_FALSE(files_in(fs::path(PQSIG_FUZZ_DIR) / "corpus" / t.name).empty()) << t.name << " has no seed corpus";
  EXPECT_GT(replay("corpus"), 0u);
}

TEST(FuzzReplay, EmptyAndTinyInputs) {
  for (const auto& t : pqsig::fuzz::targets()) {
    for (std::size_t n = 0; n < 4; ++n) {
      std::vector<std::uint8_t> d(n, static_cast<std::uint8_t>(n * 37));
      EXPECT_NO_THROW(t.fn(d.data(), d.size())) << t.name;
    }
  }
}
