#!/bin/sh
# Every Catch2 test case must stay its own ctest test. catch_discover_tests
# hands CMake the test cases' names as a list, and in a CMake list a '[' holds
# off the ';' separators until its ']': one name with an unmatched bracket (or
# a semicolon) made a single ctest test of every name after it (2026-12-03:
# 68 tests instead of 286). Catch2 itself accepts such names.
# usage: check_test_names.sh TESTS_SOURCE_DIR
bad=$(grep -rnE --include='*.cpp' 'TEST_CASE\("[^"]*[][;]' "$1")
if [ -n "$bad" ]; then
  echo "test case names with a bracket or a semicolon (ctest would merge the tests after them):"
  echo "$bad"
  exit 1
fi
echo "no test case name holds a bracket or a semicolon"
