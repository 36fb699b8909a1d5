/* gltrace check's reports: a line per trace (stdout), JUnit XML (GitLab's test
 * report), and an HTML page of the traces that failed, each rendered image beside its
 * reference. */
#ifndef CHECK_REPORT_H
#define CHECK_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "check_run.h"
#include "check_yaml.h"
#include "gt_error.h"

typedef struct check_report {
    const char *device;
    const check_list *l;
    const size_t *idx; /* the traces run: l->t[idx[i]] */
    const check_result *res;
    size_t n;
    double secs; /* the whole run */
    bool profile;
} check_report;

/* "pass PATH", "fail PATH: why", "skip PATH: label: ..." (with --profile, the frame
 * times), then "N passed, M failed, K skipped". */
void check_report_text(FILE *f, const check_report *r);

/* Writes a JUnit XML file: one testsuite, a testcase per trace with <failure> or
 * <skipped>. 0, or -1 with err set. */
int check_report_junit(const char *path, const check_report *r, gt_error *err);

/* Writes OUT_DIR/index.html when a trace failed: each failure's reason, its rendered
 * image and, when REF_DIR (may be NULL) holds EXPECTED.png (piglit's name for a
 * reference), that image beside it. 1 written, 0 nothing failed, -1 with err set. */
int check_report_html(const char *out_dir, const char *ref_dir, const check_report *r,
                      gt_error *err);

#endif
