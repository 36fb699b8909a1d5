/* The .dat file the writer produces (version 7, uncompressed):
 *   initial header, HEADER_INFO, FTRACE_EVENTS (none), EVENT_FORMATS (systems
 *   "gltrace" and "sched"), KALLSYMS and PRINTK (empty), CMDLINES, one OPTIONS section
 *   (section offsets, CPU count, trace clock, BUFFER, DONE), the flyrecord
 *   section (CPU data page-aligned), and the STRINGS section naming them.
 * Sections follow each other without gaps: trace-cmd finds the strings by
 * walking section sizes from the header. */
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "tc_writer_internal.h"

static const char header_page[] =
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char header_event[] =
    "# compressed entry header\n"
    "\ttype_len    :    5 bits\n"
    "\ttime_delta  :   27 bits\n"
    "\tarray       :   32 bits\n"
    "\n"
    "\tpadding     : type == 29\n"
    "\ttime_extend : type == 30\n"
    "\ttime_stamp : type == 31\n"
    "\tdata max type_len  == 28\n";

#define COMMON_FIELDS                                                                  \
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"             \
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"             \
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"     \
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define NAME_CAT_ARGS(off1, off2, off3)                                                \
    "\tfield:__data_loc char[] name;\toffset:" #off1 ";\tsize:4;\tsigned:1;\n"         \
    "\tfield:__data_loc char[] cat;\toffset:" #off2 ";\tsize:4;\tsigned:1;\n"          \
    "\tfield:__data_loc char[] args;\toffset:" #off3 ";\tsize:4;\tsigned:1;\n\n"

/* the system "sched": Linux's sched_switch layout, which trace-cmd's plugin prints */
static const char sched_switch_format[] =
    "name: sched_switch\nID: 1005\nformat:\n" COMMON_FIELDS
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%ld ==> next_comm=%s next_pid=%d "
    "next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state, REC->next_comm, "
    "REC->next_pid, REC->next_prio\n";

static const char *const formats[] = {
    "name: call\nID: 1001\nformat:\n" COMMON_FIELDS
    "\tfield:u64 call;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:u64 dur;\toffset:16;\tsize:8;\tsigned:0;\n" NAME_CAT_ARGS(24, 28, 32)
    "print fmt: \"call=%llu name=%s dur=%llu cat=%s %s\", REC->call, __get_str(name), REC->dur, __get_str(cat), "
    "__get_str(args)\n",
    "name: begin\nID: 1002\nformat:\n" COMMON_FIELDS NAME_CAT_ARGS(8, 12, 16)
    "print fmt: \"name=%s cat=%s %s\", __get_str(name), __get_str(cat), __get_str(args)\n",
    "name: end\nID: 1003\nformat:\n" COMMON_FIELDS NAME_CAT_ARGS(8, 12, 16)
    "print fmt: \"name=%s cat=%s %s\", __get_str(name), __get_str(cat), __get_str(args)\n",
    "name: instant\nID: 1004\nformat:\n" COMMON_FIELDS NAME_CAT_ARGS(8, 12, 16)
    "print fmt: \"name=%s cat=%s %s\", __get_str(name), __get_str(cat), __get_str(args)\n",
};

/* section descriptions, by offset in the strings section */
static const char strings[] = "headers\0ftrace events\0events format\0kallsyms\0printk\0command lines\0"
                              "options\0flyrecord\0strings";
enum { S_HEADERS = 0, S_FTRACE = 8, S_EVENTS = 22, S_KALLSYMS = 36, S_PRINTK = 45, S_CMDLINES = 52,
       S_OPTIONS = 66, S_FLYRECORD = 74, S_STRINGS = 84 };

static void section(gt_strbuf *b, uint16_t id, uint32_t desc, const gt_strbuf *body)
{
    tcw_put(b, id, 2);
    tcw_put(b, 0, 2);
    tcw_put(b, desc, 4);
    tcw_put(b, body->len, 8);
    if (body->len)
        gt_strbuf_put(b, body->data, body->len);
}

