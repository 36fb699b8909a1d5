/* glretrace --ppd and --pmem's measures for apitrace's text profile (profile_text.h):
 * the samples a draw call passed (a GL_SAMPLES_PASSED query around it, read as it ends,
 * as apitrace reads its queries by the frame's end) and the process's virtual size
 * (bytes) and resident set (pages), from /proc/self/stat as apitrace's procps. */
#ifndef RETRACE_PIXELS_MEM_H
#define RETRACE_PIXELS_MEM_H

#include <stdint.h>

/* Begins counting in the current context: the query, or 0 when it has no
 * GL_SAMPLES_PASSED (GLES, GL before 1.5: warned once) or the program's own
 * GL_SAMPLES_PASSED query is active (apitrace's would fail and end the program's). */
unsigned pixels_begin(void);
/* Ends the query Q (from pixels_begin) and returns its count, waiting for it. */
int64_t pixels_end(unsigned q);
/* /proc/self/stat's vsize and rss (0 when unreadable). */
void mem_usage(int64_t *vsize, int64_t *rss);

#endif
