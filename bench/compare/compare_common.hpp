// bench/compare/compare_common.hpp — what every same-run comparison harness shares: the
// messages `pqsig price` signs, the pqsig side of a signature suite, the interleaved rounds on
// price's measuring engine and the ratio table. Each harness adds only its anchor's side
// (oqs_compare.cpp: liboqs; spx_compare.cpp: the SPHINCS+ AVX2 reference).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "pqsig/hash.hpp"
#include "pqsig/price.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::compare {

/// The harness's name in its messages (set once by main).
inline const char*& program_name() {
  static const char* name = "compare";
  return name;
}

[[noreturn]] inline void die(const std::string& m) {
  std::fprintf(stderr, "%s: %s\n", program_name(), m.c_str());
  std::exit(1);
}

/// n deterministic messages of `size` bytes (SHAKE256 of a counter), the same on both sides.
inline std::vector<bytes> make_messages(std::size_t size, std::size_t n) {
  std::vector<bytes> m;
  for (std::size_t i = 0; i < n; ++i) {
    bytes b(size);
    const std::string seed = "pqsig price message " + std::to_string(i);
    hash::shake256(b, as_bytes(seed));
    m.push_back(std::move(b));
  }
  return m;
}

/// Length of the Web Bot Auth signature base `pqsig price` signs for this suite (its default
/// message): the request of price::SampleRequest with a 43-character keyid and a 64-byte nonce.
inline std::size_t signature_base_size(const SuiteInfo& s) {
  price::SampleRequest r;
  price::SignatureParams p;
  p.alg = price::http_alg_token(s);
  p.keyid = std::string(43, 'A');
  p.created = r.created;
  p.expires = r.created + r.validity_s;
  p.nonce = std::string(88, 'A');
  return price::signature_base(r, p).size();
}

/// The pqsig side of a signature suite, driven through the suite API exactly as `pqsig price`
/// drives it: keygen = SigningKey::generate; sign (cold) = SigningKey::from_expanded(the FIPS
/// encoded secret key) + sign (hedged), what an anchor's sign call does; sign (prepared) = a key
/// prepared once; verify (cold) = VerifyingKey::from_public(encoded pk) + verify; verify
/// (prepared) = a key prepared once. Anchors without a prepared form give no prepared rows.
/// Keep it at a stable address (the operations point to it).
struct PqsigSignature {
  const SuiteInfo* suite = nullptr;
  std::optional<SigningKey> sk;
  std::optional<VerifyingKey> vk;
  std::vector<bytes> msgs, sigs;
  bytes expanded;  // the FIPS encoded secret key (the cold sign row starts from it)
  std::size_t i_sign = 0, i_ver = 0;

  void prepare(const SuiteInfo& s, std::size_t msg_size, std::size_t n_msgs) {
    suite = &s;
    auto k = SigningKey::generate(s);
    if (!k) die(std::string(s.id) + ": " + k.error().what());
    sk.emplace(std::move(k.value()));
    auto v = VerifyingKey::from_public(s, sk->public_key());
    if (!v) die(v.error().what());
    vk.emplace(std::move(v.value()));
    auto x = sk->expanded_private_key();
    if (!x) die(x.error().what());
    expanded = std::move(x.value());
    msgs = make_messages(msg_size, n_msgs);
    for (const auto& m : msgs) {
      auto sg = sk->sign(m);
      if (!sg) die(sg.error().what());
      sigs.push_back(std::move(sg.value()));
    }
  }

  /// keygen, sign (cold), sign (prepared), verify (cold), verify (prepared): the order every
  /// anchor side follows.
  void add_operations(std::vector<price::Operation>& ops) {
    PqsigSignature* S = this;
    ops.push_back({"keygen", [S]() -> Status {
                     auto x = SigningKey::generate(*S->suite);
                     if (!x) return x.error();
                     return {};
                   }});
    ops.push_back({"sign (cold)", [S]() -> Status {
                     auto k = SigningKey::from_expanded(*S->suite, S->expanded);
                     if (!k) return k.error();
                     auto x = k->sign(S->msgs[S->i_sign++ % S->msgs.size()]);
                     if (!x) return x.error();
                     return {};
                   }});
    ops.push_back({"sign (prepared)", [S]() -> Status {
                     auto x = S->sk->sign(S->msgs[S->i_sign++ % S->msgs.size()]);
                     if (!x) return x.error();
                     return {};
                   }});
    ops.push_back({"verify (cold)", [S]() -> Status {
                     const std::size_t i = S->i_ver++ % S->msgs.size();
                     auto v2 = VerifyingKey::from_public(*S->suite, S->sk->public_key());
                     if (!v2) return v2.error();
                     return v2->verify(S->msgs[i], S->sigs[i]);
                   }});
    ops.push_back({"verify (prepared)", [S]() -> Status {
                     const std::size_t i = S->i_ver++ % S->msgs.size();
                     return S->vk->verify(S->msgs[i], S->sigs[i]);
                   }});
  }
};