static void text_block(gt_strbuf *b, const char *tag, const char *text)
{
    gt_strbuf_put(b, tag, strlen(tag) + 1);
    tcw_put(b, strlen(text), 8);
    gt_strbuf_puts(b, text);
}

/* The sections before the options, each offset noted in off[id]. */
static void metadata(gt_strbuf *b, const tcw_state *s, uint64_t off[32])
{
    gt_strbuf body;
    gt_strbuf_init(&body);
    off[16] = b->len;
    text_block(&body, "header_page", header_page);
    text_block(&body, "header_event", header_event);
    section(b, 16, S_HEADERS, &body);
    body.len = 0;
    off[17] = b->len;
    tcw_put(&body, 0, 4);
    section(b, 17, S_FTRACE, &body);
    body.len = 0;
    off[18] = b->len;
    tcw_put(&body, 2, 4); /* systems */
    gt_strbuf_put(&body, "gltrace", 8);
    tcw_put(&body, sizeof formats / sizeof formats[0], 4);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        tcw_put(&body, strlen(formats[i]), 8);
        gt_strbuf_puts(&body, formats[i]);
    }
    gt_strbuf_put(&body, "sched", 6);
    tcw_put(&body, 1, 4);
    tcw_put(&body, strlen(sched_switch_format), 8);
    gt_strbuf_puts(&body, sched_switch_format);
    section(b, 18, S_EVENTS, &body);
    body.len = 0;
    off[19] = b->len;
    tcw_put(&body, 0, 4);
    section(b, 19, S_KALLSYMS, &body);
    off[20] = b->len;
    section(b, 20, S_PRINTK, &body);
    body.len = 0;
    gt_strbuf text;
    gt_strbuf_init(&text);
    for (size_t i = 0; i < s->ncmd; i++)
        gt_strbuf_printf(&text, "%d %s\n", (int)s->cmd[i].pid, s->cmd[i].comm);
    off[21] = b->len;
    tcw_put(&body, text.len, 8);
    if (text.len)
        gt_strbuf_put(&body, text.data, text.len);
    section(b, 21, S_CMDLINES, &body);
    gt_strbuf_free(&text);
    gt_strbuf_free(&body);
}

static void option(gt_strbuf *b, uint16_t id, const void *data, uint32_t n)
{
    tcw_put(b, id, 2);
    tcw_put(b, n, 4);
    if (n)
        gt_strbuf_put(b, data, n);
}

static void option_u64(gt_strbuf *b, uint16_t id, uint64_t v)
{
    gt_strbuf x;
    gt_strbuf_init(&x);
    tcw_put(&x, v, 8);
    option(b, id, x.data, (uint32_t)x.len);
    gt_strbuf_free(&x);
}

/* The options section; the flyrecord section follows it at fly_off, its CPU
 * data from data_off on, each CPU's pages together. */
static void options(gt_strbuf *b, const tcw_state *s, const uint64_t off[32], uint64_t fly_off,
                    uint64_t data_off)
{
    gt_strbuf body, buf;
    gt_strbuf_init(&body);
    for (uint16_t id = 16; id <= 21; id++)
        option_u64(&body, id, off[id]);
    uint32_t ncpu = (uint32_t)s->ncpu;
    gt_strbuf_init(&buf);
    tcw_put(&buf, s->ncpu_ids, 4);
    option(&body, 8, buf.data, 4); /* CPUCOUNT */
    buf.len = 0;
    static const char local[] = "[local] global counter uptime perf mono mono_raw boot";
    static const char mono[] = "local global counter uptime perf [mono] mono_raw boot";
    option(&body, 4, s->mono ? mono : local, sizeof local);
    tcw_put(&buf, fly_off, 8);
    gt_strbuf_put(&buf, "", 1);
    gt_strbuf_put(&buf, s->mono ? "mono" : "local", s->mono ? 5 : 6);
    tcw_put(&buf, TCW_PAGE, 4);
    tcw_put(&buf, ncpu, 4);
    uint64_t at = data_off;
    for (uint32_t i = 0; i < ncpu; i++) {
        uint64_t size = (uint64_t)s->cpus[i]->npages * TCW_PAGE;
        tcw_put(&buf, s->cpus[i]->id, 4);
        tcw_put(&buf, size ? at : 0, 8);
        tcw_put(&buf, size, 8);
        at += size;
    }
    option(&body, 3, buf.data, (uint32_t)buf.len);
    option_u64(&body, 0, 0); /* DONE: no further options section */
    section(b, 0, S_OPTIONS, &body);
    gt_strbuf_free(&buf);
    gt_strbuf_free(&body);
}

