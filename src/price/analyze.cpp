// `pqsig price` analysis: suite selection, surface verdicts, the ledger (Verify Units, block
// estimate) and the hybrid rows, computed from the measured suites.
#include <cstdio>
#include <set>

#include "pqsig/price.hpp"

namespace pqsig::price {

Result<std::vector<const SuiteInfo*>> select_suites(const Workload& w, std::string_view filter) {
  std::vector<std::string> refs;
  if (!filter.empty()) {
    std::size_t pos = 0;
    while (pos <= filter.size()) {
      auto c = filter.find(',', pos);
      if (c == std::string_view::npos) c = filter.size();
      std::string t(filter.substr(pos, c - pos));
      while (!t.empty() && t.front() == ' ') t.erase(t.begin());
      while (!t.empty() && t.back() == ' ') t.pop_back();
      if (!t.empty()) refs.push_back(t);
      pos = c + 1;
    }
    if (refs.empty()) return Error{Errc::invalid_argument, "--suites: empty list"};
  } else {
    refs = w.suites;
  }
  std::vector<const SuiteInfo*> out;
  std::set<const SuiteInfo*> seen;
  if (refs.empty()) {
    for (const auto& s : all_suites()) out.push_back(&s);
    return out;
  }
  for (const auto& r : refs) {
    auto s = parse_suite_ref(r);
    if (!s) return s.error();
    if (seen.insert(*s).second) out.push_back(*s);
  }
  return out;
}

namespace {

const SuiteResult* find_result(const Report& rep, std::string_view id) {
  for (const auto& r : rep.suites)
    if (r.suite && r.suite->id == id) return &r;
  return nullptr;
}

// The classical component's registry id for a composite suite ("ml-dsa-44+ecdsa-p256" → "ecdsa-p256-sha256").
const SuiteResult* classical_component(const Report& rep, std::string_view composite_id) {
  auto plus = composite_id.find('+');
  if (plus == std::string_view::npos) return nullptr;
  std::string_view part = composite_id.substr(plus + 1);
  if (auto* r = find_result(rep, part)) return r;
  for (const auto& r : rep.suites)
    if (r.suite && r.suite->family == Family::classical && r.suite->id.substr(0, part.size()) == part &&
        r.suite->id.size() > part.size() && r.suite->id[part.size()] == '-')
      return &r;
  return nullptr;
}

double med(const SuiteResult* r, const char* op) {
  const OpResult* o = r ? r->op(op) : nullptr;
  return o ? o->stats.median_ns : 0.0;
}

}  // namespace

void analyze(Report& rep) {
  rep.verdicts.clear();
  rep.hybrids.clear();
  const Workload& w = rep.workload;
  const SuiteResult* ref = find_result(rep, w.vu_reference);
  rep.reference_verify_ns = med(ref, "verify");
  const double ref_ns = rep.reference_verify_ns;

  for (const auto& r : rep.suites) {
    SuiteVerdicts v;
    v.result = &r;
    if (r.available && r.suite->cls != SuiteClass::kem) {
      // Cold figures (keys decoded from their encodings on every request) unless the surface
      // says the keys are reused (key_reuse: prepared keys; a suite without a prepared form,
      // MAC, uses its one figure). The ledger sees many keys and always uses cold verification.
      const OpResult* vf = r.op("verify");
      for (const auto& s : w.surfaces) {
        const OpResult* sg = s.key_reuse && r.op("sign_prepared") ? r.op("sign_prepared") : r.op("sign");
        const OpResult* sv = s.key_reuse && r.op("verify_prepared") ? r.op("verify_prepared") : vf;
        if (!sg) continue;
        if (s.verifications_per_request > 0 && !sv) continue;
        const auto figures = [](const OpResult* o) {
          return o ? OpFigures{o->stats.median_ns, o->stats.mean_ns, o->stats.p90_ns} : OpFigures{};
        };
        v.surfaces.push_back(evaluate_surface(s, w, figures(sg), figures(sv), r.sizes.request_headers,
                                              s.key_reuse ? "prepared" : "cold"));
      }
      if (vf && r.suite->cls == SuiteClass::signature && ref_ns > 0) {
        const double vns = vf->stats.median_ns;
        const OpResult* dual = r.op("verify-dual");  // measured when a second verifier is present
        const double ref_dual = med(ref, "verify-dual");
        if (dual && ref_dual > 0) {
          v.ledger = ledger_row(vns, ref_ns, dual->stats.median_ns, ref_dual, w.block_budget_vu, rep.env.cores);
          v.ledger->dual_estimated = false;
        } else {
          v.ledger = ledger_row(vns, ref_ns, 2 * vns, 2 * ref_ns, w.block_budget_vu, rep.env.cores);
        }
      }
    }
    // Stateful suites: how many days one key's 2^h signatures last at the workload's request rates.
    if (r.suite->stateful) v.lifetimes = key_lifetimes(r.suite->max_signatures(), w);
    rep.verdicts.push_back(std::move(v));
  }

  auto fill = [](HybridRow& h, const SuiteResult* c) {
    h.classical_sig = c->sizes.output;
    h.classical_pk = c->sizes.public_key;
    h.classical_header = c->sizes.signature_headers;
    h.classical_verify_ns = med(c, "verify");
    h.classical_sign_ns = med(c, "sign");
    h.verifies_per_s_before = h.classical_verify_ns > 0 ? 1e9 / h.classical_verify_ns : 0;
  };

  // Computed pairs: two signatures over the same base (two labels, as the crawler ships them).
  for (const auto& p : w.hybrids) {
    const SuiteResult* c = find_result(rep, p.classical);
    const SuiteResult* q = find_result(rep, p.pq);
    if (!c || !q) continue;  // not selected in this run
    HybridRow h;
    h.name = p.classical + " + " + p.pq;
    fill(h, c);
    h.hybrid_sig = c->sizes.output + q->sizes.output;
    h.hybrid_pk = c->sizes.public_key + q->sizes.public_key;
    h.hybrid_header = c->sizes.signature_headers + q->sizes.signature_headers;
    h.available = c->available && q->available && med(c, "verify") > 0 && med(q, "verify") > 0;
    if (!h.available) {
      h.note = std::string(!c->available || med(c, "verify") <= 0 ? p.classical : p.pq) + " not available";
    } else {
      h.hybrid_verify_ns = med(c, "verify") + med(q, "verify");
      h.hybrid_sign_ns = med(c, "sign") + med(q, "sign");
      h.verifies_per_s_after = 1e9 / h.hybrid_verify_ns;
    }
    rep.hybrids.push_back(std::move(h));
  }
  // Registry composites, measured as one suite.
  for (const auto& r : rep.suites) {
    if (!r.suite || r.suite->family != Family::composite) continue;
    const SuiteResult* c = classical_component(rep, r.suite->id);
    if (!c) continue;
    HybridRow h;
    h.name = std::string(r.suite->id);
    h.composite = true;
    fill(h, c);
    h.hybrid_sig = r.sizes.output;
    h.hybrid_pk = r.sizes.public_key;
    h.hybrid_header = r.sizes.signature_headers;
    h.available = r.available && med(&r, "verify") > 0 && c->available && med(c, "verify") > 0;
    if (!h.available) {
      h.note = std::string(!r.available || med(&r, "verify") <= 0 ? r.suite->id : c->suite->id) + " not available";
    } else {
      h.hybrid_verify_ns = med(&r, "verify");
      h.hybrid_sign_ns = med(&r, "sign");
      h.verifies_per_s_after = 1e9 / h.hybrid_verify_ns;
    }
    rep.hybrids.push_back(std::move(h));
  }
  rep.review.clear();
  if (rep.prediction) rep.review = review_prediction(*rep.prediction, rep);
}

std::string format_ns(double ns) {
  char b[32];
  if (!(ns > 0)) return "-";
  if (ns < 1e3) std::snprintf(b, sizeof b, "%.0f ns", ns);
  else if (ns < 1e4) std::snprintf(b, sizeof b, "%.2f us", ns / 1e3);
  else if (ns < 1e6) std::snprintf(b, sizeof b, "%.1f us", ns / 1e3);
  else if (ns < 1e7) std::snprintf(b, sizeof b, "%.2f ms", ns / 1e6);
  else if (ns < 1e9) std::snprintf(b, sizeof b, "%.1f ms", ns / 1e6);
  else std::snprintf(b, sizeof b, "%.2f s", ns / 1e9);
  return b;
}

std::string format_rate(double per_s) {
  char b[32];
  if (!(per_s > 0)) return "-";
  if (per_s >= 1e6) std::snprintf(b, sizeof b, "%.2fM", per_s / 1e6);
  else if (per_s >= 1e4) std::snprintf(b, sizeof b, "%.0fk", per_s / 1e3);
  else if (per_s >= 100) return format_bytes(static_cast<std::size_t>(per_s + 0.5));
  else if (per_s >= 10) std::snprintf(b, sizeof b, "%.1f", per_s);
  else if (per_s >= 1) std::snprintf(b, sizeof b, "%.2f", per_s);
  else std::snprintf(b, sizeof b, "%.3g", per_s);
  return b;
}

std::string format_bytes(std::size_t n) {
  std::string d = std::to_string(n), out;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

}  // namespace pqsig::price
