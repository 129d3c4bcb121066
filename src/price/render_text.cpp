// `pqsig price` terminal report: the verdict paragraph first, then the tables. Columns are sized
// to their widest cell, so no row can push the ones after it out of line.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "pqsig/price.hpp"
#include "pqsig/price_engines.hpp"

namespace pqsig::price {

namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

// Width in code points (the report uses a few multi-byte characters).
std::size_t width(const std::string& s) {
  std::size_t cps = 0;
  for (unsigned char c : s) cps += (c & 0xC0) != 0x80;
  return cps;
}

std::string pad(std::string s, std::size_t w, bool right = false) {
  const std::size_t cps = width(s);
  if (cps >= w) return s;
  std::string sp(w - cps, ' ');
  return right ? sp + s : s + sp;
}

// A table whose columns take the width of their widest cell (two spaces between columns).
// A row with a single cell after the first (a note) spans the rest of the line.
class Table {
 public:
  explicit Table(std::vector<bool> right) : right_(std::move(right)) {}
  void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  std::string str(std::string_view indent = "") const {
    std::vector<std::size_t> w(right_.size(), 0);
    for (const auto& r : rows_)
      if (r.size() == right_.size())
        for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], width(r[i]));
    std::string o;
    for (const auto& r : rows_) {
      std::string line(indent);
      for (std::size_t i = 0; i < r.size(); ++i) {
        const bool last = i + 1 == r.size();
        if (i) line += "  ";
        line += last && !right_[i] ? r[i] : pad(r[i], i < w.size() ? w[i] : 0, i < right_.size() && right_[i]);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      o += line + "\n";
    }
    return o;
  }

 private:
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

std::string ms(double v) {
  if (v > 0 && v < 0.001) return "<0.001";
  if (v < 0.1) return fmt("%.3f", v);
  if (v < 10) return fmt("%.2f", v);
  if (v < 1000) return fmt("%.1f", v);
  return fmt("%.0f", v);
}

// A tail figure, starred when it rests on fewer than Stats::kMinTailSamples samples.
std::string tail_ns(double ns, const Stats& s) { return format_ns(ns) + (s.tail_reliable() ? " " : "*"); }

std::string verdict_cell(const SurfaceVerdict& v, double budget, bool few) {
  std::string s = ms(v.cpu_ms_mean) + " (" + ms(v.cpu_ms_p90) + (few ? "*" : "") + ") ms ";
  if (v.fits_mean && v.fits_p90) s += fmt("%.0f%% fits", v.pct_budget_mean);
  else if (v.fits_mean) s += fmt("%.0f%% p90 OVER", v.pct_budget_mean);
  else s += fmt("OVER x%.1f", v.cpu_ms_mean / budget);
  return s;
}

std::string wrap(const std::string& text, std::size_t cols) {
  std::string out, line;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto sp = text.find(' ', pos);
    if (sp == std::string::npos) sp = text.size();
    std::string word = text.substr(pos, sp - pos);
    if (!line.empty() && width(line) + 1 + width(word) > cols) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    pos = sp + 1;
  }
  if (!line.empty()) out += line + "\n";
  return out;
}

bool any_few_samples(const Report& rep) {
  for (const auto& r : rep.suites)
    for (const auto& op : r.ops)
      if (op.error.empty() && op.stats.n > 0 && !op.stats.tail_reliable()) return true;
  return false;
}

std::string load_line(const Report& rep) {
  const Environment& e = rep.env;
  std::string o = fmt("  took     %.1f s", rep.wall_seconds);
  if (e.load_before[0] >= 0)
    o += fmt("; load average %.2f before, %.2f after (1 min; %u cores)", e.load_before[0], e.load_after[0], e.cores);
  if (e.others_cpu_pct >= 0) o += fmt("; other processes used %.0f%% of the machine meanwhile", e.others_cpu_pct);
  o += "\n";
  if (e.busy)
    o += "  WARNING  the machine was busy (" + e.busy_reason +
         "): medians and tails are inflated; rerun on an idle machine, or use --cpu-time\n";
  if (rep.interrupted)
    o += fmt("  INTERRUPTED  (Ctrl-C) after %zu of %zu suites: the tables hold what was measured so far\n",
             rep.suites.size(), std::max(rep.suites_planned, rep.suites.size()));
  return o;
}

