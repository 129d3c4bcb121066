// `pqsig price` workload: surfaces, budgets, caps, production factor, suites, hybrid pairs and the
// sample request. JSON in and out; strict on input (unknown keys and wrong types are errors).
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "jose/json_strict.hpp"
#include "pqsig/price.hpp"
#include "pqsig/price_tls.hpp"

namespace pqsig::price {

using json = nlohmann::json;

Workload default_workload() {
  Workload w;
  // The crawler's surfaces (background/crawler-signatures-priced.md).
  // requests_per_day: an assumed rate (the write-up gives none) for the stateful suites' key
  // lifetime; set your own in a workload file.
  w.surfaces = {{"crawl", 1, 0, false, 10000}, {"playlist", 21, 0, false, 1000}, {"discovery", 28, 0, false, 1000}};
  w.hybrids = {{"ed25519", "ml-dsa-44"}, {"ed25519", "ml-dsa-65"}, {"ecdsa-p256-sha256", "ml-dsa-65"},
               {"ed448", "ml-dsa-87"}};
  // The settlement write-up's handshakes (price_tls.hpp): every certificate algorithm and group.
  w.tls.certs = tls_cert_names();
  w.tls.groups = tls_group_names();
  return w;
}

using ojson = nlohmann::ordered_json;  // at namespace scope: one alias per unity batch

namespace {

ojson request_to_json(const SampleRequest& r) {
  ojson h = ojson::array();
  for (const auto& [k, v] : r.headers) h.push_back(ojson::array({k, v}));
  return ojson{{"method", r.method},         {"authority", r.authority}, {"path", r.path},
              {"signature_agent", r.signature_agent}, {"label", r.label}, {"agent_key", r.agent_key}, {"tag", r.tag},
              {"created", r.created},       {"validity_s", r.validity_s}, {"headers", h}};
}

ojson workload_tls_to_json(const TlsWorkload& t) {
  return ojson{{"handshakes_per_round", t.handshakes_per_round},
               {"parties", t.parties},
               {"latency_budget_ms", t.latency_budget_ms},
               {"chain_depth", t.chain_depth},
               {"certs", t.certs},
               {"groups", t.groups}};
}

}  // namespace

std::string workload_to_json(const Workload& w) {
  ojson s = ojson::array();
  for (const auto& x : w.surfaces)
    s.push_back({{"name", x.name},
                 {"signatures_per_request", x.signatures_per_request},
                 {"verifications_per_request", x.verifications_per_request},
                 {"key_reuse", x.key_reuse},
                 {"requests_per_day", x.requests_per_day}});
  ojson hy = ojson::array();
  for (const auto& h : w.hybrids) hy.push_back(ojson::array({h.classical, h.pq}));
  ojson j = {{"surfaces", s},
            {"cpu_budget_ms", w.cpu_budget_ms},
            {"production_cpu_factor", w.production_cpu_factor},
            {"header_cap_bytes", w.header_cap_bytes},
            {"block_budget_vu", w.block_budget_vu},
            {"vu_reference", w.vu_reference},
            {"suites", w.suites},
            {"hybrids", hy},
            {"request", request_to_json(w.request)},
            {"tls", workload_tls_to_json(w.tls)}};
  return j.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";  // never throws on bad UTF-8
}

namespace {

struct Bad {
  Errc code;
  std::string msg;
};

[[noreturn]] void fail(Errc c, const std::string& path, const std::string& what) {
  throw Bad{c, "workload: " + path + ": " + what};
}

void check_keys(const json& o, const std::string& path, std::initializer_list<const char*> allowed) {
  if (!o.is_object()) fail(Errc::invalid_encoding, path.empty() ? "(top level)" : path, "must be an object");
  std::set<std::string> ok;
  for (auto* a : allowed) ok.insert(a);
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (!ok.count(it.key())) {
      std::string list;
      for (auto* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
      fail(Errc::invalid_encoding, path + (path.empty() ? "" : ".") + it.key(), "unknown key (allowed: " + list + ")");
    }
  }
}

std::string key_path(const std::string& path, const char* k) { return path.empty() ? k : path + "." + k; }

double get_number(const json& o, const std::string& path, const char* k, double dflt, double min, double max) {
  if (!o.contains(k)) return dflt;
  const json& v = o.at(k);
  if (!v.is_number()) fail(Errc::invalid_encoding, key_path(path, k), "must be a number");
  double d = v.get<double>();
  if (!std::isfinite(d) || d < min || d > max)
    fail(Errc::invalid_argument, key_path(path, k),
         "out of range [" + json(min).dump() + ", " + json(max).dump() + "]: " + v.dump());
  return d;
}

bool get_bool(const json& o, const std::string& path, const char* k, bool dflt) {
  if (!o.contains(k)) return dflt;
  const json& v = o.at(k);
  if (!v.is_boolean()) fail(Errc::invalid_encoding, key_path(path, k), "must be true or false");
  return v.get<bool>();
}

std::uint64_t get_uint(const json& o, const std::string& path, const char* k, std::uint64_t dflt, std::uint64_t min,
                       std::uint64_t max) {
  if (!o.contains(k)) return dflt;
  const json& v = o.at(k);
  if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0))
    fail(Errc::invalid_encoding, key_path(path, k), "must be a non-negative integer");
  auto u = v.get<std::uint64_t>();
  if (u < min || u > max)
    fail(Errc::invalid_argument, key_path(path, k),
         "out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]: " + v.dump());
  return u;
}

