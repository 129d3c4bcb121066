// COSE_Sign1 with HSS/LMS (pqsig/cose.hpp): RFC 9052 §4.2 / §4.4 structures, RFC 8778 §3 algorithm
// HSS-LMS (-46), RFC 8949 CBOR read strictly and bounded. The COSE_Key reader of jose/hbs.cpp
// gives the key; the HSS signature is lms::StatefulSigner's, its verification the suite seam's
// (suite_for_public_key, VerifyingKey).
// CBOR through the one reader/writer of jose/cbor.hpp; file-local names carry a cose1_ prefix (unity builds).
#include "pqsig/cose.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "jose/cbor.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::cose {

namespace {

Error cose1_bad(std::string m) { return Error{Errc::invalid_encoding, "COSE_Sign1: " + std::move(m)}; }
Error cose1_long(std::string m) { return Error{Errc::invalid_length, "COSE_Sign1: " + std::move(m)}; }

using jose::cbor::Reader;

// {1: -46}: map(1), uint 1, nint 45 (0x38 0x2d).
constexpr u8 kCose1ProtectedHss[] = {0xa1, 0x01, 0x38, 0x2d};

// A header label (RFC 9052 §3: label = int / tstr).
struct Cose1Label {
  bool is_int = true;
  std::int64_t i = 0;
  std::string s;
  bool operator==(const Cose1Label& o) const { return is_int == o.is_int && (is_int ? i == o.i : s == o.s); }
  std::string str() const { return is_int ? std::to_string(i) : "\"" + s + "\""; }
};

Result<Cose1Label> cose1_label(Reader& r) {
  auto h = r.head();
  if (!h) return h.error();
  Cose1Label l;
  if (h->major == 3) {
    auto s = r.tstr_body(h->arg, "a label");
    if (!s) return s.error();
    l.is_int = false;
    l.s = std::move(*s);
    return l;
  }
  auto i = r.as_int(*h, "a header label");
  if (!i) return i.error();
  l.i = *i;
  return l;
}

struct Cose1Headers {
  std::vector<Cose1Label> labels;
  std::optional<std::int64_t> alg;
  std::optional<std::string> alg_text;
  std::vector<Cose1Label> crit;
  bool has_crit = false;
  std::optional<bytes> kid;
  std::optional<std::string> ct_text;
  std::optional<std::uint64_t> ct_uint;
};

// One header map (RFC 9052 §3): unique labels; the parameters of Table 3 pqsig uses are
// type-checked (alg int/tstr, crit non-empty array of labels in the protected bucket only,
// content type uint/tstr, kid bstr); any other parameter's value is skipped (§3: unknown ones are
// ignored unless listed in crit, which is checked after both buckets are read).
Status cose1_read_headers(Reader& r, const Limits& lim, bool is_protected, Cose1Headers& h) {
  const char* bucket = is_protected ? "protected header" : "unprotected header";
  auto m = r.head();
  if (!m) return m.error();
  if (m->major != 5) return cose1_bad(std::string(bucket) + " is not a map");
  if (m->arg > lim.max_items) return cose1_long(std::string(bucket) + ": more than " + std::to_string(lim.max_items) + " parameters");
  for (std::uint64_t k = 0; k < m->arg; ++k) {
    auto l = cose1_label(r);
    if (!l) return l.error();
    if (std::find(h.labels.begin(), h.labels.end(), *l) != h.labels.end())
      return cose1_bad(std::string(bucket) + ": label " + l->str() + " twice (RFC 9052 §3)");
    h.labels.push_back(*l);
    if (!l->is_int) {
      if (auto st = r.skip(3); !st) return st;
      continue;
    }
    switch (l->i) {
      case kHeaderAlg: {
        auto v = r.head();
        if (!v) return v.error();
        if (v->major == 3) {
          auto s = r.tstr_body(v->arg, "alg");
          if (!s) return s.error();
          h.alg_text = std::move(*s);
        } else {
          auto i = r.as_int(*v, "alg");
          if (!i) return i.error();
          h.alg = *i;
        }
        break;
      }
      case kHeaderCrit: {
        if (!is_protected) return cose1_bad("crit (2) in the unprotected header (RFC 9052 §3.1: protected only)");
        auto a = r.head();
        if (!a) return a.error();
        if (a->major != 4 || a->arg == 0) return cose1_bad("crit is not a non-empty array (RFC 9052 §3.1)");
        if (a->arg > lim.max_items) return cose1_long("crit: more than " + std::to_string(lim.max_items) + " labels");
        for (std::uint64_t c = 0; c < a->arg; ++c) {
          auto cl = cose1_label(r);
          if (!cl) return cl.error();
          h.crit.push_back(std::move(*cl));
        }
        h.has_crit = true;
        break;
      }
      case kHeaderContentType: {
        auto v = r.head();
        if (!v) return v.error();
        if (v->major == 0) {
          h.ct_uint = v->arg;
        } else if (v->major == 3) {
          auto s = r.tstr_body(v->arg, "content type");
          if (!s) return s.error();
          h.ct_text = std::move(*s);
        } else {
          return cose1_bad("content type (3) is neither a uint nor a text string");
        }
        break;
      }
      case kHeaderKid: {
        auto v = r.bstr("kid (4)");
        if (!v) return v.error();
        h.kid.emplace(v->begin(), v->end());
        break;
      }
      default:
        if (auto st = r.skip(3); !st) return st;
    }
  }
  return {};
}

Result<Verified1> cose1_verify(byte_span message, byte_span hss_public_key, const VerifyOptions& opt,
                               const bytes* key_kid) {
  auto p = parse_sign1(message, opt.limits);
  if (!p) return p.error();
  byte_span payload;
  if (p->payload) {
    if (opt.detached_payload) return Error{Errc::invalid_argument, "COSE_Sign1: a detached payload was given, but the message carries its payload"};
    payload = *p->payload;
  } else {
    if (!opt.detached_payload) return Error{Errc::invalid_argument, "COSE_Sign1: the payload is detached (nil) and none was given"};
    payload = *opt.detached_payload;
  }
  if (key_kid && !key_kid->empty() && !p->kid.empty() && *key_kid != p->kid)
    return Error{Errc::invalid_argument, "COSE_Sign1: the message's kid is not the COSE_Key's kid"};
  const bytes tbs = sig_structure1(p->protected_bstr, opt.external_aad, payload);
  // Through the one seam: the key's parameter set picks its suite (typed and bounded), whose
  // providers verify (the registry's rows are dual-verifiable like every other suite).
  auto suite = suite_for_public_key(Family::lms, hss_public_key);
  if (!suite) return Error{suite.error().code, "COSE_Sign1 (HSS-LMS) key: " + suite.error().message};
  auto vk = VerifyingKey::from_public(**suite, hss_public_key);
  if (!vk) return Error{vk.error().code, "COSE_Sign1 (HSS-LMS) key: " + vk.error().message};
  if (auto st = vk->verify(tbs, p->signature); !st)
    return Error{st.error().code, "COSE_Sign1 (HSS-LMS): " + st.error().message};
  return Verified1{bytes(payload.begin(), payload.end()), std::move(p->kid)};
}

}  // namespace