// Days as a reader takes them: minutes, hours, days or years.
std::string format_lifetime(double days) {
  if (!std::isfinite(days)) return "-";
  if (days < 1.0 / 24) return fmt("%.0f min", days * 24 * 60);
  if (days < 1) return fmt("%.1f h", days * 24);
  if (days < 730) return fmt("%.1f d", days);
  if (days / 365.25 < 1e6) return fmt("%.0f y", days / 365.25);
  return fmt("%.1e y", days / 365.25);
}

// The stateful hash-based suites: signing through the state, the reservation's price, the
// extrapolated rows, and the key lifetime surface.
std::string stateful_section(const Report& rep) {
  const Workload& w = rep.workload;
  const StatefulPricing* any = nullptr;
  for (const auto& r : rep.suites)
    if (r.stateful) any = &*r.stateful;
  if (!any) return "";
  std::string o =
      "\nStateful hash-based suites [STATEFUL] (LMS/HSS, XMSS): each signature spends one of the key's 2^h one-time\n"
      "indices; signing goes through the state (lms/xmss::StatefulSigner), never the stateless API. sign = wall time\n"
      "per signature with the reservation (block " + std::to_string(any->block) +
      ") and the audit log's fsync included; block 1 = one reservation per signature.\n";
  o += "  reservation (state file write + fsync + rename + directory fsync, in " + any->state_dir + "): " +
       format_ns(any->reserve_1_ns) + " each; per signature " + format_ns(any->reserve_per_signature_ns(1)) +
       " with block 1, " + format_ns(any->reserve_per_signature_ns(any->block)) + " with block " +
       std::to_string(any->block) + "\n";
  Table t({false, true, true, true, true, true, true, true, false});
  t.row({"suite", "h", "signatures", "sig B", "request hdr", "sign (block " + std::to_string(any->block) + ")",
         "sign (block 1)", "verify", "keygen"});
  bool extrapolated = false;
  for (const auto& r : rep.suites) {
    if (!r.suite->stateful) continue;
    if (!r.available || !r.stateful) {
      t.row({std::string(r.suite->id), "not available: " + r.note});
      continue;
    }
    const StatefulPricing& p = *r.stateful;
    const auto cell = [&](const char* name) -> std::string {
      const OpResult* op = r.op(name);
      if (!op) return "-";
      extrapolated = extrapolated || !op->extrapolated.empty();
      return format_ns(op->stats.mean_ns) + (op->extrapolated.empty() ? "" : " ~");
    };
    std::string block1 = "-";
    if (const OpResult* sg = r.op("sign"))
      block1 = format_ns(sg->stats.mean_ns - p.reserve_per_signature_ns(p.block) + p.reserve_per_signature_ns(1)) +
               (sg->extrapolated.empty() ? "" : " ~");
    const std::size_t hdr = r.sizes.request_headers;
    t.row({std::string(r.suite->id), std::to_string(r.suite->params.hbs.height), format_bytes(p.max_signatures),
           format_bytes(r.sizes.output),
           format_bytes(hdr) + (hdr <= w.header_cap_bytes ? " fits" : " 431"), cell("sign"), block1, cell("verify"),
           cell("keygen")});
  }
  o += t.str("  ");
  o += "  (means; sign (block 1) = sign - reservation/" + std::to_string(any->block) + " + one reservation)\n";
  if (extrapolated)
    o += "  ~ = EXTRAPOLATED, not measured: a tree taller than 2^10 is not built here; keygen = its height-10\n"
         "    counterpart's x 2^(h-10), sign = the counterpart's + one leaf (LMS subtree rebuild), verify = the\n"
         "    counterpart's + (h-10) measured tree nodes (each row's basis: --json stateful_pricing.basis)\n";

  // ---- key lifetime
  std::vector<const Surface*> rated;
  for (const auto& s : w.surfaces)
    if (s.requests_per_day > 0) rated.push_back(&s);
  if (rated.empty()) {
    o += "\nKey lifetime: no surface has requests_per_day in the workload (set it to price how long a key lasts)\n";
    return o;
  }
  o += "\nKey lifetime [STATEFUL]: how long one key lasts = 2^h / (signatures per request x requests a day);\n"
       "requests_per_day from the workload (a crash loses at most the unused rest of a block of " +
       std::to_string(any->block) + ")\n";
  std::vector<bool> right(rated.size() + 2, true);
  right[0] = false;
  Table lt(right);
  std::vector<std::string> hdr{"suite"};
  for (const auto* s : rated)
    hdr.push_back(s->name + " (" + fmt("%g", s->signatures_per_request) + " x " +
                  format_bytes(static_cast<std::size_t>(s->requests_per_day)) + "/d)");
  hdr.push_back(std::string(kAllSurfaces));
  lt.row(hdr);
  for (const auto& v : rep.verdicts) {
    if (!v.result->suite->stateful || v.lifetimes.empty()) continue;
    std::vector<std::string> row{std::string(v.result->suite->id)};
    for (const auto& k : v.lifetimes) row.push_back(format_lifetime(k.days));
    lt.row(row);
  }
  o += lt.str("  ");
  return o;
}