std::int64_t get_int(const json& o, const std::string& path, const char* k, std::int64_t dflt) {
  if (!o.contains(k)) return dflt;
  const json& v = o.at(k);
  if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > 0x7FFFFFFFFFFFFFFFull))
    fail(Errc::invalid_encoding, key_path(path, k), "must be an integer (64-bit signed)");
  return v.get<std::int64_t>();
}

std::string get_string(const json& o, const std::string& path, const char* k, const std::string& dflt,
                       bool allow_empty = false) {
  if (!o.contains(k)) return dflt;
  const json& v = o.at(k);
  if (!v.is_string()) fail(Errc::invalid_encoding, key_path(path, k), "must be a string");
  auto s = v.get<std::string>();
  if (s.empty() && !allow_empty) fail(Errc::invalid_argument, key_path(path, k), "must not be empty");
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) fail(Errc::invalid_argument, key_path(path, k), "control characters are not allowed");
  return s;
}

std::string suite_ref(const json& v, const std::string& path) {
  if (!v.is_string()) fail(Errc::invalid_encoding, path, "must be a suite identifier string");
  auto s = v.get<std::string>();
  auto r = parse_suite_ref(s);
  if (!r) fail(Errc::unknown_suite, path, r.error().message);
  return s;
}

// A `tls.certs` / `tls.groups` array: known names (any case, as on the command line), no
// duplicates, at least one; returned in display order with the canonical spelling.
std::vector<std::string> workload_tls_names(const json& o, const char* k, const std::vector<std::string>& known,
                                       Result<std::vector<std::string>> (*parse)(std::string_view)) {
  const std::string p = key_path("tls", k);
  const json& a = o.at(k);
  if (!a.is_array()) fail(Errc::invalid_encoding, p, "must be an array of names");
  if (a.empty()) fail(Errc::invalid_argument, p, "must not be empty (leave the key out for all)");
  std::set<std::string> chosen;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string pi = p + "[" + std::to_string(i) + "]";
    if (!a[i].is_string()) fail(Errc::invalid_encoding, pi, "must be a string");
    const auto item = a[i].get<std::string>();
    // One name per entry: not a comma-separated list, not `all`.
    auto r = item.find(',') == std::string::npos ? parse(item) : Result<std::vector<std::string>>{Error{
                                                                      Errc::invalid_argument, "one name per entry"}};
    if (r && r->size() != 1) r = Error{Errc::invalid_argument, "one name per entry, not '" + item + "'"};
    if (!r) fail(Errc::invalid_argument, pi, r.error().message);
    if (!chosen.insert(r->front()).second) fail(Errc::invalid_argument, pi, "duplicate '" + r->front() + "'");
  }
  std::vector<std::string> out;
  for (const auto& n : known)
    if (chosen.count(n)) out.push_back(n);
  return out;
}

void workload_tls_from_json(const json& t, TlsWorkload& w) {
  check_keys(t, "tls", {"handshakes_per_round", "parties", "latency_budget_ms", "chain_depth", "certs", "groups"});
  w.handshakes_per_round = get_uint(t, "tls", "handshakes_per_round", w.handshakes_per_round, 1, kTlsMaxPerRound);
  w.parties = get_uint(t, "tls", "parties", w.parties, 1, kTlsMaxParties);
  w.latency_budget_ms = get_number(t, "tls", "latency_budget_ms", w.latency_budget_ms, 1e-6, 1e9);
  w.chain_depth = get_uint(t, "tls", "chain_depth", w.chain_depth, 0, kTlsMaxChainDepth);
  if (t.contains("certs")) w.certs = workload_tls_names(t, "certs", tls_cert_names(), parse_tls_certs);
  if (t.contains("groups")) w.groups = workload_tls_names(t, "groups", tls_group_names(), parse_tls_groups);
}

}  // namespace

