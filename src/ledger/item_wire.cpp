// The ledger item wire format (item_wire.hpp): items as JSON (parse, print), verdicts as JSON, the
// `pqsig ledger verify` session loop and provider lookup. Shared by `pqsig ledger verify`
// (tools/cmd_ledger.cpp), batch's optional "provider" member (batch_provider.cpp), `ledger bench`
// (src/price/ledger_bench.cpp), the tests and the fuzzers.
#include <cstdio>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ledger/batch.hpp"
#include "ledger/item_wire.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/mldsa.hpp"

namespace pqsig::ledger {
namespace pp = pqsig::provider;
using json = nlohmann::json;

Item OwnedItem::view() const {
  Item it{suite, pk, msg, sig, opt};
  it.opt.ctx = ctx;
  return it;
}

namespace {
bytes item_hex_member(const json& j, const char* name, bool required) {
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
bool item_has(const json& j, const char* name) { return j.contains(name) && !j.at(name).is_null(); }
}  // namespace

OwnedItem parse_item(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("an item must be a JSON object");
  if (!j.contains("alg") || !j["alg"].is_string()) throw std::invalid_argument("missing field \"alg\"");
  auto suite = parse_suite_ref(j["alg"].get<std::string>());
  if (!suite) throw std::invalid_argument(suite.error().message);
  if ((*suite)->cls != SuiteClass::signature) throw std::invalid_argument("\"alg\" must be a signature suite");
  OwnedItem it;
  it.suite = *suite;
  it.pk = item_hex_member(j, "pk", true);
  it.sig = item_hex_member(j, "sig", true);
  const bool msg = item_has(j, "msg"), mu = item_has(j, "mu");
  if (msg == mu) throw std::invalid_argument("exactly one of \"msg\" and \"mu\" is required");
  std::string iface = "external";
  if (item_has(j, "interface")) {
    if (!j["interface"].is_string()) throw std::invalid_argument("field \"interface\" must be a string");
    iface = j["interface"].get<std::string>();
    if (iface != "external" && iface != "internal")
      throw std::invalid_argument("field \"interface\" must be \"external\" or \"internal\"");
  }
  it.ctx = item_hex_member(j, "ctx", false);
  if (it.ctx.size() > 255) throw std::invalid_argument("field \"ctx\" must be at most 255 bytes");
  if (item_has(j, "prehash")) {
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
    it.msg = item_hex_member(j, "mu", true);
    if (it.msg.size() != mldsa::kMuBytes) throw std::invalid_argument("field \"mu\" must be 64 bytes");
    it.opt.input = VerifyOptions::Input::mu;
  } else {
    it.msg = item_hex_member(j, "msg", true);
    if (iface == "internal") it.opt.input = VerifyOptions::Input::internal;
  }
  return it;
}

json item_json(const Disagreement& d) {
  json j{{"alg", d.suite}, {"pk", to_hex(d.pk, false)}, {"sig", to_hex(d.sig, false)}};
  if (d.input == VerifyOptions::Input::mu) {
    j["mu"] = to_hex(d.msg, false);
  } else {
    j["msg"] = to_hex(d.msg, false);
    if (d.input == VerifyOptions::Input::internal) j["interface"] = "internal";
  }
  if (!d.ctx.empty()) j["ctx"] = to_hex(d.ctx, false);
  if (d.prehash) j["prehash"] = std::string(hash::prehash_info(*d.prehash).acvp_name);
  return j;
}

ItemLine parse_item_line(std::string_view line) {
  ItemLine r;
  try {
    const json j = batch::parse_request(line, "item");
    if (j.is_object()) r.id = batch::echo_id(j);
    r.item = parse_item(j);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

json verdict_json(const Verdict& v) {
  json j{{"ok", v.accepted}, {"first_ok", v.first_ok}, {"second_ok", nullptr}, {"disagreement", v.disagreement}};
  if (v.refused) {
    j["first_ok"] = nullptr;
    j["refused"] = true;
  }
  if (v.second_ran) j["second_ok"] = v.second_ok;
  if (!v.reason.empty()) j["reason"] = v.reason;
  return j;
}

VerifySessionStats run_verify_session(std::istream& in, std::ostream& out, DualVerifier& dv, ThreadPool* pool,
                                      std::size_t max_line_bytes) {
  constexpr std::size_t kChunk = 512;  // items verified together (memory stays bounded)
  VerifySessionStats st;
  std::vector<ItemLine> slots;
  auto flush = [&] {
    std::vector<Item> views;
    std::vector<std::size_t> where;
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (slots[i].item) {
        views.push_back(slots[i].item->view());
        where.push_back(i);
      }
    std::vector<Verdict> verdicts = verify_block(dv, views, pool);
    std::vector<json> replies(slots.size());
    for (std::size_t k = 0; k < where.size(); ++k) replies[where[k]] = verdict_json(verdicts[k]);
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (!slots[i].item)
        replies[i] = json{{"ok", false}, {"first_ok", nullptr}, {"second_ok", nullptr}, {"disagreement", false},
                          {"error", slots[i].error}};
      if (slots[i].id) replies[i]["id"] = *slots[i].id;
      out << batch::reply_text(replies[i]) << '\n';
      ++st.lines;
    }
    out.flush();
    slots.clear();
  };
  batch::LineReader reader(in, max_line_bytes);
  std::string line;
  std::size_t length = 0;
  while (reader.next(line, length)) {
    ItemLine s;
    if (reader.too_long()) {
      s.error = "line longer than " + std::to_string(max_line_bytes) + " bytes (" + std::to_string(length) +
                "); discarded";
      ++st.too_long;
    } else if (line.find_first_not_of(" \t") == std::string::npos) {
      s.error = "empty item line";
    } else {
      s = parse_item_line(line);
    }
    if (!s.item) ++st.errors;
    slots.push_back(std::move(s));
    if (slots.size() >= kChunk) flush();
  }
  flush();
  return st;
}

Result<std::shared_ptr<const pp::Provider>> usable_provider(const std::string& name) {
  auto p = pp::find(name);
  if (!p) return p.error();
  const pp::ProviderInfo info = (*p)->info();
  if (!info.available) return Error{Errc::unsupported, "provider '" + name + "' is not available: " + info.reason};
  return *p;
}
}  // namespace pqsig::ledger
