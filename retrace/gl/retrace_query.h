/* glGetQueryObject* replayed by hand (retrace_query.c), as glretrace's
 * --query-handling and --query-tolerance say (replay.h). */
#ifndef RETRACE_QUERY_H
#define RETRACE_QUERY_H

#include <stdbool.h>
#include <stdint.h>

/* run: results not in a query buffer are asked for (skip otherwise); check: and
 * compared with the trace's. */
void retrace_query_set(bool run, bool check, uint64_t tolerance);

#endif
