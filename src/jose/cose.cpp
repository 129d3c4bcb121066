// COSE_Sign1 with HSS/LMS (pqsig/cose.hpp): RFC 9052 §4.2 / §4.4 structures, RFC 8778 §3 algorithm
// HSS-LMS (-46), RFC 8949 CBOR read strictly and bounded. The COSE_Key reader of jose/hbs.cpp
// gives the key; the HSS signature and its verification are lms::StatefulSigner / lms::hss_verify.
// File-local names carry a cose1_ prefix (unity builds put this file next to hbs.cpp's CBOR code).
#include "pqsig/cose.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "pqsig/jose.hpp"

namespace pqsig::cose {

namespace {

Error cose1_bad(std::string m) { return Error{Errc::invalid_encoding, "COSE_Sign1: " + std::move(m)}; }
Error cose1_long(std::string m) { return Error{Errc::invalid_length, "COSE_Sign1: " + std::move(m)}; }

// ------------------------------------------------------------ writing (RFC 8949 §4.2.1 deterministic)

void cose1_put_head(bytes& out, unsigned major, std::uint64_t v) {
  const auto mt = static_cast<u8>(major << 5);
  if (v < 24) {
    out.push_back(static_cast<u8>(mt | v));
    return;
  }
  int n = v <= 0xff ? 1 : v <= 0xffff ? 2 : v <= 0xffffffffu ? 4 : 8;
  out.push_back(static_cast<u8>(mt | (n == 1 ? 24 : n == 2 ? 25 : n == 4 ? 26 : 27)));
  for (int s = 8 * (n - 1); s >= 0; s -= 8) out.push_back(static_cast<u8>(v >> s));
}
void cose1_put_bstr(bytes& out, byte_span b) {
  cose1_put_head(out, 2, b.size());
  out.insert(out.end(), b.begin(), b.end());
}
void cose1_put_tstr(bytes& out, std::string_view s) {
  cose1_put_head(out, 3, s.size());
  out.insert(out.end(), s.begin(), s.end());
}

// {1: -46}: map(1), uint 1, nint 45 (0x38 0x2d).
constexpr u8 kCose1ProtectedHss[] = {0xa1, 0x01, 0x38, 0x2d};

// ------------------------------------------------------------ reading

// RFC 3629 §4 well-formed UTF-8 (CBOR text strings, RFC 8949 §3.1 major type 3).
bool cose1_utf8_ok(byte_span s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const u8 c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (s.size() - i - 1 < n) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      if ((s[i + k] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3f);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += n + 1;
  }
  return true;
}

struct Cose1Head {
  unsigned major = 0;
  unsigned ai = 0;
  std::uint64_t arg = 0;
};

// A header label (RFC 9052 §3: label = int / tstr).
struct Cose1Label {
  bool is_int = true;
  std::int64_t i = 0;
  std::string s;
  bool operator==(const Cose1Label& o) const { return is_int == o.is_int && (is_int ? i == o.i : s == o.s); }
  std::string str() const { return is_int ? std::to_string(i) : "\"" + s + "\""; }
};

class Cose1Reader {
 public:
  Cose1Reader(byte_span in, const Limits& lim) : in_(in), lim_(lim) {}
  bool empty() const { return pos_ == in_.size(); }

  // RFC 8949 §3: initial byte + argument. Definite lengths only (no 31), no reserved 28..30, the
  // argument in its shortest form (§4.2.1); simple values in one byte below 32 (§3.3).
  Result<Cose1Head> head() {
    if (pos_ >= in_.size()) return cose1_long("truncated");
    const u8 ib = in_[pos_++];
    Cose1Head h;
    h.major = ib >> 5;
    h.ai = ib & 0x1f;
    if (h.ai < 24) {
      h.arg = h.ai;
      return h;
    }
    if (h.ai > 27) return cose1_bad("indefinite length or reserved additional information (RFC 8949 §3)");
    const std::size_t n = std::size_t{1} << (h.ai - 24);
    if (in_.size() - pos_ < n) return cose1_long("truncated");
    for (std::size_t i = 0; i < n; ++i) h.arg = (h.arg << 8) | in_[pos_++];
    if (h.major == 7) {
      if (h.ai == 24 && h.arg < 32) return cose1_bad("simple value in two bytes (RFC 8949 §3.3)");
      return h;  // floats: any width
    }
    const std::uint64_t min = n == 1 ? 24 : (std::uint64_t{1} << (8 * n / 2));
    if (h.arg < min) return cose1_bad("an argument not in its shortest form (RFC 8949 §4.2.1)");
    return h;
  }

