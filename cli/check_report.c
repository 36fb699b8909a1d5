/* gltrace check's reports (check_report.h). Files go through gt_outfile. */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_report.h"
#include "gt_outfile.h"
#include "image_files.h"

static const char *const verdict_names[] = {"pass", "fail", "skip"};

static void counts(const check_report *r, size_t c[3])
{
    c[0] = c[1] = c[2] = 0;
    for (size_t i = 0; i < r->n; ++i)
        c[r->res[i].verdict]++;
}

void check_report_text(FILE *f, const check_report *r)
{
    for (size_t i = 0; i < r->n; ++i) {
        const check_result *x = &r->res[i];
        fprintf(f, "%s %s", verdict_names[x->verdict], r->l->t[r->idx[i]].path);
        if (x->why)
            fprintf(f, ": %s", x->why);
        if (r->profile && x->verdict == CHECK_PASS)
            fprintf(f, ": %zu frames, median %.3f ms, mean %.3f ms, min %.3f ms, max %.3f ms",
                    x->frames.n, x->frames.median, x->frames.mean, x->frames.min, x->frames.max);
        fputc('\n', f);
    }
    size_t c[3];
    counts(r, c);
    fprintf(f, "%zu passed, %zu failed, %zu skipped\n", c[CHECK_PASS], c[CHECK_FAIL],
            c[CHECK_SKIP]);
}

/* XML character data: escaped, and the control characters XML 1.0 forbids replaced */
static void xml_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p < 0x20 && *p != '\t' && *p != '\n')
            fputc('?', f);
        else if (*p == '\'')
            fputs("&apos;", f);
        else {
            char one[2] = {(char)*p, 0};
            image_html_text(f, one);
        }
    }
}

static void junit_case(FILE *f, const check_report *r, size_t i)
{
    const check_result *x = &r->res[i];
    fputs("    <testcase classname=\"", f);
    xml_text(f, r->device);
    fputs("\" name=\"", f);
    xml_text(f, r->l->t[r->idx[i]].path);
    fprintf(f, "\" time=\"%.3f\"", x->secs);
    if (x->verdict == CHECK_PASS && !r->profile) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n", f);
    const char *tag = x->verdict == CHECK_FAIL ? "failure" : "skipped";
    if (x->verdict != CHECK_PASS) {
        fprintf(f, "      <%s message=\"", tag);
        xml_text(f, x->why ? x->why : "");
        fprintf(f, "\"/>\n");
    }
    if (x->image || x->log || r->profile) {
        fputs("      <system-out>", f);
        if (r->profile && x->verdict == CHECK_PASS)
            fprintf(f, "frame times (ms): median %.3f mean %.3f min %.3f max %.3f (%zu frames)\n",
                    x->frames.median, x->frames.mean, x->frames.min, x->frames.max, x->frames.n);
        if (x->image) {
            fputs("rendered image: ", f);
            xml_text(f, x->image);
            fputc('\n', f);
        }
        if (x->log) {
            fputs("replay log: ", f);
            xml_text(f, x->log);
            fputc('\n', f);
        }
        fputs("</system-out>\n", f);
    }
    fputs("    </testcase>\n", f);
}

static FILE *begin(const char *path, gt_outfile *o, gt_error *err)
{
    if (gt_outfile_begin(o, path, NULL, 0, err) != 0)
        return NULL;
    FILE *f = gt_outfile_open(o);
    if (!f) {
        gt_error_set(err, "%s: %s", path, strerror(errno));
        gt_outfile_abort(o);
    }
    return f;
}

static int end(const char *path, FILE *f, gt_outfile *o, gt_error *err)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        gt_error_set(err, "%s: writing failed (%s)", path, gt_outfile_left(o));
        gt_outfile_abort(o);
        return -1;
    }
    return gt_outfile_commit(o, err);
}