/// One suite's operations on both sides, in the same order with the same names.
struct Sides {
  std::string suite;
  std::vector<price::Operation> pqsig, anchor;
};

struct Row {
  std::string suite, op;
  std::vector<double> pqsig, anchor;  // pooled samples (ns per operation)
};

/// Every round measures each operation on both sides, alternating which side goes first; the
/// samples of all rounds are pooled per (suite, operation).
inline std::vector<Row> run_interleaved(const std::vector<Sides>& sides, int rounds, const price::MeasureOptions& mo) {
  std::vector<Row> rows;
  for (const auto& s : sides)
    for (const auto& op : s.pqsig) rows.push_back({s.suite, op.name, {}, {}});
  for (int r = 0; r < rounds; ++r) {
    std::size_t ri = 0;
    for (const auto& s : sides) {
      if (s.pqsig.size() != s.anchor.size()) die(s.suite + ": the two sides have different operations");
      for (std::size_t oi = 0; oi < s.pqsig.size(); ++oi, ++ri) {
        const bool pqsig_first = (r + static_cast<int>(ri)) % 2 == 0;
        for (int turn = 0; turn < 2; ++turn) {
          const bool do_pqsig = (turn == 0) == pqsig_first;
          const auto& op = do_pqsig ? s.pqsig[oi] : s.anchor[oi];
          if (!op.run) continue;  // no counterpart on this side (e.g. liboqs has no prepared key)
          auto res = price::measure_operation(op, mo);
          if (!res.error.empty()) die(s.suite + " " + op.name + ": " + res.error);
          auto& dst = do_pqsig ? rows[ri].pqsig : rows[ri].anchor;
          dst.insert(dst.end(), res.samples.begin(), res.samples.end());
        }
      }
    }
    std::fprintf(stderr, "round %d/%d done\n", r + 1, rounds);
  }
  return rows;
}

inline std::string micros(double ns, int decimals) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", decimals, ns / 1e3);
  return b;
}

/// The Markdown ratio table: anchor µs, pqsig µs, pqsig / anchor (medians of the pooled samples).
inline std::string ratio_table(const std::vector<Row>& rows, const std::string& anchor, int decimals) {
  std::ostringstream out;
  out << "| suite | op | " << anchor << " µs | pqsig µs | pqsig / " << anchor << " |\n| --- | --- | ---: | ---: | ---: |\n";
  for (const auto& row : rows) {
    const double p = price::compute_stats(row.pqsig).median_ns;
    if (row.anchor.empty()) {  // like for like only: no counterpart, no ratio
      out << "| " << row.suite << " | " << row.op << " | — (none) | " << micros(p, decimals) << " | — |\n";
      continue;
    }
    const double o = price::compute_stats(row.anchor).median_ns;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", p / o);
    out << "| " << row.suite << " | " << row.op << " | " << micros(o, decimals) << " | " << micros(p, decimals) << " | "
        << ratio << " |\n";
  }
  return out.str();
}

/// Options every harness takes: --rounds N, --budget-ms MS, --message-size N, --markdown FILE and
/// one list option (`list_flag`, e.g. --suites) whose value lands in `list`.
struct Args {
  int rounds = 3;
  double budget_ms = 150;
  std::size_t msg_size = 0;
  std::string list, markdown;
};

inline Args parse_args(int argc, char** argv, const std::string& list_flag, Args a, const char* source) {
  for (int i = 1; i < argc; ++i) {
    const std::string o = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) die("missing value for " + o);
      return argv[++i];
    };
    if (o == "--rounds") a.rounds = std::max(1, std::atoi(next().c_str()));
    else if (o == "--budget-ms") a.budget_ms = std::atof(next().c_str());
    else if (o == "--message-size") a.msg_size = static_cast<std::size_t>(std::atoll(next().c_str()));
    else if (o == list_flag) a.list = next();
    else if (o == "--markdown") a.markdown = next();
    else die("unknown argument " + o + " (see the comment at the top of " + source + ")");
  }
  return a;
}

inline price::MeasureOptions measure_options(double budget_ms) {
  price::MeasureOptions mo;
  mo.thread_cpu_time = true;  // `pqsig price --cpu-time`
  mo.budget_ms_per_op = budget_ms;
  mo.keep_samples = true;
  return mo;
}

/// Prints the report and, with --markdown, writes it to that file too.
inline void emit(const std::string& report, const std::string& markdown) {
  std::fputs(report.c_str(), stdout);
  if (markdown.empty()) return;
  std::ofstream f(markdown);
  f << report;
  if (!f) die("cannot write " + markdown);
}

}  // namespace pqsig::compare
