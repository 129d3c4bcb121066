#include "pqsig/suite.hpp"
#include <cstdio>
#include <cstring>
using namespace pqsig;
int main(int argc, char** argv) {
  const char* id = argc > 1 ? argv[1] : "ml-kem-768";
  const char* what = argc > 2 ? argv[2] : "all";
  int n = argc > 3 ? atoi(argv[3]) : 200;
  auto s = find_suite(id);
  auto dk = KemPrivateKey::generate(**s);
  auto ek = KemPublicKey::from_public(**s, dk->public_key());
  auto e = ek->encaps();
  for (int i = 0; i < n; ++i) {
    if (!strcmp(what, "keygen") || !strcmp(what, "all")) { auto k = KemPrivateKey::generate(**s); }
    if (!strcmp(what, "encaps") || !strcmp(what, "all")) { auto x = ek->encaps(); }
    if (!strcmp(what, "decaps") || !strcmp(what, "all")) { auto x = dk->decaps(e->ciphertext); }
  }
  return 0;
}
