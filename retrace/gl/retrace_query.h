/* glGetQueryObject* replayed by hand (retrace_query.c), as glretrace's
 * --query-handling and --query-tolerance say (replay.h). */
#ifndef RETRACE_QUERY_H
#define RETRACE_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "gt_model.h"

/* run: results not in a query buffer are asked for (skip otherwise); check: and
 * compared with the trace's. */
void retrace_query_set(bool run, bool check, uint64_t tolerance);
/* NAME is one of the glGetQueryObject* replayed here. */
bool retrace_query_function(const char *name);
/* Call C of such a function is not replayed (skip, no query buffer bound): the replay
 * treats it as a call it ignores (not profiled, as apitrace returns before profiling). */
bool retrace_query_skips(const gt_call *c);

#endif
