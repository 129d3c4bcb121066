// `pqsig price` measurement engine: prepares every suite's operations through the one suite API
// (never an algorithm-specific header) and times them with a warm-up, batching for fast
// operations, a minimum sample count and a time budget per operation.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "pqsig/hash.hpp"
#include "pqsig/ledger.hpp"
#include "pqsig/price.hpp"
#include "pqsig/provider.hpp"
#include "price/internal.hpp"

namespace pqsig::price {

double detail::sample_clock_ns(bool cpu) {
  if (cpu) {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
  }
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

std::vector<bytes> detail::make_messages(const SampleRequest& r, const SuiteInfo& s, const MeasureOptions& o) {
  const std::size_t n = std::max<std::size_t>(1, o.distinct_messages);
  std::vector<bytes> m;
  m.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (o.message_size == 0) {
      // The actual Web Bot Auth signature base, a fresh nonce and created time per message.
      std::string b = signature_base(r, sample_params(r, s, i));
      m.emplace_back(b.begin(), b.end());
    } else {
      bytes b(o.message_size);
      std::string seed = "pqsig price message " + std::to_string(i);
      hash::shake256(b, as_bytes(seed));
      m.push_back(std::move(b));
    }
  }
  return m;
}

namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point t0) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
}


Sizes header_sizes(const SampleRequest& r, const SuiteInfo& s, Sizes z) {
  if (s.cls == SuiteClass::kem) return z;
  z.sf_bytes = sf_byte_sequence_length(z.output);
  z.signature_headers = signature_header_bytes(r, sample_params(r, s, 0), z.output);
  z.request_headers = request_header_bytes(r) + z.signature_headers;
  return z;
}

struct SigState {
  const SuiteInfo* suite = nullptr;
  SigningKey sk;
  std::optional<VerifyingKey> vk;  // empty for MAC suites (verify with the key)
  std::vector<bytes> msgs;
  std::vector<std::pair<std::size_t, bytes>> pool;  // (message index, signature)
  SecretBytes priv;  // the encoded private key (the cold sign row starts from it)
  std::size_t next_sign = 0, next_verify = 0;
  explicit SigState(SigningKey k) : sk(std::move(k)) {}
  Status verify(std::size_t mi, const bytes& sig) const {
    return vk ? vk->verify(msgs[mi], sig) : sk.verify(msgs[mi], sig);
  }
};

struct KemState {
  const SuiteInfo* suite = nullptr;
  KemPrivateKey dk;
  KemPublicKey ek;
  std::vector<bytes> pool;
  std::size_t next_store = 0, next_decaps = 0, capacity = 256;
  KemState(KemPrivateKey d, KemPublicKey e) : dk(std::move(d)), ek(std::move(e)) {}
};

