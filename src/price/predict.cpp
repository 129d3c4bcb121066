// `pqsig price --predict FILE`: a prediction written before the run (expected medians and
// verdicts), parsed strictly, kept unchanged, and reviewed against what the run measured.
//
// File format (strict JSON, every key optional except "suites"):
//   {"version": 1, "note": "…",
//    "suites": {"ml-dsa-44": {"median_us": {"sign": 120, "verify": 25, "verify_prepared": null},
//                             "verdicts": {"crawl": "fits", "discovery": "tail", "headers": "fits"}}}}
// `null` = no prediction for that item (what the template holds).
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "jose/json_strict.hpp"
#include "pqsig/price.hpp"

namespace pqsig::price {

using json = nlohmann::json;

namespace {

constexpr int kMaxDepth = 8;

struct PredictError {
  Errc code;
  std::string msg;
};

[[noreturn]] void predict_fail(Errc c, const std::string& path, const std::string& what) {
  throw PredictError{c, "prediction: " + path + ": " + what};
}

void check_predict_keys(const json& o, const std::string& path, std::initializer_list<const char*> allowed) {
  if (!o.is_object()) predict_fail(Errc::invalid_encoding, path.empty() ? "(top level)" : path, "must be an object");
  for (auto it = o.begin(); it != o.end(); ++it) {
    bool ok = false;
    for (auto* a : allowed) ok = ok || it.key() == a;
    if (!ok) {
      std::string list;
      for (auto* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
      predict_fail(Errc::invalid_encoding, (path.empty() ? "" : path + ".") + it.key(), "unknown key (allowed: " + list + ")");
    }
  }
}

std::vector<std::string> ops_of(const SuiteInfo& s) {
  if (s.cls == SuiteClass::kem) return {"keygen", "encaps", "encaps_prepared", "decaps", "decaps_prepared"};
  if (s.cls == SuiteClass::mac) return {"keygen", "sign", "verify"};
  return {"keygen", "sign", "sign_prepared", "verify", "verify_prepared"};
}

}  // namespace

std::string verdict_word(const SurfaceVerdict& v) {
  return v.fits_mean && v.fits_p90 ? "fits" : (v.fits_mean ? "tail" : "over");
}

Result<Prediction> prediction_from_json(std::string_view text, const Workload& w) {
  if (text.size() > kPredictionMaxBytes)
    return Error{Errc::invalid_argument, "prediction: file larger than " + std::to_string(kPredictionMaxBytes) + " bytes"};
  // The library's strict reader (duplicate names, UTF-8), nesting bounded tighter (kMaxDepth).
  auto parsed = jose::detail::parse_strict<json>(text, "prediction", kMaxDepth);
  if (!parsed) return parsed.error();
  json j = std::move(parsed.value());
  try {
    Prediction p;
    p.text = std::string(text);
    check_predict_keys(j, "", {"version", "note", "suites"});
    if (j.contains("version") && !(j["version"].is_number_integer() && j["version"].get<std::int64_t>() == 1))
      predict_fail(Errc::invalid_argument, "version", "must be 1");
    if (j.contains("note")) {
      if (!j["note"].is_string()) predict_fail(Errc::invalid_encoding, "note", "must be a string");
      p.note = j["note"].get<std::string>();
      if (p.note.size() > kPredictionMaxNote)
        predict_fail(Errc::invalid_argument, "note", "longer than " + std::to_string(kPredictionMaxNote) + " bytes");
    }
    if (!j.contains("suites")) predict_fail(Errc::invalid_encoding, "suites", "is required");
    const json& ss = j["suites"];
    if (!ss.is_object()) predict_fail(Errc::invalid_encoding, "suites", "must be an object keyed by suite id");
    for (auto it = ss.begin(); it != ss.end(); ++it) {
      const std::string sp = "suites." + it.key();
      auto info = parse_suite_ref(it.key());
      if (!info) predict_fail(Errc::unknown_suite, sp, info.error().message);
      const SuiteInfo& s = **info;
      const std::string id(s.id);
      check_predict_keys(it.value(), sp, {"median_us", "verdicts"});
      if (it.value().contains("median_us")) {
        const json& m = it.value()["median_us"];
        const auto ops = ops_of(s);
        if (!m.is_object()) predict_fail(Errc::invalid_encoding, sp + ".median_us", "must be an object keyed by operation");
        for (auto o = m.begin(); o != m.end(); ++o) {
          const std::string op = sp + ".median_us." + o.key();
          bool known = false;
          std::string list;
          for (const auto& x : ops) known = known || x == o.key(), list += (list.empty() ? "" : ", ") + x;
          if (!known) predict_fail(Errc::invalid_argument, op, "not an operation of " + id + " (" + list + ")");
          if (o.value().is_null()) continue;
          if (!o.value().is_number()) predict_fail(Errc::invalid_encoding, op, "must be a number of microseconds or null");
          const double us = o.value().get<double>();
          if (!std::isfinite(us) || !(us > 0) || us > 1e9)
            predict_fail(Errc::invalid_argument, op, "out of range (0, 1e9] microseconds: " + o.value().dump());
          p.medians.push_back({id, o.key(), us * 1e3});
        }
      }
      if (it.value().contains("verdicts")) {
        const json& v = it.value()["verdicts"];
        if (!v.is_object()) predict_fail(Errc::invalid_encoding, sp + ".verdicts", "must be an object keyed by surface");
        if (s.cls == SuiteClass::kem && !v.empty()) predict_fail(Errc::invalid_argument, sp + ".verdicts", "a KEM has no surfaces");
        for (auto o = v.begin(); o != v.end(); ++o) {
          const std::string vp = sp + ".verdicts." + o.key();
          const bool headers = o.key() == "headers";
          bool known = headers;
          std::string list;
          for (const auto& sf : w.surfaces) known = known || sf.name == o.key(), list += sf.name + ", ";
          if (!known) predict_fail(Errc::invalid_argument, vp, "not a surface of the workload (" + list + "headers)");
          if (o.value().is_null()) continue;
          if (!o.value().is_string()) predict_fail(Errc::invalid_encoding, vp, "must be a string or null");
          const std::string word = o.value().get<std::string>();
          if (headers ? (word != "fits" && word != "431") : (word != "fits" && word != "tail" && word != "over"))
            predict_fail(Errc::invalid_argument, vp,
                 headers ? "must be \"fits\" or \"431\"" : "must be \"fits\", \"tail\" (p90 over) or \"over\"");
          p.verdicts.push_back({id, o.key(), word});
        }
      }
    }
    return p;
  } catch (const PredictError& b) {
    return Error{b.code, b.msg};
  } catch (const json::exception& e) {
    return Error{Errc::invalid_encoding, std::string("prediction: ") + e.what()};
  }
}

std::string prediction_template(const Workload& w, const std::vector<const SuiteInfo*>& suites) {
  nlohmann::ordered_json j;
  j["version"] = 1;
  j["note"] = "Written before the run: who, when, and why these figures. Medians in microseconds; verdicts: "
              "fits | tail (fits at the median, p90 over) | over; headers: fits | 431. null = no prediction.";
  nlohmann::ordered_json ss = nlohmann::ordered_json::object();
  for (const SuiteInfo* s : suites) {
    nlohmann::ordered_json e;
    nlohmann::ordered_json m = nlohmann::ordered_json::object();
    for (const auto& op : ops_of(*s)) m[op] = nullptr;
    e["median_us"] = m;
    if (s->cls != SuiteClass::kem) {
      nlohmann::ordered_json v = nlohmann::ordered_json::object();
      for (const auto& sf : w.surfaces) v[sf.name] = nullptr;
      v["headers"] = nullptr;
      e["verdicts"] = v;
    }
    ss[std::string(s->id)] = e;
  }
  j["suites"] = ss;
  return j.dump(2) + "\n";
}

std::vector<ReviewRow> review_prediction(const Prediction& p, const Report& rep) {
  std::vector<ReviewRow> out;
  auto find = [&](const std::string& id) -> const SuiteVerdicts* {
    for (const auto& v : rep.verdicts)
      if (v.result && v.result->suite && v.result->suite->id == id) return &v;
    return nullptr;
  };
  for (const auto& m : p.medians) {
    ReviewRow r;
    r.suite = m.suite;
    r.item = m.op;
    r.predicted_ns = m.median_ns;
    const SuiteVerdicts* v = find(m.suite);
    const OpResult* o = v && v->result->available ? v->result->op(m.op) : nullptr;
    if (o) {
      r.measured = true;
      r.measured_ns = o->stats.median_ns;
      r.ratio = r.measured_ns / r.predicted_ns;
    }
    out.push_back(std::move(r));
  }
  for (const auto& d : p.verdicts) {
    ReviewRow r;
    r.suite = d.suite;
    r.item = d.surface;
    r.is_verdict = true;
    r.predicted_verdict = d.verdict;
    const SuiteVerdicts* v = find(d.suite);
    if (v && d.surface == "headers") {
      // Header sizes are known even for a suite this build cannot run (registry sizes).
      r.measured = v->result->sizes.request_headers > 0;
      r.measured_verdict = v->result->sizes.request_headers <= rep.workload.header_cap_bytes ? "fits" : "431";
    } else if (v) {
      for (const auto& sv : v->surfaces)
        if (sv.surface == d.surface) {
          r.measured = true;
          r.measured_verdict = verdict_word(sv);
          r.measured_ns = sv.cpu_ms_mean * 1e6;
        }
    }
    r.flipped = r.measured && r.measured_verdict != r.predicted_verdict;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace pqsig::price
