#include <oqs/oqs.h>
#include <cstring>
#include <cstdlib>
#include <vector>
int main(int argc, char** argv) {
  OQS_init();
  const char* alg = argv[1]; const char* what = argv[2]; int n = atoi(argv[3]);
  OQS_KEM* k = OQS_KEM_new(alg);
  std::vector<uint8_t> pk(k->length_public_key), sk(k->length_secret_key), ct(k->length_ciphertext), ss(32), pk2(pk.size()), sk2(sk.size());
  OQS_KEM_keypair(k, pk.data(), sk.data());
  OQS_KEM_encaps(k, ct.data(), ss.data(), pk.data());
  for (int i = 0; i < n; ++i) {
    if (!strcmp(what, "keygen")) OQS_KEM_keypair(k, pk2.data(), sk2.data());
    if (!strcmp(what, "encaps")) OQS_KEM_encaps(k, ct.data(), ss.data(), pk.data());
    if (!strcmp(what, "decaps")) OQS_KEM_decaps(k, ss.data(), ct.data(), sk.data());
  }
  OQS_KEM_free(k);
  OQS_destroy();
}
