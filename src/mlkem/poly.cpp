// The scalar reference backend of the ML-KEM arithmetic (FIPS 203 §4.3) and the run-time
// selection between it and the SIMD backend (src/mlkem/poly_avx2.cpp).
#include "mlkem/poly.hpp"

#include <cstring>

namespace pqsig::mlkem::detail {

namespace {

// FIPS 203, Algorithm 9: NTT(f), in place.
void ntt_scalar(std::uint16_t c[kN]) noexcept {
  Poly f;
  std::memcpy(f.c, c, sizeof f.c);
  const NttPoly r = ntt(f);
  std::memcpy(c, r.c, sizeof r.c);
}

// FIPS 203, Algorithm 10: NTT^-1(f̂), in place.
void ntt_inverse_scalar(std::uint16_t c[kN]) noexcept {
  NttPoly f;
  std::memcpy(f.c, c, sizeof f.c);
  const Poly r = ntt_inverse(f);
  std::memcpy(c, r.c, sizeof r.c);
}

// FIPS 203, Algorithms 11–12: Σ MultiplyNTTs(a[j·stride], b[j]).
void multiply_ntts_sum_scalar(NttPoly& out, const NttPoly* a, int stride, const NttPoly* b, int n) noexcept {
  std::memset(out.c, 0, sizeof out.c);
  for (int j = 0; j < n; ++j) multiply_ntts_acc(out, a[j * stride], b[j]);
}

// FIPS 203, Algorithm 7 lines 5–13: d1, d2 from three bytes, kept when < q.
int sample_ntt_parse_scalar(std::uint16_t out[kN], int count, const std::uint8_t* buf, std::size_t len) noexcept {
  for (std::size_t p = 0; p + 3 <= len && count < kN; p += 3) {
    const std::uint16_t d1 = static_cast<std::uint16_t>(buf[p] | ((buf[p + 1] & 0x0F) << 8));
    const std::uint16_t d2 = static_cast<std::uint16_t>((buf[p + 1] >> 4) | (buf[p + 2] << 4));
    if (d1 < kQ) out[count++] = d1;
    if (d2 < kQ && count < kN) out[count++] = d2;
  }
  return count;
}

// FIPS 203, Algorithm 8: SamplePolyCBD_η(B).
void sample_poly_cbd_scalar(int eta, const std::uint8_t* b, std::uint16_t c[kN]) noexcept {
  const Poly f = eta == 3 ? sample_poly_cbd<3>(b) : sample_poly_cbd<2>(b);
  std::memcpy(c, f.c, sizeof f.c);
}

template <int D>
void compress_encode_d(const std::uint16_t c[kN], std::uint8_t* out) noexcept {
  std::uint16_t t[kN];
  for (int i = 0; i < kN; ++i) t[i] = compress<D>(c[i]);
  byte_encode<D>(t, out);
}
// ByteEncode_d(Compress_d(c)) (FIPS 203 Algorithm 5, §4.2.1); d = 12: ByteEncode_12(c).
void compress_encode_scalar(int d, const std::uint16_t c[kN], std::uint8_t* out) noexcept {
  switch (d) {
    case 1: return compress_encode_d<1>(c, out);
    case 4: return compress_encode_d<4>(c, out);
    case 5: return compress_encode_d<5>(c, out);
    case 10: return compress_encode_d<10>(c, out);
    case 11: return compress_encode_d<11>(c, out);
    default: return byte_encode<12>(c, out);
  }
}

template <int D>
void decode_decompress_d(const std::uint8_t* in, std::uint16_t c[kN]) noexcept {
  byte_decode_raw<D>(in, c);
  for (int i = 0; i < kN; ++i) c[i] = decompress<D>(c[i]);
}
// Decompress_d(ByteDecode_d(B)) (FIPS 203 Algorithm 6, §4.2.1); d = 12: ByteDecode_12(B) mod q.
void decode_decompress_scalar(int d, const std::uint8_t* in, std::uint16_t c[kN]) noexcept {
  switch (d) {
    case 1: return decode_decompress_d<1>(in, c);
    case 4: return decode_decompress_d<4>(in, c);
    case 5: return decode_decompress_d<5>(in, c);
    case 10: return decode_decompress_d<10>(in, c);
    case 11: return decode_decompress_d<11>(in, c);
    default: return byte_decode<12>(in, c);
  }
}

constexpr PolyOps kScalar{"scalar",
                          &ntt_scalar,
                          &ntt_inverse_scalar,
                          &multiply_ntts_sum_scalar,
                          &sample_ntt_parse_scalar,
                          &sample_poly_cbd_scalar,
                          &compress_encode_scalar,
                          &decode_decompress_scalar};

}  // namespace

const PolyOps& poly_ops_scalar() noexcept { return kScalar; }

const PolyOps& poly_ops() noexcept {
  if (const PolyOps* v = poly_ops_avx512()) return *v;
  if (const PolyOps* v = poly_ops_avx2()) return *v;
  return kScalar;
}

}  // namespace pqsig::mlkem::detail
