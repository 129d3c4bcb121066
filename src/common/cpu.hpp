// CPU feature detection for run-time backend selection (x86-64). With PQSIG_PORTABLE every
// query answers false, so only the scalar reference code runs.
#pragma once

namespace pqsig::cpu {
bool has_avx2() noexcept;
bool has_sha_ni() noexcept;
bool has_bmi2() noexcept;
/// AVX-512F (zmm) and AVX-512F+VL (the 128/256-bit forms with vprolq/vpternlogq); both also
/// require AVX2 here, so PQSIG_FORCE_PORTABLE turns them off too. Valgrind hides AVX-512.
bool has_avx512f() noexcept;
bool has_avx512vl() noexcept;
/// AVX-512F/BW/VL with VBMI and VBMI2 (vpermb, vpcompressw): the 16-bit-lane kernels (ML-KEM).
bool has_avx512_vbmi2() noexcept;
/// Force the scalar reference everywhere (tests use this to compare backends). The environment
/// variable PQSIG_FORCE_PORTABLE=1 makes every feature query answer false for the whole process.
void force_portable(bool on) noexcept;
bool portable_forced() noexcept;
}  // namespace pqsig::cpu
