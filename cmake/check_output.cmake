# cmake -DPASS=<regex> [-DFAIL=<regex>] -P check_output.cmake -- <command> [args...]
#
# Runs the command and passes only if it exits with status 0, its output
# (stdout and stderr together) matches PASS, and it matches neither FAIL nor
# a sanitizer's report. ctest's PASS_REGULAR_EXPRESSION alone ignores the
# exit status: tascell_add_output_test (TascellTesting.cmake) runs a test
# through this script instead.
if(NOT DEFINED PASS)
  message(FATAL_ERROR "check_output.cmake: no PASS expression")
endif()
set(command)
set(seen_dashes FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(seen_dashes)
    # (an argument's ';' kept: escaped, it does not split the list)
    string(REPLACE ";" "\\;" arg "${CMAKE_ARGV${i}}")
    list(APPEND command "${arg}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(seen_dashes TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "check_output.cmake: no command after --")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
# The output as ctest would have shown it.
execute_process(COMMAND ${CMAKE_COMMAND} -E echo_append "${output}")

set(problems)
if(NOT status STREQUAL "0")
  list(APPEND problems "it exited with status ${status}")
endif()
if(NOT output MATCHES "${PASS}")
  list(APPEND problems "its output does not match the PASS expression")
endif()
if(DEFINED FAIL AND NOT FAIL STREQUAL "" AND output MATCHES "${FAIL}")
  list(APPEND problems "its output matches the FAIL expression (\"${CMAKE_MATCH_0}\")")
endif()
if(output MATCHES "(Address|Thread|Leak|Memory|UndefinedBehavior)Sanitizer")
  list(APPEND problems "a sanitizer reported (\"${CMAKE_MATCH_0}\")")
endif()
if(problems)
  list(JOIN problems "; " problems)
  message(FATAL_ERROR "check_output: FAILED: ${problems}")
endif()
message(STATUS "check_output: exit status 0, output matches")