std::string head(const Report& rep) { return load_line(rep) + "\n" + wrap(verdict_paragraph(rep), 100); }

std::string rest(const Report& rep) {
  const Workload& w = rep.workload;
  const Environment& e = rep.env;
  std::string o;
  // ---- sizes
  o += fmt("\nSizes in bytes (SF = signature as a Structured-Field byte sequence; +hdr = Signature + Signature-Input lines;\n"
           "request = the whole signed request's header section, against the %s B cap)\n",
           format_bytes(w.header_cap_bytes).c_str());
  {
    Table t({false, true, true, true, true, true, true, true, false});
    t.row({"suite", "pk", "priv", "expanded", "sig/ct", "SF", "+hdr", "request", "verdict"});
    for (const auto& r : rep.suites) {
      const Sizes& z = r.sizes;
      const bool kem = r.suite->cls == SuiteClass::kem;
      auto n = [](std::size_t v) { return v ? format_bytes(v) : std::string("-"); };
      std::string verdict = kem ? "(KEM)"
                                : (z.request_headers <= w.header_cap_bytes
                                       ? "fits"
                                       : "431 (over by " + format_bytes(z.request_headers - w.header_cap_bytes) + ")");
      if (!r.available) verdict += "  [registry sizes; not available]";
      if (r.suite->stateful) verdict += "  [STATEFUL]";
      t.row({std::string(r.suite->id), n(z.public_key), n(z.private_key), n(z.expanded_key), n(z.output),
             kem ? "-" : n(z.sf_bytes), kem ? "-" : n(z.signature_headers), kem ? "-" : n(z.request_headers), verdict});
    }
    o += t.str();
  }

  // ---- surfaces
  o += fmt("\nSurfaces: CPU per request at the mean (throughput; signing is a rejection loop, a budget is spent on\n"
           "the mean) and p90 (latency), budget %s ms, production CPU factor %gx; keys: cold (decoded from their\n"
           "encodings on every request) unless the surface sets key_reuse (prepared)\n",
           ms(w.cpu_budget_ms).c_str(), w.production_cpu_factor);
  {
    std::vector<bool> right(w.surfaces.size() + 2, false);
    Table t(right);
    std::vector<std::string> hdr{"suite"};
    for (const auto& s : w.surfaces) {
      std::string lab = s.name + fmt(" (%g sig", s.signatures_per_request);
      if (s.verifications_per_request > 0) lab += fmt(", %g ver", s.verifications_per_request);
      hdr.push_back(lab + (s.key_reuse ? ", prepared)" : ", cold)"));
    }
    hdr.push_back("headers");
    t.row(hdr);
    for (const auto& v : rep.verdicts) {
      const SuiteResult& r = *v.result;
      if (r.suite->cls == SuiteClass::kem) continue;
      if (!r.available || v.surfaces.empty()) {
        t.row({std::string(r.suite->id), "not available"});
        continue;
      }
      const OpResult* sg = r.op("sign");  // the cold row; the prepared one has at least as many samples
      const bool few = sg && !sg->stats.tail_reliable();
      std::vector<std::string> row{std::string(r.suite->id) + (r.suite->stateful ? " [STATEFUL]" : "")};
      for (const auto& s : v.surfaces) row.push_back(verdict_cell(s, w.cpu_budget_ms, few));
      while (row.size() < w.surfaces.size() + 1) row.push_back("-");
      row.push_back(v.surfaces.front().header_fits ? "fit" : "431");
      t.row(row);
    }
    o += t.str();
  }

  // ---- ledger
  o += fmt("\nLedger: VU = ceil(100 x median cold verify / median cold verify of %s); block budget %s VU; %u cores\n",
           w.vu_reference.c_str(), format_bytes(w.block_budget_vu).c_str(), e.cores);
  if (rep.reference_verify_ns <= 0) {
    o += "  (the reference suite " + w.vu_reference + " was not measured: no Verify Units)\n";
  } else {
    Table t({false, true, true, true, true, true, true, true, true});
    t.row({"suite", "verify", "VU", "VU dual*", "sigs/block", "block 1 core", fmt("%u cores", e.cores), "dual* 1 core",
           fmt("dual* %u cores", e.cores)});
    for (const auto& v : rep.verdicts) {
      const SuiteResult& r = *v.result;
      if (r.suite->cls != SuiteClass::signature) continue;
      if (!v.ledger) {
        t.row({std::string(r.suite->id), "not available"});
        continue;
      }
      const LedgerRow& l = *v.ledger;
      const char* tag = l.dual_estimated ? " est" : " meas";  // per row: estimate or measured dual
      t.row({std::string(r.suite->id), format_ns(r.op("verify")->stats.median_ns), format_bytes(l.vu),
             format_bytes(l.vu_dual) + tag, format_bytes(l.sigs_per_block), ms(l.block_ms_one_core) + " ms",
             ms(l.block_ms_all_cores) + " ms", ms(l.block_ms_dual_one_core) + " ms" + tag,
             ms(l.block_ms_dual_all_cores) + " ms" + tag});
    }
    o += t.str();
    bool measured = false;
    for (const auto& v : rep.verdicts) measured = measured || (v.ledger && !v.ledger->dual_estimated);
    o += measured ? "  * dual: meas = measured (pqsig + liboqs, dual enforce) where liboqs has the suite; est = 2 x verify, an ESTIMATE\n"
                  : "  * dual = 2 x verify: an ESTIMATE until a second independent verifier exists\n";
  }

  // ---- hybrids
  if (!rep.hybrids.empty()) {
    o += "\nHybrids: classical alone -> classical + PQ (pairs = two labels over one base; composites = one signature)\n";
    Table t({false, false, false, false, false});
    t.row({"hybrid", "sig bytes", "pk bytes", "header bytes", "verify/s/core (cold)"});
    auto grow = [](std::size_t a, std::size_t b) {
      return format_bytes(a) + " -> " + format_bytes(b) + " (+" + format_bytes(b - std::min(a, b)) + ")";
    };
    for (const auto& h : rep.hybrids) {
      std::string vps = h.available ? format_rate(h.verifies_per_s_before) + " -> " + format_rate(h.verifies_per_s_after) +
                                          fmt(" (%.0f%%)", 100.0 * h.verifies_per_s_after / h.verifies_per_s_before)
                                    : "not available (" + h.note + ")";
      t.row({h.name, grow(h.classical_sig, h.hybrid_sig), grow(h.classical_pk, h.hybrid_pk),
             grow(h.classical_header, h.hybrid_header), vps});
    }
    o += t.str();
  }

  o += stateful_section(rep);

  // ---- throughput
  if (rep.multi_threads > 0) {
    o += fmt("\nThroughput on %u cores (--multi %u: one thread per core, each with its own keys; ops/s summed;\n"
             "scaling = %u cores / 1 core, ideal %u.00)\n",
             rep.multi_threads, rep.multi_threads, rep.multi_threads, rep.multi_threads);
    Table t({false, false, true, true, true});
    t.row({"suite", "op", "1 core", fmt("%u cores", rep.multi_threads), "scaling"});
    for (const auto& [s, rows] : rep.throughput) {
      bool first = true;
      for (const auto& row : rows) {
        std::string id = first ? std::string(s->id) : "";
        first = false;
        if (!row.error.empty()) {
          t.row({id, row.op, "failed: " + row.error});
          continue;
        }
        t.row({id, row.op, format_rate(row.ops_per_s_1), format_rate(row.ops_per_s_n),
               row.scaling() > 0 ? fmt("x%.2f", row.scaling()) : "-"});
      }
    }
    o += t.str();
    if (rep.multi_threads > e.cores)
      o += fmt("  note: %u threads on %u cores: scaling beyond %u is not possible here\n", rep.multi_threads, e.cores,
               e.cores);
    if (e.busy)
      o += "  note: the machine was busy: these rates are the share of the CPU this run got (wall time), not what\n"
           "  the machine can do; the scaling is not meaningful until it is idle\n";
  }

  // ---- prediction review
  if (rep.prediction) {
    const Prediction& p = *rep.prediction;
    o += "\nPrediction review (" + p.source + (p.file_mtime_utc.empty() ? "" : ", written " + p.file_mtime_utc) +
         "; recorded unchanged in --json / --jsonl / --html)\n";
    if (!p.note.empty()) {
      const std::string nw = wrap("note: " + p.note, 96);
      std::size_t pos = 0;
      while (pos < nw.size()) {
        const auto nl = nw.find('\n', pos);
        o += "  " + nw.substr(pos, nl - pos + 1);
        pos = nl + 1;
      }
    }
    Table t({false, false, true, true, true, false});
    t.row({"suite", "item", "predicted", "measured", "miss", ""});
    std::size_t meds = 0, within = 0, flips = 0, verdicts = 0;
    for (const auto& r : rep.review) {
      if (!r.is_verdict) {
        if (!r.measured) {
          t.row({r.suite, r.item, format_ns(r.predicted_ns), "not measured"});
          continue;
        }
        ++meds;
        const bool ok = r.ratio <= 1.25 && r.ratio >= 0.8;
        within += ok;
        t.row({r.suite, r.item, format_ns(r.predicted_ns), format_ns(r.measured_ns),
               fmt("x%.2f", r.ratio), r.ratio > 1 ? "slower than predicted" : "faster than predicted"});
      } else {
        if (!r.measured) {
          t.row({r.suite, r.item, r.predicted_verdict, "not measured"});
          continue;
        }
        ++verdicts;
        flips += r.flipped;
        t.row({r.suite, r.item, r.predicted_verdict, r.measured_verdict, r.flipped ? "FLIPPED" : "held", ""});
      }
    }
    o += t.str();
    o += fmt("  %zu of %zu predicted medians within x1.25 of the measurement; %zu of %zu verdicts flipped\n", within,
             meds, flips, verdicts);
  }
  if (any_few_samples(rep))
    o += fmt("\n* p90/p99 from fewer than %zu samples: indicative only (with so few samples the tail is the slowest "
             "one or two;\n  raise --budget-ms or --min-samples for a tail you can rely on)\n",
             Stats::kMinTailSamples);
  return o;
}

