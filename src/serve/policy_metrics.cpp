// pqsig_serve: the strict JSON policy of the verifier and its Prometheus metrics.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "jose/json_strict.hpp"
#include "pqsig/serve.hpp"

namespace pqsig::serve {
namespace {

using json = jose::detail::json;

Error bad(const std::string& what) { return Error{Errc::invalid_argument, "policy: " + what}; }

Result<std::vector<std::string>> strings(const json& v, const char* name, std::size_t max_items) {
  if (!v.is_array()) return bad(std::string(name) + " must be an array of strings");
  if (v.size() > max_items) return bad(std::string(name) + " has more than " + std::to_string(max_items) + " items");
  std::vector<std::string> out;
  for (const auto& e : v) {
    if (!e.is_string()) return bad(std::string(name) + " must be an array of strings");
    auto s = e.get<std::string>();
    if (s.empty() || s.size() > 256) return bad(std::string(name) + ": items are 1..256 characters");
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::int64_t> integer(const json& v, const char* name, std::int64_t lo, std::int64_t hi) {
  if (!v.is_number_integer()) return bad(std::string(name) + " must be an integer");
  auto x = v.get<std::int64_t>();
  if (x < lo || x > hi) return bad(std::string(name) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi));
  return x;
}

}  // namespace

Result<std::string> normalize_authority(std::string_view a, std::string_view scheme) {
  auto bad_authority = [&a](const char* why) {
    return Error{Errc::invalid_argument, "authority '" + std::string(a.substr(0, 64)) + "': " + why};
  };
  if (a.empty() || a.size() > 262) return bad_authority("must be host[:port], 1..262 characters");
  std::string s(a);
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string host = s, port;
  if (s.front() == '[') {
    auto close = s.find(']');
    if (close == std::string::npos) return bad_authority("unclosed IPv6 literal");
    host = s.substr(0, close + 1);
    if (close + 1 < s.size()) {
      if (s[close + 1] != ':') return bad_authority("text after the IPv6 literal");
      port = s.substr(close + 2);
    }
    for (char c : host.substr(1, host.size() - 2))
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') return bad_authority("not an IPv6 literal");
  } else {
    auto colon = s.find(':');
    if (colon != std::string::npos) {
      host = s.substr(0, colon);
      port = s.substr(colon + 1);
    }
    if (host.empty() || host.front() == '.' || host.front() == '-') return bad_authority("not a host name");
    for (char c : host)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') return bad_authority("not a host name");
  }
  if (s.find(':') != std::string::npos && port.empty()) return bad_authority("empty port");
  if (!port.empty()) {
    if (port.size() > 5) return bad_authority("bad port");
    for (char c : port)
      if (!std::isdigit(static_cast<unsigned char>(c))) return bad_authority("bad port");
    long n = std::atol(port.c_str());
    if (n < 1 || n > 65535) return bad_authority("bad port");
    if ((scheme == "https" && n == 443) || (scheme == "http" && n == 80)) port.clear();
  }
  return port.empty() ? host : host + ":" + port;
}

Result<Policy> parse_policy(std::string_view text) {
  if (text.size() > kMaxPolicyBytes) return bad("file larger than 64 KiB");
  // The library's one strict JSON reader (duplicate names refused, depth and size bounded).
  auto pj = jose::detail::parse_strict(text, "policy");
  if (!pj) return bad(pj.error().message);
  const json& j = *pj;
  if (!j.is_object()) return bad("must be a JSON object");
  Policy p;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string k(it.key().begin(), it.key().end());
    const json& v = it.value();
    if (k == "required_tag") {
      if (!v.is_string() || v.get<std::string>().empty()) return bad("required_tag must be a non-empty string");
      p.required_tag = v.get<std::string>();
    } else if (k == "required_components") {
      auto s = strings(v, "required_components", 32);
      if (!s) return s.error();
      p.required_components.clear();
      for (auto& c : s.value()) {
        auto pc = httpsig::parse_component(c);
        if (!pc) return bad("required_components: " + c + ": " + pc.error().message);
        // RFC 9421 §2.2: the derived components (a request verifier has no @status).
        static const std::set<std::string> derived = {"@method", "@target-uri", "@authority", "@scheme",
                                                      "@request-target", "@path", "@query", "@query-param"};
        if (!pc->bare.s.empty() && pc->bare.s[0] == '@' && !derived.count(pc->bare.s))
          return bad("required_components: unknown derived component " + pc->bare.s);
        auto ser = sf::serialize_item(pc.value());
        if (!ser) return bad("required_components: " + c);
        p.required_components.push_back(ser.value());
      }
    } else if (k == "clock_skew") {
      auto x = integer(v, "clock_skew", 0, 600);
      if (!x) return x.error();
      p.clock_skew = x.value();
    } else if (k == "max_validity") {
      auto x = integer(v, "max_validity", 1, webbotauth::kMaxExpiresIn);
      if (!x) return x.error();
      p.max_validity = x.value();
    } else if (k == "max_age") {
      auto x = integer(v, "max_age", 1, webbotauth::kMaxExpiresIn);
      if (!x) return x.error();
      p.max_age = x.value();
    } else if (k == "required_labels") {
      auto s = strings(v, "required_labels", 8);
      if (!s) return s.error();
      for (const auto& l : s.value())
        if (!sf::is_valid_key(l)) return bad("required_labels: '" + l + "' is not a valid label");
      p.required_labels = s.value();
    } else if (k == "algorithms") {
      auto s = strings(v, "algorithms", 16);
      if (!s) return s.error();
      if (s->empty()) return bad("algorithms must name at least one algorithm");
      for (const auto& a : s.value())
        if (!httpsig::suite_for_alg(a) && !httpsig::family_for_alg(a)) return bad("algorithms: unknown algorithm '" + a + "'");
      p.algorithms = s.value();
    } else if (k == "min_valid") {
      auto x = integer(v, "min_valid", 1, 8);
      if (!x) return x.error();
      p.min_valid = static_cast<std::size_t>(x.value());
    } else if (k == "require_nonce") {
      if (!v.is_boolean()) return bad("require_nonce must be true or false");
      p.require_nonce = v.get<bool>();
    } else if (k == "authorities") {
      auto s = strings(v, "authorities", 256);
      if (!s) return s.error();
      if (s->empty()) return bad("authorities must name at least one authority");
      for (const auto& a : s.value()) {
        auto n = normalize_authority(a, "");  // validated here; the scheme's default port is dropped by the verifier
        if (!n) return bad("authorities: " + n.error().message);
      }
      p.authorities = s.value();
    } else if (k == "agents") {
      auto s = strings(v, "agents", 64);
      if (!s) return s.error();
      p.agents = s.value();
    } else {
      return bad("unknown member '" + k + "'");
    }
  }
  // Safe whatever the file says: the authority is always bound.
  bool has_authority = false;
  for (const auto& c : p.required_components)
    if (c == "\"@authority\"") has_authority = true;
  if (!has_authority) p.required_components.insert(p.required_components.begin(), "\"@authority\"");
  return p;
}

// ------------------------------------------------------------------ metrics

void Metrics::verified() { verified_.fetch_add(1, std::memory_order_relaxed); }

void Metrics::rejected(std::string_view reason) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = rejected_.find(reason);
  if (it == rejected_.end()) rejected_.emplace(std::string(reason), 1);
  else ++it->second;
}

