// `pqsig price` sample request: the Web Bot Auth signature base and the header bytes a signature
// adds (RFC 9421 §2.5 signature base, §4 Signature-Input / Signature fields; Web Bot Auth profile:
// draft-meunier-webbotauth-httpsig-protocol, covered "@authority" and "signature-agent";key=<label>).
#include <array>
#include <string>

#include "pqsig/hash.hpp"
#include "pqsig/price.hpp"

namespace pqsig::price {

std::string http_alg_token(const SuiteInfo& s) {
  return s.http_alg.empty() ? std::string(s.id) : std::string(s.http_alg);
}

std::string signature_params_value(const SampleRequest& r, const SignatureParams& p) {
  // RFC 9421 §2.3: inner list of covered components followed by the parameters, in this order
  // (the order the Web Bot Auth test vectors use).
  std::string v = "(\"@authority\" \"signature-agent\";key=\"" + r.agent_key + "\")";
  v += ";created=" + std::to_string(p.created);
  v += ";keyid=\"" + p.keyid + "\"";
  v += ";alg=\"" + p.alg + "\"";
  v += ";expires=" + std::to_string(p.expires);
  v += ";nonce=\"" + p.nonce + "\"";
  v += ";tag=\"" + r.tag + "\"";
  return v;
}

std::string signature_base(const SampleRequest& r, const SignatureParams& p) {
  // RFC 9421 §2.5: one line per covered component, then "@signature-params".
  std::string b;
  b += "\"@authority\": " + r.authority + "\n";
  b += "\"signature-agent\";key=\"" + r.agent_key + "\": \"" + r.signature_agent + "\"\n";
  b += "\"@signature-params\": " + signature_params_value(r, p);
  return b;
}

std::string signature_input_value(const SampleRequest& r, const SignatureParams& p) {
  return r.label + "=" + signature_params_value(r, p);
}

std::string signature_value(const SampleRequest& r, byte_span sig) {
  return r.label + "=:" + base64_encode(sig) + ":";
}

std::size_t sf_byte_sequence_length(std::size_t n) noexcept { return 2 + 4 * ((n + 2) / 3); }

namespace {
std::size_t line(std::string_view name, std::size_t value_len) { return name.size() + 2 + value_len + 2; }
}  // namespace

std::size_t request_header_bytes(const SampleRequest& r) {
  std::size_t n = r.method.size() + 1 + r.path.size() + 1 + std::string_view("HTTP/1.1").size() + 2;
  n += line("Host", r.authority.size());
  for (const auto& [k, v] : r.headers) n += line(k, v.size());
  // Signature-Agent: sig1="https://…" (SF dictionary form)
  n += line("Signature-Agent", r.agent_key.size() + 1 + r.signature_agent.size() + 2);
  n += 2;  // empty line ending the header section
  return n;
}

std::size_t signature_header_bytes(const SampleRequest& r, const SignatureParams& p, std::size_t sig_len) {
  return line("Signature-Input", signature_input_value(r, p).size()) +
         line("Signature", r.label.size() + 1 + sf_byte_sequence_length(sig_len));
}

SignatureParams sample_params(const SampleRequest& r, const SuiteInfo& s, std::size_t index) {
  SignatureParams p;
  p.alg = http_alg_token(s);
  // keyid: an RFC 7638-shaped thumbprint (base64url SHA-256, 43 characters) of the suite id.
  p.keyid = base64url_encode(hash::sha256(as_bytes(s.id)));
  p.created = r.created + static_cast<std::int64_t>(index);
  p.expires = p.created + r.validity_s;
  // nonce: 64 bytes (as in the draft's vectors), distinct per message.
  std::array<std::uint8_t, 64> nonce{};
  std::string seed = "pqsig price nonce " + std::string(s.id) + " " + std::to_string(index);
  hash::shake256(nonce, as_bytes(seed));
  p.nonce = base64_encode(nonce);
  return p;
}

}  // namespace pqsig::price