// Up to `max` names; the rest counted, and (sorted lists) the last one, the worst, named.
std::string verdict_list(const std::vector<std::string>& names, std::size_t max = 8, bool name_worst = false) {
  std::string o;
  for (std::size_t i = 0; i < names.size() && i < max; ++i) o += (i ? ", " : "") + names[i];
  if (names.size() > max) {
    o += fmt(" and %zu more", names.size() - max);
    if (name_worst) o += " (worst: " + names.back() + ")";
  }
  return o;
}

}  // namespace

std::string verdict_paragraph(const Report& rep) {
  const Workload& w = rep.workload;
  std::string o = fmt("Verdict (%s ms CPU per request at the mean and at p90, production factor %gx; %s B header cap): ",
                      ms(w.cpu_budget_ms).c_str(), w.production_cpu_factor, format_bytes(w.header_cap_bytes).c_str());
  std::size_t sig_suites = 0;
  std::vector<std::string> unmeasured;
  for (const auto& v : rep.verdicts) {
    if (v.result->suite->cls == SuiteClass::kem) continue;
    ++sig_suites;
    if (v.surfaces.empty()) unmeasured.push_back(std::string(v.result->suite->id));
  }
  if (sig_suites == 0) return o + "no signature suite was selected; nothing to judge.";
  for (const auto& s : w.surfaces) {
    std::vector<std::string> fits, tail, over;
    std::vector<std::pair<double, std::string>> over_sorted;
    for (const auto& v : rep.verdicts)
      for (const auto& x : v.surfaces) {
        if (x.surface != s.name) continue;
        const std::string id(v.result->suite->id);
        if (x.fits_mean && x.fits_p90) fits.push_back(id);
        else if (x.fits_mean) tail.push_back(id + " (p90 +" + ms(x.over_ms_p90) + " ms)");
        else over_sorted.push_back({x.cpu_ms_mean / w.cpu_budget_ms, id + fmt(" x%.1f", x.cpu_ms_mean / w.cpu_budget_ms)});
      }
    std::sort(over_sorted.begin(), over_sorted.end());
    for (auto& p : over_sorted) over.push_back(p.second);
    const std::size_t n = fits.size() + tail.size() + over.size();
    if (n == 0) continue;
    o += s.name + fmt(" (%g sig", s.signatures_per_request) +
         (s.verifications_per_request > 0 ? fmt(", %g ver", s.verifications_per_request) : std::string()) +
         (s.key_reuse ? "; prepared keys" : "; cold keys") + "): ";
    if (fits.size() == n) o += n == 1 ? fits[0] + " fits" : fmt("all %zu fit", n);
    else if (fits.empty()) o += "none fits";
    else o += fmt("%zu of %zu fit (%s)", fits.size(), n, verdict_list(fits, 6).c_str());
    if (!tail.empty()) o += "; only at the mean: " + verdict_list(tail);
    if (!over.empty()) o += "; over budget: " + verdict_list(over, 6, true);
    o += ". ";
  }
  std::vector<std::pair<std::size_t, std::string>> big;
  std::size_t hdr_total = 0;
  for (const auto& r : rep.suites) {
    if (r.suite->cls == SuiteClass::kem || r.sizes.request_headers == 0) continue;
    ++hdr_total;
    if (r.sizes.request_headers > w.header_cap_bytes)
      big.push_back({r.sizes.request_headers - w.header_cap_bytes, std::string(r.suite->id)});
  }
  std::sort(big.begin(), big.end());
  if (hdr_total) {
    if (big.empty()) o += hdr_total == 1 ? std::string("Headers: it fits the cap.") : fmt("Headers: all %zu fit the cap.", hdr_total);
    else {
      std::vector<std::string> names;
      for (auto& [over, id] : big) names.push_back(id + " +" + format_bytes(over) + " B");
      o += fmt("Headers: %zu of %zu fit; 431 for %s.", hdr_total - big.size(), hdr_total,
               verdict_list(names, 6, true).c_str());
    }
  }
  if (!unmeasured.empty()) o += " Not measured: " + verdict_list(unmeasured) + ".";
  {  // stateful suites: signed only through their state; how long a key lasts on every surface
    std::vector<std::string> life;
    for (const auto& v : rep.verdicts)
      if (v.result->suite->stateful && !v.lifetimes.empty())
        life.push_back(std::string(v.result->suite->id) + " " + format_lifetime(v.lifetimes.back().days));
    if (!life.empty())
      o += " Stateful (LMS/XMSS; sign only through their state) key lifetime on all surfaces: " + verdict_list(life, 12) +
           ".";
  }
  if (rep.env.busy) o += " The machine was busy: treat the CPU verdicts near the budget as uncertain.";
  return o;
}

