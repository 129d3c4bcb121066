# cmake -DPQSIG=<binary> -DSRC=<docs/man> -DOUT=<dir> -DVERSION=<v> -P gen_man.cmake
# pqsig(1) = the hand-written head and tail in docs/man/ around the COMMANDS section the binary
# generates from its command tree; plus the bash and zsh completions (also generated).
execute_process(COMMAND ${PQSIG} __man-commands OUTPUT_VARIABLE commands RESULT_VARIABLE rc1)
execute_process(COMMAND ${PQSIG} completion bash OUTPUT_FILE ${OUT}/pqsig.bash RESULT_VARIABLE rc2)
execute_process(COMMAND ${PQSIG} completion zsh OUTPUT_FILE ${OUT}/_pqsig RESULT_VARIABLE rc3)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT rc3 EQUAL 0)
  message(FATAL_ERROR "gen_man: ${PQSIG} failed (${rc1} ${rc2} ${rc3})")
endif()
file(READ ${SRC}/pqsig.1.head head)
file(READ ${SRC}/pqsig.1.tail tail)
string(REPLACE "@VERSION@" "${VERSION}" head "${head}")
file(WRITE ${OUT}/pqsig.1 "${head}${commands}${tail}")