std::uint64_t Metrics::rejected_count(std::string_view reason) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = rejected_.find(reason);
  return it == rejected_.end() ? 0 : it->second;
}

namespace {
void bump(std::map<std::string, std::uint64_t, std::less<>>& m, std::string_view k) {
  auto it = m.find(k);
  if (it == m.end()) m.emplace(std::string(k), 1);
  else ++it->second;
}
std::uint64_t count_of(const std::map<std::string, std::uint64_t, std::less<>>& m, std::string_view k) {
  auto it = m.find(k);
  return it == m.end() ? 0 : it->second;
}
}  // namespace

void Metrics::limit_hit(std::string_view limit) {
  std::lock_guard<std::mutex> lock(mu_);
  bump(limits_, limit);
}
std::uint64_t Metrics::limit_count(std::string_view limit) const {
  std::lock_guard<std::mutex> lock(mu_);
  return count_of(limits_, limit);
}
void Metrics::fetch_failure(std::string_view cls) {
  std::lock_guard<std::mutex> lock(mu_);
  bump(fetch_failures_, cls);
}
std::uint64_t Metrics::fetch_failure_count(std::string_view cls) const {
  std::lock_guard<std::mutex> lock(mu_);
  return count_of(fetch_failures_, cls);
}

void Metrics::latency(double s) {
  std::lock_guard<std::mutex> lock(mu_);
  std::size_t i = 0;
  while (i < kNB && s > kBuckets[i]) ++i;
  ++hist_[i];
  hist_sum_ += s;
  ++hist_count_;
}

