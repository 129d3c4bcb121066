// `pqsig batch`: JSON Lines in, one JSON response per line out, same order. One dispatcher;
// each algorithm family contributes a handler (batch_<family>.cpp). Byte fields are hex.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pqsig/common.hpp"

namespace pqsig::cli::batch {
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

/// Process one request line (never throws).
json process_line(std::string_view line);
}  // namespace pqsig::cli::batch
