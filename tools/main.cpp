// pqsig — command-line entry point. Conventions (tools/io.hpp): usage and exit 2 for a bare
// `pqsig`, an unknown command, option or argument (named); exit codes 0 valid / 1 invalid / 2 usage
// or input error; `--version` prints version, commit, compiler, CPU features and providers.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "commands.hpp"
#include "docgen.hpp"
#include "io.hpp"
#include "version.hpp"

namespace pqsig::cli {
void register_hbs(CLI::App& app);  // cmd_hbs.cpp: hbs keygen|sign|verify|status|reserve (LMS/HSS)
}

namespace {

using namespace pqsig::cli;

// The deepest subcommand the parser selected.
CLI::App* selected(CLI::App& app) {
  CLI::App* cur = &app;
  for (;;) {
    auto subs = cur->get_subcommands();
    if (subs.empty()) return cur;
    cur = subs.back();
  }
}

std::string command_path(const CLI::App* a) {
  std::string p;
  for (; a; a = a->get_parent()) p = a->get_name() + (p.empty() ? "" : " " + p);
  return p;
}

bool has_visible_subcommands(const CLI::App* a) {
  return !a->get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }).empty();
}

// One line naming what was wrong (the first unknown option / command / argument), plus the usage
// of the command it was given to when that helps. Always exit 2.
int usage_error(CLI::App& app, const CLI::ParseError& e) {
  CLI::App* cur = selected(app);
  const std::string where = command_path(cur);
  std::vector<std::string> extra = app.remaining(true);
  std::string msg;
  bool show_usage = false;
  if (!extra.empty()) {
    const std::string& x = extra.front();
    if (x.size() > 1 && x[0] == '-') {
      msg = "unknown option '" + x + "' for '" + where + "' (see '" + where + " --help')";
    } else if (has_visible_subcommands(cur)) {
      msg = "unknown command '" + x + "' for '" + where + "'";
      show_usage = true;
    } else {
      msg = "unexpected argument '" + x + "' for '" + where + "' (see '" + where + " --help')";
    }
  } else if (has_visible_subcommands(cur) && cur->get_subcommands().empty() &&
             dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
    msg = "'" + where + "' needs a command";
    show_usage = true;
  } else {
    msg = std::string(e.what()) + " (see '" + where + " --help')";
  }
  std::cerr << "pqsig: " << msg << "\n";
  if (show_usage) std::cerr << "\n" << cur->help();
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pqsig — post-quantum signatures and key exchange: sign, verify, and price them"};
  app.name("pqsig");
  app.require_subcommand(1);
  app.fallthrough();  // global options (below) are accepted after the command too
  app.footer("Exit status: 0 valid / success, 1 invalid signature or policy not satisfied, 2 usage or input error.\n"
             "'-' means stdin / stdout wherever a file is taken. See pqsig(1).");
  app.set_version_flag("--version", [] { return version_text(); }, "print version, commit, compiler, CPU features, providers");
  app.add_flag_callback("--allow-insecure-key-perms", [] { io::set_allow_insecure_key_perms(true); },
                        "use private key files readable by group/others (also: PQSIG_ALLOW_INSECURE_KEY_PERMS=1)");
  int rc = kExitOk;
#if defined(PQSIG_CLI_PRICE_ONLY)
  // build/pqsig-price (`make price`): only `price`, so it builds without the verifier service
  // (Boost.Beast), the client (libcurl) and the other commands; build/pqsig has them all.
  register_price(app);
#else
  register_docgen(app);  // `completion` and the man page walk the whole tree when they run
  register_suites(app);
  register_keys(app);
  register_key_records(app);
  register_batch(app);
  register_kem(app);
  register_price(app);
  register_sf(app);
  register_http(app);
  register_ledger(app);
  register_serve(app);
  register_fetch(app);
  register_hbs(app);
#endif
  try {
    if (argc <= 1) {  // bare `pqsig`: the usage, as an error
      std::cerr << app.help();
      return kExitUsage;
    }
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    return usage_error(app, e);
  } catch (const Exit& e) {
    if (!e.message.empty()) std::cerr << "pqsig: " << e.message << "\n";
    rc = e.code;
  } catch (const std::exception& e) {
    std::cerr << "pqsig: " << e.what() << "\n";
    rc = kExitUsage;
  }
  // A failed write to stdout (full disk, closed pipe) is an error, never a silent success.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0) {
    std::cerr << "pqsig: error writing to stdout: " << std::strerror(errno) << "\n";
    return kExitUsage;
  }
  return rc;
}