Result<PreparedSuite> prepare_signature(const SuiteInfo& s, const SampleRequest& r, const MeasureOptions& o) {
  const double k0 = detail::sample_clock_ns(o.thread_cpu_time);
  auto key = SigningKey::generate(s);
  const double keygen_ns = detail::sample_clock_ns(o.thread_cpu_time) - k0;
  if (!key) return key.error();
  auto st = std::make_shared<SigState>(std::move(key.value()));
  st->suite = &s;
  if (s.cls != SuiteClass::mac) {
    auto vk = VerifyingKey::from_public(s, st->sk.public_key());
    if (!vk) return vk.error();
    st->vk.emplace(std::move(vk.value()));
  }
  st->msgs = detail::make_messages(r, s, o);
  const double s0 = detail::sample_clock_ns(o.thread_cpu_time);
  auto sig = st->sk.sign(st->msgs[0]);
  const double sign_ns = detail::sample_clock_ns(o.thread_cpu_time) - s0;
  if (!sig) return sig.error();
  if (auto ok = st->verify(0, *sig); !ok)
    return Error{Errc::internal, std::string(s.id) + ": self-check failed: " + ok.error().what()};

  PreparedSuite p;
  p.message_bytes = st->msgs[0].size();
  Sizes z;
  z.public_key = st->sk.public_key().size();
  z.private_key = st->sk.private_key().size();
  if (auto e = st->sk.expanded_private_key(); e) z.expanded_key = e->size();
  z.output = sig->size();
  p.sizes = header_sizes(r, s, z);
  st->pool.emplace_back(0, std::move(sig.value()));
  st->next_sign = 1;

  SigState* S = st.get();
  const std::size_t cap = std::max<std::size_t>(1, o.distinct_messages);
  p.ops.push_back({"keygen",
                   [S]() -> Status {
                     auto k = SigningKey::generate(*S->suite);
                     if (!k) return k.error();
                     return {};
                   },
                   keygen_ns});
  // sign: cold, from the encoded private key on every call (SigningKey::from_private, then sign:
  // a signer holding its key encoded, as liboqs' OQS_SIG_sign takes it); sign_prepared: a key
  // prepared once (expanded form cached; a crawler signing many requests with one key).
  // MAC suites have no prepared form: one sign row.
  S->priv = SecretBytes(st->sk.private_key());
  const auto sign_with = [S, cap](const SigningKey& k) -> Status {
    const std::size_t mi = S->next_sign++ % S->msgs.size();
    auto sg = k.sign(S->msgs[mi]);
    if (!sg) return sg.error();
    if (S->pool.size() < cap) S->pool.emplace_back(mi, std::move(sg.value()));
    else S->pool[mi % cap] = {mi, std::move(sg.value())};
    return {};
  };
  if (s.cls == SuiteClass::mac) {
    p.ops.push_back({"sign", [S, sign_with]() -> Status { return sign_with(S->sk); }, sign_ns});
  } else {
    const auto cold = [S, sign_with]() -> Status {
      auto k = SigningKey::from_private(*S->suite, S->priv.span());
      if (!k) return k.error();
      return sign_with(*k);
    };
    // One cold call now: its self-check, and the first sample of a slow signature (SLH-DSA "s").
    const double c0 = detail::sample_clock_ns(o.thread_cpu_time);
    if (auto ok = cold(); !ok) return ok.error();
    const double cold_ns = detail::sample_clock_ns(o.thread_cpu_time) - c0;
    if (auto ok = S->verify(S->pool.back().first, S->pool.back().second); !ok)
      return Error{Errc::internal, std::string(s.id) + ": self-check of the cold signature failed: " + ok.error().what()};
    p.ops.push_back({"sign", cold, cold_ns});
    p.ops.push_back({"sign_prepared", [S, sign_with]() -> Status { return sign_with(S->sk); }, sign_ns});
  }
  if (S->vk) {
    // Cold: from the encoded public key on every call (as liboqs measures verification).
    p.ops.push_back({"verify", [S]() -> Status {
                       const auto& [mi, sg] = S->pool[S->next_verify++ % S->pool.size()];
                       auto vk = VerifyingKey::from_public(*S->suite, S->sk.public_key());
                       if (!vk) return vk.error();
                       return vk->verify(S->msgs[mi], sg);
                     }});
    p.ops.push_back({"verify_prepared", [S]() -> Status {
                       const auto& [mi, sg] = S->pool[S->next_verify++ % S->pool.size()];
                       return S->verify(mi, sg);
                     }});
    // Measured dual cost (ledger, enforce: pqsig + liboqs, keys cached) when liboqs implements the suite.
    if (auto oqs = provider::find("liboqs"); oqs && (*oqs)->info().available && ((*oqs)->interfaces(s) & provider::kPure)) {
      auto dv = std::make_shared<ledger::DualVerifier>(provider::find("pqsig").value(), *oqs, ledger::Mode::enforce,
                                                       std::make_shared<ledger::KeyCache>(4));
      p.ops.push_back({"verify-dual", [S, dv]() -> Status {
                         const auto& [mi, sg] = S->pool[S->next_verify++ % S->pool.size()];
                         const ledger::Verdict v = dv->verify(ledger::Item{S->suite, S->sk.public_key(), S->msgs[mi], sg, {}});
                         if (v.accepted) return {};
                         return Error{Errc::verify_failed, v.reason};
                       }});
    }
  } else {
    // MAC suites verify with the key itself: one operation.
    p.ops.push_back({"verify", [S]() -> Status {
                       const auto& [mi, sg] = S->pool[S->next_verify++ % S->pool.size()];
                       return S->verify(mi, sg);
                     }});
  }
  p.state = st;
  return p;
}

