#include "version.hpp"

#include "pqsig/build_info.hpp"

namespace pqsig::cli {

std::vector<std::string> built_in_providers() { return {"pqsig"}; }

namespace {
std::string join(const std::vector<std::string>& v, const char* empty) {
  if (v.empty()) return empty;
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}
}  // namespace

std::string version_text() {
  const BuildInfo b = build_info();
  std::string t = "pqsig " + b.version + "\n";
  t += "commit: " + b.commit + "\n";
  t += "compiler: " + b.compiler + " (" + b.build_type + ")\n";
  t += "cpu features in use: " +
       join(b.cpu_features, b.portable ? "none (PQSIG_PORTABLE build: scalar reference only)" : "none (scalar reference)") +
       "\n";
  t += "providers: " + join(built_in_providers(), "none") + "\n";
  return t;
}

}  // namespace pqsig::cli
