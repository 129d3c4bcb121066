// COSE_Sign1 with HSS/LMS (pqsig/cose.hpp, RFC 9052 §4.2, RFC 8778) from a peer. Byte 0 picks
// the key: 0 — the message alone, checked against the draft-ietf-cose-hash-sig example key;
// 1 — u16 length || raw HSS public key || message; 2 — u16 length || RFC 8778 COSE_Key || message.
// Properties: a parsed message has alg -46 and a bounded signature; a message that verifies gives
// back its own payload and stops verifying under other external_aad (one signature, one ToBeSigned).
#include "harness.hpp"
#include "pqsig/common.hpp"
#include "pqsig/cose.hpp"

using namespace pqsig;

namespace {
const bytes& cose_fuzz_example_key() {
  static const bytes k = from_hex(
                             "000000010000000600000003d08fabd4a2091ff0a8cb4ed834e7453432a58885cd9ba0431235466bff9651c6"
                             "c92124404d45fa53cf161c28f1ad5a8e")
                             .value();
  return k;
}
}  // namespace

PQSIG_FUZZ_TARGET(cose_sign1) {
  if (size == 0) return 0;
  byte_span rest(data + 1, size - 1);
  byte_span key = cose_fuzz_example_key();
  const unsigned mode = data[0] % 3;
  if (mode != 0) {
    if (rest.size() < 2) return 0;
    const std::size_t kl = (std::size_t{rest[0]} << 8) | rest[1];
    if (rest.size() - 2 < kl) return 0;
    key = rest.subspan(2, kl);
    rest = rest.subspan(2 + kl);
  }
  cose::Limits lim;
  lim.max_message_bytes = 1 << 16;
  auto p = cose::parse_sign1(rest, lim);
  if (p) {
    fuzz::check(p->alg == cose::kAlgHssLms, "a parsed COSE_Sign1 whose alg is not HSS-LMS");
    fuzz::check(p->signature.size() <= lim.max_signature_bytes, "a signature over the limit parsed");
  }
  cose::VerifyOptions vo;
  vo.limits = lim;
  const bytes detached = {'f', 'u', 'z', 'z'};
  if (p && !p->payload) vo.detached_payload = byte_span(detached);
  auto v = mode == 2 ? cose::verify1_hss_cose_key(rest, key, vo) : cose::verify1_hss(rest, key, vo);
  if (v) {
    fuzz::check(p.ok(), "a COSE_Sign1 verified that does not parse");
    fuzz::check(v->payload == (p->payload ? *p->payload : detached), "verification returned another payload");
    cose::VerifyOptions other = vo;
    const bytes aad = {'x'};
    other.external_aad = aad;
    auto v2 = mode == 2 ? cose::verify1_hss_cose_key(rest, key, other) : cose::verify1_hss(rest, key, other);
    fuzz::check(!v2.ok(), "one HSS signature verifies two ToBeSigned byte strings");
  }
  return 0;
}
