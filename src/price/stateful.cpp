// `pqsig price` for the stateful hash-based suites (LMS/HSS, XMSS/XMSS^MT; SuiteInfo::stateful).
// Their keys sign only through their state (the suite API refuses a SigningKey), so signing is
// measured through lms::StatefulSigner / xmss::StatefulSigner with a throwaway key and a state file
// in the machine's temp dir: the "sign" row is what a signer pays per signature, the reservation
// (state write + fsync + rename + directory fsync, once per block of 64) and the audit log's
// fsync included, wall-clock time. Verification goes through the suite API (VerifyingKey).
//
// Cheap by design (the default `make price` run stays about as long): trees of height <= 10 per
// level are measured with a few samples; a taller single tree (LMS H15/H20, XMSS 16/20) is not
// built but extrapolated from its H10 counterpart of the same one-time signature, measured once
// per run, and labelled so (OpResult::extrapolated):
//   keygen   = counterpart keygen x 2^(h-10)     (2^h leaves, each one one-time key generation)
//   sign     = counterpart sign + one leaf        (LMS: a signer keeps one subtree of height 10
//              and rebuilds it every 1024 signatures; XMSS: + 0, the signer holds the whole tree)
//   verify   = counterpart verify + (h-10) nodes  (one more authentication-path node per level)
// The reservation itself is measured once per run (it is the same state file for every suite).
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>

#include "pqsig/hash.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/price.hpp"
#include "pqsig/xmss.hpp"
#include "price/internal.hpp"

