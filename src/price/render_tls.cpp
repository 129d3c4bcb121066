// `pqsig price --tls` outputs: the handshake table and the verdict table (text), and the "tls"
// object of --json. docs/price.md, "TLS".
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "pqsig/price_tls.hpp"

namespace pqsig::price {

using json = nlohmann::json;

namespace {

std::string tls_ms(double ms) {
  char b[32];
  if (ms < 0.1 && ms > -0.1) std::snprintf(b, sizeof b, "%.3f ms", ms);
  else if (ms < 10 && ms > -10) std::snprintf(b, sizeof b, "%.2f ms", ms);
  else std::snprintf(b, sizeof b, "%.1f ms", ms);
  return b;
}
std::string tls_signed_ms(double ms) {
  std::string s = tls_ms(ms);
  if (ms >= 0) s.insert(s.begin(), '+');  // (not "+" + string: g++ 12 -Wrestrict false positive at -O3)
  return s;
}

// Columns as wide as their widest cell, two spaces apart. A row shorter than the first (header)
// row is a note: its last cell runs on and does not widen its column.
std::string tls_table(const std::vector<std::vector<std::string>>& rows) {
  if (rows.empty()) return "";
  std::vector<std::size_t> w(rows.front().size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size() && i < w.size(); ++i)
      if (r.size() == w.size() || i + 1 < r.size()) w[i] = std::max(w[i], r[i].size());
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(w[i] - std::min(w[i], r[i].size()) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string tls_state_name(TlsRowState s) {
  switch (s) {
    case TlsRowState::ok: return "ok";
    case TlsRowState::unavailable: return "unavailable";
    case TlsRowState::error: return "error";
  }
  return "error";
}

std::string tls_verdict(const TlsRow& r, const TlsReport& rep) {
  if (r.state != TlsRowState::ok || !r.has_anchor) return "";
  if (r.cert == rep.options.anchor_cert && r.group == rep.options.anchor_group) return "anchor";
  return r.fits_budget ? "fits" : "over";
}

json tls_stats_json(const Stats& s) {
  return {{"n", s.n}, {"median_ns", s.median_ns}, {"mean_ns", s.mean_ns}, {"p90_ns", s.p90_ns},
          {"min_ns", s.min_ns}, {"max_ns", s.max_ns}, {"tail_reliable", s.tail_reliable()}};
}

}  // namespace

std::string render_tls_text(const TlsReport& rep) {
  const auto& o = rep.options;
  std::string out;
  char b[512];
  std::snprintf(b, sizeof b, "TLS 1.3 mutual handshakes through %s (the loaded libssl), %s, %u cores, load %.2f\n",
                rep.libssl_version.c_str(), rep.date_utc.c_str(), rep.cores, rep.loadavg_before[0]);
  out += b;
  std::snprintf(b, sizeof b,
                "method: client and server in this process joined by memory BIOs; per row %zu warm-up + %zu measured "
                "full handshakes (no resumption, no tickets, the library's defaults otherwise); each side's SSL_do_handshake calls on the thread's CPU "
                "clock; chain: each side sends its leaf + %zu intermediate(s) (the root is trusted, not sent), every "
                "certificate in the row's algorithm; both peers' certificates verified and the group and signature "
                "scheme checked on every handshake\n\n",
                o.warmup, o.handshakes, o.chain_depth);
  out += b;

  out += "Handshakes: thread CPU per handshake, median (p90); TLS record bytes per handshake; chain = DER bytes of "
         "the certificates the server sends (share of server->client)\n";
  std::vector<std::vector<std::string>> t = {
      {"cert", "group", "client", "server", "client+server", "client->server", "server->client", "chain", "scheme"}};
  for (const auto& r : rep.rows) {
    if (r.state != TlsRowState::ok) {
      t.push_back({r.cert, r.group, tls_state_name(r.state) + ": " + r.reason});
      continue;
    }
    auto cell = [](const Stats& s) { return format_ns(s.median_ns) + " (" + format_ns(s.p90_ns) + ")"; };
    std::snprintf(b, sizeof b, "%s B (%.0f%%)", format_bytes(r.chain_bytes_server).c_str(),
                  r.bytes_s2c ? 100.0 * static_cast<double>(r.chain_bytes_server) / static_cast<double>(r.bytes_s2c) : 0.0);
    t.push_back({r.cert, r.group, cell(r.client), cell(r.server), cell(r.total), format_bytes(r.bytes_c2s) + " B",
                 format_bytes(r.bytes_s2c) + " B", b, r.server_sigalg});
  }
  out += tls_table(t);

  const TlsRow* a = rep.anchor();
  std::snprintf(b, sizeof b,
                "\nVerdicts: workload %zu handshakes per round (%zu parties, each in %zu handshakes), latency budget "
                "%.3g ms for the party latency added vs the anchor %s x %s\n",
                o.per_round, o.parties, rep.party_handshakes, o.budget_ms, o.anchor_cert.c_str(),
                o.anchor_group.c_str());
  out += b;
  std::snprintf(b, sizeof b,
                "round CPU = %zu x (client+server); party latency = %zu x (client+server), its handshakes one after "
                "another over a zero-latency link (p90: every handshake at its p90); both at the mean\n",
                o.per_round, rep.party_handshakes);
  out += b;
  std::vector<std::vector<std::string>> v = {
      {"cert", "group", "round CPU", "party latency (p90)", "added party latency", "added round CPU", "verdict"}};
  for (const auto& r : rep.rows) {
    if (r.state != TlsRowState::ok) {
      v.push_back({r.cert, r.group, tls_state_name(r.state)});
      continue;
    }
    std::string verdict = tls_verdict(r, rep);
    if (verdict == "fits") {
      std::snprintf(b, sizeof b, "fits (%s <= %.3g ms)", tls_signed_ms(r.added_party_ms).c_str(), o.budget_ms);
      verdict = b;
    } else if (verdict == "over") {
      std::snprintf(b, sizeof b, "over x%.1f (%s > %.3g ms)", o.budget_ms > 0 ? r.added_party_ms / o.budget_ms : 0.0,
                    tls_signed_ms(r.added_party_ms).c_str(), o.budget_ms);
      verdict = b;
    } else if (verdict.empty()) {
      verdict = "n/a: anchor not measured";
    }
    v.push_back({r.cert, r.group, tls_ms(r.round_cpu_ms), tls_ms(r.party_ms) + " (" + tls_ms(r.party_ms_p90) + ")",
                 r.has_anchor ? tls_signed_ms(r.added_party_ms) : "-",
                 r.has_anchor ? tls_signed_ms(r.added_round_cpu_ms) : "-", verdict});
  }
  out += tls_table(v);
  if (!a)
    out += "no verdicts: the anchor " + o.anchor_cert + " x " + o.anchor_group +
           " was not measured (select it with --tls-certs / --tls-groups)\n";
  std::size_t unavailable = 0, errors = 0;
  for (const auto& r : rep.rows) unavailable += r.state == TlsRowState::unavailable, errors += r.state == TlsRowState::error;
  std::snprintf(b, sizeof b, "%zu rows: %zu measured, %zu unavailable, %zu errors; %.1f s%s\n", rep.rows.size(),
                rep.rows.size() - unavailable - errors, unavailable, errors, rep.wall_seconds,
                rep.interrupted ? "; INTERRUPTED" : "");
  out += b;
  return out;
}

std::string render_tls_json(const TlsReport& rep) {
  const auto& o = rep.options;
  json rows = json::array();
  for (const auto& r : rep.rows) {
    json x = {{"cert", r.cert}, {"group", r.group}, {"state", tls_state_name(r.state)}};
    if (r.state != TlsRowState::ok) {
      x["reason"] = r.reason;
      rows.push_back(std::move(x));
      continue;
    }
    x["handshakes"] = r.handshakes;
    x["client"] = tls_stats_json(r.client);
    x["server"] = tls_stats_json(r.server);
    x["total"] = tls_stats_json(r.total);
    x["bytes_c2s"] = r.bytes_c2s;
    x["bytes_s2c"] = r.bytes_s2c;
    x["chain_bytes_server"] = r.chain_bytes_server;
    x["chain_bytes_client"] = r.chain_bytes_client;
    x["negotiated_group"] = r.negotiated_group;
    x["server_sigalg"] = r.server_sigalg;
    x["client_sigalg"] = r.client_sigalg;
    x["round_cpu_ms"] = r.round_cpu_ms;
    x["party_ms"] = r.party_ms;
    x["party_ms_p90"] = r.party_ms_p90;
    if (r.has_anchor) {
      x["added_party_ms"] = r.added_party_ms;
      x["added_round_cpu_ms"] = r.added_round_cpu_ms;
      x["verdict"] = tls_verdict(r, rep);
    } else {
      x["verdict"] = nullptr;
    }
    rows.push_back(std::move(x));
  }
  json t = {
      {"libssl", rep.libssl_version},
      {"date", rep.date_utc},
      {"cores", rep.cores},
      {"load_before", {rep.loadavg_before[0], rep.loadavg_before[1], rep.loadavg_before[2]}},
      {"method", "in-process TLS 1.3 mutual handshakes over memory BIOs; thread CPU time per side; no resumption"},
      {"clock", "thread_cpu"},
      {"options",
       {{"handshakes", o.handshakes}, {"warmup", o.warmup}, {"chain_depth", o.chain_depth}, {"per_round", o.per_round},
        {"parties", o.parties}, {"party_handshakes", rep.party_handshakes}, {"budget_ms", o.budget_ms},
        {"anchor", {{"cert", o.anchor_cert}, {"group", o.anchor_group}}}}},
      {"anchor_measured", rep.anchor() != nullptr},
      {"wall_seconds", rep.wall_seconds},
      {"interrupted", rep.interrupted},
      {"rows", rows}};
  return t.dump(2);
}

}  // namespace pqsig::price
