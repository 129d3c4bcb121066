// `pqsig price --engine`: the engines side by side — text tables, the JSON array and the HTML
// section (grouped bars per engine, the write-up's "JavaScript | workerd, native" figure).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "pqsig/price_engines.hpp"
#include "price/html.hpp"

namespace pqsig::price {

using ojson = nlohmann::ordered_json;  // at namespace scope, as in render_json.cpp (one unity batch)

namespace {

const char* const kEngineOps[] = {"keygen", "sign", "verify", "verify_prepared"};

const EngineSuite* suite_of(const EngineRun& r, const SuiteInfo* s) {
  for (const auto& es : r.suites)
    if (es.suite == s) return &es;
  return nullptr;
}

std::string engine_pad(std::string s, std::size_t w) {
  // Width in code points (the cells hold "×" and "µ"-free ASCII otherwise).
  std::size_t cps = 0;
  for (unsigned char c : s) cps += (c & 0xC0) != 0x80;
  if (cps < w) s.append(w - cps, ' ');
  return s;
}

std::string ratio(double v, double anchor) {
  if (!(v > 0) || !(anchor > 0)) return "";
  char b[32];
  const double x = v / anchor;
  std::snprintf(b, sizeof b, x < 10 ? " ×%.1f" : " ×%.0f", x);
  return b;
}

std::string surface_cell(const SurfaceVerdict& v) {
  std::string w = verdict_word(v);
  char b[64];
  const double x = v.pct_budget_median / 100;
  if (w == "over") std::snprintf(b, sizeof b, x < 10 ? "%s over ×%.2f" : "%s over ×%.1f", format_ns(v.cpu_ms_median * 1e6).c_str(), x);
  else std::snprintf(b, sizeof b, "%s %s", format_ns(v.cpu_ms_median * 1e6).c_str(), w.c_str());
  return b;
}

// A cell for a suite an engine does not cover, or covers with an error.
std::string missing_cell(const EngineSuite* es) {
  if (!es || !es->available) return "n/a";
  if (es->error) return "ERROR";
  return "-";
}

const std::vector<const SuiteInfo*> run_suites(const EngineReport& er) {
  std::vector<const SuiteInfo*> out;
  if (!er.runs.empty())
    for (const auto& es : er.runs.front().suites) out.push_back(es.suite);
  return out;
}

std::string check_text(const EngineRun& r, const EngineSuite& es) {
  if (r.name == "pqsig") return "reference (checks every other engine)";
  std::string t;
  if (es.check.engine_signed)
    t += std::to_string(es.check.pqsig_accepted) + "/" + std::to_string(es.check.engine_signed) +
         " of its signatures accepted by pqsig, ";
  else
    t += "signs nothing here (verification only), ";
  t += std::to_string(es.check.engine_accepted) + "/" + std::to_string(es.check.pqsig_signed) +
       " pqsig signatures accepted, tampered " + (es.check.tampered_rejected ? "rejected" : "ACCEPTED");
  return t;
}

std::string html_esc(std::string_view s) { return detail::html_escape(s); }

const char* const kEngineColors[] = {"#2563eb", "#7c3aed", "#0891b2", "#16a34a", "#65a30d", "#ea580c", "#db2777"};
const char* engine_color(const std::string& name) {
  const auto& n = engine_names();
  const auto it = std::find(n.begin(), n.end(), name);
  return kEngineColors[static_cast<std::size_t>(it - n.begin()) % std::size(kEngineColors)];
}

}  // namespace

std::string render_engines_text(const Report& rep) {
  if (!rep.engines) return "";
  const EngineReport& er = *rep.engines;
  const auto suites = run_suites(er);
  const EngineRun* anchor = er.runs.empty() || er.runs.front().name != "pqsig" ? nullptr : &er.runs.front();
  constexpr std::size_t W = 20, L = 30;
  std::string o = "\nEngines — the same operations in the engine that will sign (× = median / pqsig's median)\n";
  for (const auto& r : er.runs) {
    o += "  " + engine_pad(r.name, 15) + (r.available ? r.version : "NOT AVAILABLE: " + r.reason) + "\n";
    if (r.available && !r.method.empty()) o += "  " + engine_pad("", 15) + "  timed: " + r.method + "\n";
  }
  std::string names;
  for (const auto& r : er.runs) names += engine_pad(r.name, W);
  const std::string head = engine_pad("suite / surface", L) + names;
  o += "\nTime per operation (median, one core)\n" + engine_pad("suite / operation", L) + names + "\n";
  for (const auto* s : suites) {
    for (const char* op : kEngineOps) {
      bool any = false;
      for (const auto& r : er.runs)
        if (const auto* es = suite_of(r, s); es && es->op(op)) any = true;
      if (!any) continue;
      std::string line = engine_pad(std::string(s->id) + " " + op, L);
      const EngineSuite* a = anchor ? suite_of(*anchor, s) : nullptr;
      const OpResult* ao = a ? a->op(op) : nullptr;
      for (const auto& r : er.runs) {
        const auto* es = suite_of(r, s);
        const OpResult* x = es && !es->error ? es->op(op) : nullptr;
        std::string miss = missing_cell(es);
        if (es && es->available && !es->error)
          for (const auto& q : es->ops)
            if (q.name == op && !q.error.empty()) miss = q.error.rfind("below the timing", 0) == 0 ? "< resolution" : "failed";
        line += engine_pad(x ? format_ns(x->stats.median_ns) + (&r == anchor ? "" : ratio(x->stats.median_ns, ao ? ao->stats.median_ns : 0))
                      : miss,
                    W);
      }
      o += line + "\n";
    }
  }
  char cap[160];
  std::snprintf(cap, sizeof cap, "\nPer request (CPU at the median, budget %.3g ms, factor %.3g) and per header (cap %s B)\n",
                rep.workload.cpu_budget_ms, rep.workload.production_cpu_factor, format_bytes(rep.workload.header_cap_bytes).c_str());
  o += cap + head + "\n";
  for (const auto* s : suites) {
    for (const auto& surf : rep.workload.surfaces) {
      char lab[96];
      std::snprintf(lab, sizeof lab, "%s %s (%g sig)", std::string(s->id).c_str(), surf.name.c_str(), surf.signatures_per_request);
      std::string line = engine_pad(lab, L);
      for (const auto& r : er.runs) {
        const auto* es = suite_of(r, s);
        const SurfaceVerdict* v = nullptr;
        if (es)
          for (const auto& x : es->surfaces)
            if (x.surface == surf.name) v = &x;
        line += engine_pad(v ? surface_cell(*v) : missing_cell(es), W);
      }
      o += line + "\n";
    }
    std::string line = engine_pad(std::string(s->id) + " headers", L);
    for (const auto& r : er.runs) {
      const auto* es = suite_of(r, s);
      line += engine_pad(es && es->header_bytes ? format_bytes(es->header_bytes) + " B " + (es->header_bytes <= rep.workload.header_cap_bytes ? "fits" : "431")
                                         : missing_cell(es),
                  W);
    }
    o += line + "\n";
  }
  bool any_ledger = false;
  for (const auto& r : er.runs)
    for (const auto& es : r.suites) any_ledger |= es.ledger.has_value();
  if (any_ledger) {
    char b[200];
    std::snprintf(b, sizeof b, "\nPer block (%s VU; the signatures pqsig's Verify Units admit, verified cold on one core)\n",
                  format_bytes(rep.workload.block_budget_vu).c_str());
    o += b + engine_pad("suite (signatures per block)", L) + names + "\n";
    for (const auto* s : suites) {
      std::string line;
      for (const auto& r : er.runs) {
        const auto* es = suite_of(r, s);
        if (line.empty() && es && es->ledger) {
          std::snprintf(b, sizeof b, "%s (%s sigs)", std::string(s->id).c_str(), format_bytes(es->ledger->sigs_per_block).c_str());
          line = engine_pad(b, L);
        }
      }
      if (line.empty()) continue;
      for (const auto& r : er.runs) {
        const auto* es = suite_of(r, s);
        line += engine_pad(es && es->ledger ? format_ns(es->ledger->block_ms_one_core * 1e6) : missing_cell(es), W);
      }
      o += line + "\n";
    }
  }
  o += "\nCross-checks (pqsig verifies each engine's signatures; each engine verifies pqsig's and must reject a tampered one)\n";
  for (const auto& r : er.runs) {
    for (const auto& es : r.suites) {
      std::string id = std::string(es.suite->id);
      if (!es.available) {
        if (r.available) o += "  " + engine_pad(r.name, 15) + engine_pad(id, 12) + "n/a: " + es.reason + "\n";
        continue;
      }
      std::string status = es.error ? "ERROR: " + (es.check.error.empty() ? std::string("an operation failed") : es.check.error) : "ok";
      o += "  " + engine_pad(r.name, 15) + engine_pad(id, 12) + check_text(r, es) + " — " + status + "\n";
      for (const auto& op : es.ops)
        if (!op.error.empty()) o += "  " + engine_pad("", 27) + op.name + " failed: " + op.error + "\n";
      if (es.resolution_ns > 0) o += "  " + engine_pad("", 27) + "resolution of one estimate: " + format_ns(es.resolution_ns) + " (empty-request spread ÷ N)\n";
    }
  }
  for (const auto& r : er.runs)
    if (!r.available) o += "  " + engine_pad(r.name, 15) + "not measured: " + r.reason + "\n";
  return o;
}

std::string render_engines_json(const Report& rep) {
  ojson arr = ojson::array();
  if (!rep.engines) return arr.dump();
  for (const auto& r : rep.engines->runs) {
    ojson rj = {{"engine", r.name}, {"available", r.available}, {"version", r.version}, {"method", r.method}};
    if (!r.reason.empty()) rj["reason"] = r.reason;
    ojson sj = ojson::array();
    for (const auto& es : r.suites) {
      ojson x = {{"suite", es.suite->id}, {"available", es.available}};
      if (!es.reason.empty()) x["reason"] = es.reason;
      if (es.available) {
        x["error"] = es.error;
        x["check"] = {{"ok", es.check.ok},
                      {"engine_signed", es.check.engine_signed},
                      {"pqsig_accepted", es.check.pqsig_accepted},
                      {"pqsig_signed", es.check.pqsig_signed},
                      {"engine_accepted", es.check.engine_accepted},
                      {"tampered_rejected", es.check.tampered_rejected}};
        if (r.name == "pqsig") x["check"]["reference"] = true;
        if (!es.check.error.empty()) x["check"]["error"] = es.check.error;
        ojson ops = ojson::object();
        for (const auto& op : es.ops) {
          ojson oj = {{"n", op.stats.n},         {"median_ns", op.stats.median_ns}, {"p90_ns", op.stats.p90_ns},
                      {"p99_ns", op.stats.p99_ns}, {"min_ns", op.stats.min_ns},       {"max_ns", op.stats.max_ns},
                      {"batch", op.batch}};
          if (!op.error.empty()) oj["error"] = op.error;
          ops[op.name] = oj;
        }
        x["ops"] = ops;
        if (es.resolution_ns > 0) x["resolution_ns"] = es.resolution_ns;
        x["signature_bytes"] = es.signature_bytes;
        x["header_bytes"] = es.header_bytes;
        x["header_fits"] = es.header_bytes > 0 && es.header_bytes <= rep.workload.header_cap_bytes;
        ojson sv = ojson::array();
        for (const auto& v : es.surfaces)
          sv.push_back({{"surface", v.surface},
                        {"cpu_ms_median", v.cpu_ms_median},
                        {"cpu_ms_p90", v.cpu_ms_p90},
                        {"pct_budget_median", v.pct_budget_median},
                        {"verdict", verdict_word(v)}});
        x["surfaces"] = sv;
        if (es.ledger)
          x["ledger"] = {{"vu", es.ledger->vu},
                         {"sigs_per_block", es.ledger->sigs_per_block},
                         {"block_ms_one_core", es.ledger->block_ms_one_core},
                         {"block_ms_all_cores", es.ledger->block_ms_all_cores}};
      }
      sj.push_back(x);
    }
    rj["suites"] = sj;
    arr.push_back(rj);
  }
  return arr.dump();
}

std::string render_engines_html(const Report& rep) {
  if (!rep.engines) return "";
  const EngineReport& er = *rep.engines;
  const auto suites = run_suites(er);
  std::string h = "<section id=\"engines\"><h2>Engines <small>the same operations in the engine that will sign · median, log scale</small></h2>";
  // Legend.
  h += "<p>";
  for (const auto& r : er.runs)
    h += std::string("<span style=\"display:inline-block;margin-right:14px\"><span style=\"display:inline-block;width:11px;height:11px;background:") +
         engine_color(r.name) + ";border-radius:2px;margin-right:5px\"></span>" + html_esc(r.name) +
         (r.available ? "" : " <em>(not available)</em>") + "</span>";
  h += "</p>";
  // Grouped bars: one group per suite × operation (sign, verify), one bar per engine.
  double lo = 1e300, hi = 0;
  for (const auto& r : er.runs)
    for (const auto& es : r.suites)
      for (const char* op : {"sign", "verify"})
        if (const OpResult* x = !es.error ? es.op(op) : nullptr) lo = std::min(lo, x->stats.median_ns), hi = std::max(hi, x->stats.median_ns);
  if (hi > 0) {
    const double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi)) + (std::log10(hi) == std::ceil(std::log10(hi)) ? 1 : 0);
    const int label_w = 170, plot_w = 520, bar_h = 13, gap = 10;
    const int nengines = static_cast<int>(er.runs.size());
    int groups = 0;
    for (const auto* s : suites) {
      (void)s;
      groups += 2;
    }
    const int height = groups * (nengines * bar_h + gap) + 30;
    char b[512];
    std::snprintf(b, sizeof b, "<svg role=\"img\" aria-label=\"time per operation per engine\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" style=\"max-width:100%%;font:11px sans-serif\">",
                  label_w + plot_w + 130, height, label_w + plot_w + 130, height);
    h += b;
    auto xpos = [&](double ns) { return label_w + plot_w * (std::log10(ns) - l0) / (l1 - l0); };
    for (double e = l0; e <= l1; e += 1) {
      std::snprintf(b, sizeof b, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#666\">%s</text>",
                    xpos(std::pow(10, e)), xpos(std::pow(10, e)), height - 18, xpos(std::pow(10, e)), height - 4,
                    format_ns(std::pow(10, e)).c_str());
      h += b;
    }
    int y = 0;
    for (const auto* s : suites) {
      for (const char* op : {"sign", "verify"}) {
        std::snprintf(b, sizeof b, "<text x=\"0\" y=\"%d\" font-weight=\"600\">%s %s</text>", y + bar_h, html_esc(s->id).c_str(), op);
        h += b;
        for (const auto& r : er.runs) {
          const auto* es = suite_of(r, s);
          const OpResult* x = es && !es->error ? es->op(op) : nullptr;
          if (x) {
            const double w = std::max(1.0, xpos(x->stats.median_ns) - label_w);
            std::snprintf(b, sizeof b, "<rect class=\"engine-bar\" data-engine=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %s %s: %s</title></rect>"
                          "<text x=\"%.1f\" y=\"%d\" fill=\"#333\">%s %s</text>",
                          html_esc(r.name).c_str(), label_w, y + 1, w, bar_h - 2, engine_color(r.name), html_esc(r.name).c_str(),
                          html_esc(s->id).c_str(), op, format_ns(x->stats.median_ns).c_str(), label_w + w + 4, y + bar_h - 2,
                          format_ns(x->stats.median_ns).c_str(), html_esc(r.name).c_str());
          } else {
            std::snprintf(b, sizeof b, "<text x=\"%d\" y=\"%d\" fill=\"#999\">%s: %s</text>", label_w + 4, y + bar_h - 2,
                          html_esc(r.name).c_str(), missing_cell(es).c_str());
          }
          h += b;
          y += bar_h;
        }
        y += gap;
      }
    }
    h += "</svg>";
  }
  // Verdicts side by side.
  h += "<table><thead><tr><th>suite</th><th>surface</th>";
  for (const auto& r : er.runs) h += "<th>" + html_esc(r.name) + "</th>";
  h += "</tr></thead><tbody>";
  for (const auto* s : suites) {
    for (const auto& surf : rep.workload.surfaces) {
      h += "<tr><td>" + html_esc(s->id) + "</td><td>" + html_esc(surf.name) + "</td>";
      for (const auto& r : er.runs) {
        const auto* es = suite_of(r, s);
        const SurfaceVerdict* v = nullptr;
        if (es)
          for (const auto& x : es->surfaces)
            if (x.surface == surf.name) v = &x;
        if (v) {
          const std::string w = verdict_word(*v);
          h += "<td><div class=\"v " + w + "\"><b>" + html_esc(surface_cell(*v)) + "</b></div></td>";
        } else {
          h += "<td>" + missing_cell(es) + "</td>";
        }
      }
      h += "</tr>";
    }
  }
  h += "</tbody></table><ul>";
  for (const auto& r : er.runs) {
    if (!r.available) {
      h += "<li><b>" + html_esc(r.name) + "</b>: not measured — " + html_esc(r.reason) + "</li>";
      continue;
    }
    h += "<li><b>" + html_esc(r.name) + "</b> " + html_esc(r.version) + " — " + html_esc(r.method);
    for (const auto& es : r.suites) {
      if (!es.available) h += "<br>" + html_esc(es.suite->id) + ": n/a — " + html_esc(es.reason);
      else
        h += "<br>" + html_esc(es.suite->id) + ": " + html_esc(check_text(r, es)) +
             (es.error ? " — <b>ERROR</b> " + html_esc(es.check.error) : std::string(" — ok"));
    }
    h += "</li>";
  }
  h += "</ul></section>\n";
  return h;
}

}  // namespace pqsig::price
