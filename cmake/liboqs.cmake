# Optional provider "liboqs" (include/pqsig/provider.hpp): link liboqs into the library when it is
# found the ordinary way (find_package(liboqs CONFIG): CMAKE_PREFIX_PATH, -Dliboqs_DIR=..., or a
# system install). PQSIG_WITH_LIBOQS=AUTO (default: use it when found) | ON (required) | OFF.
# Sets PQSIG_HAVE_LIBOQS (ON/OFF) for the tests (tests/providers/CMakeLists.txt).
set(PQSIG_WITH_LIBOQS AUTO CACHE STRING "Build the liboqs provider: AUTO, ON or OFF")
set_property(CACHE PQSIG_WITH_LIBOQS PROPERTY STRINGS AUTO ON OFF)

set(PQSIG_HAVE_LIBOQS OFF)
if(NOT PQSIG_WITH_LIBOQS STREQUAL "OFF")
  if(PQSIG_WITH_LIBOQS STREQUAL "ON")
    find_package(liboqs CONFIG REQUIRED)
  else()
    find_package(liboqs CONFIG QUIET)
  endif()
  if(TARGET OQS::oqs)
    set(PQSIG_HAVE_LIBOQS ON)
  endif()
endif()

if(PQSIG_HAVE_LIBOQS)
  target_link_libraries(pqsig PRIVATE OQS::oqs)
  target_link_libraries(pqsig_measure_obj PRIVATE OQS::oqs)
  target_link_libraries(pqsig_measure PRIVATE OQS::oqs)
  target_compile_definitions(pqsig_measure_obj PRIVATE PQSIG_HAVE_LIBOQS=1)
  # liboqs' public API has no internal interface; its SLH-DSA core exports slh_verify_internal
  # and the parameter tables. Use them when this liboqs links them (checked, never assumed).
  include(CheckCXXSourceCompiles)
  include(CMakePushCheckState)
  cmake_push_check_state(RESET)
  set(CMAKE_REQUIRED_LIBRARIES OQS::oqs)
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_compiles([=[
    #include <cstddef>
    #include <cstdint>
    extern "C" {
    struct pqsig_oqs_slh_param;
    extern const pqsig_oqs_slh_param slh_dsa_sha2_128s;
    int slh_verify_internal(const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t,
                            const std::uint8_t*, const pqsig_oqs_slh_param*);
    }
    int main(int argc, char**) {
      return argc > 5 ? slh_verify_internal(nullptr, 0, nullptr, 0, nullptr, &slh_dsa_sha2_128s) : 0;
    }
  ]=] PQSIG_LIBOQS_SLH_INTERNAL)
  # And FIPS 205 Algorithm 25 (HashSLH-DSA verify; liboqs computes PH(M) with its own hashes).
  check_cxx_source_compiles([=[
    #include <cstddef>
    #include <cstdint>
    extern "C" {
    struct pqsig_oqs_slh_param;
    extern const pqsig_oqs_slh_param slh_dsa_sha2_128s;
    int hash_slh_verify(const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t, const std::uint8_t*,
                        std::size_t, const char*, const std::uint8_t*, const pqsig_oqs_slh_param*);
    }
    int main(int argc, char**) {
      return argc > 5 ? hash_slh_verify(nullptr, 0, nullptr, 0, nullptr, 0, "SHA2-256", nullptr, &slh_dsa_sha2_128s) : 0;
    }
  ]=] PQSIG_LIBOQS_SLH_PREHASH)
  # Its ML-DSA (mldsa-native) exports the portable core of each set: verify_internal (internal
  # interface and external mu) and verify_pre_hash_internal (HashML-DSA), without the optional
  # context parameter (liboqs does not define MLD_CONFIG_CONTEXT_PARAMETER).
  check_cxx_source_compiles([=[
    #include <cstddef>
    #include <cstdint>
    extern "C" {
    int PQCP_MLDSA_NATIVE_MLDSA44_C_verify_internal(const std::uint8_t*, std::size_t, const std::uint8_t*,
        std::size_t, const std::uint8_t*, std::size_t, const std::uint8_t*, int);
    int PQCP_MLDSA_NATIVE_MLDSA65_C_verify_internal(const std::uint8_t*, std::size_t, const std::uint8_t*,
        std::size_t, const std::uint8_t*, std::size_t, const std::uint8_t*, int);
    int PQCP_MLDSA_NATIVE_MLDSA87_C_verify_internal(const std::uint8_t*, std::size_t, const std::uint8_t*,
        std::size_t, const std::uint8_t*, std::size_t, const std::uint8_t*, int);
    int PQCP_MLDSA_NATIVE_MLDSA44_C_verify_pre_hash_internal(const std::uint8_t*, std::size_t,
        const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t, const std::uint8_t*, int);
    int PQCP_MLDSA_NATIVE_MLDSA65_C_verify_pre_hash_internal(const std::uint8_t*, std::size_t,
        const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t, const std::uint8_t*, int);
    int PQCP_MLDSA_NATIVE_MLDSA87_C_verify_pre_hash_internal(const std::uint8_t*, std::size_t,
        const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t, const std::uint8_t*, int);
    }
    int main(int argc, char**) {
      if (argc < 5) return 0;
      return PQCP_MLDSA_NATIVE_MLDSA44_C_verify_internal(nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0) +
             PQCP_MLDSA_NATIVE_MLDSA65_C_verify_internal(nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0) +
             PQCP_MLDSA_NATIVE_MLDSA87_C_verify_internal(nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0) +
             PQCP_MLDSA_NATIVE_MLDSA44_C_verify_pre_hash_internal(nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0) +
             PQCP_MLDSA_NATIVE_MLDSA65_C_verify_pre_hash_internal(nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0) +
             PQCP_MLDSA_NATIVE_MLDSA87_C_verify_pre_hash_internal(nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0);
    }
  ]=] PQSIG_LIBOQS_MLDSA_INTERNAL)
  cmake_pop_check_state()
  if(PQSIG_LIBOQS_SLH_INTERNAL)
    target_compile_definitions(pqsig_measure_obj PRIVATE PQSIG_LIBOQS_SLH_INTERNAL=1)
  endif()
  if(PQSIG_LIBOQS_SLH_INTERNAL AND PQSIG_LIBOQS_SLH_PREHASH)
    target_compile_definitions(pqsig_measure_obj PRIVATE PQSIG_LIBOQS_SLH_PREHASH=1)
  endif()
  if(PQSIG_LIBOQS_MLDSA_INTERNAL)
    target_compile_definitions(pqsig_measure_obj PRIVATE PQSIG_LIBOQS_MLDSA_INTERNAL=1)
  endif()
  message(STATUS "pqsig: liboqs ${liboqs_VERSION} provider ON (${liboqs_DIR}; SLH-DSA internal: ${PQSIG_LIBOQS_SLH_INTERNAL}, pre-hash: ${PQSIG_LIBOQS_SLH_PREHASH}; "
                 "ML-DSA internal/external mu/HashML-DSA: ${PQSIG_LIBOQS_MLDSA_INTERNAL})")
else()
  message(STATUS "pqsig: liboqs provider OFF (PQSIG_WITH_LIBOQS=${PQSIG_WITH_LIBOQS}; liboqs not found) - its tests are not built")
endif()
