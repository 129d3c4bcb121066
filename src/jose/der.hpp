// Internal: a minimal, strict DER (ITU-T X.690) encoder / decoder — just what SPKI / PKCS#8
// need: SEQUENCE, INTEGER (small, non-negative), OBJECT IDENTIFIER, OCTET STRING, BIT STRING,
// NULL and context-specific tags. Decoding refuses indefinite lengths, non-minimal lengths,
// high tag numbers, truncated input and trailing bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pqsig/common.hpp"

namespace pqsig::der {

namespace tag {
constexpr u8 integer = 0x02;
constexpr u8 bit_string = 0x03;
constexpr u8 octet_string = 0x04;
constexpr u8 null = 0x05;
constexpr u8 oid = 0x06;
constexpr u8 sequence = 0x30;
constexpr u8 ctx0_prim = 0x80;       ///< [0] IMPLICIT, primitive
constexpr u8 ctx1_prim = 0x81;       ///< [1] IMPLICIT, primitive
constexpr u8 ctx0_cons = 0xA0;       ///< [0] constructed
constexpr u8 ctx1_cons = 0xA1;       ///< [1] constructed
}  // namespace tag

/// X.690 §8.1: tag || definite length (short or minimal long form) || contents.
bytes tlv(u8 tag, byte_span contents);
/// X.690 §8.1.3: the length octets alone.
void append_length(bytes& out, std::size_t len);
/// X.690 §8.3: INTEGER for a small non-negative value.
bytes integer(std::uint64_t v);
/// X.690 §8.6: BIT STRING with zero unused bits.
bytes bit_string(byte_span contents);
/// Concatenate already-encoded elements into a SEQUENCE.
bytes sequence(std::initializer_list<byte_span> elems);
/// X.690 §8.19: an OID from dotted text, e.g. "2.16.840.1.101.3.4.3.17" → 06 09 60 86 48 ...
bytes oid(std::string_view dotted);
/// Decode the contents of an OID (without tag/length) into dotted text; strict (minimal arcs).
Result<std::string> oid_to_string(byte_span contents);

struct Element {
  u8 tag = 0;
  byte_span contents;  ///< view into the parsed buffer
  byte_span whole;     ///< tag + length + contents
};

/// A cursor over a sequence of DER elements.
class Reader {
 public:
  explicit Reader(byte_span in) noexcept : in_(in) {}
  bool empty() const noexcept { return pos_ == in_.size(); }
  /// Next element (any tag). Strict lengths.
  Result<Element> next();
  /// Next element, which must carry `tag`.
  Result<Element> expect(u8 tag, std::string_view what);
  /// Peek at the next tag (0 when empty).
  u8 peek_tag() const noexcept { return empty() ? 0 : in_[pos_]; }
  /// Error unless all input was consumed.
  Status finish(std::string_view what) const;

 private:
  byte_span in_;
  std::size_t pos_ = 0;
};

/// Parse exactly one element that fills `in` completely.
Result<Element> parse_single(byte_span in, u8 tag, std::string_view what);
/// Small non-negative INTEGER contents (minimal encoding, <= 8 bytes).
Result<std::uint64_t> parse_small_uint(byte_span contents);
/// Non-negative big INTEGER contents → unsigned big-endian magnitude without the sign octet.
Result<bytes> parse_unsigned_big(byte_span contents);
/// Unsigned big-endian magnitude → INTEGER element (adds a 0x00 octet when the top bit is set).
bytes unsigned_big(byte_span magnitude);

/// RFC 7468 textual encoding.
std::string pem_encode(std::string_view label, byte_span der);
/// Strict RFC 7468 parse: exactly one block with the expected label (empty = any; label returned).
Result<bytes> pem_decode(std::string_view text, std::string_view label, std::string* found_label = nullptr);

}  // namespace pqsig::der
