# The recording runtime of libgltrace.so (included from wrappers/CMakeLists.txt):
# the trace writer's lifetime, thread numbers and real-function lookup (runtime.c)
# and the hand-written entry points (override_*.c: dlopen, glXGetProcAddress[ARB],
# eglGetProcAddress). Link it into the shared library with the generated wrappers:
#   target_link_libraries(<libgltrace> PRIVATE gltrace_runtime)
#
# Everything is compiled -fPIC -fvisibility=hidden; only the interposed entry points
# are marked visibility("default") in the sources. Two interface link options make a
# plain STATIC archive safe to link into the shared library:
#   --undefined=...   the override objects define entry points nothing else in the
#                     library references, so the linker would otherwise leave them
#                     out of the archive silently (and the program would bypass us);
#   --exclude-libs=   the writer and common archives are built with default
#                     visibility; this keeps their symbols (at_writer_*, gt_*) out
#                     of libgltrace.so's exports, where a program's own symbols of
#                     the same name could interpose them.
add_library(gltrace_runtime STATIC
  ${CMAKE_CURRENT_LIST_DIR}/runtime.c
  ${CMAKE_CURRENT_LIST_DIR}/runtime_safety.c
  ${CMAKE_CURRENT_LIST_DIR}/backtrace.c
  ${CMAKE_CURRENT_LIST_DIR}/override_dlopen.c
  ${CMAKE_CURRENT_LIST_DIR}/override_getprocaddress.c)
target_include_directories(gltrace_runtime PUBLIC ${CMAKE_CURRENT_LIST_DIR})
set_target_properties(gltrace_runtime PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  C_VISIBILITY_PRESET hidden)
target_link_libraries(gltrace_runtime PUBLIC gltrace_apitrace ${CMAKE_DL_LIBS} Threads::Threads)
target_link_options(gltrace_runtime INTERFACE
  "LINKER:--undefined=dlopen"
  "LINKER:--undefined=glXGetProcAddress"
  "LINKER:--undefined=glXGetProcAddressARB"
  "LINKER:--undefined=eglGetProcAddress"
  "LINKER:--exclude-libs=libgltrace_apitrace.a:libgltrace_common.a")
