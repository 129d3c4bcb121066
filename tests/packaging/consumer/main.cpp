// A program outside the pqsig tree, built against an installed pqsig (tests/packaging): only the
// public headers and the installed library. Signs and verifies with ML-DSA-44, rejects a tampered
// message, and prints the build info.
#include <pqsig/build_info.hpp>
#include <pqsig/suite.hpp>

#include <cstdio>
#include <string_view>

int main() {
  auto suite = pqsig::find_suite("ml-dsa-44");
  if (!suite) return 10;
  auto sk = pqsig::SigningKey::generate(**suite);
  if (!sk) return 11;
  constexpr std::string_view text = "pay 100 to bob";
  pqsig::bytes msg(text.begin(), text.end());
  auto sig = sk->sign(msg);
  if (!sig) return 12;
  auto vk = pqsig::VerifyingKey::from_public(**suite, sk->public_key());
  if (!vk) return 13;
  if (!vk->verify(msg, *sig)) return 14;
  msg[0] ^= 1;
  if (vk->verify(msg, *sig)) return 15;  // a tampered message must be rejected
  const pqsig::BuildInfo b = pqsig::build_info();
  std::printf("consumer ok: pqsig %s (%s), %zu-byte signature\n", b.version.c_str(), std::string(pqsig::version()).c_str(),
              sig->size());
  return 0;
}
