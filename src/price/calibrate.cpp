// `pqsig price --calibrate` / `--calibration FILE`: a fixed reference workload measured on the
// production host and here; their ratio replaces the guessed production CPU factor.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "pqsig/price_engines.hpp"

namespace pqsig::price {

using json = nlohmann::json;

using ojson = nlohmann::ordered_json;  // at namespace scope: one alias per unity batch

namespace {

constexpr const char* kItems[] = {"ml-dsa-44 sign", "ml-dsa-44 verify", "ed25519 sign", "ed25519 verify"};
constexpr int kCalibrationFormat = 1;

}  // namespace

Result<Calibration> measure_calibration(double budget_ms, const std::atomic<bool>* cancel) {
  MeasureOptions o;
  o.budget_ms_per_op = budget_ms;
  o.warmup_ms = 20;
  o.min_samples = 9;
  o.distinct_messages = 64;
  o.thread_cpu_time = true;  // robust against other load on either host
  o.cancel = cancel;
  Calibration c;
  const Environment e = capture_environment();
  c.host = e.hostname;
  c.cpu_model = e.cpu_model;
  c.date_utc = e.date_utc;
  c.version = e.version;
  c.cores = e.cores;
  const SampleRequest r;
  for (const char* id : {"ml-dsa-44", "ed25519"}) {
    auto s = find_suite(id);
    if (!s) return s.error();
    auto p = prepare_suite(**s, r, o);
    if (!p) return p.error();
    for (const auto& op : p->ops) {
      if (op.name != "sign" && op.name != "verify") continue;
      OpResult res = measure_operation(op, o);
      if (!res.error.empty()) return Error{Errc::internal, std::string(id) + " " + op.name + ": " + res.error};
      if (res.interrupted) return Error{Errc::internal, "interrupted"};
      c.items.emplace_back(std::string(id) + " " + op.name, res.stats.median_ns);
    }
  }
  return c;
}

std::string calibration_to_json(const Calibration& c) {
  ojson items = ojson::object();
  for (const auto& [k, v] : c.items) items[k] = v;
  ojson j = {{"pqsig_calibration", kCalibrationFormat},
             {"host", c.host},
             {"cpu_model", c.cpu_model},
             {"cores", c.cores},
             {"date", c.date_utc},
             {"pqsig_version", c.version},
             {"clock", "thread CPU time"},
             {"median_ns", items}};
  return j.dump(2) + "\n";
}

Result<Calibration> calibration_from_json(std::string_view text) {
  if (text.size() > kCalibrationMaxBytes)
    return Error{Errc::invalid_argument, "calibration file larger than " + std::to_string(kCalibrationMaxBytes) + " bytes"};
  // Duplicate keys are refused (the parser would keep the last one silently).
  std::string dup;
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{Errc::invalid_encoding, "calibration: not a JSON object"};
  {
    // A second pass tracks the keys of every open object.
    std::vector<std::set<std::string>> seen;
    bool ok = true;
    const json tracked = json::parse(
        text,
        [&](int, json::parse_event_t ev, json& parsed) {
          if (ev == json::parse_event_t::object_start) seen.emplace_back();
          else if (ev == json::parse_event_t::object_end && !seen.empty()) seen.pop_back();
          else if (ev == json::parse_event_t::key && !seen.empty() && !seen.back().insert(parsed.get<std::string>()).second) {
            ok = false;
            dup = parsed.get<std::string>();
          }
          return true;
        },
        false);
    (void)tracked;
    if (!ok) return Error{Errc::invalid_encoding, "calibration: duplicate key \"" + dup + "\""};
  }
  static const std::set<std::string> kTop = {"pqsig_calibration", "host", "cpu_model", "cores", "date", "pqsig_version", "clock", "median_ns"};
  for (const auto& [k, v] : j.items())
    if (!kTop.count(k)) return Error{Errc::invalid_argument, "calibration: unknown key \"" + k + "\""};
  auto fmt = j.find("pqsig_calibration");
  if (fmt == j.end() || !fmt->is_number_integer() || fmt->get<int>() != kCalibrationFormat)
    return Error{Errc::invalid_argument, "calibration: pqsig_calibration must be 1"};
  Calibration c;
  for (const auto& [key, dst] : {std::pair{"host", &c.host}, std::pair{"cpu_model", &c.cpu_model}, std::pair{"date", &c.date_utc},
                                 std::pair{"pqsig_version", &c.version}}) {
    auto it = j.find(key);
    if (it == j.end()) continue;
    if (!it->is_string() || it->get<std::string>().size() > 256)
      return Error{Errc::invalid_argument, std::string("calibration: ") + key + " must be a string of at most 256 bytes"};
    *dst = it->get<std::string>();
  }
  if (auto it = j.find("cores"); it != j.end()) {
    if (!it->is_number_unsigned() || it->get<unsigned long long>() > 1u << 20)
      return Error{Errc::invalid_argument, "calibration: cores must be a non-negative integer"};
    c.cores = static_cast<unsigned>(it->get<unsigned long long>());
  }
  if (auto it = j.find("clock"); it != j.end() && (!it->is_string() || it->get<std::string>() != "thread CPU time"))
    return Error{Errc::invalid_argument, "calibration: clock must be \"thread CPU time\""};
  auto m = j.find("median_ns");
  if (m == j.end() || !m->is_object() || m->empty())
    return Error{Errc::invalid_argument, "calibration: median_ns must be a non-empty object"};
  for (const auto& [k, v] : m->items()) {
    if (std::find(std::begin(kItems), std::end(kItems), k) == std::end(kItems))
      return Error{Errc::invalid_argument, "calibration: median_ns: unknown item \"" + k + "\""};
    if (!v.is_number() || !std::isfinite(v.get<double>()) || !(v.get<double>() > 0) || v.get<double>() > 1e12)
      return Error{Errc::invalid_argument, "calibration: median_ns." + k + " must be a positive number of ns"};
    c.items.emplace_back(k, v.get<double>());
  }
  return c;
}

Result<double> calibration_factor(const Calibration& production, const Calibration& here) {
  double log_sum = 0;
  std::size_t n = 0;
  for (const auto& [k, pv] : production.items)
    for (const auto& [k2, hv] : here.items)
      if (k == k2 && pv > 0 && hv > 0) log_sum += std::log(pv / hv), ++n;
  if (n == 0) return Error{Errc::invalid_argument, "calibration: no reference item in common"};
  return std::exp(log_sum / static_cast<double>(n));
}

}  // namespace pqsig::price
