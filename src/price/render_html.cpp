// `pqsig price --html`: one self-contained page (inline CSS and inline SVG, no script, no
// network): bar charts of time and bytes per suite, the surface verdicts, the ledger, the
// hybrids and the environment.
#include <algorithm>
#include <string>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "pqsig/price.hpp"
#include "price/html.hpp"
#include "pqsig/price_engines.hpp"

namespace pqsig::price {

namespace {

std::string html_fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string html_fmt(const char* f, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

std::string esc(std::string_view s) { return detail::html_escape(s); }

std::string html_ns(double ns) {
  std::string s = format_ns(ns);
  auto p = s.find(" us");
  if (p != std::string::npos) s.replace(p, 3, "&#8239;µs");
  else if ((p = s.find(' ')) != std::string::npos) s.replace(p, 1, "&#8239;");
  return s;
}


std::string html_ms(double v) {
  if (v < 0.1) return html_fmt("%.3f", v);
  if (v < 10) return html_fmt("%.2f", v);
  if (v < 1000) return html_fmt("%.1f", v);
  return html_fmt("%.0f", v);
}

struct Series {
  std::string name, cls;
};
struct Row {
  std::string label;
  bool available = true;
  std::string note;
  std::vector<double> value;    // per series (0 = none)
  std::vector<double> whisker;  // per series p90 (0 = none)
};

// Horizontal bar chart on a log10 axis. `unit(v)` formats a value for tick and bar labels.
std::string log_chart(const std::vector<Series>& series, const std::vector<Row>& rows, std::string (*unit)(double),
                      std::string (*tick)(double), const std::string& note, double marker = 0,
                      const std::string& marker_label = "") {
  double lo = 1e300, hi = 0;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.value.size(); ++i) {
      if (r.value[i] > 0) lo = std::min(lo, r.value[i]), hi = std::max(hi, std::max(r.value[i], r.whisker[i]));
    }
  if (marker > 0) lo = std::min(lo, marker), hi = std::max(hi, marker);
  if (hi <= 0) return "<p class=\"muted\">Nothing measured.</p>";
  const double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi * 1.0001));
  const double span = std::max(1.0, l1 - l0);
  const int left = 200, width = 700, right = 130, bar = 9, gap = 3, group_gap = 10, top = 34;
  const int ns = static_cast<int>(series.size());
  const int row_h = ns * bar + (ns - 1) * gap + group_gap;
  const int h = top + static_cast<int>(rows.size()) * row_h + 24;
  auto x = [&](double v) { return left + (std::log10(v) - l0) / span * width; };
  std::string s = html_fmt("<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">", left + width + right,
                      h, left + width + right, h);
  // legend
  int lx = left;
  for (const auto& se : series) {
    s += html_fmt("<rect x=\"%d\" y=\"6\" width=\"12\" height=\"12\" rx=\"2\" class=\"%s\"/>", lx, se.cls.c_str());
    s += html_fmt("<text x=\"%d\" y=\"16\" class=\"legend\">%s</text>", lx + 17, esc(se.name).c_str());
    lx += 30 + static_cast<int>(se.name.size()) * 7;
  }
  s += html_fmt("<text x=\"%d\" y=\"16\" class=\"legend muted\">%s</text>", lx + 10, esc(note).c_str());
  // grid
  for (double e = l0; e <= l1 + 1e-9; e += 1) {
    double v = std::pow(10.0, e);
    double gx = x(v);
    s += html_fmt("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>", gx, top - 6, gx, h - 20);
    s += html_fmt("<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s</text>", gx, h - 6, tick(v).c_str());
  }
  if (marker > 0) {
    double mx = x(marker);
    s += html_fmt("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"marker\"/>", mx, top - 8, mx, h - 20);
    s += html_fmt("<text x=\"%.1f\" y=\"%d\" class=\"marker-label\" text-anchor=\"middle\">%s</text>", mx, top - 11,
             esc(marker_label).c_str());
  }
  int y = top;
  for (const auto& r : rows) {
    const int mid = y + (row_h - group_gap) / 2;
    s += html_fmt("<text x=\"%d\" y=\"%d\" class=\"label%s\" text-anchor=\"end\">%s</text>", left - 10, mid + 4,
             r.available ? "" : " muted", esc(r.label).c_str());
    if (!r.available) {
      s += html_fmt("<text x=\"%d\" y=\"%d\" class=\"na\">%s</text>", left + 6, mid + 4, esc(r.note).c_str());
    } else {
      for (int i = 0; i < ns; ++i) {
        const int by = y + i * (bar + gap);
        const double v = r.value[i];
        if (v <= 0) continue;
        const double w = std::max(1.5, x(v) - left);
        s += html_fmt("<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"2\" class=\"%s\"><title>%s %s: %s</title></rect>",
                 left, by, w, bar, series[i].cls.c_str(), esc(r.label).c_str(), esc(series[i].name).c_str(),
                 unit(v).c_str());
        double end = left + w;
        if (r.whisker[i] > v) {
          const double wx = x(r.whisker[i]);
          s += html_fmt("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"whisker\"/>", end, by + bar / 2, wx,
                   by + bar / 2);
          s += html_fmt("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"whisker\"/>", wx, by + 1, wx, by + bar - 1);
          end = wx;
        }
        s += html_fmt("<text x=\"%.1f\" y=\"%d\" class=\"val\">%s</text>", end + 5, by + bar - 1, unit(v).c_str());
      }
    }
    y += row_h;
  }
  s += "</svg>";
  return s;
}