std::string Metrics::render() const {
  std::string o;
  auto counter = [&](const char* name, const char* help, std::uint64_t v) {
    o += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n" + name + " " + std::to_string(v) + "\n";
  };
  counter("pqsig_verified_total", "Requests whose signatures satisfied the policy (200).", verified_.load());
  {
    std::lock_guard<std::mutex> lock(mu_);
    o += "# HELP pqsig_rejected_total Requests refused (401), by reason.\n# TYPE pqsig_rejected_total counter\n";
    for (const auto& [r, n] : rejected_) o += "pqsig_rejected_total{reason=\"" + r + "\"} " + std::to_string(n) + "\n";
    o += "# HELP pqsig_limit_hits_total Requests, fetches or entries refused or trimmed by a limit, by limit.\n"
         "# TYPE pqsig_limit_hits_total counter\n";
    for (const auto& [r, n] : limits_) o += "pqsig_limit_hits_total{limit=\"" + r + "\"} " + std::to_string(n) + "\n";
    o += "# HELP pqsig_directory_fetch_failures_total Directory fetch failures, by class.\n"
         "# TYPE pqsig_directory_fetch_failures_total counter\n";
    for (const auto& [r, n] : fetch_failures_)
      o += "pqsig_directory_fetch_failures_total{class=\"" + r + "\"} " + std::to_string(n) + "\n";
    o += "# HELP pqsig_decision_seconds Time to decide one request.\n# TYPE pqsig_decision_seconds histogram\n";
    std::uint64_t cum = 0;
    char buf[64];
    for (std::size_t i = 0; i < kNB; ++i) {
      cum += hist_[i];
      std::snprintf(buf, sizeof buf, "%g", kBuckets[i]);
      o += std::string("pqsig_decision_seconds_bucket{le=\"") + buf + "\"} " + std::to_string(cum) + "\n";
    }
    cum += hist_[kNB];
    o += "pqsig_decision_seconds_bucket{le=\"+Inf\"} " + std::to_string(cum) + "\n";
    std::snprintf(buf, sizeof buf, "%.9f", hist_sum_);
    o += std::string("pqsig_decision_seconds_sum ") + buf + "\npqsig_decision_seconds_count " + std::to_string(hist_count_) + "\n";
  }
  counter("pqsig_directory_cache_hits_total", "Key directory lookups served from the cache.", dir_hits.load());
  counter("pqsig_directory_cache_misses_total", "Key directory lookups that fetched.", dir_misses.load());
  counter("pqsig_directory_fetch_errors_total", "Key directory fetches that failed.", dir_fetch_errors.load());
  counter("pqsig_directory_stale_served_total", "Expired directory entries served while fetches fail.", dir_stale.load());
  counter("pqsig_directory_negative_hits_total", "Lookups answered by a cached failure.", dir_negative.load());
  counter("pqsig_directory_kid_mismatch_total", "Fetched directory entries refused: kid is not the key's RFC 7638 thumbprint.",
          dir_kid_mismatch.load());
  counter("pqsig_nonce_store_errors_total", "Nonce replay store failures (e.g. Redis unreachable).", nonce_store_errors.load());
  counter("pqsig_nonce_store_fail_open_total", "Requests accepted without a replay check (fail-open mode).", nonce_fail_open.load());
  counter("pqsig_internal_errors_total", "Internal errors (answered 401).", internal_errors.load());
  counter("pqsig_nonce_store_evicted_total", "Nonces of the heaviest agent dropped to make room in a full in-process store.",
          nonce_evicted.load());
  auto gauge = [&](const char* name, const char* help, std::uint64_t v) {
    o += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " gauge\n" + name + " " + std::to_string(v) + "\n";
  };
  gauge("pqsig_directory_cache_bytes", "Key material bytes held by the directory cache (estimated, as verification holds it).",
        dir_cache_bytes.load());
  gauge("pqsig_directory_cache_entries", "Agents with keys in the directory cache.", dir_cache_entries.load());
  gauge("pqsig_directory_fetches_running", "Directory fetches in flight (asynchronous: no thread held).", dir_fetches_running.load());
  gauge("pqsig_directory_parked_requests", "Requests suspended until a directory fetch they need ends.", dir_parked.load());
  gauge("pqsig_nonce_store_entries", "Nonces held by the in-process replay store.", nonce_entries.load());
  return o;
}

}  // namespace pqsig::serve
