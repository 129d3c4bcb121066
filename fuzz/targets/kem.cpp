// KEM suites: an untrusted encapsulation key (encaps) and an untrusted ciphertext (decaps under a
// fixed private key). Byte 0 picks the suite.
#include "harness.hpp"
#include "suite_select.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(kem) {
  if (size < 2) return 0;
  std::vector<const SuiteInfo*> kems;
  for (const auto& s : all_suites())
    if (s.cls == SuiteClass::kem) kems.push_back(&s);
  // "<suite id>\0<flags><data>", or <index byte><flags><data> when no id matches.
  auto [sp, flags, in] = fuzz::split_suite(data, size, kems);
  const SuiteInfo& s = *sp;
  if (flags & 1) {
    auto pk = KemPublicKey::from_public(s, in);
    if (pk) (void)pk->encaps();
    return 0;
  }
  bytes seed(s.private_key_size, 0x42);
  auto sk = KemPrivateKey::from_private(s, seed);
  if (!sk) return 0;
  auto ss = sk->decaps(in);
  if (in.size() != s.output_size) fuzz::check(!ss.ok(), "a wrong-size ciphertext decapsulated");
  return 0;
}