Result<Workload> workload_from_json(std::string_view text) {
  // The library's strict reader: size, depth, duplicate names, UTF-8 (a workload file is user input).
  auto parsed = jose::detail::parse_strict<json>(text, "workload");
  if (!parsed) return parsed.error();
  const json j = std::move(parsed.value());
  try {
    Workload w = default_workload();
    check_keys(j, "", {"surfaces", "cpu_budget_ms", "production_cpu_factor", "header_cap_bytes", "block_budget_vu",
                       "vu_reference", "suites", "hybrids", "request", "tls"});
    if (j.contains("surfaces")) {
      const json& a = j.at("surfaces");
      if (!a.is_array()) fail(Errc::invalid_encoding, "surfaces", "must be an array");
      w.surfaces.clear();
      std::set<std::string> names;
      for (std::size_t i = 0; i < a.size(); ++i) {
        std::string p = "surfaces[" + std::to_string(i) + "]";
        check_keys(a[i], p,
                   {"name", "signatures_per_request", "verifications_per_request", "key_reuse", "requests_per_day"});
        Surface s;
        if (!a[i].contains("name")) fail(Errc::invalid_encoding, p + ".name", "is required");
        s.name = get_string(a[i], p, "name", "");
        if (!names.insert(s.name).second) fail(Errc::invalid_argument, p + ".name", "duplicate surface '" + s.name + "'");
        s.signatures_per_request = get_number(a[i], p, "signatures_per_request", 0, 0, 1e9);
        s.verifications_per_request = get_number(a[i], p, "verifications_per_request", 0, 0, 1e9);
        s.key_reuse = get_bool(a[i], p, "key_reuse", false);
        s.requests_per_day = get_number(a[i], p, "requests_per_day", 0, 0, 1e15);
        w.surfaces.push_back(std::move(s));
      }
    }
    w.cpu_budget_ms = get_number(j, "", "cpu_budget_ms", w.cpu_budget_ms, 1e-6, 1e9);
    w.production_cpu_factor = get_number(j, "", "production_cpu_factor", w.production_cpu_factor, 1e-6, 1e6);
    w.header_cap_bytes = get_uint(j, "", "header_cap_bytes", w.header_cap_bytes, 1, 1u << 30);
    w.block_budget_vu = get_uint(j, "", "block_budget_vu", w.block_budget_vu, 1, std::uint64_t{1} << 50);
    if (j.contains("vu_reference")) w.vu_reference = suite_ref(j.at("vu_reference"), "vu_reference");
    if (j.contains("suites")) {
      const json& a = j.at("suites");
      if (!a.is_array()) fail(Errc::invalid_encoding, "suites", "must be an array of suite identifiers");
      w.suites.clear();
      for (std::size_t i = 0; i < a.size(); ++i) w.suites.push_back(suite_ref(a[i], "suites[" + std::to_string(i) + "]"));
    }
    if (j.contains("hybrids")) {
      const json& a = j.at("hybrids");
      if (!a.is_array()) fail(Errc::invalid_encoding, "hybrids", "must be an array of [classical, pq] pairs");
      w.hybrids.clear();
      for (std::size_t i = 0; i < a.size(); ++i) {
        std::string p = "hybrids[" + std::to_string(i) + "]";
        if (!a[i].is_array() || a[i].size() != 2) fail(Errc::invalid_encoding, p, "must be a [classical, pq] pair");
        w.hybrids.push_back({suite_ref(a[i][0], p + "[0]"), suite_ref(a[i][1], p + "[1]")});
      }
    }
    if (j.contains("request")) {
      const json& r = j.at("request");
      check_keys(r, "request", {"method", "authority", "path", "signature_agent", "label", "agent_key", "tag", "created",
                                "validity_s", "headers"});
      SampleRequest& q = w.request;
      q.method = get_string(r, "request", "method", q.method);
      q.authority = get_string(r, "request", "authority", q.authority);
      q.path = get_string(r, "request", "path", q.path);
      q.signature_agent = get_string(r, "request", "signature_agent", q.signature_agent);
      q.label = get_string(r, "request", "label", q.label);
      q.agent_key = get_string(r, "request", "agent_key", q.agent_key);
      q.tag = get_string(r, "request", "tag", q.tag);
      q.created = get_int(r, "request", "created", q.created);
      q.validity_s = get_int(r, "request", "validity_s", q.validity_s);
      if (r.contains("headers")) {
        const json& h = r.at("headers");
        if (!h.is_array()) fail(Errc::invalid_encoding, "request.headers", "must be an array of [name, value] pairs");
        q.headers.clear();
        for (std::size_t i = 0; i < h.size(); ++i) {
          std::string p = "request.headers[" + std::to_string(i) + "]";
          if (!h[i].is_array() || h[i].size() != 2 || !h[i][0].is_string() || !h[i][1].is_string())
            fail(Errc::invalid_encoding, p, "must be a [name, value] pair of strings");
          q.headers.emplace_back(h[i][0].get<std::string>(), h[i][1].get<std::string>());
        }
      }
    }
    if (j.contains("tls")) workload_tls_from_json(j.at("tls"), w.tls);
    return w;
  } catch (const Bad& b) {
    return Error{b.code, b.msg};
  } catch (const json::exception& e) {
    return Error{Errc::invalid_encoding, std::string("workload: ") + e.what()};
  }
}

}  // namespace pqsig::price
