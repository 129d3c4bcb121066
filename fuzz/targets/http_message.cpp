// HTTP/1.1 messages (parse_message): what parses prints back to text that parses to the same
// message (start line, fields, body), and printing is then stable.
#include "harness.hpp"
#include "pqsig/httpsig.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(http_message) {
  auto m = httpsig::parse_message(fuzz::as_text(data, size));
  if (!m) return 0;
  const std::string text = httpsig::serialize_message(m.value());
  (void)httpsig::header_section_size(m.value());
  httpsig::MessageLimits unlimited{static_cast<std::size_t>(-1), static_cast<std::size_t>(-1)};
  auto again = httpsig::parse_message(text, unlimited);
  fuzz::check(again.ok(), "printed message does not parse: " + (again ? std::string() : again.error().message));
  fuzz::check(again->is_request == m->is_request && again->method == m->method && again->target == m->target &&
                  again->status == m->status && again->version == m->version && again->body == m->body &&
                  again->headers.size() == m->headers.size(),
              "parse(print(m)) differs from m");
  fuzz::check(httpsig::serialize_message(again.value()) == text, "printing is not stable");
  for (const auto& f : m->headers) (void)m->get(f.name);
  return 0;
}