std::string unit_ns(double v) { return html_ns(v); }
std::string unit_bytes(double v) { return format_bytes(static_cast<std::size_t>(v)) + "&#8239;B"; }
std::string tick_bytes(double v) {
  if (v >= 1e6) return html_fmt("%.0f&#8239;MB", v / 1e6);
  if (v >= 1e3) return html_fmt("%.0f&#8239;kB", v / 1e3);
  return html_fmt("%.0f&#8239;B", v);
}

const char* kCss = R"CSS(
:root{--ink:#1c2230;--muted:#6b7385;--line:#e4e7ee;--bg:#f6f7fb;--card:#fff;--ok:#0f8a5f;--okbg:#e3f6ee;
--warn:#a15c00;--warnbg:#fff1d6;--bad:#b42318;--badbg:#fde7e5;--k:#b8bfd0;--s:#4f46e5;--v:#0ea5e9;--pk:#f59e0b}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--ink);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header{background:linear-gradient(120deg,#1e1b4b,#312e81 55%,#0c4a6e);color:#fff;padding:28px 40px 24px}
header h1{margin:0;font-size:26px;letter-spacing:-.01em}header h1 span{font-weight:400;opacity:.75}
header p{margin:6px 0 14px;opacity:.85;max-width:900px}
.chips{display:flex;flex-wrap:wrap;gap:8px}.chip{background:rgba(255,255,255,.12);border:1px solid rgba(255,255,255,.18);
border-radius:999px;padding:3px 11px;font-size:12.5px}
main{max-width:1180px;margin:0 auto;padding:22px 28px 40px}
section{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:18px 22px;margin:0 0 18px;
box-shadow:0 1px 2px rgba(16,24,40,.04)}
h2{font-size:17px;margin:0 0 4px}h2 small{font-weight:400;color:var(--muted);font-size:13px}
.lead{color:var(--muted);margin:0 0 12px;font-size:13px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin-bottom:18px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:14px 16px}
.card b{display:block;font-size:22px;letter-spacing:-.01em}.card span{color:var(--muted);font-size:12.5px}
table{border-collapse:collapse;width:100%;font-size:13px}
th{text-align:left;font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.03em;
border-bottom:1px solid var(--line);padding:6px 8px}
td{border-bottom:1px solid var(--line);padding:6px 8px;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}tr:last-child td{border-bottom:0}
td.id{font-weight:600;white-space:nowrap}
.v{border-radius:8px;padding:5px 8px;line-height:1.25}.v b{font-size:13.5px}.v small{display:block;font-size:11.5px;opacity:.85}
.fits{background:var(--okbg);color:var(--ok)}.tail{background:var(--warnbg);color:var(--warn)}.over{background:var(--badbg);color:var(--bad)}
.badge{display:inline-block;border-radius:6px;padding:1px 7px;font-weight:700;font-size:12px}
.na-row td{color:var(--muted)}.muted{color:var(--muted);fill:var(--muted)}
.banner{border-radius:10px;padding:10px 14px;margin:0 0 14px}.few{color:var(--warn);font-weight:700}
p.verdict{font-size:14.5px;margin:4px 0 0;max-width:1080px}.c-vp{fill:#7dd3fc}
pre.pred{white-space:pre-wrap;background:#f1f3f9;border-radius:8px;padding:10px 12px;font:12px ui-monospace,Menlo,Consolas,monospace;max-height:360px;overflow:auto}
.est{display:inline-block;background:var(--warnbg);color:var(--warn);border-radius:6px;padding:0 6px;font-size:11px;font-weight:700}
.meas{display:inline-block;background:var(--okbg);color:var(--ok);border-radius:6px;padding:0 6px;font-size:11px;font-weight:700}
svg.chart{max-width:100%;height:auto;display:block}
svg .label{font-size:12.5px;fill:var(--ink);font-weight:600}svg .legend{font-size:12px;fill:var(--ink)}
svg .tick{font-size:11px;fill:var(--muted)}svg .val{font-size:10.5px;fill:#404859}svg .na{font-size:11.5px;fill:var(--muted);font-style:italic}
svg .grid{stroke:var(--line);stroke-width:1}svg .whisker{stroke:#1c2230;stroke-width:1.2;opacity:.55}
svg .marker{stroke:var(--bad);stroke-width:1.5;stroke-dasharray:5 4}svg .marker-label{font-size:11.5px;fill:var(--bad);font-weight:700}
.c-k{fill:var(--k)}.c-s{fill:var(--s)}.c-v{fill:var(--v)}.c-pk{fill:var(--pk)}
dl{display:grid;grid-template-columns:190px 1fr;gap:4px 16px;margin:0;font-size:13px}dt{color:var(--muted)}dd{margin:0;word-break:break-word}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f1f3f9;border-radius:4px;padding:1px 4px}
footer{color:var(--muted);font-size:12px;text-align:center;padding:8px 0 30px}
)CSS";

std::string verdict_td(const SurfaceVerdict& v, double budget) {
  std::string cls = v.fits_mean && v.fits_p90 ? "fits" : (v.fits_mean ? "tail" : "over");
  std::string word = v.fits_mean && v.fits_p90 ? html_fmt("fits · %.0f%% of budget", v.pct_budget_mean)
                     : v.fits_mean            ? html_fmt("p90 over by %s ms", html_ms(v.over_ms_p90).c_str())
                                                : html_fmt("exceeds ×%.1f (+%s ms)", v.cpu_ms_mean / budget, html_ms(v.over_ms_mean).c_str());
  return "<td><div class=\"v " + cls + "\"><b>" + html_ms(v.cpu_ms_mean) + " ms</b><small>p90 " + html_ms(v.cpu_ms_p90) +
         " ms · " + word + "</small></div></td>";
}

}  // namespace

namespace {
// Days as minutes, hours, days or years.
std::string html_lifetime(double days) {
  if (!std::isfinite(days)) return "–";
  if (days < 1.0 / 24) return html_fmt("%.0f min", days * 24 * 60);
  if (days < 1) return html_fmt("%.1f h", days * 24);
  if (days < 730) return html_fmt("%.1f d", days);
  if (days / 365.25 < 1e6) return html_fmt("%.0f y", days / 365.25);
  return html_fmt("%.1e y", days / 365.25);
}

// The stateful hash-based suites: signing through the state with the reservation included, the
// extrapolated rows marked, and the key lifetime surface.
std::string html_stateful_section(const Report& rep) {
  const Workload& w = rep.workload;
  const StatefulPricing* any = nullptr;
  for (const auto& r : rep.suites)
    if (r.stateful) any = &*r.stateful;
  if (!any) return "";
  const std::string blk = std::to_string(any->block);
  std::string h = "<section id=\"stateful\"><h2>Stateful hash-based suites <small><span class=\"est\">STATEFUL</span> LMS/HSS · "
                  "XMSS: every signature spends a one-time index</small></h2><p class=\"lead\">Signing goes through the state "
                  "(a reservation of indices synced to disk before use, an fsynced audit log), never the stateless API. "
                  "<b>sign</b> = wall time per signature with the reservation (block " + blk +
                  ") and the log's fsync included; block 1 = one reservation per signature. A reservation (state file "
                  "write, fsync, rename, directory fsync in " + esc(any->state_dir) + ") costs " +
                  html_ns(any->reserve_1_ns) + ": " + html_ns(any->reserve_per_signature_ns(1)) +
                  " per signature with block 1, " + html_ns(any->reserve_per_signature_ns(any->block)) + " with block " +
                  blk + ". <span class=\"est\">EXTRAPOLATED</span> figures are not measured: a tree taller than 2^10 is "
                  "not built here (basis in the title).</p>";
  h += "<table><thead><tr><th>suite</th><th class=\"n\">h</th><th class=\"n\">signatures</th><th class=\"n\">signature</th>"
       "<th class=\"n\">signed request</th><th class=\"n\">sign (block " + blk + ")</th><th class=\"n\">sign (block 1)</th>"
       "<th class=\"n\">verify</th><th class=\"n\">keygen</th></tr></thead><tbody>";
  for (const auto& r : rep.suites) {
    if (!r.suite->stateful) continue;
    if (!r.available || !r.stateful) {
      h += "<tr class=\"na-row\"><td class=\"id\">" + esc(r.suite->id) + "</td><td colspan=\"8\">" + esc(r.note) + "</td></tr>";
      continue;
    }
    const StatefulPricing& p = *r.stateful;
    const auto mark = [&](const OpResult* op) {
      return op->extrapolated.empty() ? std::string()
                                      : " <span class=\"est\" title=\"" + esc(op->extrapolated) + "\">EXTRAPOLATED</span>";
    };
    const auto cell = [&](const char* name) -> std::string {
      const OpResult* op = r.op(name);
      return op ? html_ns(op->stats.mean_ns) + mark(op) : "–";
    };
    std::string block1 = "–";
    if (const OpResult* sg = r.op("sign"))
      block1 = html_ns(sg->stats.mean_ns - p.reserve_per_signature_ns(p.block) + p.reserve_per_signature_ns(1)) + mark(sg);
    const bool fits = r.sizes.request_headers <= w.header_cap_bytes;
    h += "<tr><td class=\"id\">" + esc(r.suite->id) + "</td><td class=\"n\">" + std::to_string(r.suite->params.hbs.height) +
         "</td><td class=\"n\">" + format_bytes(p.max_signatures) + "</td><td class=\"n\">" + format_bytes(r.sizes.output) +
         "</td><td class=\"n\">" + format_bytes(r.sizes.request_headers) + (fits ? " fits" : " <span class=\"over\">431</span>") +
         "</td><td class=\"n\">" + cell("sign") + "</td><td class=\"n\">" + block1 + "</td><td class=\"n\">" + cell("verify") +
         "</td><td class=\"n\">" + cell("keygen") + "</td></tr>";
  }
  h += "</tbody></table>";
  std::vector<const Surface*> rated;
  for (const auto& s : w.surfaces)
    if (s.requests_per_day > 0) rated.push_back(&s);
  if (rated.empty()) {
    h += "<p class=\"muted\">Key lifetime: no surface has <code>requests_per_day</code> in the workload.</p></section>\n";
    return h;
  }
  h += "<h2 style=\"margin-top:14px\">Key lifetime <small>2^h ÷ (signatures per request × requests a day), "
       "requests_per_day from the workload</small></h2><table><thead><tr><th>suite</th>";
  for (const auto* s : rated)
    h += "<th class=\"n\">" + esc(s->name) + html_fmt(" (%g × ", s->signatures_per_request) +
         format_bytes(static_cast<std::size_t>(s->requests_per_day)) + "/day)</th>";
  h += "<th class=\"n\">" + std::string(kAllSurfaces) + "</th></tr></thead><tbody>";
  for (const auto& v : rep.verdicts) {
    if (!v.result->suite->stateful || v.lifetimes.empty()) continue;
    h += "<tr><td class=\"id\">" + esc(v.result->suite->id) + "</td>";
    for (const auto& k : v.lifetimes) h += "<td class=\"n\">" + html_lifetime(k.days) + "</td>";
    h += "</tr>";
  }
  h += "</tbody></table></section>\n";
  return h;
}
}  // namespace

std::string render_html(const Report& rep) {
  const Workload& w = rep.workload;
  const Environment& e = rep.env;
  std::string h = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
                  "<title>pqsig price: " + esc(e.cpu_model) + "</title><style>" + kCss + "</style></head><body>\n";
  std::size_t avail = 0, msg = 0;
  for (const auto& r : rep.suites) {
    avail += r.available;
    if (!msg && r.message_bytes) msg = r.message_bytes;
  }
  h += "<header><h1>pqsig price <span>· what each suite costs on this machine</span></h1>";
  h += "<p>Per operation, per request against a " + html_ms(w.cpu_budget_ms) + " ms CPU budget, per header against a " +
       format_bytes(w.header_cap_bytes) + "-byte cap, and per block in Verify Units. Signing is timed over " +
       std::to_string(rep.options.distinct_messages) + " distinct " +
       (rep.options.message_size ? html_fmt("%zu-byte messages", rep.options.message_size)
                                 : html_fmt("Web Bot Auth signature bases (%zu B)", msg)) + ".</p><div class=\"chips\">";
  for (const std::string& c : {e.cpu_model, std::to_string(e.cores) + " cores", e.os, "pqsig " + e.version + " (" + e.commit + ")",
                               e.compiler + " " + e.build_type, e.date_utc, "mode: " + rep.mode,
                               html_fmt("%zu of %zu suites available", avail, rep.suites.size())})
    h += "<span class=\"chip\">" + esc(c) + "</span>";
  h += "</div></header><main>\n";

  // ---- the verdict, first
  if (e.busy)
    h += "<div class=\"banner over\"><b>The machine was busy</b> (" + esc(e.busy_reason) +
         "): medians and tails are inflated. Rerun on an idle machine, or with <code>--cpu-time</code>.</div>";
  if (rep.interrupted)
    h += html_fmt("<div class=\"banner tail\"><b>Interrupted</b> (Ctrl-C) after %zu of %zu suites: this report holds what was "
             "measured so far.</div>",
             rep.suites.size(), std::max(rep.suites_planned, rep.suites.size()));
  {
    std::string v = esc(verdict_paragraph(rep));
    if (v.rfind("Verdict", 0) == 0) v = "<b>Verdict</b>" + v.substr(7);
    h += "<section id=\"verdict\"><p class=\"verdict\">" + v + "</p></section>\n";
  }

  // ---- headline cards
  auto find = [&](std::string_view id) -> const SuiteResult* {
    for (const auto& r : rep.suites)
      if (r.suite->id == id) return &r;
    return nullptr;
  };
  h += "<div class=\"cards\">";
  auto card = [&](const std::string& big, const std::string& small) {
    h += "<div class=\"card\"><b>" + big + "</b><span>" + small + "</span></div>";
  };
  if (const auto* r = find(w.vu_reference); r && r->op("sign")) {
    card(html_ns(r->op("sign")->stats.median_ns), esc(w.vu_reference) + " sign, median (p90 " +
                                                     html_ns(r->op("sign")->stats.p90_ns) + ")");
    card(html_ns(r->op("verify") ? r->op("verify")->stats.median_ns : 0), esc(w.vu_reference) + " verify = 100 VU");
  }
  for (const auto& s : w.surfaces) {
    std::size_t fit = 0, total = 0;
    for (const auto& v : rep.verdicts)
      for (const auto& x : v.surfaces)
        if (x.surface == s.name) total++, fit += x.fits_p90;
    card(html_fmt("%zu / %zu", fit, total), esc(s.name) + html_fmt(" (%g signatures): suites within budget at p90", s.signatures_per_request));
  }
  {
    std::size_t fit = 0, total = 0;
    for (const auto& r : rep.suites)
      if (r.suite->cls != SuiteClass::kem) total++, fit += r.sizes.request_headers <= w.header_cap_bytes;
    card(html_fmt("%zu / %zu", fit, total), "signature suites whose request fits the " + format_bytes(w.header_cap_bytes) + " B header cap");
  }
  h += "</div>\n";

  // ---- surfaces
  h += "<section id=\"surfaces\"><h2>Surfaces <small>CPU per request: median, with p90</small></h2>";
  h += "<p class=\"lead\">Budget " + html_ms(w.cpu_budget_ms) + " ms per request · production CPU factor " + html_fmt("%g", w.production_cpu_factor) +
       "× · header cap " + format_bytes(w.header_cap_bytes) + " B. Green fits at p90, amber fits only at the median, red exceeds.</p>";
  h += "<table><thead><tr><th>suite</th>";
  for (const auto& s : w.surfaces) {
    h += "<th>" + esc(s.name) + html_fmt(" · %g sig", s.signatures_per_request);
    if (s.verifications_per_request > 0) h += html_fmt(", %g ver", s.verifications_per_request);
    h += "</th>";
  }
  h += "<th>headers</th></tr></thead><tbody>";
  for (const auto& v : rep.verdicts) {
    const SuiteResult& r = *v.result;
    if (r.suite->cls == SuiteClass::kem) continue;
    const bool hdr_ok = r.sizes.request_headers <= w.header_cap_bytes;
    std::string badge = r.sizes.request_headers == 0
                            ? std::string("<small class=\"muted\">size unknown</small>")
                            : "<span class=\"badge " + std::string(hdr_ok ? "fits" : "over") + "\">" +
                                  (hdr_ok ? "fits" : "431") + "</span><br><small class=\"muted\">" +
                                  format_bytes(r.sizes.request_headers) + " B</small>";
    if (!r.available || v.surfaces.empty()) {
      h += "<tr class=\"na-row\"><td class=\"id\">" + esc(r.suite->id) + "</td><td colspan=\"" +
           std::to_string(w.surfaces.size()) + "\">not available in this build</td><td>" + badge + "</td></tr>";
      continue;
    }
    h += "<tr><td class=\"id\">" + esc(r.suite->id) + "</td>";
    for (const auto& s : v.surfaces) h += verdict_td(s, w.cpu_budget_ms);
    h += "<td>" + badge + "</td></tr>";
  }
  h += "</tbody></table></section>\n";

  // ---- time chart
  std::vector<Row> sig_rows, kem_rows, size_rows;
  for (const auto& r : rep.suites) {
    Row row;
    row.label = std::string(r.suite->id);
    row.available = r.available && !r.ops.empty();
    row.note = r.available ? r.note : "not available in this build";
    const bool kem = r.suite->cls == SuiteClass::kem;
    static constexpr const char* kSigOps[] = {"keygen", "sign", "verify", "verify_prepared"};
    static constexpr const char* kKemOps[] = {"keygen", "encaps", "decaps", ""};
    for (const char* op : kem ? kKemOps : kSigOps) {
      if (!*op) continue;
      const OpResult* o = r.op(op);
      row.value.push_back(o ? o->stats.median_ns : 0);
      row.whisker.push_back(o ? o->stats.p90_ns : 0);
    }
    (kem ? kem_rows : sig_rows).push_back(row);
    if (!kem) {
      Row z;
      z.label = row.label;
      z.value = {static_cast<double>(r.sizes.sf_bytes), static_cast<double>(r.sizes.public_key)};
      z.whisker = {0, 0};
      z.available = z.value[0] > 0;
      z.note = "variable size";
      size_rows.push_back(z);
    }
  }
  h += "<section id=\"time\"><h2>Time per operation <small>one core, median with p90 whisker</small></h2>"
       "<p class=\"lead\">The tail matters: a rejection loop (ML-DSA) makes one signature's cost an accident, so the "
       "p90 is drawn beside every median.</p>";
  h += log_chart({{"keygen", "c-k"}, {"sign (cold)", "c-s"}, {"verify (cold)", "c-v"}, {"verify (prepared)", "c-vp"}}, sig_rows, unit_ns,
                 unit_ns, "log scale · whisker = p90");
  if (!kem_rows.empty()) {
    h += "<h2 style=\"margin-top:18px\">Key exchange <small>keygen · encaps · decaps, cold (from the encoded keys)</small></h2>";
    h += log_chart({{"keygen", "c-k"}, {"encaps (cold)", "c-s"}, {"decaps (cold)", "c-v"}}, kem_rows, unit_ns, unit_ns, "log scale · whisker = p90");
  }
  h += "</section>\n";

  // ---- bytes chart
  h += "<section id=\"bytes\"><h2>Bytes on the wire <small>signature as a Structured-Field byte sequence, and the public key</small></h2>"
       "<p class=\"lead\">Sizes are the permanent cost: speeds come down with better code, bytes are fixed by the standard. "
       "A signed request whose headers pass the cap is answered with <b>431</b>.</p>";
  h += log_chart({{"signature (SF :base64:)", "c-s"}, {"public key", "c-pk"}}, size_rows, unit_bytes, tick_bytes,
                 "log scale", static_cast<double>(w.header_cap_bytes), format_bytes(w.header_cap_bytes) + " B header cap");
  h += "</section>\n";

  // ---- operations table
  bool few_samples = false;
  h += "<section id=\"operations\"><h2>All operations <small>median · p90 · p99 · p90/median · ops/s/core · samples</small></h2><table><thead><tr>"
       "<th>suite</th><th>op</th><th class=\"n\">median</th><th class=\"n\">p90</th><th class=\"n\">p99</th>"
       "<th class=\"n\">p90/med</th><th class=\"n\">ops/s/core</th><th class=\"n\">samples × batch</th></tr></thead><tbody>";
  for (const auto& r : rep.suites) {
    if (!r.available) {
      h += "<tr class=\"na-row\"><td class=\"id\">" + esc(r.suite->id) + "</td><td colspan=\"7\">" + esc(r.note) + "</td></tr>";
      continue;
    }
    bool first = true;
    for (const auto& op : r.ops) {
      h += "<tr><td class=\"id\">" + (first ? esc(r.suite->id) : std::string()) + "</td><td>" + esc(op.name) +
           (op.extrapolated.empty() ? std::string()
                                    : " <span class=\"est\" title=\"" + esc(op.extrapolated) + "\">EXTRAPOLATED</span>") +
           "</td>";
      first = false;
      if (!op.error.empty()) {
        h += "<td colspan=\"6\" class=\"over\">failed: " + esc(op.error) + "</td></tr>";
        continue;
      }
      const Stats& s = op.stats;
      const std::string star = s.tail_reliable() ? "" : "<sup class=\"few\" title=\"fewer than 20 samples\">*</sup>";
      if (!s.tail_reliable()) few_samples = true;
      h += "<td class=\"n\">" + html_ns(s.median_ns) + "</td><td class=\"n\">" + html_ns(s.p90_ns) + star +
           "</td><td class=\"n\">" + html_ns(s.p99_ns) + star + "</td><td class=\"n\">" + html_fmt("%.2f", s.spread()) + "</td><td class=\"n\">" +
           format_rate(s.per_second()) + "</td><td class=\"n\">" +
           format_bytes(s.n) + (op.batch > 1 ? " × " + format_bytes(op.batch) : std::string()) + "</td></tr>";
    }
  }
  h += "</tbody></table>";
  if (few_samples)
    h += html_fmt("<p class=\"lead\"><sup class=\"few\">*</sup> p90 / p99 from fewer than %zu samples: indicative only (with so few "
             "samples the tail is the slowest one or two). Raise <code>--budget-ms</code> or <code>--min-samples</code>.</p>",
             Stats::kMinTailSamples);
  h += "</section>\n";

  // ---- sizes table
  h += "<section id=\"sizes\"><h2>Sizes <small>bytes</small></h2><table><thead><tr><th>suite</th><th class=\"n\">public key</th>"
       "<th class=\"n\">private (seed)</th><th class=\"n\">expanded</th><th class=\"n\">signature / ct</th><th class=\"n\">SF :b64:</th>"
       "<th class=\"n\">+ headers</th><th class=\"n\">signed request</th><th>source</th></tr></thead><tbody>";
  for (const auto& r : rep.suites) {
    const Sizes& z = r.sizes;
    const bool kem = r.suite->cls == SuiteClass::kem;
    auto n = [](std::size_t v) { return v ? format_bytes(v) : std::string("–"); };
    h += std::string("<tr") + (r.available ? "" : " class=\"na-row\"") + "><td class=\"id\">" + esc(r.suite->id) +
         (r.suite->stateful ? " <span class=\"est\">STATEFUL</span>" : "") + "</td><td class=\"n\">" + n(z.public_key) + "</td><td class=\"n\">" + n(z.private_key) + "</td><td class=\"n\">" +
         n(z.expanded_key) + "</td><td class=\"n\">" + n(z.output) + "</td><td class=\"n\">" + (kem ? "–" : n(z.sf_bytes)) +
         "</td><td class=\"n\">" + (kem ? "–" : n(z.signature_headers)) + "</td><td class=\"n\">" +
         (kem ? "–" : n(z.request_headers)) + "</td><td>" + (r.available ? "measured" : "registry") + "</td></tr>";
  }
  h += "</tbody></table></section>\n";

  // ---- ledger
  h += "<section id=\"ledger\"><h2>Ledger <small>Verify Units and the worst-case block</small></h2>";
  h += "<p class=\"lead\">VU = ceil(100 × median verify / median verify of " + esc(w.vu_reference) + "). A block of " +
       format_bytes(w.block_budget_vu) + " VU filled with one suite; time on one core and spread over all " +
       std::to_string(e.cores) + " cores. Dual verification (two independent verifiers, enforce): ";
  {
    bool measured = false, estimated = false;
    for (const auto& v : rep.verdicts)
      if (v.ledger) (v.ledger->dual_estimated ? estimated : measured) = true;
    if (measured)
      h += "<span class=\"meas\">MEASURED</span> with pqsig + liboqs (dual enforce, keys cached) where liboqs has the suite";
    if (measured && estimated) h += "; ";
    if (estimated)
      h += std::string(measured ? "elsewhere " : "") +
           "<span class=\"est\">EST</span> = 2 × verify, an estimate (no second verifier for it in this build)";
    h += ".</p>";
  }
  if (rep.reference_verify_ns <= 0) {
    h += "<p class=\"muted\">The reference suite " + esc(w.vu_reference) + " was not measured in this run.</p>";
  } else {
    h += "<table><thead><tr><th>suite</th><th class=\"n\">verify</th><th class=\"n\">VU</th><th class=\"n\">VU dual</th>"
         "<th class=\"n\">signatures / block</th><th class=\"n\">block, 1 core</th><th class=\"n\">block, " + std::to_string(e.cores) +
         " cores</th><th class=\"n\">dual, 1 core</th><th class=\"n\">dual, " + std::to_string(e.cores) +
         " cores</th></tr></thead><tbody>";
    for (const auto& v : rep.verdicts) {
      const SuiteResult& r = *v.result;
      if (r.suite->cls != SuiteClass::signature) continue;
      if (!v.ledger) {
        h += "<tr class=\"na-row\"><td class=\"id\">" + esc(r.suite->id) + "</td><td colspan=\"8\">not available</td></tr>";
        continue;
      }
      const LedgerRow& l = *v.ledger;
      // Each dual figure says what it is: measured with a second verifier, or 2 × verify.
      const std::string tag = l.dual_estimated ? " <span class=\"est\">EST</span>" : " <span class=\"meas\">MEASURED</span>";
      h += "<tr><td class=\"id\">" + esc(r.suite->id) + "</td><td class=\"n\">" + html_ns(r.op("verify")->stats.median_ns) +
           "</td><td class=\"n\"><b>" + format_bytes(l.vu) + "</b></td><td class=\"n\">" + format_bytes(l.vu_dual) + tag +
           "</td><td class=\"n\">" + format_bytes(l.sigs_per_block) + "</td><td class=\"n\">" + html_ms(l.block_ms_one_core) +
           " ms</td><td class=\"n\">" + html_ms(l.block_ms_all_cores) + " ms</td><td class=\"n\">" + html_ms(l.block_ms_dual_one_core) +
           " ms" + tag + "</td><td class=\"n\">" + html_ms(l.block_ms_dual_all_cores) + " ms" + tag + "</td></tr>";
    }
    h += "</tbody></table>";
  }
  h += "</section>\n";

  h += html_stateful_section(rep);

  // ---- hybrids
  h += "<section id=\"hybrids\"><h2>Hybrids <small>classical alone → classical + post-quantum</small></h2>"
       "<p class=\"lead\">Pairs are two signatures over the same base (two labels, as a crawler ships them); composites are "
       "one registry suite. Bytes added per signature and per embedded public key; verifications per second on one core.</p>";
  if (rep.hybrids.empty()) {
    h += "<p class=\"muted\">No hybrid rows: their components were not selected in this run.</p>";
  } else {
    h += "<table><thead><tr><th>hybrid</th><th class=\"n\">signature</th><th class=\"n\">+ per signature</th><th class=\"n\">public key</th>"
         "<th class=\"n\">+ per public key</th><th class=\"n\">header bytes</th><th class=\"n\">verify/s/core before → after</th></tr></thead><tbody>";
    for (const auto& x : rep.hybrids) {
      auto plus = [](std::size_t a, std::size_t b) { return "+" + format_bytes(b > a ? b - a : 0); };
      h += std::string("<tr") + (x.available ? "" : " class=\"na-row\"") + "><td class=\"id\">" + esc(x.name) +
           (x.composite ? " <small class=\"muted\">composite</small>" : "") + "</td><td class=\"n\">" +
           format_bytes(x.classical_sig) + " → " + format_bytes(x.hybrid_sig) + "</td><td class=\"n\"><b>" +
           plus(x.classical_sig, x.hybrid_sig) + "</b></td><td class=\"n\">" + format_bytes(x.classical_pk) + " → " +
           format_bytes(x.hybrid_pk) + "</td><td class=\"n\"><b>" + plus(x.classical_pk, x.hybrid_pk) + "</b></td><td class=\"n\">" +
           format_bytes(x.classical_header) + " → " + format_bytes(x.hybrid_header) + "</td><td class=\"n\">" +
           (x.available ? format_rate(x.verifies_per_s_before) + " → " + format_rate(x.verifies_per_s_after) +
                              html_fmt(" (%.0f%%)", 100.0 * x.verifies_per_s_after / x.verifies_per_s_before)
                        : "not available (" + esc(x.note) + ")") +
           "</td></tr>";
    }
    h += "</tbody></table>";
  }
  h += "</section>\n";

  // ---- throughput (--multi N)
  if (rep.multi_threads > 0) {
    h += html_fmt("<section id=\"throughput\"><h2>Throughput on %u cores <small>--multi %u · one thread per core, each with its own "
             "keys · ops/s summed</small></h2><p class=\"lead\">Scaling = ops/s on %u cores ÷ ops/s on one core, measured the same "
             "way one after the other; ideal %u.00.</p>",
             rep.multi_threads, rep.multi_threads, rep.multi_threads, rep.multi_threads);
    h += html_fmt("<table><thead><tr><th>suite</th><th>op</th><th class=\"n\">1 core</th><th class=\"n\">%u cores</th>"
             "<th class=\"n\">scaling</th></tr></thead><tbody>",
             rep.multi_threads);
    for (const auto& [s, rows] : rep.throughput) {
      bool first = true;
      for (const auto& row : rows) {
        h += "<tr><td class=\"id\">" + (first ? esc(s->id) : std::string()) + "</td><td>" + esc(row.op) + "</td>";
        first = false;
        if (!row.error.empty()) {
          h += "<td colspan=\"3\" class=\"over\">failed: " + esc(row.error) + "</td></tr>";
          continue;
        }
        h += "<td class=\"n\">" + format_rate(row.ops_per_s_1) + "</td><td class=\"n\">" + format_rate(row.ops_per_s_n) +
             "</td><td class=\"n\"><b>" + (row.scaling() > 0 ? html_fmt("×%.2f", row.scaling()) : std::string("–")) +
             "</b></td></tr>";
      }
    }
    h += "</tbody></table>";
    if (rep.multi_threads > e.cores)
      h += html_fmt("<p class=\"lead\">%u threads on %u cores: scaling beyond %u is not possible here.</p>", rep.multi_threads,
               e.cores, e.cores);
    if (e.busy)
      h += "<p class=\"lead\"><b>The machine was busy:</b> these rates are the share of the CPU this run got (wall time), "
           "not what the machine can do; the scaling is not meaningful until it is idle.</p>";
    h += "</section>\n";
  }

  // ---- prediction (--predict FILE)
  if (rep.prediction) {
    const Prediction& p = *rep.prediction;
    std::size_t flips = 0, verdicts = 0;
    for (const auto& r : rep.review)
      if (r.is_verdict && r.measured) ++verdicts, flips += r.flipped;
    h += "<section id=\"prediction\"><h2>Prediction review <small>" + esc(p.source) +
         (p.file_mtime_utc.empty() ? "" : " · written " + esc(p.file_mtime_utc)) + "</small></h2>";
    h += html_fmt("<p class=\"lead\">The prediction written before the run, against what it measured. Miss = measured ÷ predicted. "
             "%zu of %zu verdicts flipped.</p>", flips, verdicts);
    h += "<table><thead><tr><th>suite</th><th>item</th><th class=\"n\">predicted</th><th class=\"n\">measured</th>"
         "<th class=\"n\">miss</th></tr></thead><tbody>";
    for (const auto& r : rep.review) {
      h += "<tr><td class=\"id\">" + esc(r.suite) + "</td><td>" + esc(r.item) + "</td>";
      if (!r.measured) {
        h += "<td class=\"n\">" + (r.is_verdict ? esc(r.predicted_verdict) : html_ns(r.predicted_ns)) +
             "</td><td colspan=\"2\" class=\"muted\">not measured in this run</td></tr>";
      } else if (r.is_verdict) {
        h += "<td class=\"n\">" + esc(r.predicted_verdict) + "</td><td class=\"n\">" + esc(r.measured_verdict) +
             "</td><td class=\"n\"><span class=\"badge " + (r.flipped ? "over\">flipped" : "fits\">held") + "</span></td></tr>";
      } else {
        const bool ok = r.ratio >= 0.8 && r.ratio <= 1.25;
        h += "<td class=\"n\">" + html_ns(r.predicted_ns) + "</td><td class=\"n\">" + html_ns(r.measured_ns) +
             "</td><td class=\"n\"><span class=\"badge " + (ok ? "fits" : "tail") + "\">" + html_fmt("×%.2f", r.ratio) +
             "</span></td></tr>";
      }
    }
    h += "</tbody></table><h2 style=\"margin-top:14px\">The prediction file, unchanged</h2><pre class=\"pred\">" + esc(p.text) +
         "</pre></section>\n";
  }

  h += render_engines_html(rep);  // --engine: grouped bars per engine

  // ---- environment
  h += "<section id=\"environment\"><h2>Environment</h2><dl>";
  auto dd = [&](const char* k, const std::string& v) { h += std::string("<dt>") + k + "</dt><dd>" + esc(v) + "</dd>"; };
  dd("CPU", e.cpu_model);
  dd("cores", std::to_string(e.cores));
  dd("OS", e.os);
  dd("governor", e.governor);
  dd("compiler", e.compiler);
  dd("flags", e.cxx_flags.empty() ? "(none)" : e.cxx_flags);
  dd("build type", e.build_type);
  dd("pqsig", e.version + " (commit " + e.commit + ")");
  dd("date (UTC)", e.date_utc);
  if (e.load_before[0] >= 0)
    dd("load average", html_fmt("before %.2f / %.2f / %.2f, after %.2f / %.2f / %.2f (1 / 5 / 15 min)", e.load_before[0],
                           e.load_before[1], e.load_before[2], e.load_after[0], e.load_after[1], e.load_after[2]));
  if (e.others_cpu_pct >= 0) dd("other processes", html_fmt("%.0f%% of the machine during the run", e.others_cpu_pct));
  dd("machine busy", e.busy ? "yes: " + e.busy_reason : "no");
  dd("run", rep.mode + html_fmt(": warm-up %.0f ms, ≥ %zu samples and %.0f ms per operation; took %.1f s", rep.options.warmup_ms,
                           rep.options.min_samples, rep.options.budget_ms_per_op, rep.wall_seconds));
  std::string flags;
  for (const char* f : {"avx2", "avx512f", "avx512vl", "avx512_vbmi2", "bmi2", "adx", "sha_ni", "aes", "pclmulqdq", "neon", "asimd"})
    if ((" " + e.cpu_flags + " ").find(std::string(" ") + f + " ") != std::string::npos) flags += std::string(flags.empty() ? "" : " ") + f;
  dd("CPU features", flags.empty() ? "(none of avx2 / avx512f / bmi2 / adx / sha_ni / aes)" : flags);
  h += "</dl></section>\n</main><footer>Generated by <code>pqsig price</code> · self-contained: no scripts, no network</footer></body></html>\n";
  return h;
}

namespace detail {
std::string html_escape(std::string_view s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}
}  // namespace detail

}  // namespace pqsig::price
