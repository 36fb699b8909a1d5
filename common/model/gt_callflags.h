/* Call flags by function name, from specs/callflags.txt. */
#ifndef GT_CALLFLAGS_H
#define GT_CALLFLAGS_H

#include <stdint.h>

/* GT_CALL_FLAG_* bits for a function name. Called once per function signature,
 * not per call. Thread-safe. */
uint32_t gt_callflags_lookup(const char *name);

#endif
