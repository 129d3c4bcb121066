# The network parts (Web Bot Auth in the path): pqsig_client (libcurl: signing fetch client and
# the directory fetcher) and pqsig_serve (Boost.Beast/Asio HTTP/1.1 services, hiredis nonce
# store). Kept out of the core library: only these two targets and the CLI touch the network.
add_subdirectory(${CMAKE_SOURCE_DIR}/src/client ${CMAKE_BINARY_DIR}/src/client)
add_subdirectory(${CMAKE_SOURCE_DIR}/src/serve ${CMAKE_BINARY_DIR}/src/serve)
if(TARGET pqsig_cli)
  target_link_libraries(pqsig_cli PRIVATE pqsig_serve pqsig_client)
endif()
