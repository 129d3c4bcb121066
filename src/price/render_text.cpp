// `pqsig price` terminal report.
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "pqsig/price.hpp"

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

std::string pad(std::string s, std::size_t w, bool right = false) {
  // width in code points (the report uses a few multi-byte characters)
  std::size_t cps = 0;
  for (unsigned char c : s) cps += (c & 0xC0) != 0x80;
  if (cps >= w) return s + " ";
  std::string sp(w - cps, ' ');
  return right ? sp + s : s + sp;
}

std::string ms(double v) {
  if (v < 0.1) return fmt("%.3f", v);
  if (v < 10) return fmt("%.2f", v);
  if (v < 1000) return fmt("%.1f", v);
  return fmt("%.0f", v);
}

std::string rate(double per_s) {
  if (per_s <= 0) return "-";
  if (per_s >= 1e6) return fmt("%.2fM", per_s / 1e6);
  if (per_s >= 1e4) return fmt("%.0fk", per_s / 1e3);
  if (per_s >= 100) return fmt("%.0f", per_s);
  return fmt("%.2f", per_s);
}

std::string verdict_cell(const SurfaceVerdict& v, double budget) {
  std::string s = ms(v.cpu_ms_median) + " (" + ms(v.cpu_ms_p90) + ") ms ";
  if (v.fits_median && v.fits_p90) s += fmt("%.0f%% fits", v.pct_budget_median);
  else if (v.fits_median) s += fmt("%.0f%% p90 OVER", v.pct_budget_median);
  else s += fmt("OVER x%.1f", v.cpu_ms_median / budget);
  return s;
}

}  // namespace

