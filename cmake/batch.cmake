# pqsig_batch: the `pqsig batch` line handler and session loop (tools/batch*.cpp) as a library
# linked by the CLI, the unit tests (tests/batch) and the fuzz harness (fuzz/), so all three
# drive the same code. The CLI's own glob leaves these files out.
file(GLOB PQSIG_BATCH_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tools/batch*.cpp)
add_library(pqsig_batch STATIC ${PQSIG_BATCH_SOURCES})
target_include_directories(pqsig_batch PUBLIC ${CMAKE_SOURCE_DIR}/tools)
target_compile_options(pqsig_batch PRIVATE ${PQSIG_WARNINGS})
target_link_libraries(pqsig_batch PUBLIC pqsig nlohmann_json::nlohmann_json)
# The library's strict JSON reader (src/jose/json_strict.hpp) parses every request line.
target_include_directories(pqsig_batch PRIVATE ${CMAKE_SOURCE_DIR}/src)
