# tascell_add_output_test(NAME <name> PASS <regex> [FAIL <regex>...] COMMAND <command> [args...])
#
# A test that passes when its command exits with status 0 AND its output
# matches PASS, and fails on a match of any FAIL expression or on a
# sanitizer's report. (ctest's PASS_REGULAR_EXPRESSION alone would ignore the
# exit status.) The command runs through cmake/check_output.cmake; set the
# test's ENVIRONMENT, TIMEOUT, ... with set_tests_properties as usual. No
# argument of the command may contain a ';'.
function(tascell_add_output_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;PASS" "FAIL;COMMAND")
  if(NOT arg_NAME OR NOT arg_PASS OR NOT arg_COMMAND)
    message(FATAL_ERROR "tascell_add_output_test: NAME, PASS and COMMAND are required")
  endif()
  list(JOIN arg_FAIL "|" fail)
  add_test(NAME ${arg_NAME}
           COMMAND ${CMAKE_COMMAND} "-DPASS=${arg_PASS}" "-DFAIL=${fail}"
                   -P ${PROJECT_SOURCE_DIR}/cmake/check_output.cmake -- ${arg_COMMAND})
endfunction()