std::string render_text(const Report& rep) {
  const Workload& w = rep.workload;
  const Environment& e = rep.env;
  std::string o;
  o += "pqsig price: what each suite costs on this machine, per operation, per request, per block, per header\n";
  o += "  machine  " + e.cpu_model + ", " + std::to_string(e.cores) + " cores, " + e.os + ", governor " + e.governor + "\n";
  o += "  build    pqsig " + e.version + " (" + e.commit + "), " + e.compiler + ", " + e.build_type + "\n";
  std::size_t msg = 0;
  for (const auto& r : rep.suites)
    if (r.message_bytes) { msg = r.message_bytes; break; }
  o += fmt("  run      %s: warm-up, then >= %zu samples and %.0f ms per operation; signing over %zu distinct messages; %s\n",
           rep.mode.c_str(), rep.options.min_samples, rep.options.budget_ms_per_op, rep.options.distinct_messages,
           rep.options.thread_cpu_time ? "thread CPU time" : "wall time");
  o += "  message  " +
       (rep.options.message_size ? fmt("%zu random bytes", rep.options.message_size)
                                 : fmt("the Web Bot Auth signature base of a sample request (%s B)", format_bytes(msg).c_str())) +
       fmt("; took %.1f s\n", rep.wall_seconds);

  // ---- time
  o += "\nTime per operation, one core (median, p90, p99; p90/med = tail; ops/s/core at the median)\n";
  o += pad("suite", 24) + pad("op", 8) + pad("median", 11, true) + pad("p90", 11, true) + pad("p99", 11, true) +
       pad("p90/med", 8, true) + pad("ops/s/core", 11, true) + pad("n", 7, true) + "\n";
  for (const auto& r : rep.suites) {
    std::string id(r.suite->id);
    if (!r.available) {
      o += pad(id, 24) + "not available: " + r.note + "\n";
      continue;
    }
    bool first = true;
    for (const auto& op : r.ops) {
      std::string name = first ? id : "";
      first = false;
      if (!op.error.empty()) {
        o += pad(name, 24) + pad(op.name, 8) + "FAILED: " + op.error + "\n";
        continue;
      }
      const Stats& s = op.stats;
      o += pad(name, 24) + pad(op.name, 8) + pad(format_ns(s.median_ns), 11, true) + pad(format_ns(s.p90_ns), 11, true) +
           pad(format_ns(s.p99_ns), 11, true) + pad(fmt("%.2f", s.spread()), 8, true) +
           pad(rate(s.per_second()), 11, true) + pad(std::to_string(s.n * op.batch), 7, true) + "\n";
    }
  }

  // ---- sizes
  o += fmt("\nSizes in bytes (SF = signature as a Structured-Field byte sequence; +hdr = Signature + Signature-Input lines;\n"
           "request = the whole signed request's header section, against the %s B cap)\n",
           format_bytes(w.header_cap_bytes).c_str());
  o += pad("suite", 24) + pad("pk", 7, true) + pad("priv", 7, true) + pad("expanded", 9, true) + pad("sig/ct", 8, true) +
       pad("SF", 8, true) + pad("+hdr", 8, true) + pad("request", 9, true) + "  verdict\n";
  for (const auto& r : rep.suites) {
    const Sizes& z = r.sizes;
    bool kem = r.suite->cls == SuiteClass::kem;
    auto n = [](std::size_t v) { return v ? format_bytes(v) : std::string("-"); };
    std::string verdict = kem ? "(KEM)" : (z.request_headers <= w.header_cap_bytes ? "fits" : "431 (over by " +
                                                                                                  format_bytes(z.request_headers - w.header_cap_bytes) + ")");
    if (!r.available) verdict += "  [registry sizes; not available]";
    o += pad(std::string(r.suite->id), 24) + pad(n(z.public_key), 7, true) + pad(n(z.private_key), 7, true) +
         pad(n(z.expanded_key), 9, true) + pad(n(z.output), 8, true) + pad(kem ? "-" : n(z.sf_bytes), 8, true) +
         pad(kem ? "-" : n(z.signature_headers), 8, true) + pad(kem ? "-" : n(z.request_headers), 9, true) + "  " +
         verdict + "\n";
  }

  // ---- surfaces
  o += fmt("\nSurfaces: CPU per request at the median (and p90), budget %s ms, production CPU factor %gx\n",
           ms(w.cpu_budget_ms).c_str(), w.production_cpu_factor);
  std::string hdr = pad("suite", 24);
  for (const auto& s : w.surfaces) {
    std::string lab = s.name + fmt(" (%g sig", s.signatures_per_request);
    if (s.verifications_per_request > 0) lab += fmt(", %g ver", s.verifications_per_request);
    hdr += pad(lab + ")", 31);
  }
  o += hdr + "headers\n";
  for (const auto& v : rep.verdicts) {
    const SuiteResult& r = *v.result;
    if (r.suite->cls == SuiteClass::kem) continue;
    std::string line = pad(std::string(r.suite->id), 24);
    if (!r.available || v.surfaces.empty()) {
      o += line + "not available\n";
      continue;
    }
    for (const auto& s : v.surfaces) line += pad(verdict_cell(s, w.cpu_budget_ms), 31);
    line += v.surfaces.front().header_fits ? "fit" : "431";
    o += line + "\n";
  }

  // ---- ledger
  o += fmt("\nLedger: VU = ceil(100 x median verify / median verify of %s); block budget %s VU; %u cores\n",
           w.vu_reference.c_str(), format_bytes(w.block_budget_vu).c_str(), e.cores);
  if (rep.reference_verify_ns <= 0) {
    o += "  (the reference suite " + w.vu_reference + " was not measured: no Verify Units)\n";
  } else {
    o += pad("suite", 24) + pad("verify", 10, true) + pad("VU", 7, true) + pad("VU dual*", 9, true) +
         pad("sigs/block", 11, true) + pad("block 1 core", 13, true) + pad(fmt("%u cores", e.cores), 10, true) +
         pad("dual* 1 core", 13, true) + pad(fmt("dual* %u cores", e.cores), 15, true) + "\n";
    for (const auto& v : rep.verdicts) {
      const SuiteResult& r = *v.result;
      if (r.suite->cls != SuiteClass::signature) continue;
      if (!v.ledger) {
        o += pad(std::string(r.suite->id), 24) + "not available\n";
        continue;
      }
      const LedgerRow& l = *v.ledger;
      o += pad(std::string(r.suite->id), 24) + pad(format_ns(r.op("verify")->stats.median_ns), 10, true) +
           pad(format_bytes(l.vu), 7, true) + pad(format_bytes(l.vu_dual), 9, true) +
           pad(format_bytes(l.sigs_per_block), 11, true) + pad(ms(l.block_ms_one_core) + " ms", 13, true) +
           pad(ms(l.block_ms_all_cores) + " ms", 10, true) + pad(ms(l.block_ms_dual_one_core) + " ms", 13, true) +
           pad(ms(l.block_ms_dual_all_cores) + " ms", 15, true) + "\n";
    }
    bool measured = false;
    for (const auto& v : rep.verdicts) measured = measured || (v.ledger && !v.ledger->dual_estimated);
    o += measured ? "  * dual = measured (pqsig + liboqs, dual enforce) where liboqs has the suite; else 2 x verify, an ESTIMATE\n"
                  : "  * dual = 2 x verify: an ESTIMATE until a second independent verifier exists\n";
  }

  // ---- hybrids
  if (!rep.hybrids.empty()) {
    o += "\nHybrids: classical alone -> classical + PQ (pairs = two labels over one base; composites = one signature)\n";
    o += pad("hybrid", 26) + pad("sig bytes", 22) + pad("pk bytes", 23) + pad("header bytes", 24) +
         "verify/s/core\n";
    for (const auto& h : rep.hybrids) {
      std::string line = pad(h.name, 26);
      line += pad(format_bytes(h.classical_sig) + " -> " + format_bytes(h.hybrid_sig) + " (+" +
                      format_bytes(h.hybrid_sig - std::min(h.hybrid_sig, h.classical_sig)) + ")", 22);
      line += pad(format_bytes(h.classical_pk) + " -> " + format_bytes(h.hybrid_pk) + " (+" +
                      format_bytes(h.hybrid_pk - std::min(h.hybrid_pk, h.classical_pk)) + ")", 23);
      line += pad(format_bytes(h.classical_header) + " -> " + format_bytes(h.hybrid_header) + " (+" +
                      format_bytes(h.hybrid_header - std::min(h.hybrid_header, h.classical_header)) + ")", 24);
      if (h.available)
        line += rate(h.verifies_per_s_before) + " -> " + rate(h.verifies_per_s_after) +
                fmt(" (%.0f%%)", 100.0 * h.verifies_per_s_after / h.verifies_per_s_before);
      else
        line += "not available (" + h.note + ")";
      o += line + "\n";
    }
  }
  return o;
}

}  // namespace pqsig::price
