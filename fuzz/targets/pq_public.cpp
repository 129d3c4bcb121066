// Post-quantum (and every other) signature suite: an untrusted public key and signature. Byte 0
// picks the suite; the input is split into public key (the suite's size) and signature. Verify
// must return a typed result, never crash; a wrong-size key or signature is refused.
#include "harness.hpp"
#include "suite_select.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(pq_public) {
  if (size < 2) return 0;
  std::vector<const SuiteInfo*> sig_suites;
  for (const auto& s : all_suites())
    if (s.cls == SuiteClass::signature) sig_suites.push_back(&s);
  // "<suite id>\0<flags><public key><signature>", or <index byte><flags>... when no id matches.
  auto [sp, flags, in] = fuzz::split_suite(data, size, sig_suites);
  const SuiteInfo& s = *sp;
  // Slow hash-based suites: keep each input cheap (the fuzzer would otherwise time out).
  if (s.family == "slh-dsa" && (flags & 0x0F) != 0) return 0;
  const std::size_t pk_len = std::min(in.size(), s.public_key_size);
  auto vk = VerifyingKey::from_public(s, in.first(pk_len));
  if (!vk) return 0;
  auto sig = in.subspan(pk_len);
  static const std::uint8_t msg[] = {'p', 'q', 's', 'i', 'g'};
  auto st = vk->verify(msg, sig);
  fuzz::check(st.ok() || st.error().code != Errc::internal, "verify reported an internal error");
  if (sig.size() != s.output_size && !s.variable_output) fuzz::check(!st.ok(), "a wrong-size signature verified");
  return 0;
}
