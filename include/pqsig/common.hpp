// pqsig — common types: byte buffers, typed errors, Result<T>, secret buffers.
// This header is part of the PQ core: it must not depend on OpenSSL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace pqsig {

using u8 = std::uint8_t;
using bytes = std::vector<std::uint8_t>;
using byte_span = std::span<const std::uint8_t>;
using mut_byte_span = std::span<std::uint8_t>;

/// Every failure pqsig reports has one of these codes. A bad signature is
/// `verify_failed` (a value, never an exception or an abort).
enum class Errc : int {
  invalid_length = 1,    ///< an input has the wrong size
  invalid_encoding,      ///< malformed bytes (hex, base64, hint, JSON, header ...)
  invalid_context,       ///< context string longer than 255 bytes
  invalid_argument,      ///< an option/value that makes no sense
  unknown_suite,         ///< suite/algorithm/version not in the closed registry
  unsupported,           ///< known, but this operation is not available
  verify_failed,         ///< signature did not verify
  key_check_failed,      ///< FIPS 203 §7.2/§7.3 style input check failed
  rng_failure,           ///< the OS random source failed
  crypto_backend,        ///< OpenSSL / libsodium reported an error
  policy,                ///< rejected by a policy (purpose, window, header cap ...)
  io,                    ///< file or stream error
  internal,              ///< a bug: please report
  key_exhausted,         ///< a stateful (LMS/HSS) key has no one-time index left
  state_rejected,        ///< a stateful key's state cannot be trusted (corrupt, rolled back, other key)
  stateful_key,          ///< a stateful (LMS/HSS, XMSS) key used through the stateless API: use its StatefulSigner
};

std::string_view errc_name(Errc e) noexcept;

struct Error {
  Errc code{Errc::internal};
  std::string message;
  Error() = default;
  Error(Errc c, std::string m) : code(c), message(std::move(m)) {}
  std::string what() const { return std::string(errc_name(code)) + ": " + message; }
};

/// Minimal std::expected stand-in (C++20). [[nodiscard]] so results are checked.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T v) : v_(std::in_place_index<0>, std::move(v)) {}           // NOLINT
  Result(Error e) : v_(std::in_place_index<1>, std::move(e)) {}       // NOLINT
  Result(Errc c, std::string m) : v_(std::in_place_index<1>, Error{c, std::move(m)}) {}
  bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  T& operator*() & { return std::get<0>(v_); }
  const T& operator*() const& { return std::get<0>(v_); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error e) : err_(std::move(e)), ok_(false) {}  // NOLINT
  Result(Errc c, std::string m) : err_{c, std::move(m)}, ok_(false) {}
  bool ok() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  const Error& error() const { return err_; }

 private:
  Error err_{};
  bool ok_{true};
};

using Status = Result<void>;

/// Overwrite memory in a way the compiler may not elide.
void secure_zero(void* p, std::size_t n) noexcept;

/// Constant-time equality of two equal-length buffers (lengths are public).
bool ct_equal(byte_span a, byte_span b) noexcept;

/// Fill `out` from the OS random source (getrandom(2)). Returns false on failure.
[[nodiscard]] bool random_bytes(mut_byte_span out) noexcept;

/// A move-only heap buffer for secrets; wiped on destruction and on move-from.
class SecretBytes {
 public:
  SecretBytes() = default;
  explicit SecretBytes(std::size_t n) : b_(n, 0) {}
  explicit SecretBytes(byte_span s) : b_(s.begin(), s.end()) {}
  SecretBytes(const SecretBytes&) = delete;
  SecretBytes& operator=(const SecretBytes&) = delete;
  SecretBytes(SecretBytes&& o) noexcept : b_(std::move(o.b_)) { o.b_.clear(); }
  SecretBytes& operator=(SecretBytes&& o) noexcept {
    if (this != &o) {
      wipe();
      b_ = std::move(o.b_);
      o.b_.clear();
    }
    return *this;
  }
  ~SecretBytes() { wipe(); }
  std::uint8_t* data() noexcept { return b_.data(); }
  const std::uint8_t* data() const noexcept { return b_.data(); }
  std::size_t size() const noexcept { return b_.size(); }
  bool empty() const noexcept { return b_.empty(); }
  byte_span span() const noexcept { return {b_.data(), b_.size()}; }
  mut_byte_span mut_span() noexcept { return {b_.data(), b_.size()}; }
  /// Explicit copy (never implicit for secrets).
  SecretBytes clone() const { return SecretBytes(span()); }
  void wipe() noexcept {
    if (!b_.empty()) secure_zero(b_.data(), b_.size());
  }

 private:
  std::vector<std::uint8_t> b_;
};

/// Wipes a fixed object on scope exit (stack secrets).
template <class T>
struct ScopedWipe {
  T& obj;
  explicit ScopedWipe(T& o) : obj(o) {}
  ScopedWipe(const ScopedWipe&) = delete;
  ScopedWipe& operator=(const ScopedWipe&) = delete;
  ~ScopedWipe() { secure_zero(&obj, sizeof(T)); }
};

// ---- encodings (public data only) ----
std::string to_hex(byte_span b, bool upper = false);
Result<bytes> from_hex(std::string_view s);  ///< either case; odd length / bad digit -> invalid_encoding
std::string base64_encode(byte_span b);            ///< RFC 4648 §4, padded
std::string base64url_encode(byte_span b);         ///< RFC 4648 §5, unpadded
Result<bytes> base64_decode(std::string_view s);   ///< strict, padding required
Result<bytes> base64url_decode(std::string_view s);///< strict, no padding allowed

/// ASCII lower case, independent of the locale (HTTP field names, hosts, tokens: public data).
std::string ascii_lower(std::string_view s);

// ---- encodings of secrets: constant time in the data (only the length and a single
// "well-formed or not" bit are public), output in wipe-on-destroy memory.
Result<SecretBytes> secret_from_hex(std::string_view s);          ///< as from_hex
Result<SecretBytes> secret_base64_decode(std::string_view s);     ///< as base64_decode
Result<SecretBytes> secret_base64url_decode(std::string_view s);  ///< as base64url_decode
std::string secret_base64url_encode(byte_span b);                  ///< as base64url_encode, no table lookups

// ---- logging: the library never writes to stdout/stderr itself. Messages go to the sink the
// caller installs (default: none, i.e. no output). The sink may be called from any thread.
enum class LogLevel { debug, info, warning, error };
std::string_view log_level_name(LogLevel l) noexcept;
using LogSink = std::function<void(LogLevel, std::string_view)>;
/// Install (or, with an empty function, remove) the process-wide log sink.
void set_log_sink(LogSink sink);
/// Send one message to the sink (no-op without one). For the library's own use.
void log_message(LogLevel level, std::string_view message);

inline byte_span as_bytes(std::string_view s) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

/// pqsig version string (set by the build).
std::string_view version() noexcept;

}  // namespace pqsig
