# The generated GL replayers of glretrace (specs/gen_retrace.py) and their hand-written
# runtime; included by retrace/CMakeLists.txt. Defines:
#   RETRACE_GEN_C      the generated C files (retrace_gl_[0-3].gen.c, retrace_gl_table.gen.c)
#   RETRACE_RUNTIME_C  the hand-written runtime they call (gl/retrace_gl.h) and the
#                      replayers written by hand (`retrace F override` annotations)
#   RETRACE_GEN_DIR    where they are generated (retrace_skipped.gen.txt lists, with the
#                      reason, every GL command not replayed)
set(RETRACE_GEN_DIR ${GEN_DIR}/retrace)
set(RETRACE_GEN_C
  ${RETRACE_GEN_DIR}/retrace_gl_0.gen.c ${RETRACE_GEN_DIR}/retrace_gl_1.gen.c
  ${RETRACE_GEN_DIR}/retrace_gl_2.gen.c ${RETRACE_GEN_DIR}/retrace_gl_3.gen.c
  ${RETRACE_GEN_DIR}/retrace_gl_table.gen.c)
set(RETRACE_RUNTIME_C
  ${PROJECT_SOURCE_DIR}/retrace/gl/retrace_values.c ${PROJECT_SOURCE_DIR}/retrace/gl/retrace_memcpy.c
  ${PROJECT_SOURCE_DIR}/retrace/gl/retrace_override.c ${PROJECT_SOURCE_DIR}/retrace/gl/retrace_check.c
  ${PROJECT_SOURCE_DIR}/retrace/gl/retrace_programs.c ${PROJECT_SOURCE_DIR}/retrace/gl/retrace_warn.c
  ${PROJECT_SOURCE_DIR}/retrace/gl/retrace_query.c)
# The replayers call GL through libepoxy with its own prototypes: only what it declares.
find_path(RETRACE_EPOXY_INCLUDE_DIR epoxy/gl_generated.h HINTS ${EPOXY_INCLUDE_DIRS})
if(NOT RETRACE_EPOXY_INCLUDE_DIR)
  message(FATAL_ERROR "glretrace: libepoxy's epoxy/gl_generated.h not found (libepoxy-dev)")
endif()
set(RETRACE_EPOXY_HEADER ${RETRACE_EPOXY_INCLUDE_DIR}/epoxy/gl_generated.h)
file(GLOB RETRACE_SPECS_PY ${PROJECT_SOURCE_DIR}/specs/*.py)
add_custom_command(
  OUTPUT ${RETRACE_GEN_C} ${RETRACE_GEN_DIR}/retrace_skipped.gen.txt
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/specs/gen_retrace.py
          --out ${RETRACE_GEN_DIR} --registry ${KHRONOS_API_DIR} --epoxy ${RETRACE_EPOXY_HEADER}
  DEPENDS ${RETRACE_SPECS_PY} ${PROJECT_SOURCE_DIR}/specs/annotations.txt
          ${PROJECT_SOURCE_DIR}/specs/callflags.txt ${KHRONOS_API_DIR}/gl.xml ${RETRACE_EPOXY_HEADER}
  COMMENT "Generating the GL replayers of glretrace from the Khronos registry")
