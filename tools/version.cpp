#include "version.hpp"

#include "pqsig/build_info.hpp"
#include "pqsig/provider.hpp"

namespace pqsig::cli {

// Every provider compiled in, with its version, or why it cannot run here (e.g. OpenSSL < 3.5).
std::vector<std::string> built_in_providers() {
  std::vector<std::string> out;
  for (const auto& p : provider::all()) {
    const provider::ProviderInfo i = p->info();
    out.push_back(i.available ? (i.version.empty() ? i.name : i.version)
                              : i.name + " (unavailable: " + i.reason + ")");
  }
  return out;
}

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
  std::string prov;
  for (const auto& p : built_in_providers()) prov += (prov.empty() ? "" : "; ") + p;
  t += "providers: " + (prov.empty() ? std::string("none") : prov) + "\n";
  return t;
}

}  // namespace pqsig::cli