Result<PreparedSuite> prepare_kem(const SuiteInfo& s, const SampleRequest& r) {
  auto dk = KemPrivateKey::generate(s);
  if (!dk) return dk.error();
  auto ek = KemPublicKey::from_public(s, dk->public_key());
  if (!ek) return ek.error();
  auto st = std::make_shared<KemState>(std::move(dk.value()), std::move(ek.value()));
  st->suite = &s;
  auto e = st->ek.encaps();
  if (!e) return e.error();
  auto ss = st->dk.decaps(e->ciphertext);
  if (!ss) return ss.error();
  if (ss->size() != e->shared_secret.size() || !ct_equal(ss->span(), e->shared_secret.span()))
    return Error{Errc::internal, std::string(s.id) + ": self-check failed: decapsulated secret differs"};
  {  // the cold path (from the encoded keys) agrees with the prepared one
    const byte_span priv = st->dk.expanded_key().empty() ? st->dk.private_key() : st->dk.expanded_key();
    auto e2 = kem_encaps_once(s, st->dk.public_key());
    if (!e2) return e2.error();
    auto ss2 = kem_decaps_once(s, priv, e2->ciphertext);
    if (!ss2) return ss2.error();
    auto ss3 = st->dk.decaps(e2->ciphertext);
    if (!ss3) return ss3.error();
    if (!ct_equal(ss2->span(), e2->shared_secret.span()) || !ct_equal(ss3->span(), e2->shared_secret.span()))
      return Error{Errc::internal, std::string(s.id) + ": self-check failed: cold and prepared decapsulation differ"};
  }

  PreparedSuite p;
  Sizes z;
  z.public_key = st->dk.public_key().size();
  z.private_key = st->dk.private_key().size();
  z.expanded_key = s.expanded_key_size;
  z.output = e->ciphertext.size();
  z.shared_secret = e->shared_secret.size();
  p.sizes = header_sizes(r, s, z);
  st->pool.push_back(std::move(e->ciphertext));

  KemState* S = st.get();
  p.ops.push_back({"keygen", [S]() -> Status {
                     auto k = KemPrivateKey::generate(*S->suite);
                     if (!k) return k.error();
                     return {};
                   }});
  // encaps / decaps: cold, from the encoded keys on every call (kem_encaps_once /
  // kem_decaps_once: an ephemeral key, as in a TLS 1.3 handshake; decaps from the expanded dk
  // where the suite has one, as liboqs takes it, else from the encoded private key);
  // encaps_prepared / decaps_prepared: keys prepared once (KemPublicKey / KemPrivateKey).
  p.ops.push_back({"encaps", [S]() -> Status {
                     auto x = kem_encaps_once(*S->suite, S->dk.public_key());
                     if (!x) return x.error();
                     return {};
                   }});
  p.ops.push_back({"encaps_prepared", [S]() -> Status {
                     auto x = S->ek.encaps();
                     if (!x) return x.error();
                     if (S->pool.size() < S->capacity) S->pool.push_back(std::move(x->ciphertext));
                     else S->pool[S->next_store++ % S->capacity] = std::move(x->ciphertext);
                     return {};
                   }});
  p.ops.push_back({"decaps", [S]() -> Status {
                     const byte_span priv = S->dk.expanded_key().empty() ? S->dk.private_key() : S->dk.expanded_key();
                     auto x = kem_decaps_once(*S->suite, priv, S->pool[S->next_decaps++ % S->pool.size()]);
                     if (!x) return x.error();
                     return {};
                   }});
  p.ops.push_back({"decaps_prepared", [S]() -> Status {
                     auto x = S->dk.decaps(S->pool[S->next_decaps++ % S->pool.size()]);
                     if (!x) return x.error();
                     return {};
                   }});
  p.state = st;
  return p;
}

