// `pqsig ledger` items as JSON (parse, print) and provider lookup: shared by `pqsig ledger verify`
// (cmd_ledger.cpp) and batch's optional "provider" member (batch_provider.cpp), so it lives in the
// pqsig_batch unit that the CLI, the tests and the fuzzers link.
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "ledger_cli.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/mldsa.hpp"

namespace pqsig::cli::ledger {
namespace pl = pqsig::ledger;
namespace pp = pqsig::provider;

pl::Item OwnedItem::view() const {
  pl::Item it{suite, pk, msg, sig, opt};
  it.opt.ctx = ctx;
  return it;
}

namespace {
bytes hex_member(const json& j, const char* name, bool required) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) {
    if (required) throw std::invalid_argument(std::string("missing field \"") + name + "\"");
    return {};
  }
  if (!it->is_string()) throw std::invalid_argument(std::string("field \"") + name + "\" must be a hex string");
  auto r = from_hex(it->get<std::string>());
  if (!r) throw std::invalid_argument(std::string("field \"") + name + "\": " + r.error().message);
  return std::move(r.value());
}
bool has(const json& j, const char* name) { return j.contains(name) && !j.at(name).is_null(); }
}  // namespace

OwnedItem parse_item(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("an item must be a JSON object");
  if (!j.contains("alg") || !j["alg"].is_string()) throw std::invalid_argument("missing field \"alg\"");
  auto suite = parse_suite_ref(j["alg"].get<std::string>());
  if (!suite) throw std::invalid_argument(suite.error().message);
  if ((*suite)->cls != SuiteClass::signature) throw std::invalid_argument("\"alg\" must be a signature suite");
  OwnedItem it;
  it.suite = *suite;
  it.pk = hex_member(j, "pk", true);
  it.sig = hex_member(j, "sig", true);
  const bool msg = has(j, "msg"), mu = has(j, "mu");
  if (msg == mu) throw std::invalid_argument("exactly one of \"msg\" and \"mu\" is required");
  std::string iface = "external";
  if (has(j, "interface")) {
    if (!j["interface"].is_string()) throw std::invalid_argument("field \"interface\" must be a string");
    iface = j["interface"].get<std::string>();
    if (iface != "external" && iface != "internal")
      throw std::invalid_argument("field \"interface\" must be \"external\" or \"internal\"");
  }
  it.ctx = hex_member(j, "ctx", false);
  if (it.ctx.size() > 255) throw std::invalid_argument("field \"ctx\" must be at most 255 bytes");
  if (has(j, "prehash")) {
    if (!j["prehash"].is_string()) throw std::invalid_argument("field \"prehash\" must be a string");
    const auto* ph = hash::find_prehash(j["prehash"].get<std::string>());
    if (!ph) throw std::invalid_argument("unknown prehash \"" + j["prehash"].get<std::string>() + "\"");
    it.opt.prehash = ph->id;
  }
  if (mu || iface == "internal") {
    if (!it.ctx.empty() || it.opt.prehash)
      throw std::invalid_argument("\"ctx\" and \"prehash\" apply to the external interface only");
  }
  if (mu) {
    it.msg = hex_member(j, "mu", true);
    if (it.msg.size() != mldsa::kMuBytes) throw std::invalid_argument("field \"mu\" must be 64 bytes");
    it.opt.input = pl::VerifyOptions::Input::mu;
  } else {
    it.msg = hex_member(j, "msg", true);
    if (iface == "internal") it.opt.input = pl::VerifyOptions::Input::internal;
  }
  return it;
}

json item_json(const pl::Disagreement& d) {
  json j{{"alg", d.suite}, {"pk", to_hex(d.pk, false)}, {"sig", to_hex(d.sig, false)}};
  if (d.input == pl::VerifyOptions::Input::mu) {
    j["mu"] = to_hex(d.msg, false);
  } else {
    j["msg"] = to_hex(d.msg, false);
    if (d.input == pl::VerifyOptions::Input::internal) j["interface"] = "internal";
  }
  if (!d.ctx.empty()) j["ctx"] = to_hex(d.ctx, false);
  if (d.prehash) j["prehash"] = std::string(hash::prehash_info(*d.prehash).acvp_name);
  return j;
}

std::shared_ptr<const pp::Provider> usable_provider(const std::string& name) {
  auto p = pp::find(name);
  if (!p) throw Exit{kExitUsage, p.error().message};
  const pp::ProviderInfo info = (*p)->info();
  if (!info.available) throw Exit{kExitUsage, "provider '" + name + "' is not available: " + info.reason};
  return *p;
}
}  // namespace pqsig::cli::ledger
