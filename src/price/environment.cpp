// `pqsig price` environment record: CPU, cores, compiler and flags, version, commit, OS, governor, date.
#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include "pqsig/price.hpp"

#ifndef PQSIG_GIT_COMMIT
#define PQSIG_GIT_COMMIT "unknown"
#endif
#ifndef PQSIG_CXX_COMPILER
#define PQSIG_CXX_COMPILER "unknown"
#endif
#ifndef PQSIG_CXX_FLAGS
#define PQSIG_CXX_FLAGS ""
#endif
#ifndef PQSIG_BUILD_TYPE
#define PQSIG_BUILD_TYPE ""
#endif

namespace pqsig::price {

namespace {
std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string read_first_line(const char* path) {
  std::ifstream f(path);
  std::string l;
  if (f && std::getline(f, l)) return trim(l);
  return "";
}
}  // namespace

Environment capture_environment() {
  Environment e;
  std::ifstream cpu("/proc/cpuinfo");
  std::string line;
  while (cpu && std::getline(cpu, line)) {
    auto c = line.find(':');
    if (c == std::string::npos) continue;
    std::string k = trim(line.substr(0, c)), v = trim(line.substr(c + 1));
    if (e.cpu_model.empty() && (k == "model name" || k == "Model" || k == "cpu model")) e.cpu_model = v;
    if (e.cpu_flags.empty() && (k == "flags" || k == "Features")) e.cpu_flags = v;
    if (!e.cpu_model.empty() && !e.cpu_flags.empty()) break;
  }
  if (e.cpu_model.empty()) e.cpu_model = "unknown";
  e.cores = std::thread::hardware_concurrency();
  if (e.cores == 0) e.cores = 1;
  struct utsname u{};
  if (uname(&u) == 0) {
    e.os = std::string(u.sysname) + " " + u.release + " " + u.machine;
    e.hostname = u.nodename;
  }
  std::string pretty;
  std::ifstream osr("/etc/os-release");
  while (osr && std::getline(osr, line))
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      pretty = line.substr(12);
      if (pretty.size() >= 2 && pretty.front() == '"') pretty = pretty.substr(1, pretty.size() - 2);
    }
  if (!pretty.empty()) e.os += " (" + pretty + ")";
  e.governor = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  if (e.governor.empty()) e.governor = "not readable";
  e.compiler = PQSIG_CXX_COMPILER;
  e.cxx_flags = trim(PQSIG_CXX_FLAGS);
  e.build_type = PQSIG_BUILD_TYPE;
  e.version = std::string(version());
  e.commit = PQSIG_GIT_COMMIT;
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  e.date_utc = buf;
  return e;
}

}  // namespace pqsig::price
