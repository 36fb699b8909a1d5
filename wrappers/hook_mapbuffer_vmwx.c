/* GL_VMWX_map_buffer_debug, apitrace's own extension (its docs/VMWX_map_buffer_debug.txt),
 * offered as apitrace 11 offers it (the extension string: hook_answers.c): a program that
 * writes through persistent maps names the bytes it changed with
 * glNotifyMappedBufferRangeVMWX(start, length), and asks for that with
 * GL_MAP_NOTIFY_EXPLICIT_BIT_VMWX on glBufferStorage and the map.
 *
 * As apitrace's tracer (wrappers/gltrace.py):
 *   - the bit is taken out of glBufferStorage's flags and the map's access before the
 *     driver (which does not know it) and the trace see them (`adjust` annotations);
 *   - each notification is recorded as a fake memcpy(start, blob of the bytes, length)
 *     and nothing else (glNotifyMappedBufferRangeVMWX itself is not a call of the trace);
 *   - glXGetProcAddress* and eglGetProcAddress give our function for its name, whatever
 *     the driver says (a `tool` annotation: the generated gltrace_tool table).
 * A map that had the bit and is not coherent is recorded through the notifications only
 * (hook_mapbuffer.c gives it no shadow); a coherent one is followed as any other coherent
 * map too, as apitrace follows it.
 * Unlike apitrace, a notification is recorded only when its range lies inside a live map:
 * reading another range could crash the program (one warning, then nothing is recorded). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gltrace_runtime.h"
#include "hook_mapbuffer.h"

#define MAP_NOTIFY_EXPLICIT_BIT_VMWX 0x80000000u

/* Whether the calling thread's last map asked for explicit notification: set by
 * gtw_adjust_map_access before the map call, read by its hook after it (the same wrapper
 * call, on the same thread). */
static _Thread_local bool t_notify;

unsigned gtw_adjust_storage_flags(unsigned flags)
{
    return flags & ~MAP_NOTIFY_EXPLICIT_BIT_VMWX;
}

unsigned gtw_adjust_map_access(unsigned access)
{
    t_notify = (access & MAP_NOTIFY_EXPLICIT_BIT_VMWX) != 0;
    return access & ~MAP_NOTIFY_EXPLICIT_BIT_VMWX;
}

bool gtw_map_notify_explicit(void)
{
    bool notify = t_notify;
    t_notify = false;
    return notify;
}

void gtw_notify_mapped_buffer_range_vmwx(const void *start, intptr_t length)
{
    at_writer *w = gltrace_writer();
    if (!w || !start || length <= 0)
        return;
    if (!gtw_mapped_range_live(start, (size_t)length)) {
        static _Atomic bool warned;
        if (!warned) {
            warned = true;
            fprintf(stderr, "gltrace: warning: glNotifyMappedBufferRangeVMWX(%p, %lld) names "
                            "memory outside the live buffer maps: not recorded\n",
                    start, (long long)length);
        }
        return;
    }
    gtw_fake_memcpy(w, start, start, (size_t)length);
}