static int copy_pages(const tcw_state *s, FILE *out)
{
    uint8_t page[TCW_PAGE];
    for (size_t c = 0; c < s->ncpu; c++)
        for (size_t i = 0; i < s->cpus[c]->npages; i++) {
            if (fseeko(s->spool, (off_t)s->cpus[c]->pages[i] * TCW_PAGE, SEEK_SET) != 0 ||
                fread(page, 1, TCW_PAGE, s->spool) != TCW_PAGE || fwrite(page, 1, TCW_PAGE, out) != TCW_PAGE)
                return -1;
        }
    return 0;
}

int tcw_write_file(const tcw_state *s, FILE *out, const char *name, gt_error *err)
{
    gt_strbuf b;
    gt_strbuf_init(&b);
    static const char magic[] = "\x17\x08\x44tracing7";
    gt_strbuf_put(&b, magic, sizeof magic); /* with the version's NUL */
    tcw_put(&b, 0, 1); /* little endian */
    tcw_put(&b, 8, 1); /* long size */
    tcw_put(&b, TCW_PAGE, 4);
    gt_strbuf_put(&b, "none\0", 6); /* compression name and (empty) version */
    size_t opt_slot = b.len;
    tcw_put(&b, 0, 8);
    uint64_t off[32] = {0};
    metadata(&b, s, off);
    uint64_t opt_off = b.len;
    /* the options' size does not depend on the offsets in it: lay out twice */
    gt_strbuf probe;
    gt_strbuf_init(&probe);
    options(&probe, s, off, 0, 0);
    uint64_t fly_off = opt_off + probe.len;
    uint64_t data_off = (fly_off + 16 + TCW_PAGE - 1) / TCW_PAGE * TCW_PAGE;
    gt_strbuf_free(&probe);
    options(&b, s, off, fly_off, data_off);
    for (unsigned i = 0; i < 8; i++)
        b.data[opt_slot + i] = (char)(opt_off >> (8 * i));
    uint64_t pages = 0;
    for (size_t c = 0; c < s->ncpu; c++)
        pages += s->cpus[c]->npages;
    tcw_put(&b, 3, 2); /* the flyrecord section header */
    tcw_put(&b, 0, 2);
    tcw_put(&b, S_FLYRECORD, 4);
    tcw_put(&b, data_off - (fly_off + 16) + pages * TCW_PAGE, 8);
    while (b.len < data_off)
        gt_strbuf_putc(&b, 0);
    int rc = b.oom ? -1 : 0;
    if (!rc && (gt_strbuf_flush(&b, out) < 0 || copy_pages(s, out) < 0))
        rc = -1;
    gt_strbuf strs;
    gt_strbuf_init(&strs);
    gt_strbuf_put(&strs, strings, sizeof strings);
    section(&b, 15, S_STRINGS, &strs);
    if (!rc && (b.oom || gt_strbuf_flush(&b, out) < 0 || fflush(out) != 0))
        rc = -1;
    gt_strbuf_free(&strs);
    gt_strbuf_free(&b);
    if (rc < 0)
        gt_error_set(err, "%s: write error: %s", name, strerror(errno));
    return rc;
}
