// `pqsig price` machine-readable output: the JSON summary and the JSONL raw record.
#include <cmath>
#include <nlohmann/json.hpp>

#include "pqsig/price.hpp"
#include "pqsig/price_engines.hpp"

namespace pqsig::price {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;  // (the same alias as render_engines.cpp's: one per unity batch is fine)

namespace {

json env_json(const Environment& e) {
  return {{"cpu_model", e.cpu_model}, {"cpu_flags", e.cpu_flags}, {"cores", e.cores},   {"os", e.os},
          {"hostname", e.hostname},   {"governor", e.governor},   {"compiler", e.compiler}, {"cxx_flags", e.cxx_flags},
          {"build_type", e.build_type}, {"pqsig_version", e.version}, {"commit", e.commit}, {"date", e.date_utc},
          {"load_before", e.load_before}, {"load_after", e.load_after},
          {"others_cpu_pct", e.others_cpu_pct}, {"busy", e.busy}, {"busy_reason", e.busy_reason}};
}

json prediction_json(const Report& rep) {
  const Prediction& p = *rep.prediction;
  json rv = json::array();
  for (const auto& r : rep.review) {
    json x = {{"suite", r.suite}, {"item", r.item}, {"kind", r.is_verdict ? "verdict" : "median"}, {"measured", r.measured}};
    if (r.is_verdict) {
      x["predicted"] = r.predicted_verdict;
      if (r.measured) x["measured_verdict"] = r.measured_verdict, x["flipped"] = r.flipped;
    } else {
      x["predicted_ns"] = r.predicted_ns;
      if (r.measured) x["measured_ns"] = r.measured_ns, x["miss_ratio"] = r.ratio;
    }
    rv.push_back(x);
  }
  // The file is recorded as its exact text (not re-serialised), beside the review.
  return {{"source", p.source}, {"file_mtime", p.file_mtime_utc}, {"text", p.text}, {"review", rv}};
}

json throughput_json(const std::vector<ThroughputRow>& rows) {
  json t = json::object();
  for (const auto& r : rows) {
    json x = {{"threads", r.threads}, {"ops_per_s_1", r.ops_per_s_1}, {"ops_per_s_n", r.ops_per_s_n},
              {"scaling", r.scaling()}};
    if (!r.error.empty()) x["error"] = r.error;
    t[r.op] = x;
  }
  return t;
}

json stats_json(const Stats& s) {
  return {{"n", s.n},           {"median_ns", s.median_ns}, {"p90_ns", s.p90_ns},     {"p99_ns", s.p99_ns},
          {"min_ns", s.min_ns}, {"max_ns", s.max_ns},       {"mean_ns", s.mean_ns},   {"stddev_ns", s.stddev_ns},
          {"p90_over_median", s.spread()}, {"ops_per_s_per_core", s.per_second()},
          {"tail_reliable", s.tail_reliable()}};
}

json sizes_json(const Sizes& z) {
  return {{"public_key", z.public_key}, {"private_key", z.private_key}, {"expanded_key", z.expanded_key},
          {"output", z.output},         {"shared_secret", z.shared_secret}, {"sf_bytes", z.sf_bytes},
          {"signature_headers", z.signature_headers}, {"request_headers", z.request_headers}};
}

json options_json(const Report& r) {
  const MeasureOptions& o = r.options;
  return {{"mode", r.mode},
          {"budget_ms_per_op", o.budget_ms_per_op},
          {"warmup_ms", o.warmup_ms},
          {"min_samples", o.min_samples},
          {"min_samples_slow", o.min_samples_slow},
          {"slow_op_ns", o.slow_op_ns},
          {"max_samples", o.max_samples},
          {"distinct_messages", o.distinct_messages},
          {"message", o.message_size ? "random bytes" : "web-bot-auth signature base"},
          {"message_size", o.message_size},
          {"clock", o.thread_cpu_time ? "thread-cpu" : "wall (steady_clock)"}};
}

// A stateful suite: what one key can sign, the reservation it pays per signature with a block
// of 1 and of the default block, and its sign row without (block 1: one reservation per signature).
json stateful_pricing_json(const SuiteResult& r) {
  const StatefulPricing& p = *r.stateful;
  json j = {{"max_signatures", p.max_signatures},
            {"block", p.block},
            {"reserve_ns_block_1", p.reserve_1_ns},
            {"reserve_ns_block", p.reserve_block_ns},
            {"reserve_per_signature_ns_block_1", p.reserve_per_signature_ns(1)},
            {"reserve_per_signature_ns_block", p.reserve_per_signature_ns(p.block)},
            {"state_dir", p.state_dir},
            {"basis", p.basis},
            {"sign_includes", "the reservation (amortized over the block) and the audit log's fsync; wall time"}};
  if (const OpResult* sg = r.op("sign"))
    j["sign_block_1_mean_ns"] = sg->stats.mean_ns - p.reserve_per_signature_ns(p.block) + p.reserve_per_signature_ns(1);
  return j;
}

}  // namespace

std::string render_json(const Report& rep) {
  json j;
  j["tool"] = "pqsig price";
  j["environment"] = env_json(rep.env);
  j["options"] = options_json(rep);
  j["workload"] = json::parse(workload_to_json(rep.workload));  // (keys sorted here; --print-workload keeps order)
  j["wall_seconds"] = rep.wall_seconds;
  j["interrupted"] = rep.interrupted;
  j["suites_planned"] = rep.suites_planned;
  j["verdict"] = verdict_paragraph(rep);
  j["verify_semantics"] = "verify = cold, from the encoded public key on every call; verify_prepared = a key decoded once";
  j["operation_semantics"] =
      "sign, verify, encaps, decaps = cold: from the encoded key on every call (sign: from the encoded private key; "
      "decaps: from the expanded private key where the suite has one); *_prepared = a key decoded once. Surface "
      "verdicts use the cold figures unless the surface sets key_reuse (then the prepared ones); each surface names "
      "its figure. Budgets use the mean (signing is a rejection loop), latency the p90.";
  if (rep.prediction) j["prediction"] = prediction_json(rep);
  if (rep.multi_threads) j["multi_threads"] = rep.multi_threads;
  j["vu_reference_verify_ns"] = rep.reference_verify_ns;
  json suites = json::array();
  for (const auto& v : rep.verdicts) {
    const SuiteResult& r = *v.result;
    json s = {{"suite", r.suite->id}, {"version", r.suite->version}, {"class", suite_class_name(r.suite->cls)},
              {"family", family_name(r.suite->family)}, {"available", r.available}, {"note", r.note},
              {"message_bytes", r.message_bytes}, {"sizes", sizes_json(r.sizes)},
              {"sizes_source", r.available ? "measured" : "registry"}};
    json ops = json::object();
    for (const auto& op : r.ops) {
      json oj = stats_json(op.stats);
      oj["batch"] = op.batch;
      if (!op.error.empty()) oj["error"] = op.error;
      if (op.interrupted) oj["interrupted"] = true;
      if (!op.extrapolated.empty()) oj["extrapolated"] = op.extrapolated;  // not measured on this suite
      oj["measured"] = op.extrapolated.empty();
      ops[op.name] = oj;
    }
    s["ops"] = ops;
    // Cold and prepared side by side for every operation that has both (sign, verify, encaps, decaps).
    json figures = json::object();
    for (const char* base : {"sign", "verify", "encaps", "decaps"}) {
      const OpResult* cold = r.op(base);
      const OpResult* prep = r.op(std::string(base) + "_prepared");
      if (!cold || !prep) continue;
      const auto fig = [](const OpResult& o) {
        return json{{"median_ns", o.stats.median_ns}, {"mean_ns", o.stats.mean_ns}, {"p90_ns", o.stats.p90_ns}};
      };
      figures[base] = {{"cold", fig(*cold)}, {"prepared", fig(*prep)}};
    }
    s["figures"] = figures;
    s["stateful"] = r.suite->stateful;
    if (r.stateful) s["stateful_pricing"] = stateful_pricing_json(r);
    if (r.suite->stateful) {
      json lt = json::array();
      for (const auto& k : v.lifetimes)
        lt.push_back({{"surface", k.surface},
                      {"signatures_per_day", k.signatures_per_day},
                      {"days", std::isfinite(k.days) ? json(k.days) : json(nullptr)}});
      s["key_lifetime"] = lt;
    }
    if (r.interrupted) s["interrupted"] = true;
    for (const auto& [ts, rows] : rep.throughput)
      if (ts == r.suite) s["throughput"] = throughput_json(rows);
    if (r.suite->cls != SuiteClass::kem) s["header_fits_cap"] = r.sizes.request_headers <= rep.workload.header_cap_bytes;
    json sv = json::array();
    for (const auto& x : v.surfaces)
      sv.push_back({{"surface", x.surface},
                    {"figure", x.figure},
                    {"verdict", verdict_word(x)},
                    {"cpu_ms_mean", x.cpu_ms_mean},
                    {"pct_budget_mean", x.pct_budget_mean},
                    {"fits_mean", x.fits_mean},
                    {"over_ms_mean", x.over_ms_mean},
                    {"cpu_ms_median", x.cpu_ms_median},
                    {"cpu_ms_p90", x.cpu_ms_p90},
                    {"pct_budget_median", x.pct_budget_median},
                    {"pct_budget_p90", x.pct_budget_p90},
                    {"fits_median", x.fits_median},
                    {"fits_p90", x.fits_p90},
                    {"over_ms_median", x.over_ms_median},
                    {"over_ms_p90", x.over_ms_p90},
                    {"header_bytes", x.header_bytes},
                    {"header_verdict", x.header_fits ? "fits" : "431"}});
    s["surfaces"] = sv;
    if (v.ledger) {
      const LedgerRow& l = *v.ledger;
      s["ledger"] = {{"vu", l.vu},
                     {"vu_dual", l.vu_dual},
                     {"dual_is_estimate", l.dual_estimated},
                     {"sigs_per_block", l.sigs_per_block},
                     {"block_ms_one_core", l.block_ms_one_core},
                     {"block_ms_all_cores", l.block_ms_all_cores},
                     {"block_ms_dual_one_core", l.block_ms_dual_one_core},
                     {"block_ms_dual_all_cores", l.block_ms_dual_all_cores}};
    }
    suites.push_back(s);
  }
  j["suites"] = suites;
  json hy = json::array();
  for (const auto& h : rep.hybrids)
    hy.push_back({{"name", h.name},
                  {"composite", h.composite},
                  {"available", h.available},
                  {"note", h.note},
                  {"sig_bytes_before", h.classical_sig},
                  {"sig_bytes_after", h.hybrid_sig},
                  {"pk_bytes_before", h.classical_pk},
                  {"pk_bytes_after", h.hybrid_pk},
                  {"header_bytes_before", h.classical_header},
                  {"header_bytes_after", h.hybrid_header},
                  {"verify_ns_before", h.classical_verify_ns},
                  {"verify_ns_after", h.hybrid_verify_ns},
                  {"sign_ns_before", h.classical_sign_ns},
                  {"sign_ns_after", h.hybrid_sign_ns},
                  {"verifies_per_s_per_core_before", h.verifies_per_s_before},
                  {"verifies_per_s_per_core_after", h.verifies_per_s_after}});
  j["hybrids"] = hy;
  if (rep.engines) j["engines"] = json::parse(render_engines_json(rep));  // --engine
  return j.dump(2) + "\n";
}

std::string render_jsonl(const Report& rep) {
  std::string out;
  json env = env_json(rep.env);
  env["type"] = "environment";
  env["options"] = options_json(rep);
  env["interrupted"] = rep.interrupted;
  out += env.dump() + "\n";
  if (rep.prediction) {
    json p = prediction_json(rep);
    p["type"] = "prediction";
    out += p.dump() + "\n";
  }
  for (const auto& [ts, rows] : rep.throughput) {
    json t = {{"type", "throughput"}, {"suite", ts->id}, {"ops", throughput_json(rows)}};
    out += t.dump() + "\n";
  }
  for (const auto& r : rep.suites) {
    if (!r.available) {
      out += json{{"type", "suite"}, {"suite", r.suite->id}, {"available", false}, {"note", r.note}}.dump() + "\n";
      continue;
    }
    out += json{{"type", "suite"}, {"suite", r.suite->id}, {"available", true}, {"note", r.note},
                {"message_bytes", r.message_bytes}, {"sizes", sizes_json(r.sizes)}}.dump() + "\n";
    for (const auto& op : r.ops) {
      json s = stats_json(op.stats);
      s["type"] = "summary";
      s["suite"] = r.suite->id;
      s["op"] = op.name;
      s["batch"] = op.batch;
      if (!op.error.empty()) s["error"] = op.error;
      out += s.dump() + "\n";
      for (std::size_t i = 0; i < op.samples.size(); ++i)
        out += json{{"type", "sample"}, {"suite", r.suite->id}, {"op", op.name}, {"i", i}, {"batch", op.batch},
                    {"ns", op.samples[i]}}.dump() + "\n";
    }
  }
  if (rep.engines) out += render_engines_jsonl(rep);
  return out;
}

// --engine in the JSONL record: the objects of --json's "engines" (one source), one line per engine,
// per (engine, suite) and per (engine, suite, op), then the raw samples the in-process engines kept.
std::string render_engines_jsonl(const Report& rep) {
  std::string out;
  if (!rep.engines) return out;
  const ojson runs = ojson::parse(render_engines_json(rep));
  for (const auto& r : runs) {
    const std::string engine = r.at("engine").get<std::string>();
    ojson head = {{"type", "engine"}};
    for (const auto& [k, v] : r.items())
      if (k != "suites") head[k] = v;
    out += head.dump() + "\n";
    for (const auto& x : r.at("suites")) {
      ojson es = {{"type", "engine_suite"}, {"engine", engine}};
      for (const auto& [k, v] : x.items())
        if (k != "ops") es[k] = v;
      out += es.dump() + "\n";
      if (auto ops = x.find("ops"); ops != x.end())
        for (const auto& [op, st] : ops->items()) {
          ojson line = {{"type", "engine_summary"}, {"engine", engine}, {"suite", x.at("suite")}, {"op", op}};
          for (const auto& [k, v] : st.items()) line[k] = v;
          out += line.dump() + "\n";
        }
    }
  }
  // pqsig's own samples are the "sample" records above; the subprocess engines send statistics.
  for (const auto& run : rep.engines->runs) {
    if (run.name == "pqsig") continue;
    for (const auto& es : run.suites)
      for (const auto& op : es.ops)
        for (std::size_t i = 0; i < op.samples.size(); ++i)
          out += ojson{{"type", "engine_sample"}, {"engine", run.name}, {"suite", es.suite->id}, {"op", op.name},
                       {"i", i},  {"batch", op.batch},  {"ns", op.samples[i]}}.dump() + "\n";
  }
  return out;
}

}  // namespace pqsig::price
