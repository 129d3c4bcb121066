// `pqsig price` verdicts: CPU per request against a budget, the header cap (431), Verify Units
// and the worst-case block estimate. Pure arithmetic, tested on known figures.
#include <cmath>

#include "pqsig/ledger.hpp"
#include "pqsig/price.hpp"

namespace pqsig::price {

SurfaceVerdict evaluate_surface(const Surface& s, const Workload& w, const OpFigures& sign, const OpFigures& verify,
                                std::size_t header_bytes, std::string figure) {
  SurfaceVerdict v;
  v.surface = s.name;
  v.figure = std::move(figure);
  const double f = w.production_cpu_factor;
  const auto per_request = [&](double sign_ns, double verify_ns) {
    return f * (s.signatures_per_request * sign_ns + s.verifications_per_request * verify_ns) / 1e6;
  };
  v.cpu_ms_mean = per_request(sign.mean_ns, verify.mean_ns);
  v.cpu_ms_median = per_request(sign.median_ns, verify.median_ns);
  v.cpu_ms_p90 = per_request(sign.p90_ns, verify.p90_ns);
  if (w.cpu_budget_ms > 0) {
    v.pct_budget_mean = 100.0 * v.cpu_ms_mean / w.cpu_budget_ms;
    v.pct_budget_median = 100.0 * v.cpu_ms_median / w.cpu_budget_ms;
    v.pct_budget_p90 = 100.0 * v.cpu_ms_p90 / w.cpu_budget_ms;
  }
  v.fits_mean = v.cpu_ms_mean <= w.cpu_budget_ms;
  v.fits_median = v.cpu_ms_median <= w.cpu_budget_ms;
  v.fits_p90 = v.cpu_ms_p90 <= w.cpu_budget_ms;
  v.over_ms_mean = v.fits_mean ? 0.0 : v.cpu_ms_mean - w.cpu_budget_ms;
  v.over_ms_median = v.fits_median ? 0.0 : v.cpu_ms_median - w.cpu_budget_ms;
  v.over_ms_p90 = v.fits_p90 ? 0.0 : v.cpu_ms_p90 - w.cpu_budget_ms;
  v.header_bytes = header_bytes;
  v.header_fits = header_bytes <= w.header_cap_bytes;
  return v;
}

SurfaceVerdict evaluate_surface(const Surface& s, const Workload& w, double sign_med_ns, double sign_p90_ns,
                                double verify_med_ns, double verify_p90_ns, std::size_t header_bytes) {
  return evaluate_surface(s, w, OpFigures{sign_med_ns, sign_med_ns, sign_p90_ns},
                          OpFigures{verify_med_ns, verify_med_ns, verify_p90_ns}, header_bytes);
}

std::uint64_t verify_units(double verify_ns, double reference_ns) noexcept {
  if (!(verify_ns > 0) || !(reference_ns > 0)) return 0;
  // One formula for the whole project: the ledger's (ceil(100 × v / ref)).
  return ledger::verify_units(verify_ns, reference_ns);
}

LedgerRow ledger_row(double verify_ns, double reference_ns, double dual_verify_ns, double dual_reference_ns,
                     std::uint64_t block_budget_vu, unsigned cores) {
  LedgerRow r;
  if (cores == 0) cores = 1;
  r.vu = verify_units(verify_ns, reference_ns);
  r.vu_dual = verify_units(dual_verify_ns, dual_reference_ns);
  r.sigs_per_block = r.vu ? block_budget_vu / r.vu : 0;
  r.block_ms_one_core = static_cast<double>(r.sigs_per_block) * verify_ns / 1e6;
  r.block_ms_all_cores = r.block_ms_one_core / cores;
  // The VU budget is fixed; with dual verification the same block holds the same signatures
  // and each one costs the dual time.
  r.block_ms_dual_one_core = static_cast<double>(r.sigs_per_block) * dual_verify_ns / 1e6;
  r.block_ms_dual_all_cores = r.block_ms_dual_one_core / cores;
  return r;
}

}  // namespace pqsig::price
