// Over-aligned heap objects (alignas 32 or 64: vector-friendly polynomial arrays) allocated
// with the plain global operator new (malloc) and aligned by hand. The aligned operator new of libstdc++ goes through
// glibc's memalign, which splits a remainder off every block; the remainders fill the fast
// bins, and the next allocation of 1 KiB or more consolidates them (malloc_consolidate was
// ~2% of an ML-KEM-512 key generation). A type opts in by deriving from MallocAligned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

namespace pqsig::detail {

static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= 16, "the stored pointer needs a gap of at least 8 bytes");

/// n bytes aligned to align (a power of two, 16 ≤ align ≤ 4096); free with free_aligned. The
/// block comes from the global (unaligned) operator new, so a program's replacement of it still
/// sees every block; its pointer is kept in the 8 bytes just below the result (gap ≥ 16 bytes).
inline void* malloc_aligned(std::size_t n, std::size_t align) {
  if (align < 16) align = 16;
  void* raw = ::operator new(n + align);  // throws std::bad_alloc
  const std::uintptr_t a = (reinterpret_cast<std::uintptr_t>(raw) + align) & ~(std::uintptr_t{align} - 1);
  std::memcpy(reinterpret_cast<void*>(a - sizeof raw), &raw, sizeof raw);
  return reinterpret_cast<void*>(a);
}
inline void free_aligned(void* p) noexcept {
  if (!p) return;
  void* raw;
  std::memcpy(&raw, static_cast<char*>(p) - sizeof raw, sizeof raw);
  ::operator delete(raw);
}

/// Base class: `new T` / `delete p` for T (and its subclasses) use malloc_aligned/free_aligned.
struct MallocAligned {
  static void* operator new(std::size_t n, std::align_val_t a) { return malloc_aligned(n, static_cast<std::size_t>(a)); }
  static void* operator new(std::size_t n) { return malloc_aligned(n, 16); }
  static void operator delete(void* p, std::align_val_t) noexcept { free_aligned(p); }
  static void operator delete(void* p) noexcept { free_aligned(p); }
};

}  // namespace pqsig::detail
