// pqsig price --html, rendered by headless Chromium: the screenshot exists, has the requested
// size and is not trivial, and the DOM the browser built holds every section.
// Label interop;browser (CI installs chromium); skipped when no chromium is installed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "pqsig/price.hpp"
#include "price_fixture.hpp"

using namespace pqsig;
using namespace pqsig::price;

namespace {

std::string chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (access(p, X_OK) == 0) return p;
  return "";
}

std::string tmpdir() {
  char tmpl[] = "/tmp/pqsig_price_browser_XXXXXX";
  char* d = mkdtemp(tmpl);
  return d ? d : "/tmp";
}

std::string chromium_cmd(const std::string& dir) {
  return chromium() +
         " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking"
         " --disable-component-update --disable-sync --no-first-run --hide-scrollbars --user-data-dir=" + dir + "/profile";
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[8192];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// PNG signature + IHDR width/height (big endian, bytes 16..23).
bool png_size(const std::string& png, unsigned& w, unsigned& h) {
  if (png.size() < 24 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 || png.compare(12, 4, "IHDR") != 0) return false;
  auto be = [&](std::size_t o) {
    return (unsigned(static_cast<unsigned char>(png[o])) << 24) | (unsigned(static_cast<unsigned char>(png[o + 1])) << 16) |
           (unsigned(static_cast<unsigned char>(png[o + 2])) << 8) | unsigned(static_cast<unsigned char>(png[o + 3]));
  };
  w = be(16);
  h = be(20);
  return true;
}

void check_page(const std::string& html_path, const std::string& dir, const std::string& name) {
  const std::string png = dir + "/" + name + ".png";
  std::string cmd = chromium_cmd(dir) + " --screenshot=" + png + " --window-size=1400,2400 file://" + html_path +
                    " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string img = read_file(png);
  unsigned w = 0, h = 0;
  ASSERT_TRUE(png_size(img, w, h)) << png;
  EXPECT_EQ(w, 1400u);
  EXPECT_EQ(h, 2400u);
  // A blank 1400x2400 page compresses to a few KB; a rendered report with charts is far larger.
  EXPECT_GT(img.size(), 60000u) << png;
  // The DOM as the browser parsed it holds every section.
  std::string dom = capture(chromium_cmd(dir) + " --dump-dom file://" + html_path + " 2>/dev/null");
  // The verdict and its table come before the charts.
  const auto verdict = dom.find("id=\"verdict\""), surfaces = dom.find("id=\"surfaces\""), time = dom.find("id=\"time\"");
  EXPECT_NE(verdict, std::string::npos) << name;
  EXPECT_LT(verdict, time) << name;
  EXPECT_LT(surfaces, time) << name;
  for (const char* id : {"id=\"time\"", "id=\"bytes\"", "id=\"surfaces\"", "id=\"operations\"", "id=\"sizes\"",
                         "id=\"ledger\"", "id=\"hybrids\"", "id=\"environment\"", "<svg"})
    EXPECT_NE(dom.find(id), std::string::npos) << name << ": " << id;
  if (!std::getenv("PQSIG_KEEP_SCREENSHOTS")) std::system(("rm -rf '" + dir + "'").c_str());
  else std::printf("screenshot kept: %s\n", png.c_str());
}

using price_fixture::spin;

// Operations with made-up costs and the registry's sizes, so the layout is exercised with data
// whatever has landed.
PreparedSuite fake(const SuiteInfo& s, const SampleRequest& r, int cost) {
  PreparedSuite p;
  const bool kem = s.cls == SuiteClass::kem;
  p.ops.push_back({"keygen", [cost]() -> Status { return spin(cost * 2); }});
  p.ops.push_back({kem ? "encaps" : "sign", [cost]() -> Status { return spin(cost * 3); }});
  p.ops.push_back({kem ? "decaps" : "verify", [cost]() -> Status { return spin(cost); }});
  p.sizes.public_key = s.public_key_size;
  p.sizes.private_key = s.private_key_size;
  p.sizes.expanded_key = s.expanded_key_size;
  p.sizes.output = s.output_size;
  if (!kem) {
    p.sizes.sf_bytes = sf_byte_sequence_length(s.output_size);
    p.sizes.signature_headers = signature_header_bytes(r, sample_params(r, s, 0), s.output_size);
    p.sizes.request_headers = request_header_bytes(r) + p.sizes.signature_headers;
  }
  p.message_bytes = signature_base(r, sample_params(r, s, 0)).size();
  return p;
}

}  // namespace

TEST(PriceBrowser, InjectedReportRendersWithEverySection) {
  if (chromium().empty()) GTEST_SKIP() << "chromium not installed";
  const std::string dir = tmpdir();
  Report rep;
  rep.workload = default_workload();
  rep.env = capture_environment();
  rep.mode = "test (injected operations)";
  rep.options.budget_ms_per_op = 3;
  rep.options.warmup_ms = 0.5;
  const struct {
    const char* id;
    int cost;  // 0 = leave unavailable
  } suites[] = {{"ml-dsa-44", 4000},      {"ml-dsa-65", 6000},  {"ml-dsa-87", 9000},
                {"slh-dsa-sha2-128s", 0}, {"slh-dsa-sha2-128f", 60000}, {"ed25519", 800},
                {"ecdsa-p256-sha256", 1500}, {"ml-dsa-65+ed25519", 7000}, {"ml-kem-768", 2000}, {"x-wing", 0}};
  for (const auto& s : suites) {
    auto info = find_suite(s.id);
    ASSERT_TRUE(info.ok());
    if (s.cost == 0) rep.suites.push_back(measure_suite(**info, rep.workload.request, rep.options));
    else rep.suites.push_back(measure_prepared(**info, fake(**info, rep.workload.request, s.cost), rep.options));
    if (s.cost == 0 && rep.suites.back().available) {  // landed meanwhile: keep the unavailable path covered
      rep.suites.back() = measure_prepared(**info, Error{Errc::unsupported, "test"}, rep.options);
      rep.suites.back().sizes.output = (*info)->output_size;
    }
  }
  analyze(rep);
  const std::string html = dir + "/injected.html";
  std::ofstream(html) << render_html(rep);
  check_page(html, dir, "injected");
}

TEST(PriceBrowser, BinaryQuickHtmlRenders) {
  if (chromium().empty()) GTEST_SKIP() << "chromium not installed";
  const std::string dir = tmpdir();
  const std::string html = dir + "/quick.html";
  std::string cmd = std::string(PQSIG_BINARY_DIR "/pqsig price --quick --no-progress") +
                    " --suites ml-dsa-44,ml-dsa-65,ed25519,ml-kem-768 --html " + html + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  check_page(html, dir, "quick");
}
