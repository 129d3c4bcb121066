// The batch protocol (`pqsig batch`): JSON Lines in, one JSON response per line out, same order.
// One dispatcher; each algorithm family contributes a handler (batch_<family>.cpp). Byte fields
// are hex. In the library so that the CLI (tools/cmd_batch.cpp), the tests (tests/batch) and the
// fuzzers drive the same code; the strict line parsing, "id" echo and bounded line reader are
// shared with the ledger item session (item_wire.hpp).
#pragma once
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pqsig/common.hpp"

namespace pqsig::batch {
using json = nlohmann::json;

/// Thrown by handlers for malformed requests; becomes {"error": message}.
struct BadRequest : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A family handler: `handles(alg)` says whether it owns the alg; `handle` answers one request
/// (without the "id", which the dispatcher echoes).
struct Family {
  const char* name;
  bool (*handles)(std::string_view alg);
  json (*handle)(const json& req);
};

// One per family (batch_<family>.cpp).
const Family& mldsa_family();
const Family& slhdsa_family();
const Family& kem_family();
const Family& classical_family();  // classical + composite

// ---- helpers for handlers
/// Required hex field → bytes (BadRequest if missing or not hex).
bytes hex_field(const json& req, const char* name);
/// Optional hex field.
std::optional<bytes> opt_hex_field(const json& req, const char* name);
std::string str_field(const json& req, const char* name);
std::optional<std::string> opt_str_field(const json& req, const char* name);
bool opt_bool_field(const json& req, const char* name, bool dflt);
std::string to_hex_str(byte_span b);
/// BadRequest unless b has exactly n bytes ("field \"name\" must be n bytes, got m").
void need_len(const char* name, const bytes& b, std::size_t n);
/// The optional "interface" field: "external" (default) → false, "internal" → true, else BadRequest.
bool internal_interface(const json& req);

/// A verify request with a "provider" member, through that provider (batch_provider.cpp).
json provider_verify(const json& req, const std::string& provider);

/// The family handling `alg` (nullptr: unknown).
const Family* family_for(std::string_view alg);
/// Process one request line (never throws): the reply object, "id" echoed when present.
json process_line(std::string_view line);
/// A reply as one line of JSON (never throws: invalid UTF-8 in echoed text becomes U+FFFD).
std::string reply_text(const json& reply);
/// process_line + reply_text.
std::string answer_line(std::string_view line);

/// Limits of one request line (the library's strict JSON reader, src/jose/json_strict.hpp, adds
/// its own: depth, duplicate member names, UTF-8).
inline constexpr std::size_t kMaxIdBytes = 256;  ///< longest "id" string echoed in a reply

/// One request line (or any JSON text a tool reads) as a JSON value, through the library's strict
/// JSON reader (BadRequest with a message that never quotes the input: "invalid UTF-8 at byte N",
/// "nested deeper than 32", ...).
json parse_request(std::string_view line, const char* what = "request");
/// The "id" of a request object if it is safe to echo: a string of at most kMaxIdBytes bytes or a
/// number. nullopt when absent or null; BadRequest for anything else (an object, an array, a
/// boolean, a longer string), which is then not echoed.
std::optional<json> echo_id(const json& req);

/// Reads lines with a cap enforced while reading: an over-long line keeps at most `max` bytes in
/// memory, the rest is read and discarded. LF or CRLF; a last line without LF counts.
class LineReader {
 public:
  LineReader(std::istream& in, std::size_t max_line_bytes);
  /// The next line into `line` (without LF / CRLF); false at the end of the input.
  /// `length` is the line's full length, including discarded bytes.
  bool next(std::string& line, std::size_t& length);
  /// Whether the last line returned by next() was longer than the cap (`line` then holds the
  /// first max_line_bytes bytes only).
  bool too_long() const { return too_long_; }
  std::size_t max_line_bytes() const { return max_; }

 private:
  std::streambuf* sb_;
  std::size_t max_;
  bool too_long_ = false;
  bool done_ = false;
};

struct SessionOptions {
  std::size_t max_line_bytes = 16 * 1024 * 1024;  ///< longer lines: error reply, bytes discarded as read
};
struct SessionStats {
  std::size_t lines = 0;     ///< replies written (one per input line, blank lines included)
  std::size_t too_long = 0;  ///< lines refused by the cap
};
/// Reads lines (LF or CRLF; a last line without LF counts) and writes exactly one reply line per
/// input line, flushed, in order. A line over the cap is answered by an error and the session
/// continues; it is never held in memory beyond the cap.
SessionStats run_session(std::istream& in, std::ostream& out, const SessionOptions& opt = {});
}  // namespace pqsig::batch