  Result<byte_span> take(std::uint64_t n) {
    if (n > in_.size() - pos_) return cose1_long("truncated string");
    byte_span b = in_.subspan(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return b;
  }

  Result<byte_span> bstr(std::string_view what) {
    auto h = head();
    if (!h) return h.error();
    if (h->major != 2) return cose1_bad(std::string(what) + " is not a byte string");
    return take(h->arg);
  }

  Result<std::string> tstr_body(std::uint64_t n, std::string_view what) {
    auto b = take(n);
    if (!b) return b.error();
    if (!cose1_utf8_ok(*b)) return cose1_bad(std::string(what) + " is not UTF-8");
    return std::string(b->begin(), b->end());
  }

  static Result<std::int64_t> as_int(const Cose1Head& h, std::string_view what) {
    if (h.major > 1) return cose1_bad(std::string(what) + " is not an integer");
    if (h.arg > static_cast<std::uint64_t>(INT64_MAX)) return cose1_bad(std::string(what) + " is out of range");
    return h.major == 0 ? static_cast<std::int64_t>(h.arg) : -1 - static_cast<std::int64_t>(h.arg);
  }

  Result<Cose1Label> label() {
    auto h = head();
    if (!h) return h.error();
    Cose1Label l;
    if (h->major == 3) {
      auto s = tstr_body(h->arg, "a label");
      if (!s) return s.error();
      l.is_int = false;
      l.s = std::move(*s);
      return l;
    }
    auto i = as_int(*h, "a label");
    if (!i) return Error{i.error().code, "COSE_Sign1: a header label is neither an int nor a text string"};
    l.i = *i;
    return l;
  }

  // Skips one data item of any type (an unknown header parameter's value), nesting bounded.
  Status skip(unsigned depth) {
    if (depth > lim_.max_depth) return cose1_long("nested deeper than " + std::to_string(lim_.max_depth));
    auto h = head();
    if (!h) return h.error();
    switch (h->major) {
      case 0:
      case 1:
      case 7:
        return {};
      case 2: {
        auto b = take(h->arg);
        if (!b) return b.error();
        return {};
      }
      case 3: {
        auto s = tstr_body(h->arg, "a text string");
        if (!s) return s.error();
        return {};
      }
      case 4:
      case 5: {
        if (h->arg > lim_.max_items) return cose1_long("an array or map with more than " + std::to_string(lim_.max_items) + " entries");
        const std::uint64_t n = h->major == 5 ? 2 * h->arg : h->arg;
        for (std::uint64_t k = 0; k < n; ++k)
          if (auto st = skip(depth + 1); !st) return st;
        return {};
      }
      default:  // 6: tag + one item
        return skip(depth + 1);
    }
  }

 private:
  byte_span in_;
  const Limits& lim_;
  std::size_t pos_ = 0;
};

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
Status cose1_read_headers(Cose1Reader& r, const Limits& lim, bool is_protected, Cose1Headers& h) {
  const char* bucket = is_protected ? "protected header" : "unprotected header";
  auto m = r.head();
  if (!m) return m.error();
  if (m->major != 5) return cose1_bad(std::string(bucket) + " is not a map");
  if (m->arg > lim.max_items) return cose1_long(std::string(bucket) + ": more than " + std::to_string(lim.max_items) + " parameters");
  for (std::uint64_t k = 0; k < m->arg; ++k) {
    auto l = r.label();
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
          auto i = Cose1Reader::as_int(*v, "alg");
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
          auto cl = r.label();
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
  if (auto st = lms::hss_verify(hss_public_key, tbs, p->signature); !st)
    return Error{st.error().code, "COSE_Sign1 (HSS-LMS): " + st.error().message};
  return Verified1{bytes(payload.begin(), payload.end()), std::move(p->kid)};
}

}  // namespace

bytes sig_structure1(byte_span protected_bstr, byte_span external_aad, byte_span payload) {
  bytes out;
  out.reserve(32 + protected_bstr.size() + external_aad.size() + payload.size());
  cose1_put_head(out, 4, 4);
  cose1_put_tstr(out, "Signature1");
  cose1_put_bstr(out, protected_bstr);
  cose1_put_bstr(out, external_aad);
  cose1_put_bstr(out, payload);
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
  if (opt.tagged) cose1_put_head(m, 6, kTagCoseSign1);
  cose1_put_head(m, 4, 4);
  cose1_put_bstr(m, prot);
  if (opt.kid.empty()) {
    cose1_put_head(m, 5, 0);
  } else {
    cose1_put_head(m, 5, 1);
    cose1_put_head(m, 0, kHeaderKid);
    cose1_put_bstr(m, opt.kid);
  }
  if (opt.detached) m.push_back(0xf6);  // nil (RFC 9052 §4.1: detached content)
  else cose1_put_bstr(m, payload);
  cose1_put_bstr(m, s->signature);
  return out;
}

Result<Sign1> parse_sign1(byte_span message, const Limits& lim) {
  if (message.size() > lim.max_message_bytes)
    return cose1_long(std::to_string(message.size()) + " bytes, over the limit of " + std::to_string(lim.max_message_bytes));
  Cose1Reader r(message, lim);
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
    Cose1Reader pr(*prot, lim);
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
