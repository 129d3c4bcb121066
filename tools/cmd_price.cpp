// `pqsig price`: the main job. Measures every suite of the registry on this machine and prints
// what it costs per operation, per request (against a CPU budget), per header (against the cap)
// and per block (Verify Units), with JSON / JSONL / HTML outputs.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "io.hpp"
#include "pqsig/price.hpp"

namespace pqsig::cli {

namespace {

struct PriceArgs {
  bool quick = false;
  bool json = false;
  bool print_workload = false;
  bool no_progress = false;
  bool cpu_time = false;
  std::string suites, jsonl, html, workload;
  double budget_ms = 0;
  double factor = 0;
  double cpu_budget_ms = 0;
  std::size_t message_size = 0;
  bool message_size_set = false;
  std::size_t min_samples = 0, min_samples_slow = 0;
};

bool g_force = false;  // --force: replace existing --jsonl / --html files
void write_file(const std::string& path, const std::string& data) { io::write_output(path, data, {.force = g_force}); }

void run_price(const PriceArgs& a) {
  using namespace pqsig::price;
  Workload w = default_workload();
  if (!a.workload.empty()) {
    auto r = workload_from_json(io::read_file(a.workload));  // "-" = stdin
    if (!r) throw Exit{kExitUsage, a.workload + ": " + r.error().message};
    w = std::move(r.value());
  }
  if (a.factor > 0) w.production_cpu_factor = a.factor;
  if (a.cpu_budget_ms > 0) w.cpu_budget_ms = a.cpu_budget_ms;
  if (a.print_workload) {
    std::cout << workload_to_json(w);
    return;
  }
  io::refuse_existing(a.jsonl, g_force);  // before measuring, not after
  io::refuse_existing(a.html, g_force);
  auto sel = select_suites(w, a.suites);
  if (!sel) throw Exit{kExitUsage, sel.error().message};

  Report rep;
  rep.workload = w;
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
  if (a.message_size_set) o.message_size = a.message_size;
  if (a.min_samples) o.min_samples = a.min_samples;
  if (a.min_samples_slow) o.min_samples_slow = a.min_samples_slow;
  o.keep_samples = !a.jsonl.empty();
  o.thread_cpu_time = a.cpu_time;

  rep.env = capture_environment();
  const bool tty = isatty(STDERR_FILENO) != 0;
  ProgressFn progress;
  if (!a.no_progress) {
    progress = [tty](const Progress& p) {
      if (tty)
        std::fprintf(stderr, "\r\033[K[%2zu/%zu] %s %s", p.index + 1, p.total, p.suite.c_str(), p.op.c_str());
      else if (p.op == "prepare")
        std::fprintf(stderr, "[%2zu/%zu] %s\n", p.index + 1, p.total, p.suite.c_str());
      std::fflush(stderr);
    };
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto& list = sel.value();
  for (std::size_t i = 0; i < list.size(); ++i)
    rep.suites.push_back(measure_suite(*list[i], w.request, o, progress, i, list.size()));
  rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (progress && tty) std::fprintf(stderr, "\r\033[K");
  analyze(rep);

  if (!a.jsonl.empty()) write_file(a.jsonl, render_jsonl(rep));
  if (!a.html.empty()) write_file(a.html, render_html(rep));
  if (a.json) std::cout << render_json(rep);
  else std::cout << render_text(rep);
  std::cout.flush();
}

}  // namespace

void register_price(CLI::App& app) {
  static PriceArgs a;
  auto* cmd = app.add_subcommand(
      "price", "Measure every suite on this machine: cost per operation, per request, per header and per block");
  cmd->add_flag("--quick", a.quick, "short run (< 20 s on 2 cores): smaller time budget and sample counts");
  cmd->add_option("--suites", a.suites, "comma-separated suite ids to measure (default: the workload's, or all)");
  cmd->add_flag("--json", a.json, "print the JSON summary instead of the table");
  cmd->add_option("--jsonl", a.jsonl, "write every raw sample plus an environment record to FILE");
  cmd->add_option("--html", a.html, "write a self-contained HTML report to FILE");
  cmd->add_option("--workload", a.workload, "workload JSON file (surfaces, budgets, caps, factor, suites)");
  cmd->add_flag("--print-workload", a.print_workload, "print the workload (default or --workload) as JSON and exit");
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
  cmd->add_flag("--no-progress", a.no_progress, "no progress indicator on stderr");
  cmd->add_flag("--force", g_force, "replace existing --jsonl / --html files");
  cmd->callback([] { run_price(a); });
}

}  // namespace pqsig::cli
