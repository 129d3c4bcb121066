// pqsig — command-line entry point.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "pqsig/common.hpp"

int main(int argc, char** argv) {
  CLI::App app{"pqsig — post-quantum signatures and key exchange: sign, verify, and price them"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(pqsig::version()));
  using namespace pqsig::cli;
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "pqsig: " << e.what() << "\n";
    return kExitUsage;
  } catch (const Exit& e) {
    if (!e.message.empty()) std::cerr << "pqsig: " << e.message << "\n";
    return e.code;
  } catch (const std::exception& e) {
    std::cerr << "pqsig: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}
