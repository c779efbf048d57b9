# The `install` test (registered in the top-level CMakeLists.txt), run as
#   cmake -D BUILD_DIR=... -D WORK_DIR=... -D CONSUMER_DIR=... -D CONFIG=...
#         -D CXX_COMPILER=... -D CXX_FLAGS=... -P run.cmake
# Installs the attnmark build in BUILD_DIR into WORK_DIR/prefix, then
# configures and builds the consumer project in CONSUMER_DIR against that
# prefix alone (WORK_DIR/build) and runs it. WORK_DIR is emptied first and
# left behind for a look after a failure. Fails at the first step that fails.
cmake_minimum_required(VERSION 3.25)
foreach(var BUILD_DIR WORK_DIR CONSUMER_DIR CXX_COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install test: ${var} not given")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG RelWithDebInfo)
endif()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(step what)
  message(STATUS "install test: ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "install test: ${what} failed (${status})")
  endif()
endfunction()

step("cmake --install into ${prefix}"
  ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
# The consumer must find attnmark in the fresh prefix, not in the package
# registry or a system prefix that may hold another copy: checked after
# configuring.
step("configure the consumer"
  ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build
    -DCMAKE_BUILD_TYPE=${CONFIG}
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
    -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS ${WORK_DIR}/build/CMakeCache.txt found REGEX "^attnmark_DIR:")
if(NOT found MATCHES "=${prefix}/")
  message(FATAL_ERROR "install test: the consumer found attnmark elsewhere than ${prefix}: ${found}")
endif()
step("build the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build --config ${CONFIG})
find_program(consumer attnmark_consumer PATHS ${WORK_DIR}/build ${WORK_DIR}/build/${CONFIG} NO_DEFAULT_PATH REQUIRED)
step("run the consumer" ${consumer})
