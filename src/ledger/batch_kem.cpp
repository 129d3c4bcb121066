// `pqsig batch` handler for the KEM suites: ml-kem-512/768/1024, x-wing, x25519-ml-kem-768 and
// ml-kem-768+x25519-hkdf (byte fields are hex).
//
//  {"op":"keygen","alg":"ml-kem-768","seed":<64 bytes d‖z>}   or "d","z" (32 each), or neither (OS RNG)
//      → {"ek","dk","seed"}   dk = expanded FIPS 203 key (dk_PKE ‖ ek ‖ H(ek) ‖ z)
//  {"op":"keygen","alg":<hybrid>,"seed":<seed>}              x-wing: 32 bytes; others: d‖z‖sk_X (96)
//      → {"ek","dk","seed"}   dk = seed (the hybrids' decapsulation key is the seed)
//  {"op":"encaps","alg":…,"ek":…[,"m"]}      ML-KEM: m = 32 bytes (FIPS 203 Encaps_internal)
//  {"op":"encaps","alg":…,"ek":…[,"eseed"]}  hybrids: eseed = m ‖ ek_X (64 bytes)
//      → {"c","k"}            without m / eseed the randomness comes from the OS
//  {"op":"decaps","alg":…,"dk":…,"c":…}      ML-KEM dk: expanded (hash-checked) or the 64-byte seed
//      → {"k"}
// A failed input check (length, FIPS 203 §7.2 / §7.3, all-zero X25519) → {"error": "<code>: …"}.
// Layouts: include/pqsig/kem.hpp and docs/settlement-kem.md.
#include <optional>

#include "ledger/batch.hpp"
#include "pqsig/kem.hpp"
#include "pqsig/mlkem.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::batch {
namespace {

const SuiteInfo* kem_suite(std::string_view alg) {
  auto s = parse_suite_ref(alg);
  if (!s || (*s)->cls != SuiteClass::kem) return nullptr;
  return *s;
}
std::optional<mlkem::ParameterSet> mlkem_set(const SuiteInfo& s) {
  if (s.family == pqsig::Family::ml_kem) return s.params.mlkem;
  return std::nullopt;
}

template <class T>
T take(Result<T> r) {
  if (!r) throw BadRequest(r.error().what());
  return std::move(r.value());
}

bool kem_handles(std::string_view alg) { return kem_suite(alg) != nullptr; }

json keygen(const SuiteInfo& s, const json& req) {
  if (auto ps = mlkem_set(s)) {
    auto seed = opt_hex_field(req, "seed");
    auto d = opt_hex_field(req, "d");
    auto z = opt_hex_field(req, "z");
    SecretBytes seed_bytes;
    if (seed && (d || z)) throw BadRequest("give either \"seed\" or \"d\" and \"z\", not both");
    if (seed) {
      seed_bytes = SecretBytes(*seed);
    } else if (d || z) {
      if (!d || !z) throw BadRequest("\"d\" and \"z\" go together");
      if (d->size() != 32 || z->size() != 32) throw BadRequest("invalid_length: d and z must be 32 bytes each");
      seed_bytes = SecretBytes(64);
      std::copy(d->begin(), d->end(), seed_bytes.data());
      std::copy(z->begin(), z->end(), seed_bytes.data() + 32);
    } else {
      auto kp = take(mlkem::keygen(*ps, &seed_bytes));
      return json{{"ek", to_hex_str(kp.ek)}, {"dk", to_hex_str(kp.dk.span())}, {"seed", to_hex_str(seed_bytes.span())}};
    }
    auto kp = take(mlkem::keygen_from_seed(*ps, seed_bytes.span()));
    return json{{"ek", to_hex_str(kp.ek)}, {"dk", to_hex_str(kp.dk.span())}, {"seed", to_hex_str(seed_bytes.span())}};
  }
  auto seed = opt_hex_field(req, "seed");
  auto sk = seed ? take(KemPrivateKey::from_private(s, *seed)) : take(KemPrivateKey::generate(s));
  return json{{"ek", to_hex_str(sk.public_key())},
              {"dk", to_hex_str(sk.private_key())},
              {"seed", to_hex_str(sk.private_key())}};
}

json encaps(const SuiteInfo& s, const json& req) {
  const bytes ek = hex_field(req, "ek");
  auto pk = take(KemPublicKey::from_public(s, ek));
  const bool is_mlkem = mlkem_set(s).has_value();
  auto rnd = opt_hex_field(req, is_mlkem ? "m" : "eseed");
  if (!rnd && req.contains(is_mlkem ? "eseed" : "m"))
    throw BadRequest(std::string("this alg takes \"") + (is_mlkem ? "m" : "eseed") + "\"");
  auto e = rnd ? take(pk.encaps_derand(*rnd)) : take(pk.encaps());
  return json{{"c", to_hex_str(e.ciphertext)}, {"k", to_hex_str(e.shared_secret.span())}};
}

json decaps(const SuiteInfo& s, const json& req) {
  const bytes dk = hex_field(req, "dk");
  const bytes c = hex_field(req, "c");
  auto sk = take(KemPrivateKey::from_private(s, dk));
  auto k = take(sk.decaps(c));
  return json{{"k", to_hex_str(k.span())}};
}

json kem_handle(const json& req) {
  const std::string alg = str_field(req, "alg");
  const SuiteInfo* s = kem_suite(alg);
  if (!s) throw BadRequest("unknown KEM alg \"" + alg + "\"");
  const std::string op = str_field(req, "op");
  if (op == "keygen") return keygen(*s, req);
  if (op == "encaps") return encaps(*s, req);
  if (op == "decaps") return decaps(*s, req);
  throw BadRequest("op \"" + op + "\" is not a KEM operation (keygen, encaps, decaps)");
}
}  // namespace

const Family& kem_family() {
  static const Family f{"kem", &kem_handles, &kem_handle};
  return f;
}
}  // namespace pqsig::batch
