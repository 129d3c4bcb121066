// `pqsig batch` line handler (src/ledger/batch_core.cpp): any bytes give exactly one reply line of
// valid JSON (an object), never an exception.
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "ledger/batch.hpp"

PQSIG_FUZZ_TARGET(batch_line) {
  const auto line = pqsig::fuzz::as_text(data, size);
  // The session splits on LF; one line never holds one.
  if (line.find('\n') != std::string_view::npos) return 0;
  const std::string reply = pqsig::batch::answer_line(line);
  pqsig::fuzz::check(reply.find('\n') == std::string::npos, "a reply spans several lines");
  auto j = nlohmann::json::parse(reply, nullptr, false);
  pqsig::fuzz::check(!j.is_discarded() && j.is_object(), "a reply is not a JSON object: " + reply);
  return 0;
}
