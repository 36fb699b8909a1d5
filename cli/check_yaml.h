/* gltrace check's traces file: Mesa's traces.yml, read with libyaml, in both forms
 * piglit's replayer has read:
 *
 *   traces:                          (Mesa's current form)
 *     path/to/game.trace:
 *       DEVICE:
 *         checksum: 0123abcd...
 *       OTHER-DEVICE:
 *         label: [skip, flakes]
 *
 *   traces:                          (piglit's older list form)
 *     - path: path/to/game.trace
 *       expectations:
 *         - device: DEVICE
 *           checksum: 0123abcd...
 *
 * Only the traces that name the device are listed, in file order. The byte range of
 * each checksum is kept so that --update rewrites those bytes and nothing else. */
#ifndef CHECK_YAML_H
#define CHECK_YAML_H

#include <stdbool.h>
#include <stddef.h>

#include "gt_error.h"

enum {
    CHECK_LABEL_SKIP = 1u << 0,    /* not replayed: skip, hang, crash, fail, unsupported */
    CHECK_LABEL_NO_PERF = 1u << 1, /* not profiled (--profile) */
};

typedef struct check_trace {
    char *path;          /* as written in the file */
    char *checksum;      /* NULL: this device has none */
    char *labels;        /* the labels as written, joined by ", "; NULL: none */
    unsigned label_bits; /* CHECK_LABEL_* */
    char *bad;           /* the entry cannot be used: "FILE:LINE: why"; NULL when fine */
    size_t line;         /* of the trace's path, from 1 */
    /* the checksum's scalar in the file: bytes [sum_start, sum_end), quotes included;
     * sum_quote is the quote character or 0 for a plain scalar */
    size_t sum_start, sum_end;
    char sum_quote;
    bool has_sum_pos;
} check_trace;

typedef struct check_list {
    check_trace *t;
    size_t n, cap;
    char *text; /* the file's bytes, for --update */
    size_t len;
    bool list_form; /* piglit's older form */
} check_list;

/* Reads PATH and lists the traces that name DEVICE. A file that is not YAML, or
 * whose `traces` is neither a mapping nor a list, is an error ("PATH:LINE:COL: why");
 * an entry that cannot be used is listed with `bad` set. 0, or -1 with err set (and
 * nothing in out to free). */
int check_yaml_load(const char *path, const char *device, check_list *out, gt_error *err);
void check_list_free(check_list *l);

/* Writes PATH again with the checksums of l's traces replaced by sums[i] where it is
 * not NULL (the same quoting), every other byte as it was; through a temporary file
 * renamed over PATH. *changed counts the checksums rewritten. 0, or -1 with err. */
int check_yaml_update(const char *path, const check_list *l, char *const *sums, size_t *changed,
                      gt_error *err);

#endif