bytes sig_structure1(byte_span protected_bstr, byte_span external_aad, byte_span payload) {
  bytes out;
  out.reserve(32 + protected_bstr.size() + external_aad.size() + payload.size());
  jose::cbor::put_head(out, 4, 4);
  jose::cbor::put_tstr(out, "Signature1");
  jose::cbor::put_bstr(out, protected_bstr);
  jose::cbor::put_bstr(out, external_aad);
  jose::cbor::put_bstr(out, payload);
  return out;
}

Result<Signed1> sign1_hss(lms::StatefulSigner& signer, byte_span payload, const Sign1Options& opt) {
  if (opt.kid.size() > 1024) return Error{Errc::invalid_length, "COSE_Sign1: kid longer than 1024 bytes"};
  const byte_span prot(kCose1ProtectedHss, sizeof kCose1ProtectedHss);
  const bytes tbs = sig_structure1(prot, opt.external_aad, payload);
  auto s = signer.sign(tbs);  // index reserved and synced before the signature exists
  if (!s) return s.error();
  Signed1 out;
  out.index = s->index;
  bytes& m = out.message;
  m.reserve(32 + opt.kid.size() + payload.size() + s->signature.size());
  if (opt.tagged) jose::cbor::put_head(m, 6, kTagCoseSign1);
  jose::cbor::put_head(m, 4, 4);
  jose::cbor::put_bstr(m, prot);
  if (opt.kid.empty()) {
    jose::cbor::put_head(m, 5, 0);
  } else {
    jose::cbor::put_head(m, 5, 1);
    jose::cbor::put_head(m, 0, kHeaderKid);
    jose::cbor::put_bstr(m, opt.kid);
  }
  if (opt.detached) m.push_back(0xf6);  // nil (RFC 9052 §4.1: detached content)
  else jose::cbor::put_bstr(m, payload);
  jose::cbor::put_bstr(m, s->signature);
  return out;
}