int check_report_junit(const char *path, const check_report *r, gt_error *err)
{
    gt_outfile o;
    FILE *f = begin(path, &o, err);
    if (!f)
        return -1;
    size_t c[3];
    counts(r, c);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<testsuites tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" errors=\"0\" time=\"%.3f\">\n"
               "  <testsuite name=\"",
            r->n, c[CHECK_FAIL], c[CHECK_SKIP], r->secs);
    xml_text(f, r->profile ? "gltrace check --profile " : "gltrace check ");
    xml_text(f, r->device);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" errors=\"0\" time=\"%.3f\">\n",
            r->n, c[CHECK_FAIL], c[CHECK_SKIP], r->secs);
    for (size_t i = 0; i < r->n; ++i)
        junit_case(f, r, i);
    fputs("  </testsuite>\n</testsuites>\n", f);
    return end(path, f, &o, err);
}

/* An image cell: the image at PATH shown relative to the report's folder */
static void html_image(FILE *f, const char *dir_abs, const char *path, const char *caption)
{
    char abs[PATH_MAX];
    char *rel = realpath(path, abs) ? image_relative_path(dir_abs, abs) : NULL;
    fputs("<td>", f);
    if (rel) {
        fputs("<a href=\"", f);
        image_html_text(f, rel);
        fputs("\"><img src=\"", f);
        image_html_text(f, rel);
        fputs("\" style=\"max-width:320px\"></a><br>", f);
    }
    image_html_text(f, caption);
    fputs("</td>", f);
    free(rel);
}

/* A failure without an image: a link to its replay's log */
static void html_log(FILE *f, const char *dir_abs, const char *path)
{
    char abs[PATH_MAX];
    char *rel = realpath(path, abs) ? image_relative_path(dir_abs, abs) : NULL;
    fputs("<td>no image", f);
    if (rel) {
        fputs(": <a href=\"", f);
        image_html_text(f, rel);
        fputs("\">the replay's log</a>", f);
    }
    fputs("</td>", f);
    free(rel);
}

static void html_row(FILE *f, const char *dir_abs, const char *ref_dir, const check_report *r,
                     size_t i)
{
    const check_result *x = &r->res[i];
    const check_trace *t = &r->l->t[r->idx[i]];
    fputs("<tr><td><b>", f);
    image_html_text(f, t->path);
    fputs("</b><br>", f);
    image_html_text(f, x->why ? x->why : "");
    fputs("</td>", f);
    char *ref = NULL;
    if (ref_dir && t->checksum && asprintf(&ref, "%s/%s.png", ref_dir, t->checksum) < 0)
        ref = NULL;
    if (ref && access(ref, R_OK) == 0)
        html_image(f, dir_abs, ref, "reference");
    else
        fprintf(f, "<td>no reference image<br>expected %s</td>", t->checksum ? t->checksum : "(none)");
    free(ref);
    if (x->image)
        html_image(f, dir_abs, x->image, x->actual ? x->actual : "rendered");
    else if (x->log)
        html_log(f, dir_abs, x->log);
    else
        fputs("<td>no image</td>", f);
    fputs("</tr>\n", f);
}

int check_report_html(const char *out_dir, const char *ref_dir, const check_report *r,
                      gt_error *err)
{
    size_t c[3];
    counts(r, c);
    if (!c[CHECK_FAIL])
        return 0;
    char dir_abs[PATH_MAX], *path = NULL;
    if (!realpath(out_dir, dir_abs) || asprintf(&path, "%s/index.html", out_dir) < 0) {
        gt_error_set(err, "%s: %s", out_dir, strerror(errno));
        return -1;
    }
    gt_outfile o;
    FILE *f = begin(path, &o, err);
    int rc = -1;
    if (f) {
        fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gltrace check: ", f);
        image_html_text(f, r->device);
        fputs("</title></head><body>\n<h1>gltrace check: ", f);
        image_html_text(f, r->device);
        fprintf(f, "</h1>\n<p>%zu passed, %zu failed, %zu skipped</p>\n<table border=\"1\">\n"
                   "<tr><th>trace</th><th>reference</th><th>rendered</th></tr>\n",
                c[CHECK_PASS], c[CHECK_FAIL], c[CHECK_SKIP]);
        for (size_t i = 0; i < r->n; ++i)
            if (r->res[i].verdict == CHECK_FAIL)
                html_row(f, dir_abs, ref_dir, r, i);
        fputs("</table>\n</body></html>\n", f);
        rc = end(path, f, &o, err) == 0 ? 1 : -1;
    }
    free(path);
    return rc;
}
