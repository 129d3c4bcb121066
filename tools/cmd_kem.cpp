// `pqsig kem keygen | encaps | decaps` for the KEM suites (ml-kem-512/768/1024, x-wing,
// x25519-ml-kem-768, ml-kem-768+x25519-hkdf). Key files are JWKs (AKP, "priv" = the seed) written
// and read through include/pqsig/jose.hpp.
//
//   pqsig kem keygen --alg ml-kem-768 [-o key.jwk] [--pub pub.jwk] [--force] [--pem]  (public JWK to stdout without --pub;
//       without -o the private JWK goes to stdout, never to a terminal unless -o -; --pem: PKCS#8 seed form
//       and SPKI, RFC 9935, ML-KEM only; key files in PEM are read by every command)
//   pqsig kem encaps --pub key.jwk [--print-secret] [--format base64|hex]
//       prints the ciphertext; the shared secret only with --print-secret (it is a secret)
//   pqsig kem decaps --key key.jwk (--ciphertext <text> | --in <file> | stdin) [--format base64|hex]
//       prints the shared secret
// Exit codes: 0 ok, 2 usage or input error (one line on stderr).
#include <cctype>
#include <iostream>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "io.hpp"
#include "keyfile.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::cli {

namespace {

template <class T>
T take(Result<T> r, const std::string& what) {
  if (!r) throw Exit{kExitUsage, what + ": " + r.error().what()};
  return std::move(r.value());
}

jose::LoadedKey load_key(const std::string& path) {
  auto k = load_key_file(path);
  if (!k.suite || k.suite->cls != SuiteClass::kem)
    throw Exit{kExitUsage, path + ": not a KEM key (see `pqsig suites`)"};
  return k;
}

std::string encode(byte_span b, const std::string& fmt) { return fmt == "hex" ? to_hex(b) : base64url_encode(b); }

bytes decode(const std::string& text, const std::string& fmt) {
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t.push_back(c);
  auto r = fmt == "hex" ? from_hex(t) : base64url_decode(t);
  if (!r) throw Exit{kExitUsage, "ciphertext: " + r.error().what()};
  return std::move(r.value());
}

}  // namespace

void register_kem(CLI::App& app) {
  auto* kem = app.add_subcommand("kem", "KEM key generation, encapsulation and decapsulation (ML-KEM, X-Wing, hybrids)");
  kem->require_subcommand(1);

  // ---- keygen
  struct KeygenOpts {
    std::string alg, out, pub;
    bool force = false, pem = false;
  };
  static KeygenOpts kg;
  auto* keygen = kem->add_subcommand("keygen", "generate a KEM key pair (private JWK, priv = seed)");
  keygen->add_option("--alg", kg.alg, "ml-kem-512|ml-kem-768|ml-kem-1024|x-wing|x25519-ml-kem-768|ml-kem-768+x25519-hkdf")
      ->required();
  keygen->add_option("-o,--out", kg.out, "private key file, created mode 0600 (default: stdout, never a terminal unless -o -)");
  keygen->add_option("--pub", kg.pub, "also write the public JWK to this file (default: print it when -o names a file)");
  keygen->add_flag("--force", kg.force, "replace existing files");
  keygen->add_flag("--pem", kg.pem,
                   "PKCS#8 PEM (seed-only form, RFC 9935) and SPKI PEM public key instead of JWKs (ML-KEM only)");
  keygen->callback([] {
    const SuiteInfo* s = take(parse_suite_ref(kg.alg), "--alg");
    if (s->cls != SuiteClass::kem) throw Exit{kExitUsage, std::string(s->id) + " is not a KEM suite"};
    auto sk = take(KemPrivateKey::generate(*s), s->id.data());
    std::string priv = kg.pem ? take(jose::to_pkcs8_pem(sk), "PKCS#8") : take(jose::to_jwk(sk, true), "JWK") + "\n";
    const std::string pub = kg.pem ? take(jose::to_spki_pem(*s, sk.public_key()), "SPKI")
                                   : take(jose::to_jwk(sk, false), "JWK") + "\n";
    io::refuse_existing(kg.out, kg.force);
    io::refuse_existing(kg.pub, kg.force);
    write_output(kg.out, priv, true, kg.force);
    secure_zero(priv.data(), priv.size());
    if (!kg.pub.empty()) write_output(kg.pub, pub, false, kg.force);
    else if (!kg.out.empty() && kg.out != "-") std::cout << pub;
  });

  // ---- encaps
  struct EncapsOpts {
    std::string pub, format = "base64";
    bool print_secret = false;
  };
  static EncapsOpts en;
  auto* encaps = kem->add_subcommand("encaps", "encapsulate to a public key: prints the ciphertext");
  encaps->add_option("--pub", en.pub, "recipient key (public or private JWK)")->required();
  encaps->add_flag("--print-secret", en.print_secret, "also print the shared secret (second line)");
  encaps->add_option("--format", en.format, "base64 (base64url, default) | hex")->check(CLI::IsMember({"base64", "hex"}));
  encaps->callback([] {
    auto k = load_key(en.pub);
    if (!k.kem_public) throw Exit{kExitUsage, en.pub + ": no KEM public key in this JWK"};
    auto e = take(k.kem_public->encaps(), "encaps");
    std::cout << encode(e.ciphertext, en.format) << "\n";
    if (en.print_secret) std::cout << encode(e.shared_secret.span(), en.format) << "\n";
  });

  // ---- decaps
  struct DecapsOpts {
    std::string key, ciphertext, in, format = "base64";
  };
  static DecapsOpts de;
  auto* decaps = kem->add_subcommand("decaps", "decapsulate a ciphertext: prints the shared secret");
  decaps->add_option("--key", de.key, "private key (JWK)")->required();
  auto* ct = decaps->add_option("--ciphertext", de.ciphertext, "ciphertext text (default: read --in or stdin)");
  decaps->add_option("--in", de.in, "file holding the ciphertext text")->excludes(ct);
  decaps->add_option("--format", de.format, "base64 (base64url, default) | hex")->check(CLI::IsMember({"base64", "hex"}));
  decaps->callback([] {
    auto k = load_key(de.key);
    if (!k.kem_private) throw Exit{kExitUsage, de.key + ": not a private KEM key"};
    std::string text = de.ciphertext;
    if (text.empty()) {
      if (!de.in.empty()) {
        text = read_text(de.in);
      } else {
        std::ostringstream ss;
        ss << std::cin.rdbuf();
        text = ss.str();
      }
    }
    const bytes c = decode(text, de.format);
    auto secret = take(k.kem_private->decaps(c), "decaps");
    std::cout << encode(secret.span(), de.format) << "\n";
  });
}

}  // namespace pqsig::cli
