/* stub, replaced below */
#include <stdlib.h>
#include "tc_writer.h"
struct gt_tracecmd_writer { int x; };
gt_tracecmd_writer *gt_tracecmd_writer_open(const char *path, gt_error *err) { gt_error_set(err, "%s: not yet", path); return NULL; }
gt_tl_sink gt_tracecmd_writer_sink(gt_tracecmd_writer *w) { return (gt_tl_sink){.self = w}; }
void gt_tracecmd_writer_free(gt_tracecmd_writer *w) { free(w); }
