# cmake -DROOTS=<dir>,<dir>... -P no_relative_includes.cmake
# Fails, naming each offender, when a file under ROOTS includes a path with "..": such an
# include reaches a folder beside its own, which no include path can forbid (cmake/layers.cmake).
string(REPLACE "," ";" ROOTS "${ROOTS}")
set(offenders "")
foreach(root IN LISTS ROOTS)
  file(GLOB_RECURSE files ${root}/*.hpp ${root}/*.cpp ${root}/*.cuh ${root}/*.cu)
  foreach(f IN LISTS files)
    file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<][^\">]*\\.\\.")
    foreach(line IN LISTS lines)
      string(APPEND offenders "  ${f}: ${line}\n")
    endforeach()
  endforeach()
endforeach()
if(offenders)
  message(FATAL_ERROR "relative includes across layers (include by layer name instead):\n${offenders}")
endif()
message(STATUS "no relative includes under ${ROOTS}")
