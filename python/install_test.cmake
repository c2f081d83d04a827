# ctest python_install: `cmake --install` of the retarget_python component into a scratch
# prefix, then `import retarget` from that prefix's site-packages alone (the stub beside it).
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX} --component retarget_python
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install of retarget_python failed (${rc})")
endif()
if(NOT EXISTS ${PREFIX}/${SITE}/retarget.pyi)
  message(FATAL_ERROR "retarget.pyi is not installed in ${PREFIX}/${SITE}")
endif()
set(ENV{PYTHONPATH} ${PREFIX}/${SITE})
execute_process(COMMAND ${PYTHON} -c
  "import retarget, sys; assert retarget.__file__.startswith(sys.argv[1]), retarget.__file__; r = retarget.Robot('nao'); print(retarget.__version__, r.nq)"
  ${PREFIX}/${SITE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "import retarget from ${PREFIX}/${SITE} failed: ${out}${err}")
endif()
message(STATUS "installed module imports: ${out}")
