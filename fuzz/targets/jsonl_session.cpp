// The JSON Lines sessions of `pqsig batch` (batch::run_session) and `pqsig ledger verify`
// (ledger::run_verify_session) over several lines, with a small line cap so the bounded reader's
// discard path runs: exactly one reply line per input line (LF-terminated, or a last line without
// LF), each a JSON object, in order. Byte 0: bit 0 picks the session, the rest of the byte the cap.
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness.hpp"
#include "ledger/batch.hpp"
#include "ledger/item_wire.hpp"
#include "pqsig/provider.hpp"

PQSIG_FUZZ_TARGET(jsonl_session) {
  if (size == 0 || size > (std::size_t{1} << 13)) return 0;  // a few lines: each may run a keygen
  const std::size_t cap = 16 + static_cast<std::size_t>(data[0] >> 1) * 8;  // 16 .. 1032 bytes
  const std::string in(reinterpret_cast<const char*>(data + 1), size - 1);
  std::size_t lines = 0;
  for (char c : in) lines += c == '\n';
  if (!in.empty() && in.back() != '\n') ++lines;
  std::istringstream is(in);
  std::ostringstream os;
  std::size_t expect = lines;
  if (data[0] & 1) {
    static const auto pq = pqsig::provider::find("pqsig");
    pqsig::fuzz::check(pq.ok(), "the pqsig provider is missing");
    pqsig::ledger::DualVerifier dv(pq.value(), pq.value(), pqsig::ledger::Mode::enforce, nullptr, 4);
    const auto st = pqsig::ledger::run_verify_session(is, os, dv, nullptr, cap);
    pqsig::fuzz::check(st.lines == lines, "ledger verify: not one verdict per line");
  } else {
    pqsig::batch::SessionOptions opt;
    opt.max_line_bytes = cap;
    const auto st = pqsig::batch::run_session(is, os, opt);
    pqsig::fuzz::check(st.lines == lines, "batch: not one reply per line");
  }
  std::istringstream out(os.str());
  std::string l;
  std::size_t n = 0;
  while (std::getline(out, l)) {
    auto j = nlohmann::json::parse(l, nullptr, false);
    pqsig::fuzz::check(!j.is_discarded() && j.is_object(), "a reply is not a JSON object: " + l.substr(0, 200));
    ++n;
  }
  pqsig::fuzz::check(n == expect, "reply lines != input lines");
  return 0;
}