Sizes registry_sizes(const SuiteInfo& s, const SampleRequest& r) {
  Sizes z;
  z.public_key = s.public_key_size;
  z.private_key = s.private_key_size;
  z.expanded_key = s.expanded_key_size;
  z.output = s.output_size;
  z.shared_secret = s.shared_secret_size;
  return header_sizes(r, s, z);
}

}  // namespace

Sizes detail::signature_sizes(const SampleRequest& r, const SuiteInfo& s, Sizes z) { return header_sizes(r, s, z); }

Result<PreparedSuite> prepare_suite(const SuiteInfo& s, const SampleRequest& r, const MeasureOptions& o) {
  if (s.cls == SuiteClass::kem) return prepare_kem(s, r);
  return prepare_signature(s, r, o);
}

namespace {
// A bounded operation (Operation::max_calls: stateful signing, tree building): no batching, the
// presample as the first sample, at most max_calls calls, the operation's own clock and budget.
OpResult measure_bounded_operation(const Operation& op, const MeasureOptions& o) {
  OpResult res;
  res.name = op.name;
  const bool cpu = o.thread_cpu_time && !op.wall_clock;
  const double budget_ns = (op.budget_ms > 0 ? std::min(op.budget_ms, o.budget_ms_per_op) : o.budget_ms_per_op) * 1e6;
  std::vector<double> samples;
  std::size_t calls = 0;
  if (op.presample_ns > 0) {
    samples.push_back(op.presample_ns);
  } else {  // one warm-up call, not a sample
    if (auto st = op.run(); !st) {
      res.error = st.error().what();
      return res;
    }
    ++calls;
  }
  const std::size_t min_samples = std::max<std::size_t>(1, op.presample_ns > 0 ? o.min_samples_slow : o.min_samples);
  const auto t0 = Clock::now();
  while (calls < op.max_calls && samples.size() < o.max_samples) {
    if (o.cancelled()) {
      res.interrupted = true;
      break;
    }
    if (samples.size() >= min_samples && ns_since(t0) >= budget_ns) break;
    const double s0 = detail::sample_clock_ns(cpu);
    auto st = op.run();
    ++calls;
    if (!st) {
      res.error = st.error().what();
      break;
    }
    samples.push_back(detail::sample_clock_ns(cpu) - s0);
  }
  res.stats = compute_stats(samples);
  if (o.keep_samples) res.samples = std::move(samples);
  return res;
}
}  // namespace

