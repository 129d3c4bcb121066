// Signature Agent Cards (src/serve, draft-meunier-webbotauth-registry §3): a card fetched from its
// client_id URL (byte 0 even: validate_agent_card) or inlined in a registry as a data: URL (byte 0
// odd: validate_inline_agent_card). A card that validates names its keys one way only: an inline
// JWKS that is itself a JSON object with a "keys" array, or an https jwks_uri; a fetched card's
// client_id is the URL it was fetched from.
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "pqsig/serve.hpp"

PQSIG_FUZZ_TARGET(agent_card) {
  namespace sv = pqsig::serve;
  if (size == 0) return 0;
  constexpr std::string_view kUrl = "https://bot.example/.well-known/signature-agent-card";
  const auto text = pqsig::fuzz::as_text(data + 1, size - 1);
  auto r = (data[0] & 1) ? sv::validate_inline_agent_card(text) : sv::validate_agent_card(text, kUrl);
  if (!r) {
    pqsig::fuzz::check(!r.error().message.empty(), "a refused card without a reason");
    return 0;
  }
  const sv::CardKeys& k = r.value();
  pqsig::fuzz::check(k.jwks.empty() != k.jwks_uri.empty(), "a valid card names its keys exactly one way");
  if (!k.jwks_uri.empty()) {
    std::string scheme = k.jwks_uri.substr(0, 6);
    for (char& c : scheme) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    pqsig::fuzz::check(scheme == "https:", "a valid card's jwks_uri is not https");
  } else {
    auto j = nlohmann::json::parse(k.jwks, nullptr, false);  // our own serialization of a checked value
    pqsig::fuzz::check(!j.is_discarded() && j.is_object() && j.contains("keys") && j["keys"].is_array(),
                       "a valid card's inline jwks is not a JWKS object");
  }
  if (!(data[0] & 1)) {
    auto j = nlohmann::json::parse(text, nullptr, false);
    pqsig::fuzz::check(!j.is_discarded() && j.is_object() && j.contains("client_id") && j["client_id"] == kUrl,
                       "a fetched card validated whose client_id is not its URL");
  }
  return 0;
}
