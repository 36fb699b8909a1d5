# The recording runtime of libgltrace.so (included from wrappers/CMakeLists.txt):
# the trace writer's lifetime (runtime_writer.c), which file it writes (runtime_file.c),
# _exit and _Exit (runtime_exit.c), thread numbers (runtime_threads.c), one-time
# warnings (runtime_warn.c) and the real-function lookup (runtime_real.c), which share
# runtime_private.h; a recorded call's events, to the writer and the live timeline
# (record_call.c); and the hand-written entry points dlopen and the exec family
# (override_dlopen.c, override_exec.c). Link it into the shared library with
# the generated wrappers:
#   target_link_libraries(<libgltrace> PRIVATE gltrace_runtime)
#
# Everything is compiled -fPIC -fvisibility=hidden; only the interposed entry points
# are marked visibility("default") in the sources. Two interface link options make a
# plain STATIC archive safe to link into the shared library:
#   --undefined=...   the override objects and runtime_exit.c define entry points
#                     nothing else in the library references, so the linker would
#                     otherwise leave them out of the archive silently (and the
#                     program would bypass us);
#   --exclude-libs=   the writer and common archives are built with default
#                     visibility; this keeps their symbols (at_writer_*, gt_*) out
#                     of libgltrace.so's exports, where a program's own symbols of
#                     the same name could interpose them.
# What the launcher (cli/cmd_record.c) and the recording library share: the check of
# --backtrace call sets (backtrace_set.c) and the status pipe's protocol (record_status.c).
add_library(gltrace_launch STATIC
  ${CMAKE_CURRENT_LIST_DIR}/backtrace_set.c
  ${CMAKE_CURRENT_LIST_DIR}/record_status.c)
target_include_directories(gltrace_launch PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(gltrace_launch PRIVATE gltrace_flags)
set_target_properties(gltrace_launch PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  C_VISIBILITY_PRESET hidden)

add_library(gltrace_runtime STATIC
  ${CMAKE_CURRENT_LIST_DIR}/runtime_writer.c
  ${CMAKE_CURRENT_LIST_DIR}/capture_frames.c
  ${CMAKE_CURRENT_LIST_DIR}/runtime_file.c
  ${CMAKE_CURRENT_LIST_DIR}/runtime_exit.c
  ${CMAKE_CURRENT_LIST_DIR}/runtime_threads.c
  ${CMAKE_CURRENT_LIST_DIR}/runtime_warn.c
  ${CMAKE_CURRENT_LIST_DIR}/runtime_real.c
  ${CMAKE_CURRENT_LIST_DIR}/record_call.c
  ${CMAKE_CURRENT_LIST_DIR}/runtime_safety.c
  ${CMAKE_CURRENT_LIST_DIR}/backtrace.c
  ${CMAKE_CURRENT_LIST_DIR}/backtrace_lines.c
  ${CMAKE_CURRENT_LIST_DIR}/timeline_live.c
  ${CMAKE_CURRENT_LIST_DIR}/timeline_live_file.c
  ${CMAKE_CURRENT_LIST_DIR}/derived_file.c
  ${CMAKE_CURRENT_LIST_DIR}/override_dlopen.c
  ${CMAKE_CURRENT_LIST_DIR}/override_exec.c)
target_include_directories(gltrace_runtime PUBLIC ${CMAKE_CURRENT_LIST_DIR})
set_target_properties(gltrace_runtime PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  C_VISIBILITY_PRESET hidden)
target_link_libraries(gltrace_runtime PUBLIC gltrace_launch gltrace_apitrace gltrace_fxt ${CMAKE_DL_LIBS} Threads::Threads)
# Backtraces (backtrace.c) load libunwind.so.8 and libdw.so.1 at run time with
# RTLD_LOCAL, never as link dependencies (libunwind would interpose _Unwind_* and
# backtrace() in every traced program); libdw's headers are only needed to build the
# file:line and static-function lookups, which are left out without them.
pkg_check_modules(LIBDW QUIET libdw)
if(LIBDW_FOUND)
  target_compile_definitions(gltrace_runtime PRIVATE GLTRACE_HAVE_LIBDW=1)
  target_include_directories(gltrace_runtime PRIVATE ${LIBDW_INCLUDE_DIRS})
else()
  message(WARNING "libdw (elfutils) headers not found: backtraces will lack file:line "
                  "and static function names (install libdw-dev: scripts/install-deps.sh)")
endif()
target_link_options(gltrace_runtime INTERFACE
  "LINKER:--undefined=dlopen"
  "LINKER:--undefined=execve"
  "LINKER:--undefined=_exit"
  "LINKER:--exclude-libs=libgltrace_apitrace.a:libgltrace_util.a:libgltrace_model.a:libgltrace_fxt.a:libgltrace_glfacts.a")