OpResult measure_operation(const Operation& op, const MeasureOptions& o) {
  if (op.max_calls > 0) return measure_bounded_operation(op, o);
  OpResult res;
  res.name = op.name;
  // Warm-up: at least one call, then until warmup_ms has passed.
  const auto w0 = Clock::now();
  std::size_t warm = 0;
  double warm_ns = 0;
  std::vector<double> samples;
  // A preparation call is trusted as the first sample only when it is clearly slow (4 x the slow
  // threshold): a process's first call of a fast operation can take tens of ms on a busy machine
  // (cold caches, one-time initialisation, a preempted thread), and must not turn it into a
  // one-sample "slow" operation. Between 1 and 4 x the warm-up below decides.
  if (op.presample_ns > 0 && op.presample_ns >= 4 * o.slow_op_ns) {
    samples.push_back(op.presample_ns);
    warm = 1;
    warm_ns = op.presample_ns;
  } else do {
    const double c0 = detail::sample_clock_ns(o.thread_cpu_time);
    if (auto st = op.run(); !st) {
      res.error = st.error().what();
      return res;
    }
    ++warm;
    warm_ns = ns_since(w0);
    if (warm == 1 && warm_ns >= o.slow_op_ns) {
      samples.push_back(detail::sample_clock_ns(o.thread_cpu_time) - c0);  // a slow op's warm-up is its first sample
      break;
    }
  } while (warm_ns < o.warmup_ms * 1e6 && warm < 1000000);
  const double est = warm_ns / static_cast<double>(warm);
  const std::size_t min_samples = samples.empty() ? o.min_samples : std::max<std::size_t>(1, o.min_samples_slow);
  // Fast operations are timed in batches so the clock's own cost stays negligible.
  std::size_t batch = 1;
  if (est > 0 && est < o.min_sample_ns) batch = static_cast<std::size_t>(std::ceil(o.min_sample_ns / est));
  batch = std::min<std::size_t>(batch, 100000);
  res.batch = batch;

  samples.reserve(std::min<std::size_t>(o.max_samples, 4096));
  const double budget_ns = o.budget_ms_per_op * 1e6;
  const auto t0 = Clock::now();
  // A slow operation's first sample already spent its time: it counts towards the budget.
  const double spent_ns = samples.empty() ? 0.0 : samples.front();
  for (;;) {
    if (o.cancelled()) {
      res.interrupted = true;
      break;
    }
    if (samples.size() >= o.max_samples) break;
    if (samples.size() >= min_samples && spent_ns + ns_since(t0) >= budget_ns) break;
    const double s0 = detail::sample_clock_ns(o.thread_cpu_time);
    for (std::size_t k = 0; k < batch; ++k) {
      if (auto st = op.run(); !st) {
        res.error = st.error().what();
        res.stats = compute_stats(samples);
        return res;
      }
    }
    samples.push_back((detail::sample_clock_ns(o.thread_cpu_time) - s0) / static_cast<double>(batch));
  }
  res.stats = compute_stats(samples);
  if (o.keep_samples) res.samples = std::move(samples);
  return res;
}

const OpResult* SuiteResult::op(std::string_view n) const noexcept {
  for (const auto& o : ops)
    if (o.name == n && o.error.empty() && o.stats.n > 0) return &o;
  return nullptr;
}

SuiteResult measure_prepared(const SuiteInfo& s, Result<PreparedSuite> prepared, const MeasureOptions& o,
                             const ProgressFn& progress, std::size_t index, std::size_t total) {
  SuiteResult res;
  res.suite = &s;
  if (!prepared) {
    res.available = false;
    res.note = prepared.error().code == Errc::unsupported ? "not available in this build"
                                                          : "failed: " + prepared.error().what();
    return res;
  }
  res.available = true;
  res.sizes = prepared->sizes;
  res.stateful = prepared->stateful;
  res.message_bytes = prepared->message_bytes;
  for (const auto& op : prepared->ops) {
    if (o.cancelled()) {
      res.interrupted = true;
      break;
    }
    if (progress) progress({index, total, std::string(s.id), op.name});
    res.ops.push_back(measure_operation(op, o));
    if (res.ops.back().interrupted) res.interrupted = true;
    if (progress) {
      Progress done{index, total, std::string(s.id), op.name};
      done.finished = &res.ops.back();
      done.op_index = res.ops.size() - 1;
      progress(done);
    }
    if (!res.ops.back().error.empty()) res.note = op.name + " failed: " + res.ops.back().error;
  }
  // Figures not measured on this suite (stateful: extrapolated from a measured one), shown last.
  for (const auto& d : prepared->derived) {
    if (res.interrupted) break;
    res.ops.push_back(d);
    if (progress) {
      Progress done{index, total, std::string(s.id), d.name};
      done.finished = &res.ops.back();
      done.op_index = res.ops.size() - 1;
      progress(done);
    }
  }
  return res;
}