namespace pqsig::price {

namespace {

constexpr std::size_t kStatefulBlock = 64;    // lms::StatefulSigner's default block
constexpr std::size_t kStatefulSignCalls = 200;  // sign calls at most (a 1024-index key keeps most)
constexpr double kStatefulBudgetMs = 100;     // per-operation budget cap of these rows
constexpr unsigned kStatefulBaseHeight = 10;  // trees up to this height are built and measured

// A temp directory for the state files, removed with everything in it.
struct StatefulTempDir {
  std::string path;
  StatefulTempDir() {
    std::error_code ec;
    std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string tmpl = (base / "pqsig-price-XXXXXX").string();
    if (mkdtemp(tmpl.data())) path = tmpl;
  }
  ~StatefulTempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
  StatefulTempDir(const StatefulTempDir&) = delete;
  StatefulTempDir& operator=(const StatefulTempDir&) = delete;
};

std::vector<lms::Level> stateful_lms_levels(const SuiteInfo& s) {
  const lms::Level lv{lms::find_lms(s.params.hbs.code), lms::find_lmots(s.params.hbs.ots)};
  return std::vector<lms::Level>(s.params.hbs.levels, lv);
}
const xmss::Params* stateful_xmss_params(const SuiteInfo& s) {
  return s.params.hbs.mt ? xmss::find_xmssmt(s.params.hbs.code) : xmss::find_xmss(s.params.hbs.code);
}
// Height of the tallest single tree a key generation builds (LMS: a level; XMSS^MT: a layer).
unsigned stateful_tree_height(const SuiteInfo& s) { return s.params.hbs.height / s.params.hbs.levels; }

// Everything one measured stateful suite keeps alive while its operations run.
struct StatefulState {
  const SuiteInfo* suite = nullptr;
  StatefulTempDir dir;
  std::optional<lms::StatefulSigner> lms_signer;
  std::optional<xmss::StatefulSigner> xmss_signer;
  bytes pk;
  std::vector<bytes> msgs;
  std::vector<std::pair<std::size_t, bytes>> pool;  // (message index, signature)
  std::size_t next_sign = 0, next_verify = 0;
  Result<std::pair<std::uint64_t, bytes>> sign(byte_span m) {
    if (lms_signer) {
      auto r = lms_signer->sign(m);
      if (!r) return r.error();
      return std::pair<std::uint64_t, bytes>{r->index, std::move(r->signature)};
    }
    auto r = xmss_signer->sign(m);
    if (!r) return r.error();
    return std::pair<std::uint64_t, bytes>{r->index, std::move(r->signature)};
  }
};

// Key generation as a signer does it: a fresh key and its public key (the top tree / the top
// layer's tree built). Returns the public key.
Result<bytes> stateful_keygen(const SuiteInfo& s) {
  if (s.family == Family::lms) {
    auto k = lms::HssPrivateKey::generate(stateful_lms_levels(s));
    if (!k) return k.error();
    auto sg = lms::HssSigner::create(std::move(k.value()));
    if (!sg) return sg.error();
    return sg->public_key();
  }
  const xmss::Params* p = stateful_xmss_params(s);
  if (!p) return Error{Errc::unknown_suite, std::string(s.id) + ": no XMSS parameter set"};
  auto k = xmss::PrivateKey::generate(*p);
  if (!k) return k.error();
  return k->public_key();
}

std::vector<bytes> stateful_messages(const SampleRequest& r, const SuiteInfo& s, const MeasureOptions& o) {
  MeasureOptions few = o;  // each one is signed through the fsynced state: a few suffice
  few.distinct_messages = std::clamp<std::size_t>(o.distinct_messages, 1, 32);
  return detail::make_messages(r, s, few);
}

// The measured operations of a suite whose trees are at most kStatefulBaseHeight tall.
Result<PreparedSuite> prepare_stateful_measured(const SuiteInfo& s, const SampleRequest& r, const MeasureOptions& o) {
  auto st = std::make_shared<StatefulState>();
  st->suite = &s;
  if (st->dir.path.empty()) return Error{Errc::io, "cannot create a temp directory for the state file"};
  const std::string state = st->dir.path + "/key.state";
  // Key generation builds the tree on every core: wall time is what it costs (--cpu-time would
  // count the calling thread only).
  const bool cpu = false;
  double keygen_ns = 0;
  if (s.family == Family::lms) {
    auto k = lms::HssPrivateKey::generate(stateful_lms_levels(s));
    if (!k) return k.error();
    auto copy = lms::HssPrivateKey::parse(k->serialize().span());
    if (!copy) return copy.error();
    const double k0 = detail::sample_clock_ns(cpu);
    auto sg = lms::HssSigner::create(std::move(k.value()));
    keygen_ns = detail::sample_clock_ns(cpu) - k0;
    if (!sg) return sg.error();
    st->pk = sg->public_key();
    if (auto ok = lms::StateStore::create(state, st->pk, sg->max_signatures()); !ok) return ok.error();
    auto ss = lms::StatefulSigner::open(std::move(copy.value()), state, kStatefulBlock);
    if (!ss) return ss.error();
    st->lms_signer.emplace(std::move(ss.value()));
  } else {
    const xmss::Params* p = stateful_xmss_params(s);
    if (!p) return Error{Errc::unknown_suite, std::string(s.id) + ": no XMSS parameter set"};
    const double k0 = detail::sample_clock_ns(cpu);
    auto k = xmss::PrivateKey::generate(*p);
    keygen_ns = detail::sample_clock_ns(cpu) - k0;
    if (!k) return k.error();
    st->pk = k->public_key();
    if (auto ok = xmss::StatefulSigner::create_state(*k, state); !ok) return ok.error();
    auto ss = xmss::StatefulSigner::open(std::move(k.value()), state, kStatefulBlock);
    if (!ss) return ss.error();
    st->xmss_signer.emplace(std::move(ss.value()));
  }
  st->msgs = stateful_messages(r, s, o);
  // The first signatures build the lower trees (HSS levels, XMSS^MT layers): made here, not
  // timed; they also fill the pool the verify row cycles through, each checked through the suite API.
  auto vk = VerifyingKey::from_public(s, st->pk);
  if (!vk) return vk.error();
  for (std::size_t i = 0; i < std::min<std::size_t>(8, st->msgs.size()); ++i) {
    auto sig = st->sign(st->msgs[i]);
    if (!sig) return sig.error();
    if (auto ok = vk->verify(st->msgs[i], sig->second); !ok)
      return Error{Errc::internal, std::string(s.id) + ": self-check failed: " + ok.error().what()};
    st->pool.emplace_back(i, std::move(sig->second));
  }
  st->next_sign = st->pool.size();

  PreparedSuite p;
  p.message_bytes = st->msgs[0].size();
  Sizes z;
  z.public_key = st->pk.size();
  z.private_key = s.private_key_size;
  z.expanded_key = 0;
  z.output = st->pool[0].second.size();
  p.sizes = detail::signature_sizes(r, s, z);
  StatefulState* S = st.get();
  Operation keygen{"keygen", [S]() -> Status {
                     auto k = stateful_keygen(*S->suite);
                     if (!k) return k.error();
                     return {};
                   }, keygen_ns};
  keygen.max_calls = 1;  // a tree of 2^10 one-time keys per call: the prepared one and one more
  keygen.wall_clock = true;
  keygen.budget_ms = kStatefulBudgetMs;
  if (s.family == Family::lms) {
    p.ops.push_back(std::move(keygen));
  } else {
    // An XMSS tree costs a few times an LMS one (three hash calls per chain step) and the signer
    // builds it again (XMSS^MT: one per layer): the prepared key generation is its one sample.
    OpResult once;
    once.name = "keygen";
    once.stats = compute_stats({keygen_ns});
    p.derived.push_back(std::move(once));
  }
  Operation sign{"sign", [S]() -> Status {
                   const std::size_t mi = S->next_sign++ % S->msgs.size();
                   auto sg = S->sign(S->msgs[mi]);
                   if (!sg) return sg.error();
                   return {};
                 }};
  sign.max_calls = kStatefulSignCalls;
  sign.wall_clock = true;
  sign.budget_ms = kStatefulBudgetMs;
  p.ops.push_back(std::move(sign));
  // Cold, from the encoded public key through the suite API (a hash-based key has nothing to prepare).
  Operation verify{"verify", [S]() -> Status {
                     const auto& [mi, sg] = S->pool[S->next_verify++ % S->pool.size()];
                     auto k = VerifyingKey::from_public(*S->suite, S->pk);
                     if (!k) return k.error();
                     return k->verify(S->msgs[mi], sg);
                   }};
  verify.budget_ms = kStatefulBudgetMs;
  p.ops.push_back(std::move(verify));
  p.state = st;
  return p;
}

// ---- once per run: the reservation and a tree node's hashes
struct StatefulOnce {
  std::mutex mu;
  bool reserve_done = false;
  double reserve_1_ns = 0, reserve_block_ns = 0;
  std::string state_dir;
  std::map<const SuiteInfo*, SuiteResult> bases;  // measured H10 counterparts
  double lms_node_ns = 0, xmss_node_ns = 0;
};
StatefulOnce& stateful_once() {
  static StatefulOnce once;
  return once;
}

// One reservation of `count` indices on a fresh state file (public data only), wall-clock median.
double stateful_measure_reserve(const std::string& dir, std::uint64_t count, const MeasureOptions& o) {
  const std::string state = dir + "/reserve-" + std::to_string(count) + ".state";
  const bytes pk(60, static_cast<std::uint8_t>(count));  // any bytes: the store keys the file by their hash
  if (!lms::StateStore::create(state, pk, std::uint64_t{1} << 40)) return 0;
  auto store = lms::StateStore::open(state, pk);
  if (!store) return 0;
  lms::StateStore* S = &store.value();
  Operation op{"reserve", [S, count]() -> Status {
                 auto r = S->reserve(count);
                 if (!r) return r.error();
                 return {};
               }};
  op.max_calls = 60;
  op.wall_clock = true;
  op.budget_ms = 60;
  MeasureOptions mo = o;
  mo.keep_samples = false;
  const OpResult res = measure_operation(op, mo);
  return res.error.empty() ? res.stats.median_ns : 0;
}

void stateful_measure_once(StatefulOnce& once, const MeasureOptions& o) {
  if (once.reserve_done) return;
  once.reserve_done = true;
  StatefulTempDir dir;
  once.state_dir = std::filesystem::path(dir.path).parent_path().string();
  if (!dir.path.empty()) {
    once.reserve_1_ns = stateful_measure_reserve(dir.path, 1, o);
    once.reserve_block_ns = stateful_measure_reserve(dir.path, kStatefulBlock, o);
  }
  // Tree nodes: LMS (RFC 8554 §5.3) H(I || u32str(r) || u16str(D_INTR) || left || right), 86
  // bytes; XMSS (RFC 8391 §4.1.4 RAND_HASH) three PRFs of 96 bytes and one H of 128 bytes.
  MeasureOptions mo = o;
  mo.keep_samples = false;
  mo.budget_ms_per_op = std::min(o.budget_ms_per_op, 30.0);
  const bytes b86(86, 1), b96(96, 2), b128(128, 3);
  const OpResult l = measure_operation({"node", [&]() -> Status {
                                          (void)hash::sha256(b86);
                                          return {};
                                        }},
                                       mo);
  const OpResult x = measure_operation({"node", [&]() -> Status {
                                          for (int i = 0; i < 3; ++i) (void)hash::sha256(b96);
                                          (void)hash::sha256(b128);
                                          return {};
                                        }},
                                       mo);
  once.lms_node_ns = l.stats.median_ns;
  once.xmss_node_ns = x.stats.median_ns;
}

// The H10 counterpart of a taller single tree: same one-time signature, height 10.
const SuiteInfo* stateful_counterpart(const SuiteInfo& s) {
  for (const auto& c : all_suites()) {
    if (c.family != s.family || !c.stateful || c.params.hbs.levels != 1 || c.params.hbs.height != kStatefulBaseHeight)
      continue;
    if (s.family == Family::lms && c.params.hbs.ots == s.params.hbs.ots) return &c;
    if (s.family == Family::xmss && !c.params.hbs.mt) {
      const xmss::Params* a = stateful_xmss_params(s);
      const xmss::Params* b = stateful_xmss_params(c);
      if (a && b && a->func == b->func && a->n == b->n) return &c;
    }
  }
  return nullptr;
}

// An extrapolated row: the basis's figures transformed, labelled with how.
OpResult stateful_extrapolate(const OpResult& base, double scale, double add_ns, std::string how) {
  OpResult o;
  o.name = base.name;
  o.stats = base.stats;
  for (double* v : {&o.stats.min_ns, &o.stats.median_ns, &o.stats.p90_ns, &o.stats.p99_ns, &o.stats.max_ns,
                    &o.stats.mean_ns})
    *v = *v * scale + add_ns;
  o.stats.stddev_ns *= scale;
  o.extrapolated = std::move(how);
  return o;
}

SuiteResult stateful_measure_direct(const SuiteInfo& s, const SampleRequest& r, const MeasureOptions& o,
                                    const ProgressFn& progress, std::size_t index, std::size_t total) {
  if (progress) progress({index, total, std::string(s.id), "prepare"});
  return measure_prepared(s, prepare_stateful_measured(s, r, o), o, progress, index, total);
}

}  // namespace

SuiteResult detail::measure_stateful_suite(const SuiteInfo& s, const SampleRequest& r, const MeasureOptions& o,
                                           const ProgressFn& progress, std::size_t index, std::size_t total) {
  StatefulOnce& once = stateful_once();
  std::lock_guard<std::mutex> lock(once.mu);
  stateful_measure_once(once, o);
  StatefulPricing sp;
  sp.max_signatures = s.max_signatures();
  sp.block = kStatefulBlock;
  sp.reserve_1_ns = once.reserve_1_ns;
  sp.reserve_block_ns = once.reserve_block_ns;
  sp.state_dir = once.state_dir;

  SuiteResult res;
  const unsigned tree_h = stateful_tree_height(s);
  if (tree_h <= kStatefulBaseHeight) {
    res = stateful_measure_direct(s, r, o, progress, index, total);
    sp.basis = "measured on a fresh key (state file in " + sp.state_dir + ", block " + std::to_string(sp.block) +
               "): sign includes the reservation and the audit log's fsync";
    if (res.available) once.bases[&s] = res;
  } else {
    const SuiteInfo* c = stateful_counterpart(s);
    if (progress) progress({index, total, std::string(s.id), "prepare"});
    res.suite = &s;
    if (!c) {
      res.note = "no height-10 counterpart to extrapolate from (a 2^" + std::to_string(tree_h) + "-leaf tree is not built here)";
    } else {
      auto it = once.bases.find(c);
      if (it == once.bases.end()) {
        SuiteResult b = stateful_measure_direct(*c, r, o, {}, index, total);
        it = once.bases.emplace(c, std::move(b)).first;
      }
      const SuiteResult& base = it->second;
      if (!base.available) {
        res.note = std::string(c->id) + " (the basis) failed: " + base.note;
      } else {
        const unsigned extra = tree_h - kStatefulBaseHeight;
        const double leaf = base.op("keygen") ? base.op("keygen")->stats.median_ns / std::ldexp(1.0, kStatefulBaseHeight) : 0;
        const double node = s.family == Family::lms ? once.lms_node_ns : once.xmss_node_ns;
        const std::string cid(c->id);
        PreparedSuite p;
        p.sizes = detail::signature_sizes(r, s, [&] {
          Sizes z;
          z.public_key = s.public_key_size;
          z.private_key = s.private_key_size;
          z.output = s.output_size;
          return z;
        }());
        p.message_bytes = base.message_bytes;
        if (const OpResult* k = base.op("keygen"))
          p.derived.push_back(stateful_extrapolate(*k, std::ldexp(1.0, static_cast<int>(extra)), 0,
                                                   cid + " keygen x 2^" + std::to_string(extra) + " (2^" +
                                                       std::to_string(tree_h) + " leaves)"));
        if (const OpResult* g = base.op("sign")) {
          const bool is_lms = s.family == Family::lms;
          p.derived.push_back(stateful_extrapolate(
              *g, 1, is_lms ? leaf : 0,
              is_lms ? cid + " sign + 1 leaf (the signer rebuilds a height-10 subtree every 1024 signatures)"
                  : cid + " sign (the signer holds the whole tree; its start builds it: the keygen row)"));
        }
        if (const OpResult* v = base.op("verify"))
          p.derived.push_back(stateful_extrapolate(*v, 1, extra * node,
                                                   cid + " verify + " + std::to_string(extra) +
                                                       " authentication-path nodes (SHA-256, measured)"));
        res = measure_prepared(s, std::move(p), o, progress, index, total);
        sp.basis = "extrapolated from " + cid + " (measured in this run): a 2^" + std::to_string(tree_h) +
                   "-leaf tree is not built here";
      }
    }
    if (!res.available) {
      res.sizes = detail::signature_sizes(r, s, [&] {
        Sizes z;
        z.public_key = s.public_key_size;
        z.output = s.output_size;
        return z;
      }());
    }
  }
  res.stateful = sp;
  return res;
}

double key_lifetime_days(std::uint64_t max_signatures, double signatures_per_request,
                         double requests_per_day) noexcept {
  const double per_day = signatures_per_request * requests_per_day;
  if (!(per_day > 0)) return HUGE_VAL;
  return static_cast<double>(max_signatures) / per_day;
}

std::vector<KeyLifetime> key_lifetimes(std::uint64_t max_signatures, const Workload& w) {
  std::vector<KeyLifetime> out;
  if (max_signatures == 0) return out;
  double total = 0;
  for (const auto& s : w.surfaces) {
    if (!(s.requests_per_day > 0)) continue;
    const double per_day = s.signatures_per_request * s.requests_per_day;
    total += per_day;
    out.push_back({s.name, per_day, key_lifetime_days(max_signatures, s.signatures_per_request, s.requests_per_day)});
  }
  if (!out.empty()) out.push_back({std::string(kAllSurfaces), total, key_lifetime_days(max_signatures, 1, total)});
  return out;
}

}  // namespace pqsig::price
