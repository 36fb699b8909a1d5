/* Internals of the trace-cmd reader shared by its files: the parsed file
 * (tc_sections.c), event formats (tc_format.c), ring-buffer pages (tc_ringbuf.c),
 * decompression (tc_decompress.c), names (tc_names.c) and the conversion of
 * records to timeline events (tc_events.c). */
#ifndef TC_INTERNAL_H
#define TC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"
#include "gt_timeline.h"
#include "tc_cursor.h"

/* option and section ids (v7; the v6 options share them) */
enum {
    TC_OPT_DONE = 0, TC_OPT_DATE = 1, TC_OPT_CPUSTAT = 2, TC_OPT_BUFFER = 3, TC_OPT_TRACECLOCK = 4,
    TC_OPT_UNAME = 5, TC_OPT_HOOK = 6, TC_OPT_OFFSET = 7, TC_OPT_CPUCOUNT = 8, TC_OPT_VERSION = 9,
    TC_OPT_PROCMAPS = 10, TC_OPT_TRACEID = 11, TC_OPT_TIME_SHIFT = 12, TC_OPT_GUEST = 13,
    TC_OPT_TSC2NSEC = 14, TC_OPT_STRINGS = 15, TC_OPT_HEADER_INFO = 16, TC_OPT_FTRACE_EVENTS = 17,
    TC_OPT_EVENT_FORMATS = 18, TC_OPT_KALLSYMS = 19, TC_OPT_PRINTK = 20, TC_OPT_CMDLINES = 21,
    TC_OPT_BUFFER_TEXT = 22,
};
#define TC_SEC_FL_COMPRESS 1u

enum tc_comp { TC_COMP_NONE = 0, TC_COMP_ZLIB, TC_COMP_ZSTD };

/* Most bytes one compressed block may claim to expand to: a bound on what bad
 * input can make us allocate. Real kallsyms sections are ~12 MiB. */
#define TC_MAX_INFLATE (256u << 20)

/* ---- ring-buffer page header (header_page) -------------------------------- */
typedef struct tc_page_hdr {
    uint32_t ts_off, ts_size;
    uint32_t commit_off, commit_size; /* commit is a kernel long: 4 or 8 bytes */
    uint32_t data_off;
} tc_page_hdr;

/* ---- event formats ---------------------------------------------------------- */
enum tc_field_kind {
    TC_F_INT,      /* 1, 2, 4 or 8 byte integer */
    TC_F_CHARS,    /* char array: a string up to its first NUL */
    TC_F_ARRAY,    /* other fixed array (elem bytes each) */
    TC_F_LOC_STR,  /* __data_loc / __rel_loc char[] */
    TC_F_LOC_ARRAY,/* __data_loc / __rel_loc of other element types */
    TC_F_BYTES,    /* anything else: raw bytes */
};

typedef struct tc_field {
    char *name;
    uint32_t offset, size, elem;
    uint8_t kind;
    bool is_signed, common, rel, tail; /* rel: __rel_loc; tail: array to the record's end */
    gt_tl_str arg;                     /* interned name */
} tc_field;

enum tc_special {
    TC_EV_PLAIN = 0, TC_EV_SCHED_SWITCH, TC_EV_FGRAPH_ENTRY, TC_EV_FGRAPH_EXIT, TC_EV_KSTACK, TC_EV_BPRINT,
    TC_EV_FUNCTION, /* ftrace:function: ip and parent_ip named by kallsyms */
    TC_EV_GL_CALL, TC_EV_GL_BEGIN, TC_EV_GL_END, TC_EV_GL_INSTANT, /* gltrace:*, ours */
};

typedef struct tc_event {
    uint32_t id;
    char *system, *name;
    tc_field *fields;
    uint32_t nfields;
    gt_tl_str cat, ev_name;
    uint8_t special;
    int pid_field; /* common_pid, -1 if absent */
} tc_event;

typedef struct tc_events {
    tc_event *ev;
    size_t n, cap;
    bool sorted;
} tc_events;

/* Parses one format file of system; on failure returns -1 with a reason and the
 * offset of the offending line within text. */
int tc_format_parse(tc_events *evs, const char *system, size_t system_len, const char *text,
                    size_t len, unsigned long_size, gt_timeline *tl, const char **why, size_t *at);
const tc_event *tc_events_find(tc_events *evs, uint32_t id);
const tc_field *tc_event_field(const tc_event *ev, const char *name);
void tc_events_free(tc_events *evs);
int tc_header_page_parse(const char *text, size_t len, tc_page_hdr *h, const char **why);

/* ---- ring-buffer pages ------------------------------------------------------------ */
typedef struct tc_rec {
    uint64_t ts;         /* raw clock */
    const uint8_t *data; /* the event's bytes (starts with common_type) */
    uint32_t len;
    uint32_t at;         /* offset of the event header in the page */
} tc_rec;