SuiteResult measure_suite(const SuiteInfo& s, const SampleRequest& r, const MeasureOptions& o,
                          const ProgressFn& progress, std::size_t index, std::size_t total) {
  // Stateful suites sign only through their state (src/price/stateful.cpp).
  if (s.stateful) return detail::measure_stateful_suite(s, r, o, progress, index, total);
  if (progress) progress({index, total, std::string(s.id), "prepare"});
  auto p = prepare_suite(s, r, o);
  SuiteResult res = measure_prepared(s, std::move(p), o, progress, index, total);
  if (!res.available) {
    res.sizes = registry_sizes(s, r);
    if (s.cls != SuiteClass::kem)
      res.message_bytes = o.message_size ? o.message_size : signature_base(r, sample_params(r, s, 0)).size();
  }
  return res;
}

}  // namespace pqsig::price

namespace pqsig::price {

Result<double> run_throughput(const std::vector<std::function<Status()>>& per_thread, double duration_ms,
                              const std::atomic<bool>* cancel) {
  const std::size_t n = per_thread.size();
  if (n == 0) return Error{Errc::invalid_argument, "throughput: no threads"};
  std::vector<double> rate(n, 0.0);
  std::vector<std::string> err(n);
  std::atomic<bool> go{false};
  std::atomic<std::size_t> ready{0};
  std::vector<std::thread> th;
  th.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    th.emplace_back([&, i] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      const auto t0 = Clock::now();
      std::size_t count = 0;
      double el = 0;
      do {
        if (auto st = per_thread[i](); !st) {
          err[i] = st.error().what();
          return;
        }
        ++count;
        el = ns_since(t0);
      } while (el < duration_ms * 1e6 && !(cancel && cancel->load(std::memory_order_relaxed)));
      rate[i] = el > 0 ? static_cast<double>(count) * 1e9 / el : 0.0;
    });
  }
  while (ready.load() < n) std::this_thread::yield();
  go.store(true, std::memory_order_release);
  for (auto& t : th) t.join();
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!err[i].empty()) return Error{Errc::internal, err[i]};
    total += rate[i];
  }
  return total;
}

Result<std::vector<ThroughputRow>> measure_throughput(const SuiteInfo& s, const SampleRequest& r,
                                                      const MeasureOptions& o, unsigned threads,
                                                      double duration_ms) {
  if (threads == 0) threads = 1;
  if (s.stateful)  // every call would spend one-time indices of a throwaway key until it runs out
    return Error{Errc::unsupported, std::string(s.id) + ": stateful: no throughput run (see its sign row)"};
  // Every thread gets its own keys and inputs: nothing is shared but the code.
  std::vector<PreparedSuite> prep;
  for (unsigned t = 0; t < threads; ++t) {
    auto p = prepare_suite(s, r, o);
    if (!p) return p.error();
    prep.push_back(std::move(p.value()));
  }
  std::vector<ThroughputRow> rows;
  for (std::size_t k = 0; k < prep[0].ops.size(); ++k) {
    if (o.cancelled()) break;
    ThroughputRow row;
    row.op = prep[0].ops[k].name;
    row.threads = threads;
    auto one = run_throughput({prep[0].ops[k].run}, duration_ms, o.cancel);
    if (!one) row.error = one.error().what();
    else row.ops_per_s_1 = *one;
    if (row.error.empty() && !o.cancelled()) {
      std::vector<std::function<Status()>> fns;
      for (auto& p : prep) fns.push_back(p.ops[k].run);
      auto many = run_throughput(fns, duration_ms, o.cancel);
      if (!many) row.error = many.error().what();
      else row.ops_per_s_n = *many;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace pqsig::price