std::size_t time_id_width(const std::vector<const SuiteInfo*>& suites) {
  std::size_t w = 5;
  for (const auto* s : suites) w = std::max(w, s->id.size());
  return w;
}

std::string render_time_header(std::size_t id_width) {
  return "\nTime per operation, one core (median, mean, p90, p99; p90/med = tail; ops/s/core at the median;\n"
         "samples = timed samples, x operations per sample when batched; sign, verify, encaps, decaps = cold, from\n"
         "the encoded key on every call; *_prepared = a key decoded once; a signature's cost is its mean: rejection loop)\n" +
         pad("suite", id_width) + "  " + pad("op", 15) + "  " + pad("median", 10, true) + "  " + pad("mean", 10, true) +
         "  " + pad("p90", 11, true) +
         "  " + pad("p99", 11, true) + "  " + pad("p90/med", 7, true) + "  " + pad("ops/s/core", 10, true) + "  " +
         pad("samples", 12, true) + "\n";
}

std::string render_time_row(std::string_view suite_id, const OpResult& op, bool first, std::size_t id_width) {
  std::string o = pad(first ? std::string(suite_id) : std::string(), id_width) + "  " + pad(op.name, 15) + "  ";
  if (!op.error.empty()) return o + "FAILED: " + op.error + "\n";
  const Stats& s = op.stats;
  if (s.n == 0) return o + "(interrupted before the first sample)\n";
  std::string n = format_bytes(s.n) + (op.batch > 1 ? "x" + format_bytes(op.batch) : std::string());
  if (op.interrupted) n += " (cut)";
  o += pad(format_ns(s.median_ns), 10, true) + "  " + pad(format_ns(s.mean_ns), 10, true) + "  " +
       pad(tail_ns(s.p90_ns, s), 11, true) + "  " +
       pad(tail_ns(s.p99_ns, s), 11, true) + "  " + pad(fmt("%.2f", s.spread()), 7, true) + "  " +
       pad(format_rate(s.per_second()), 10, true) + "  " + pad(n, 12, true);
  if (!op.extrapolated.empty()) o += "  EXTRAPOLATED: " + op.extrapolated;
  while (!o.empty() && o.back() == ' ') o.pop_back();
  return o + "\n";
}

