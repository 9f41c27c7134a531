# Run by ctest: the kernel's AVX2 object must define no symbol but its
# entry. Any other (an inline function GCC did not inline, compiled with
# AVX2) could be the copy the linker keeps for the whole program, and crash
# it on a CPU without AVX2 (see core/sim/fish_kernel_body.hpp).
# usage: cmake -DNM=nm -DOBJECTS=a.o[;b.o] -DENTRY=symbol -P check_kernel_object.cmake
foreach(object IN LISTS OBJECTS)
  execute_process(COMMAND ${NM} --defined-only --extern-only --format=posix ${object}
                  OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "nm could not read ${object}")
  endif()
  string(REGEX MATCHALL "(^|\n)[^ \n]+" names "${symbols}")
  list(TRANSFORM names STRIP)
  if(NOT names STREQUAL ENTRY)
    message(FATAL_ERROR "${object} defines [${names}], not just ${ENTRY}")
  endif()
  message(STATUS "${object} defines only ${ENTRY}")
endforeach()
