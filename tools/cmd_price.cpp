// `pqsig price`: the main job. Measures every suite of the registry on this machine and prints
// what it costs per operation, per request (against a CPU budget), per header (against the cap)
// and per block (Verify Units), with JSON / JSONL / HTML outputs.
//
// Rows stream to a terminal as they are measured (progress line and ETA on stderr); Ctrl-C stops
// the measurement and prints the tables of what was measured (exit 130); a second Ctrl-C quits.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "io.hpp"
#include "pqsig/price.hpp"
#include "pqsig/price_engines.hpp"

namespace pqsig::cli {

namespace {

constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as shells report it

struct PriceArgs {
  bool quick = false;
  bool json = false;
  bool print_workload = false;
  bool print_predict_template = false;
  bool no_progress = false;
  bool cpu_time = false;
  bool stream = false;
  std::string suites, jsonl, html, workload, predict;
  std::string engine, engines_dir;  // --engine E[,E…], --engines-dir
  bool calibrate = false;           // --calibrate: print the reference workload's times
  std::string calibration;          // --calibration FILE: the production host's
  double budget_ms = 0;
  double factor = 0;
  double cpu_budget_ms = 0;
  std::size_t message_size = 0;
  bool message_size_set = false;
  std::size_t min_samples = 0, min_samples_slow = 0;
  unsigned multi = 0;
};

std::atomic<bool> g_interrupt{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the SIGINT handler sets a lock-free flag");

extern "C" void on_sigint(int) {
  if (g_interrupt.exchange(true)) {  // second Ctrl-C: quit now
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
  }
}

bool g_force = false;  // --force: replace existing --jsonl / --html files
void write_file(const std::string& path, const std::string& data) { io::write_output(path, data, {.force = g_force}); }

std::string read_limited(const std::string& path, std::size_t limit, const char* what) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Exit{kExitUsage, std::string("cannot read ") + what + " " + path};
  std::string data;
  char buf[65536];
  while (f.read(buf, sizeof buf) || f.gcount() > 0) {
    data.append(buf, static_cast<std::size_t>(f.gcount()));
    if (data.size() > limit)
      throw Exit{kExitUsage, path + ": larger than " + std::to_string(limit) + " bytes"};
  }
  return data;
}

std::string mtime_utc(const std::string& path) {
  struct stat st{};
  if (stat(path.c_str(), &st) != 0) return "";
  std::tm tm{};
  gmtime_r(&st.st_mtime, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string duration(double s) {
  char b[32];
  if (s < 0) s = 0;
  if (s < 60) std::snprintf(b, sizeof b, "%.0fs", s);
  else if (s < 3600) std::snprintf(b, sizeof b, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else std::snprintf(b, sizeof b, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return b;
}

std::size_t ops_of(const SuiteInfo& s) { return s.cls == SuiteClass::signature ? 4 : 3; }

void run_price(const PriceArgs& a) {
  using namespace pqsig::price;
  Workload w = default_workload();
  if (!a.workload.empty()) {
    auto r = workload_from_json(io::read_file(a.workload, 1 << 20));  // "-" = stdin
    if (!r) throw Exit{kExitUsage, a.workload + ": " + r.error().message};
    w = std::move(r.value());
  }
  if (a.factor > 0) w.production_cpu_factor = a.factor;
  if (a.cpu_budget_ms > 0) w.cpu_budget_ms = a.cpu_budget_ms;
  apply_price_tls_overrides(w);  // --tls-* over the workload's tls object
  if (a.print_workload) {
    std::cout << workload_to_json(w);
    return;
  }
  // --tls: the TLS surface only (cmd_price_tls.cpp); --jsonl / --html / --engine do not apply to it.
  if (run_price_tls_if_requested(w, a.json, a.no_progress, !a.jsonl.empty() || !a.html.empty() || !a.engine.empty()))
    return;
  if (a.calibrate) {
    auto c = measure_calibration(300, &g_interrupt);
    if (!c) throw Exit{kExitInvalid, "calibration: " + c.error().message};
    std::cout << calibration_to_json(*c);
    return;
  }
  std::string calibration_note;
  if (!a.calibration.empty()) {
    if (a.factor > 0) throw Exit{kExitUsage, "--factor and --calibration both set the production factor: choose one"};
    auto prod = calibration_from_json(read_limited(a.calibration, kCalibrationMaxBytes, "calibration file"));
    if (!prod) throw Exit{kExitUsage, a.calibration + ": " + prod.error().message};
    auto here = measure_calibration(300, &g_interrupt);
    if (!here) throw Exit{kExitInvalid, "calibration: " + here.error().message};
    auto f = calibration_factor(*prod, *here);
    if (!f) throw Exit{kExitUsage, a.calibration + ": " + f.error().message};
    w.production_cpu_factor = *f;
    char b[96];
    std::snprintf(b, sizeof b, "production factor %.3g MEASURED by --calibration ", *f);
    calibration_note = b + a.calibration + " (host " + prod->host + ", " + prod->date_utc +
                       ") against this host: ml-dsa-44 and ed25519 sign/verify, thread CPU time, geometric mean";
  }
  io::refuse_existing(a.jsonl, g_force);  // before measuring, not after
  io::refuse_existing(a.html, g_force);
  auto sel = select_suites(w, a.suites);
  if (!sel) throw Exit{kExitUsage, sel.error().message};
  const auto& list = sel.value();
  std::vector<std::string> engines;
  if (!a.engine.empty()) {
    auto e = parse_engines(a.engine);
    if (!e) throw Exit{kExitUsage, e.error().message};
    engines = std::move(e.value());
  }
  if (a.print_predict_template) {
    std::cout << prediction_template(w, list);
    return;
  }

  Report rep;
  rep.workload = w;
  if (!a.predict.empty()) {
    auto p = prediction_from_json(read_limited(a.predict, kPredictionMaxBytes, "prediction file"), w);
    if (!p) throw Exit{kExitUsage, a.predict + ": " + p.error().message};
    p->source = a.predict;
    p->file_mtime_utc = mtime_utc(a.predict);
    rep.prediction = std::move(p.value());
  }
  MeasureOptions& o = rep.options;
  if (a.quick) {
    rep.mode = "quick";
    o.budget_ms_per_op = 40;
    o.warmup_ms = 5;
    o.min_samples = 3;
    o.min_samples_slow = 1;
    o.distinct_messages = 32;
  } else {
    rep.mode = "default";
    o.budget_ms_per_op = 250;
    o.warmup_ms = 20;
    o.min_samples = 5;
    o.min_samples_slow = 3;  // > 50 ms per call (SLH-DSA "s" signing, RSA keygen): keeps the run < 2 min
    o.distinct_messages = 256;
  }
  if (a.budget_ms > 0) {
    o.budget_ms_per_op = a.budget_ms;
    rep.mode += ", custom budget";
  }
  if (!calibration_note.empty()) rep.mode += "; " + calibration_note;
  if (a.message_size_set) o.message_size = a.message_size;
  if (a.min_samples) o.min_samples = a.min_samples;
  if (a.min_samples_slow) o.min_samples_slow = a.min_samples_slow;
  o.keep_samples = !a.jsonl.empty();
  o.thread_cpu_time = a.cpu_time;
  o.cancel = &g_interrupt;
  rep.multi_threads = a.multi;
  rep.suites_planned = list.size();

  const LoadSnapshot before = sample_load();
  rep.env = capture_environment();
  rep.env.load_before = before.loadavg;
  const bool err_tty = isatty(STDERR_FILENO) != 0;
  // Text on a terminal streams its rows as they are measured; --stream forces it (e.g. into tee).
  const bool stream = !a.json && (a.stream || isatty(STDOUT_FILENO) != 0);
  const bool show_progress = !a.no_progress;
  if (before.loadavg[0] > 0.5 * rep.env.cores)
    std::fprintf(stderr, "pqsig price: warning: load average %.2f on %u cores before the run: the machine is busy, "
                         "figures will be inflated\n", before.loadavg[0], rep.env.cores);

  // ETA: every operation is nominally warm-up + budget (+ two throughput runs with --multi);
  // the ratio of elapsed to nominal time so far scales what remains.
  const double unit_s = (o.warmup_ms + o.budget_ms_per_op * (a.multi ? 3.0 : 1.0)) / 1e3;
  std::size_t units_total = 0;
  for (const auto* s : list) units_total += ops_of(*s);
  std::size_t units_done = 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  auto eta = [&]() -> std::string {
    if (units_done == 0) return "~" + duration(static_cast<double>(units_total) * unit_s);
    const double per_unit = elapsed() / static_cast<double>(units_done);
    return duration(static_cast<double>(units_total - std::min(units_total, units_done)) * per_unit);
  };
  bool progress_shown = false;
  auto clear_progress = [&] {
    if (progress_shown) std::fprintf(stderr, "\r\033[K"), std::fflush(stderr), progress_shown = false;
  };
  const std::size_t idw = time_id_width(list);
  if (stream) {
    std::cout << render_text_intro(rep) << render_time_header(idw);
    std::cout.flush();
  }

  ProgressFn progress = [&](const Progress& p) {
    if (p.finished) {
      ++units_done;
      if (stream) {
        clear_progress();
        std::cout << render_time_row(p.suite, *p.finished, p.op_index == 0, idw);
        std::cout.flush();
      }
    }
    if (!show_progress || g_interrupt.load() || p.finished) return;  // the next call redraws
    if (err_tty) {
      std::fprintf(stderr, "\r\033[K[%zu/%zu] %s %s · %s elapsed · ETA %s · Ctrl-C prints what is measured",
                   p.index + 1, p.total, p.suite.c_str(), p.op.c_str(), duration(elapsed()).c_str(), eta().c_str());
      progress_shown = true;
    } else if (p.op == "prepare") {
      std::fprintf(stderr, "[%2zu/%zu] %s (%s elapsed, ETA %s)\n", p.index + 1, p.total, p.suite.c_str(),
                   duration(elapsed()).c_str(), eta().c_str());
    }
    std::fflush(stderr);
  };

  struct sigaction sa{}, old{};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  for (std::size_t i = 0; i < list.size() && !g_interrupt.load(); ++i) {
    rep.suites.push_back(measure_suite(*list[i], w.request, o, progress, i, list.size()));
    const SuiteResult& r = rep.suites.back();
    if (!r.available) {
      units_done += ops_of(*list[i]);
      if (stream) {
        clear_progress();
        std::cout << render_time_unavailable(r, idw);
        std::cout.flush();
      }
    } else if (a.multi && !g_interrupt.load()) {
      if (show_progress && err_tty) {
        std::fprintf(stderr, "\r\033[K[%zu/%zu] %s throughput on 1 and %u threads · ETA %s", i + 1, list.size(),
                     std::string(list[i]->id).c_str(), a.multi, eta().c_str());
        progress_shown = true;
      }
      auto tp = measure_throughput(*list[i], w.request, o, a.multi, o.budget_ms_per_op);
      if (tp) rep.throughput.emplace_back(list[i], std::move(tp.value()));
    }
  }
  if (!engines.empty() && !g_interrupt.load()) {
    // The other engines, after pqsig (their anchor and checker): price_engines.hpp.
    EngineOptions eo;
    eo.engines_dir = a.engines_dir;
    auto er = std::make_shared<EngineReport>(measure_engines(engines, list, rep, eo, [&](const std::string& what) {
      if (!show_progress) return;
      clear_progress();
      std::fprintf(stderr, "pqsig price: engine %s (%s elapsed)\n", what.c_str(), duration(elapsed()).c_str());
    }));
    for (const auto& r : er->runs)
      if (!r.available) std::fprintf(stderr, "pqsig price: engine %s: %s\n", r.name.c_str(), r.reason.c_str());
    rep.engines = std::move(er);
  }
  rep.wall_seconds = elapsed();
  rep.interrupted = g_interrupt.load();
  clear_progress();
  if (rep.interrupted) std::fprintf(stderr, "pqsig price: interrupted: printing what was measured\n");
  record_load(rep.env, before, sample_load());
  analyze(rep);
  if (rep.engines) analyze_engines(*rep.engines, rep);

  if (!a.jsonl.empty()) write_file(a.jsonl, render_jsonl(rep));
  if (!a.html.empty()) write_file(a.html, render_html(rep));
  if (a.json) std::cout << render_json(rep);
  else if (stream) std::cout << render_text_summary(rep);
  else std::cout << render_text(rep);
  std::cout.flush();
  sigaction(SIGINT, &old, nullptr);
  if (rep.interrupted) throw Exit{kExitInterrupted, ""};
}

}  // namespace

void register_price(CLI::App& app) {
  static PriceArgs a;
  auto* cmd = app.add_subcommand(
      "price", "Measure every suite on this machine: cost per operation, per request, per header and per block");
  cmd->add_flag("--quick", a.quick, "short run (< 20 s on 2 cores): smaller time budget and sample counts");
  cmd->add_option("--suites", a.suites, "comma-separated suite ids to measure (default: the workload's, or all)");
  cmd->add_flag("--json", a.json, "print the JSON summary instead of the table");
  cmd->add_option("--jsonl", a.jsonl, "write every raw sample plus an environment record to FILE (with --engine: the engines' records too)");
  cmd->add_option("--html", a.html, "write a self-contained HTML report to FILE");
  cmd->add_option("--workload", a.workload, "workload JSON file (surfaces, budgets, caps, factor, suites)");
  cmd->add_flag("--print-workload", a.print_workload, "print the workload (default or --workload) as JSON and exit");
  cmd->add_option("--predict", a.predict,
                  "prediction JSON written before the run (expected medians / verdicts): recorded unchanged and "
                  "reviewed against the measurements");
  cmd->add_flag("--print-predict-template", a.print_predict_template,
                "print a prediction file to fill in (for the selected suites) and exit");
  cmd->add_option("--multi", a.multi,
                  "also measure throughput on N cores (one thread per core, like openssl speed -multi) and the "
                  "scaling against one core")
      ->check(CLI::Range(1u, 256u));
  cmd->add_option("--budget-ms", a.budget_ms, "time budget per operation in ms (overrides the mode)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--factor", a.factor, "production CPU factor (overrides the workload)")->check(CLI::PositiveNumber);
  cmd->add_option("--cpu-budget-ms", a.cpu_budget_ms, "per-request CPU budget in ms (overrides the workload)")
      ->check(CLI::PositiveNumber);
  cmd->add_option_function<std::size_t>(
         "--message-size", [](const std::size_t& n) { a.message_size = n, a.message_size_set = true; },
         "sign N-byte messages instead of the Web Bot Auth signature base (0 = the base)");
  cmd->add_option("--min-samples", a.min_samples, "minimum samples per operation (overrides the mode)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--min-samples-slow", a.min_samples_slow,
                  "minimum samples of operations slower than 50 ms per call (overrides the mode)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--cpu-time", a.cpu_time,
                "time samples with the thread's CPU clock instead of wall time (for shared, loaded machines)");
  cmd->add_flag("--stream", a.stream,
                "print each row as it is measured even when stdout is not a terminal (the default on a terminal)");
  cmd->add_flag("--no-progress", a.no_progress, "no progress line on stderr");
  cmd->add_option("--engine", a.engine,
                  "also measure these engines side by side, each cross-checked against pqsig: pqsig, liboqs, openssl, "
                  "node (= node-webcrypto,node-crypto), workerd, noble, all (the JavaScript ones: make price-engines)");
  cmd->add_option("--engines-dir", a.engines_dir,
                  "where the JavaScript engines are installed (default: $PQSIG_ENGINES_DIR, else bench/engines of this "
                  "build's source tree)");
  cmd->add_flag("--calibrate", a.calibrate,
                "measure a fixed reference workload (pqsig ml-dsa-44 and ed25519 sign/verify, thread CPU time) and "
                "print it as a calibration file (run on the production host) and exit");
  cmd->add_option("--calibration", a.calibration,
                  "calibration file from the production host (--calibrate): the production CPU factor becomes the "
                  "measured ratio of its reference times to this host's, labelled as such");
  cmd->add_flag("--force", g_force, "replace existing --jsonl / --html files");
  add_price_tls_options(*cmd);  // --tls, --tls-* (cmd_price_tls.cpp)
  cmd->callback([] { run_price(a); });
}

}  // namespace pqsig::cli