Result<Sign1> parse_sign1(byte_span message, const Limits& lim) {
  if (message.size() > lim.max_message_bytes)
    return cose1_long(std::to_string(message.size()) + " bytes, over the limit of " + std::to_string(lim.max_message_bytes));
  Reader r(message, "COSE_Sign1", lim.max_depth, lim.max_items);
  Sign1 out;
  auto h = r.head();
  if (!h) return h.error();
  if (h->major == 6) {
    if (h->arg == 98) return Error{Errc::unsupported, "COSE_Sign1: a COSE_Sign (tag 98) message; pqsig reads COSE_Sign1 only"};
    if (h->arg != kTagCoseSign1) return cose1_bad("tag " + std::to_string(h->arg) + " is not COSE_Sign1 (18)");
    out.tagged = true;
    h = r.head();
    if (!h) return h.error();
  }
  if (h->major != 4 || h->arg != 4) return cose1_bad("not an array of 4 (RFC 9052 §4.2)");

  auto prot = r.bstr("the protected header");
  if (!prot) return prot.error();
  if (prot->size() > lim.max_protected_bytes)
    return cose1_long("protected header over " + std::to_string(lim.max_protected_bytes) + " bytes");
  out.protected_bstr.assign(prot->begin(), prot->end());
  Cose1Headers ph, uh;
  if (!prot->empty()) {
    Reader pr(*prot, "COSE_Sign1", lim.max_depth, lim.max_items);
    if (auto st = cose1_read_headers(pr, lim, true, ph); !st) return st.error();
    if (!pr.empty()) return cose1_bad("bytes after the protected header map");
  }
  if (auto st = cose1_read_headers(r, lim, false, uh); !st) return st.error();

  auto pl = r.head();
  if (!pl) return pl.error();
  if (pl->major == 7 && pl->ai == 22) {
    out.payload.reset();  // nil: detached
  } else if (pl->major == 2) {
    auto b = r.take(pl->arg);
    if (!b) return b.error();
    out.payload.emplace(b->begin(), b->end());
  } else {
    return cose1_bad("the payload is neither a byte string nor nil");
  }
  auto sig = r.bstr("the signature");
  if (!sig) return sig.error();
  if (sig->size() > lim.max_signature_bytes)
    return cose1_long("signature over " + std::to_string(lim.max_signature_bytes) + " bytes");
  out.signature.assign(sig->begin(), sig->end());
  if (!r.empty()) return cose1_bad("bytes after the message");

  // RFC 9052 §3: a label appears in one bucket only.
  for (const auto& l : uh.labels)
    if (std::find(ph.labels.begin(), ph.labels.end(), l) != ph.labels.end())
      return cose1_bad("label " + l.str() + " in both the protected and the unprotected header (RFC 9052 §3)");
  if (uh.alg || uh.alg_text) return Error{Errc::unknown_suite, "COSE_Sign1: alg must be in the protected header"};
  if (ph.alg_text) return Error{Errc::unknown_suite, "COSE_Sign1: alg \"" + *ph.alg_text + "\" is not HSS-LMS (-46, RFC 8778 §3)"};
  if (!ph.alg) return Error{Errc::unknown_suite, "COSE_Sign1: no alg in the protected header"};
  if (*ph.alg != kAlgHssLms)
    return Error{Errc::unknown_suite, "COSE_Sign1: alg " + std::to_string(*ph.alg) + " is not HSS-LMS (-46, RFC 8778 §3)"};
  // RFC 9052 §3.1 crit: every listed parameter must be understood and is a protected one.
  for (const auto& c : ph.crit) {
    const bool known = c.is_int && (c.i == kHeaderAlg || c.i == kHeaderContentType || c.i == kHeaderKid);
    if (!known) return Error{Errc::unsupported, "COSE_Sign1: critical header parameter " + c.str() + " is not understood (RFC 9052 §3.1)"};
    if (std::find(ph.labels.begin(), ph.labels.end(), c) == ph.labels.end())
      return cose1_bad("crit names " + c.str() + ", which is not in the protected header");
  }
  out.alg = *ph.alg;
  if (ph.kid) out.kid = std::move(*ph.kid);
  else if (uh.kid) out.kid = std::move(*uh.kid);
  out.content_type_text = ph.ct_text ? ph.ct_text : uh.ct_text;
  out.content_type_uint = ph.ct_uint ? ph.ct_uint : uh.ct_uint;
  return out;
}

Result<Verified1> verify1_hss(byte_span message, byte_span hss_public_key, const VerifyOptions& opt) {
  return cose1_verify(message, hss_public_key, opt, nullptr);
}

Result<Verified1> verify1_hss_cose_key(byte_span message, byte_span cose_key, const VerifyOptions& opt) {
  bytes kid;
  auto pk = jose::hss_from_cose_key(cose_key, &kid);
  if (!pk) return pk.error();
  return cose1_verify(message, *pk, opt, &kid);
}

}  // namespace pqsig::cose