typedef struct tc_page {
    const uint8_t *page;
    uint32_t start, end; /* event area: data_off .. data_off + commit */
    uint32_t pos;
    uint64_t ts;
    bool be;
    bool missed;         /* events were lost before this page */
} tc_page;

/* Loads a page of page_len bytes (the last page of a CPU may be short).
 * Returns 0, or -1 with why and *at = offset in the page. */
int tc_page_load(tc_page *pg, const uint8_t *page, size_t page_len, const tc_page_hdr *h, bool be,
                 const char **why, uint32_t *at);
/* 1: a record; 0: end of page; -1: bad event (why, *at). */
int tc_page_next(tc_page *pg, tc_rec *r, const char **why, uint32_t *at);

/* ---- decompression ---------------------------------------------------------------- */
int tc_comp_from_name(const char *name, size_t n);
/* Decompresses src into dst[cap]; *out = bytes produced. 0, or -1 with why. */
int tc_decompress(int algo, const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *out,
                  const char **why);

/* ---- the parsed file -------------------------------------------------------------- */
typedef struct tc_cpu_data {
    uint32_t cpu;
    uint64_t off, size; /* in the file (compressed size when compressed) */
} tc_cpu_data;

typedef struct tc_buffer {
    const char *name;   /* "" = the top instance */
    uint32_t page_size;
    uint32_t ncpu;
    tc_cpu_data *cpus;
    bool compressed;
} tc_buffer;

typedef struct tc_file {
    const char *name;
    const uint8_t *data;
    size_t size;
    const gt_tl_read_opts *opts;
    gt_error *err;
    gt_timeline *tl;

    int version;
    bool be;
    uint32_t long_size, page_size;
    int comp;

    tc_page_hdr ph;
    tc_events evs;
    const char *kallsyms, *cmdlines, *printk;
    size_t kallsyms_len, cmdlines_len, printk_len;
    tc_buffer *bufs;
    size_t nbufs;

    int64_t ts_offset;   /* OFFSET options */
    uint32_t tsc_mult, tsc_shift;
    bool has_date;
    int64_t date_ns;     /* DATE: wall-clock anchor */
    bool clock_mono;     /* TRACECLOCK: the "mono" clock (CLOCK_MONOTONIC) was selected */

    uint64_t inflated;   /* decompressed bytes held (tc_inflate_budget) */
    void **owned;        /* decompressed sections */
    size_t nowned, owned_cap;
} tc_file;

int tc_file_parse(tc_file *f);
void tc_file_free(tc_file *f);
/* All decompressed bytes held at once (sections, chunk buffers) stay within
 * 64 MiB + 32 x the file's size: compression can only multiply the input so far.
 * 0, or -1 with err. */
int tc_inflate_budget(tc_file *f, uint64_t more, uint64_t at);
/* Keeps p until tc_file_free; frees it and returns -1 when out of memory. */
int tc_file_own(tc_file *f, void *p);

/* Diagnostics: a failure sets err and returns -1; a deviation is an error in
 * strict mode and a warning otherwise (returns 0). */
int tc_fail(tc_file *f, uint64_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int tc_deviation(tc_file *f, uint64_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tc_warn(tc_file *f, uint64_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- names ------------------------------------------------------------------------ */
typedef struct tc_ksym {
    uint64_t addr;
    uint32_t name, len; /* in the kallsyms text */
} tc_ksym;

typedef struct tc_kallsyms {
    tc_ksym *sym;
    size_t n;
    bool loaded;
} tc_kallsyms;

int tc_kallsyms_load(tc_kallsyms *k, const char *text, size_t len);
/* The function containing addr; NULL if none. */
const tc_ksym *tc_kallsyms_find(const tc_kallsyms *k, uint64_t addr);
void tc_kallsyms_free(tc_kallsyms *k);

/* printk formats: "0xADDR : \"format\"" lines, for bprint's fmt pointer. */
typedef tc_kallsyms tc_printk; /* sym: addr, and the format's place in the text */
int tc_printk_load(tc_printk *p, const char *text, size_t len);
const tc_ksym *tc_printk_find(const tc_printk *p, uint64_t addr); /* exact address */

/* Calls fn for each "pid comm" line of saved cmdlines; stops on a nonzero return. */
int tc_cmdlines_each(const char *text, size_t len, int (*fn)(void *ctx, int64_t pid, const char *comm, size_t n),
                     void *ctx);

/* ---- records to timeline events ------------------------------------------------------ */
typedef struct tc_conv tc_conv;
tc_conv *tc_conv_new(tc_file *f, gt_tl_sink *sink);
void tc_conv_free(tc_conv *cv);
/* Emits the thread names of saved cmdlines. */
int tc_conv_names(tc_conv *cv);
int tc_conv_record(tc_conv *cv, uint32_t cpu, int64_t ts, const tc_rec *r, uint64_t file_off);

#endif