std::string render_time_unavailable(const SuiteResult& r, std::size_t id_width) {
  return pad(std::string(r.suite->id), id_width) + "  not available: " + r.note + "\n";
}

std::string render_time_rows(const SuiteResult& r, std::size_t id_width) {
  if (!r.available) return render_time_unavailable(r, id_width);
  std::string o;
  for (std::size_t i = 0; i < r.ops.size(); ++i) o += render_time_row(r.suite->id, r.ops[i], i == 0, id_width);
  return o;
}

std::string render_text_intro(const Report& rep) {
  const Environment& e = rep.env;
  std::string o;
  o += "pqsig price: what each suite costs on this machine, per operation, per request, per block, per header\n";
  o += "  machine  " + e.cpu_model + ", " + std::to_string(e.cores) + " cores, " + e.os + ", governor " + e.governor + "\n";
  o += "  build    pqsig " + e.version + " (" + e.commit + "), " + e.compiler + ", " + e.build_type + "\n";
  std::size_t msg = 0;
  for (const auto& r : rep.suites)
    if (r.message_bytes) {
      msg = r.message_bytes;
      break;
    }
  o += fmt("  run      %s: warm-up, then >= %zu samples and %.0f ms per operation; signing over %zu distinct messages; %s\n",
           rep.mode.c_str(), rep.options.min_samples, rep.options.budget_ms_per_op, rep.options.distinct_messages,
           rep.options.thread_cpu_time ? "thread CPU time" : "wall time");
  o += "  message  " +
       (rep.options.message_size ? fmt("%zu random bytes", rep.options.message_size)
        : msg                    ? fmt("the Web Bot Auth signature base of a sample request (%s B)", format_bytes(msg).c_str())
                                 : std::string("the Web Bot Auth signature base of a sample request")) +
       "\n";
  return o;
}

std::string render_text_summary(const Report& rep) { return head(rep) + rest(rep) + render_engines_text(rep); }

std::string render_text(const Report& rep) {
  std::vector<const SuiteInfo*> ids;
  for (const auto& r : rep.suites) ids.push_back(r.suite);
  const std::size_t w = time_id_width(ids);
  std::string o = render_text_intro(rep) + head(rep) + render_time_header(w);
  for (const auto& r : rep.suites) o += render_time_rows(r, w);
  return o + rest(rep) + render_engines_text(rep);
}

}  // namespace pqsig::price
