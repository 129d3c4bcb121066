// `pqsig serve verify --registry` files (src/serve, draft-meunier-webbotauth-registry §4.2): strict
// parse under its limits. A parsed registry only holds https entries (typed directory or card)
// and data: entries whose decoded card validated, in increasing line order, without duplicates.
#include <set>

#include "harness.hpp"
#include "pqsig/serve.hpp"

PQSIG_FUZZ_TARGET(webbotauth_registry) {
  namespace sv = pqsig::serve;
  sv::RegistryLimits lim;
  lim.max_entries = 64;  // keep a single input cheap
  auto r = sv::parse_registry(pqsig::fuzz::as_text(data, size), lim);
  if (!r) return 0;
  pqsig::fuzz::check(r->size() <= lim.max_entries, "a parsed registry exceeds max_entries");
  std::size_t last = 0;
  std::set<std::string> urls;
  for (const auto& e : r.value()) {
    pqsig::fuzz::check(e.line > last, "registry entries out of line order");
    last = e.line;
    pqsig::fuzz::check(urls.insert(e.url).second, "duplicate registry entry accepted");
    if (e.kind == sv::RegistryEntry::Kind::https) {
      pqsig::fuzz::check(e.url.rfind("https://", 0) == 0 || e.url.rfind("HTTPS://", 0) == 0 || e.url.size() > 8,
                         "https entry without an https URL");
      pqsig::fuzz::check(e.url.find_first_of(" \t\r\n#") == std::string::npos, "https entry with whitespace or fragment");
    } else {
      pqsig::fuzz::check(!e.card.empty(), "data entry without a decoded card");
      pqsig::fuzz::check(!e.keys.jwks.empty() || !e.keys.jwks_uri.empty(), "data entry whose card has no keys");
      pqsig::fuzz::check(sv::validate_inline_agent_card(e.card).ok(), "data entry whose card does not validate");
    }
  }
  return 0;
}
