// `pqsig price` environment record: CPU, cores, compiler and flags, version, commit (build facts from
// pqsig::build_info()), OS, governor, date.
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <algorithm>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include "pqsig/build_info.hpp"
#include "pqsig/price.hpp"

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
  // Build facts: one source for `pqsig --version` and this record (src/common/build_info.cpp).
  const BuildInfo b = build_info();
  e.compiler = b.compiler;
  e.cxx_flags = trim(b.cxx_flags);
  e.build_type = b.build_type;
  e.version = b.version;
  e.commit = b.commit;
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  e.date_utc = buf;
  return e;
}

LoadSnapshot sample_load() {
  LoadSnapshot l;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    double a = 0, b = 0, c = 0;
    if (std::fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) l.loadavg = {a, b, c};
    std::fclose(f);
  }
  // /proc/stat "cpu  user nice system idle iowait irq softirq steal ...", in USER_HZ ticks.
  if (FILE* f = std::fopen("/proc/stat", "r")) {
    unsigned long long v[8] = {};
    if (std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                    &v[7]) == 8) {
      const long hz = sysconf(_SC_CLK_TCK);
      const unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
      if (hz > 0) l.all_busy_s = static_cast<double>(busy) / static_cast<double>(hz);
    }
    std::fclose(f);
  }
  struct rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) == 0)
    l.self_cpu_s = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                   static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  l.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  return l;
}

void judge_load(Environment& e, double others_busy_s, double wall_s) {
  const double cores = e.cores ? static_cast<double>(e.cores) : 1.0;
  if (others_busy_s >= 0 && wall_s > 0) e.others_cpu_pct = std::max(0.0, 100.0 * others_busy_s / (wall_s * cores));
  char buf[160];
  std::string why;
  if (e.load_before[0] > 0.5 * cores) {
    std::snprintf(buf, sizeof buf, "1-minute load %.2f before the run on %u cores", e.load_before[0], e.cores);
    why = buf;
  }
  if (e.others_cpu_pct > 25.0) {
    std::snprintf(buf, sizeof buf, "other processes used %.0f%% of the machine during the run", e.others_cpu_pct);
    why += (why.empty() ? "" : "; ") + std::string(buf);
  }
  e.busy = !why.empty();
  e.busy_reason = why;
}

void record_load(Environment& e, const LoadSnapshot& before, const LoadSnapshot& after) {
  e.load_before = before.loadavg;
  e.load_after = after.loadavg;
  double others = -1;
  if (before.all_busy_s >= 0 && after.all_busy_s >= 0)
    others = std::max(0.0, (after.all_busy_s - before.all_busy_s) - (after.self_cpu_s - before.self_cpu_s));
  judge_load(e, others, after.wall_s - before.wall_s);
}

}  // namespace pqsig::price
