/* Internals of the trace-cmd writer: the per-CPU page spooler (tc_writer.c)
 * and the assembly of the final file (tc_writer_layout.c). */
#ifndef TC_WRITER_INTERNAL_H
#define TC_WRITER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gt_error.h"
#include "gt_strbuf.h"

#define TCW_PAGE 4096u
#define TCW_HDR 16u /* u64 timestamp, u64 commit */
#define TCW_MAX_CPUS 1024u

/* our event ids (system "gltrace") */
enum { TCW_EV_CALL = 1001, TCW_EV_BEGIN, TCW_EV_END, TCW_EV_INSTANT, TCW_EV_SCHED_SWITCH };

typedef struct tcw_cpu {
    uint64_t pid, tid;   /* the thread track it holds, */
    bool kernel;         /* or a real CPU's context switches */
    uint32_t id;         /* the CPU number in the file: set at finish */
    uint8_t page[TCW_PAGE];
    uint32_t used;       /* event bytes on the open page */
    bool open;
    uint64_t last_ts;    /* of the latest event on the open page */
    uint32_t *pages;     /* spool indices of this CPU's full pages, in order */
    size_t npages, cap;
} tcw_cpu;

typedef struct tcw_cmdline {
    int32_t pid;
    char *comm;
} tcw_cmdline;

/* Everything the layout needs from the spooler. */
typedef struct tcw_state {
    FILE *spool;
    tcw_cpu **cpus;      /* in creation order */
    size_t ncpu;
    uint32_t ncpu_ids;   /* highest CPU number + 1 */
    tcw_cmdline *cmd;
    size_t ncmd;
    bool mono;           /* times are CLOCK_MONOTONIC: the file says trace clock "mono" */
} tcw_state;

/* Writes the whole .dat to out. 0, or -1 with err. */
int tcw_write_file(const tcw_state *s, FILE *out, const char *name, gt_error *err);

/* little-endian appends */
static inline void tcw_put(gt_strbuf *b, uint64_t v, unsigned n)
{
    char x[8];
    for (unsigned i = 0; i < n; i++)
        x[i] = (char)(v >> (8 * i));
    gt_strbuf_put(b, x, n);
}

#endif
