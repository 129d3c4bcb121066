# Unity (jumbo) builds of the JSON/CLI-heavy targets: nlohmann/json and CLI11 are header-only, so
# every translation unit that uses them parses, instantiates and optimizes the same templates
# again; compiling a few sources per translation unit does that work once per batch. This halves
# the CPU time of a cold `make price` (the library + CLI); see issue 13 and README ("make price").
#
# Batch sizes give each target at least two translation units, so both cores stay busy. Files
# are batched in source-list (alphabetical) order; helpers in anonymous namespaces must therefore
# have names unique within their target (e.g. mldsa_handles / slhdsa_handles in src/ledger/batch_*.cpp).
# A file with its own compile definitions (src/common/build_info.cpp) is compiled alone by CMake.
#
# Not unity-built: the PQ core (pqsig_core_obj: per-file SIMD target attributes, and its constant-
# time code is checked per object under valgrind), pqsig_client (two files), the tests and the
# fuzz harnesses. PQSIG_UNITY=OFF compiles one file per translation unit (quicker incremental
# rebuilds while editing one file).
option(PQSIG_UNITY "Unity (batched) builds of the library, CLI and service targets" ON)

# pqsig_unity(<target> <batch size>)
function(pqsig_unity tgt size)
  if(PQSIG_UNITY AND TARGET ${tgt})
    set_target_properties(${tgt} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH
                                            UNITY_BUILD_BATCH_SIZE ${size})
  endif()
endfunction()

pqsig_unity(pqsig_measure_obj 12)  # 35 sources -> 3 translation units (what `make price` measures with)
pqsig_unity(pqsig_report_obj 5)    # 10 (price report code, -Og) -> 2
pqsig_unity(pqsig_price 6)         # 6 (`pqsig price` alone, -Og) -> 1
pqsig_unity(pqsig 9)         # the other 18 (canonical, sf, httpsig, ledger) -> 2
pqsig_unity(pqsig_cli 8)     # 16 -> 2
pqsig_unity(pqsig_serve 3)   # 6 -> 2
