# The network parts (Web Bot Auth in the path): pqsig_client (libcurl: signing fetch client and
# the directory fetcher) and pqsig_serve (Boost.Beast/Asio HTTP/1.1 services, hiredis nonce
# store). Kept out of the core library: only these two targets and the CLI touch the network.
add_subdirectory(${CMAKE_SOURCE_DIR}/src/client ${CMAKE_BINARY_DIR}/src/client)
add_subdirectory(${CMAKE_SOURCE_DIR}/src/serve ${CMAKE_BINARY_DIR}/src/serve)
if(TARGET pqsig_cli)
  target_link_libraries(pqsig_cli PRIVATE pqsig_serve pqsig_client)
endif()

# Installed beside the static core, in their own export set: find_package(pqsig CONFIG COMPONENTS
# serve) gives pqsig::pqsig_client and pqsig::pqsig_serve (static archives; their link
# dependencies libcurl, hiredis, Boost headers, nlohmann_json and Threads are found by
# pqsigConfig.cmake). Their headers (pqsig/client.hpp, pqsig/serve.hpp) are installed with the rest
# of include/pqsig.
if(NOT PQSIG_FUZZ)
  include(GNUInstallDirs)
  set_target_properties(pqsig_client PROPERTIES EXPORT_NAME pqsig_client)
  set_target_properties(pqsig_serve PROPERTIES EXPORT_NAME pqsig_serve)
  install(TARGETS pqsig_client pqsig_serve EXPORT pqsigNetworkTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT pqsigNetworkTargets NAMESPACE pqsig:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pqsig)
endif()
