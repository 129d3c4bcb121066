// pqsig — `pqsig price --tls`: what a mutually authenticated TLS 1.3 handshake costs on this
// machine, per certificate algorithm × key-exchange group, through the libssl this process loads
// (OpenSSL >= 3.5 for ML-DSA certificates and the ML-KEM groups), and what that means for a
// workload of handshakes per round (the settlement write-up: 7 parties × 12 mutually
// authenticated connections = 42 handshakes per round) against a latency budget.
// docs/price.md, "TLS".
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/price.hpp"

namespace pqsig::price {

/// Certificate algorithms, in display order: rsa-2048, ecdsa-p256, ed25519, ml-dsa-44, ml-dsa-65,
/// ml-dsa-87 (every certificate of a chain — root, intermediates, leaves — uses the row's algorithm).
const std::vector<std::string>& tls_cert_names();
/// Key-exchange groups, in display order (OpenSSL's names): X25519, X25519MLKEM768, MLKEM768.
const std::vector<std::string>& tls_group_names();
/// "ml-dsa-65,rsa-2048" → those, in display order; empty → all; `all` → all. Unknown name →
/// Errc::invalid_argument naming it and the known ones. Group names match case-insensitively.
Result<std::vector<std::string>> parse_tls_certs(std::string_view list);
Result<std::vector<std::string>> parse_tls_groups(std::string_view list);

/// The workload the verdicts use and how many handshakes to measure.
struct TlsOptions {
  std::vector<std::string> certs;    ///< empty = tls_cert_names()
  std::vector<std::string> groups;   ///< empty = tls_group_names()
  std::size_t handshakes = 50;       ///< measured handshakes per row (after the warm-up ones)
  std::size_t warmup = 1;            ///< handshakes per row before the measured ones (checked, not timed)
  /// Intermediate CAs between the trusted root and each leaf. Each side sends its leaf and the
  /// intermediates (the root is in the peer's trust store, not sent): 0 = leaf issued by the root.
  std::size_t chain_depth = 1;
  std::size_t per_round = 42;        ///< handshakes per round (7 parties × 12 connections ÷ 2)
  std::size_t parties = 7;           ///< each takes part in 2 × per_round ÷ parties handshakes
  double budget_ms = 5;              ///< latency budget for the party latency ADDED vs the anchor
  std::string anchor_cert = "rsa-2048";  ///< the classical row the others are compared with
  std::string anchor_group = "X25519";
  const std::atomic<bool>* cancel = nullptr;  ///< set → stop after the current handshake
};
inline constexpr std::size_t kTlsMaxHandshakes = 100000;
inline constexpr std::size_t kTlsMaxChainDepth = 8;
inline constexpr std::size_t kTlsMaxPerRound = 1000000;
inline constexpr std::size_t kTlsMaxParties = 100000;

/// The options a workload's `tls` object gives (certs, groups, handshakes per round, parties,
/// latency budget, chain depth); the measurement settings (handshakes, warm-up) keep their defaults.
TlsOptions tls_options_from_workload(const TlsWorkload& w);

enum class TlsRowState { ok, unavailable, error };

struct TlsRow {
  std::string cert, group;
  TlsRowState state = TlsRowState::unavailable;
  std::string reason;                ///< unavailable: what the loaded OpenSSL lacks; error: what failed
  std::size_t handshakes = 0;        ///< measured (and checked)
  Stats client, server, total;       ///< thread CPU ns per handshake: client side, server side, sum
  std::size_t bytes_c2s = 0;         ///< TLS record bytes client → server per handshake (median)
  std::size_t bytes_s2c = 0;         ///< … server → client
  std::size_t chain_bytes_server = 0;  ///< DER bytes of the certificates the server sends (leaf + intermediates)
  std::size_t chain_bytes_client = 0;  ///< … the client sends
  std::string negotiated_group;      ///< as libssl reports it
  std::string server_sigalg;         ///< the signature the client saw in the server's CertificateVerify
  std::string client_sigalg;         ///< … the server saw in the client's
  // derived (analyze_tls)
  double round_cpu_ms = 0;           ///< per_round × (client + server), mean
  double party_ms = 0;               ///< party handshakes × (client + server), mean
  double party_ms_p90 = 0;           ///< … at the p90 (every handshake at its p90: pessimistic)
  double added_party_ms = 0;         ///< party_ms − the anchor's (0 without an anchor)
  double added_round_cpu_ms = 0;     ///< round_cpu_ms − the anchor's
  bool fits_budget = false;          ///< added_party_ms <= budget
  bool has_anchor = false;           ///< the anchor row ran: added_* are defined
};

struct TlsReport {
  TlsOptions options;
  std::string libssl_version;        ///< OpenSSL_version(OPENSSL_VERSION) of the loaded library
  std::vector<TlsRow> rows;          ///< cert-major, every (cert, group) pair: none dropped
  std::size_t party_handshakes = 0;  ///< 2 × per_round ÷ parties, rounded up
  double wall_seconds = 0;
  bool interrupted = false;
  double loadavg_before[3] = {0, 0, 0};
  unsigned cores = 0;
  std::string date_utc;
  const TlsRow* anchor() const noexcept;
};

/// Makes the certificates (per algorithm: a root CA, chain_depth intermediates, a server and a
/// client leaf), then per (cert, group) row runs warm-up + measured full mutual TLS 1.3 handshakes
/// in process (client and server SSL objects joined by memory BIOs, no session resumption, no
/// tickets), each side's SSL_do_handshake calls timed on the thread's CPU clock. Every handshake
/// is checked: both peers' certificates verified against the root (SSL_VERIFY_PEER |
/// SSL_VERIFY_FAIL_IF_NO_PEER_CERT, the server's name checked), TLS 1.3, the requested group and
/// the row's signature algorithm on both sides — anything else makes the row an error. Rows whose
/// algorithm or group the loaded OpenSSL lacks are unavailable with the reason. Never throws for
/// a row; the progress callback gets "cert x group" before each row.
TlsReport measure_tls(const TlsOptions& o, const std::function<void(const std::string&)>& progress = {});
/// The verdicts: round CPU, party latency, added vs the anchor, against the budget.
void analyze_tls(TlsReport& r);
/// The handshake table, the verdict table and the notes (what every figure means).
std::string render_tls_text(const TlsReport& r);
/// The JSON object `--json` prints under "tls".
std::string render_tls_json(const TlsReport& r);

}  // namespace pqsig::price
