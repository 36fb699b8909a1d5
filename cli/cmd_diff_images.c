/* gltrace diff-images: apitrace's diff-images (snapdiff.py) in C. The images under two
 * prefixes (folders or path prefixes, as dump-images and glretrace -s write them) are
 * paired by the rest of their names and compared (image_compare.h); a text summary
 * goes to stdout and an HTML report (thumbnails of both side by side, and of a
 * difference image with the differing pixels in red) to -o. Exit 1 when any pair
 * differs beyond the fuzz or an image has no partner. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gltrace_cmds.h"
#include "gt_grow.h"
#include "gt_outfile.h"
#include "gt_png.h"
#include "image_compare.h"
#include "image_files.h"

typedef struct diff_job {
    const char *ref, *src, *output;
    double fuzz;
    bool verbose, alpha, overwrite, show_all;
    char html_dir[PATH_MAX]; /* the report's folder: image paths are relative to it */
} diff_job;

typedef struct diff_counts {
    unsigned match, mismatch, missing, unreadable;
} diff_counts;

static void usage(FILE *f)
{
    fputs("usage: gltrace diff-images [OPTIONS] REF_PREFIX SRC_PREFIX\n"
          "Compare the images under two prefixes (folders or path prefixes), as\n"
          "`apitrace diff-images`: a summary on stdout, an HTML report with the images\n"
          "side by side and the differing pixels in red. Exit 1 when any pair differs.\n"
          "\n"
          "  -h, --help         show this help and exit\n"
          "  -v, --verbose      a line for every image, matching ones too\n"
          "  -o, --output=FILE  the HTML report (default: index.html)\n"
          "  -f, --fuzz=RATIO   a pixel differs when its difference exceeds 255*RATIO in grey\n"
          "                     level (default: 0.05)\n"
          "  -a, --alpha        the alpha channel counts too\n"
          "      --overwrite    write difference images even where newer ones exist\n"
          "      --show-all     show every pair in the report, matching ones too\n",
          f);
}

enum { OPT_OVERWRITE = 256, OPT_SHOW_ALL };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},         {"verbose", no_argument, 0, 'v'},
    {"output", required_argument, 0, 'o'}, {"fuzz", required_argument, 0, 'f'},
    {"alpha", no_argument, 0, 'a'},        {"overwrite", no_argument, 0, OPT_OVERWRITE},
    {"show-all", no_argument, 0, OPT_SHOW_ALL}, {0, 0, 0, 0},
};

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, diff_job *j)
{
    int c;
    char *end;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hvo:f:a", long_options, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case 'v': j->verbose = true; break;
        case 'o': j->output = optarg; break;
        case 'f':
            j->fuzz = strtod(optarg, &end);
            if (!*optarg || *end || !(j->fuzz >= 0 && j->fuzz <= 1)) {
                fprintf(stderr, "gltrace diff-images: --fuzz: a ratio from 0 to 1, not \"%s\"\n",
                        optarg);
                return 2;
            }
            break;
        case 'a': j->alpha = true; break;
        case OPT_OVERWRITE: j->overwrite = true; break;
        case OPT_SHOW_ALL: j->show_all = true; break;
        default: usage(stderr); return 2;
        }
    }
    if (optind + 2 != argc) {
        fprintf(stderr, "gltrace diff-images: expected REF_PREFIX and SRC_PREFIX\n");
        usage(stderr);
        return 2;
    }
    j->ref = argv[optind];
    j->src = argv[optind + 1];
    return -1;
}

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = malloc(na + nb + 1);
    if (s) {
        memcpy(s, a, na);
        memcpy(s + na, b, nb + 1);
    }
    return s;
}

/* PATH as the report links it: relative to the report's folder. */
static void put_link(FILE *f, const diff_job *j, const char *path)
{
    char abs[PATH_MAX];
    if (!realpath(path, abs)) {
        image_html_text(f, path);
        return;
    }
    char *rel = image_relative_path(j->html_dir, abs);
    image_html_text(f, rel ? rel : abs);
    free(rel);
}

static void put_thumb(FILE *f, const diff_job *j, const char *path, const gt_image *im)
{
    fputs("        <td>", f);
    if (!im || !im->width) {
        fputs("&mdash;</td>\n", f);
        return;
    }
    unsigned w = im->width, h = im->height, big = w > h ? w : h;
    if (big > 320) { /* thumbnails 320 pixels on their long side, as apitrace's */
        w = (unsigned)((uint64_t)w * 320 / big);
        h = (unsigned)((uint64_t)h * 320 / big);
    }
    fputs("<a href=\"", f);
    put_link(f, j, path);
    fputs("\"><img src=\"", f);
    put_link(f, j, path);
    fprintf(f, "\" width=\"%u\" height=\"%u\"/></a></td>\n", w ? w : 1, h ? h : 1);
}

/* "x.png" -> "x.diff.png" (snapdiff's name, beside the source image) */
static char *diff_path(const char *src)
{
    const char *dot = strrchr(src, '.'), *slash = strrchr(src, '/');
    size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - src) : strlen(src);
    char *p = malloc(n + sizeof ".diff.png");
    if (p) {
        memcpy(p, src, n);
        strcpy(p + n, ".diff.png");
    }
    return p;
}

static bool newer_than(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_mtime >= sb.st_mtime;
}

/* The difference image of a pair, unless an up-to-date one is there. */
static void write_diff(const diff_job *j, const char *ref, const char *src, const gt_image *a,
                       const gt_image *b, const char *out, gt_image *shown)
{
    bool fresh = newer_than(out, ref) && newer_than(out, src);
    gt_error err;
    gt_error_clear(&err);
    if (j->overwrite || !fresh) {
        uint8_t *rgb = malloc((size_t)b->width * b->height * 3);
        if (!rgb)
            return;
        image_diff_render(a, b, j->fuzz, rgb);
        if (gt_png_write(out, rgb, b->width, b->height, 3, (size_t)b->width * 3, false, &err) != 0)
            fprintf(stderr, "gltrace diff-images: %s\n", err.msg);
        free(rgb);
    }
    *shown = (gt_image){.width = b->width, .height = b->height};
}

/* Compares one pair, prints its line and its report row. */
static void compare_one(const diff_job *j, const char *name, FILE *html, diff_counts *n)
{
    char *ref = join(j->ref, name), *src = join(j->src, name), *dp = src ? diff_path(src) : NULL;
    gt_image a = {0}, b = {0}, shown = {0};
    gt_error ea, eb;
    gt_error_clear(&ea);
    gt_error_clear(&eb);
    int ra = ref ? gt_png_read(ref, &a, &ea) : -1, rb = src ? gt_png_read(src, &b, &eb) : -1;
    const char *result, *color = "#ff2020";
    image_diff d = {0};
    if (ra != 0 || rb != 0) {
        bool missing = (ra != 0 && access(ref, F_OK) != 0) || (rb != 0 && access(src, F_OK) != 0);
        result = missing ? "MISSING" : "UNREADABLE";
        missing ? n->missing++ : n->unreadable++;
        printf("%s: %s: %s\n", name, result, ra != 0 ? ea.msg : eb.msg);
    } else {
        d = image_compare(&a, &b, j->fuzz, j->alpha);
        bool match = !d.size_mismatch && d.differing == 0;
        result = match ? "MATCH" : "MISMATCH";
        color = match ? "#20ff20" : color;
        match ? n->match++ : n->mismatch++;
        if (d.size_mismatch)
            printf("%s: MISMATCH: sizes %ux%u and %ux%u\n", name, a.width, a.height, b.width, b.height);
        else if (!match || j->verbose)
            printf("%s: %s: %llu of %llu pixels differ, max channel difference %u\n", name, result,
                   (unsigned long long)d.differing, (unsigned long long)a.width * a.height,
                   d.max_channel);
        if ((!match || j->show_all) && !d.size_mismatch && dp)
            write_diff(j, ref, src, &a, &b, dp, &shown);
    }
    fprintf(html, "      <tr>\n        <td bgcolor=\"%s\">", color);
    image_html_text(html, name);
    fprintf(html, "<br/>%s</td>\n", result);
    if (strcmp(result, "MATCH") || j->show_all) {
        put_thumb(html, j, ref, ra == 0 ? &a : NULL);
        put_thumb(html, j, src, rb == 0 ? &b : NULL);
        put_thumb(html, j, dp ? dp : "", shown.width ? &shown : NULL);
    }
    fputs("      </tr>\n", html);
    gt_image_free(&a);
    gt_image_free(&b);
    free(ref);
    free(src);
    free(dp);
}

static int write_report(diff_job *j, const image_list *names, diff_counts *n)
{
    gt_error err;
    gt_error_clear(&err);
    gt_outfile out;
    if (gt_outfile_begin(&out, j->output, NULL, 0, &err) != 0) {
        fprintf(stderr, "gltrace diff-images: %s\n", err.msg);
        return -1;
    }
    FILE *html = fopen(out.path, "w");
    if (!html) {
        fprintf(stderr, "gltrace diff-images: %s: %s\n", j->output, strerror(errno));
        gt_outfile_abort(&out);
        return -1;
    }
    fputs("<html>\n  <head><meta charset=\"utf-8\"/><title>diff-images</title></head>\n"
          "  <body>\n    <table border=\"1\">\n      <tr><th>File</th><th>", html);
    image_html_text(html, j->ref);
    fputs("</th><th>", html);
    image_html_text(html, j->src);
    fputs("</th><th>&Delta;</th></tr>\n", html);
    for (size_t i = 0; i < names->n; ++i)
        compare_one(j, names->v[i], html, n);
    fputs("    </table>\n  </body>\n</html>\n", html);
    bool ok = !ferror(html);
    ok = fclose(html) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "gltrace diff-images: %s: write failed; %s\n", j->output,
                gt_outfile_left(&out));
        gt_outfile_abort(&out);
        return -1;
    }
    if (gt_outfile_commit(&out, &err) != 0) { /* removes its temporary file */
        fprintf(stderr, "gltrace diff-images: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* The report's folder, absolute, so that image links can be made relative to it. */
static int report_dir(diff_job *j)
{
    char *copy = strdup(j->output);
    if (!copy)
        return -1;
    char *slash = strrchr(copy, '/');
    const char *dir = slash ? (slash == copy ? "/" : (*slash = '\0', copy)) : ".";
    for (char *p = copy + 1; slash && *p; ++p) /* made when missing, as mkdir -p */
        if (*p == '/') {
            *p = '\0';
            mkdir(copy, 0777);
            *p = '/';
        }
    if (slash)
        mkdir(dir, 0777);
    int rc = realpath(dir, j->html_dir) ? 0 : -1;
    if (rc != 0)
        fprintf(stderr, "gltrace diff-images: %s: the report's folder: %s\n", j->output,
                strerror(errno));
    free(copy);
    return rc;
}

int cmd_diff_images(int argc, char **argv)
{
    diff_job j = {.output = "index.html", .fuzz = 0.05};
    int status = parse_args(argc, argv, &j);
    if (status >= 0)
        return status;
    if (report_dir(&j) != 0)
        return 1;
    image_list names = {0};
    gt_error err[2];
    gt_error_clear(&err[0]);
    gt_error_clear(&err[1]);
    int found[2] = {image_list_find(&names, j.ref, NULL, &err[0]), 0};
    if (found[0] >= 0)
        found[1] = image_list_find(&names, j.src, NULL, &err[1]);
    if (found[0] < 0 || found[1] < 0) {
        fprintf(stderr, "gltrace diff-images: %s\n", err[found[0] < 0 ? 0 : 1].msg);
        image_list_free(&names);
        return 1;
    }
    if (!names.n) { /* a folder that is not there, said plainly */
        fprintf(stderr, "gltrace diff-images: no images under %s or %s%s%s\n", j.ref, j.src,
                found[0] || found[1] ? ": " : "",
                found[0] ? err[0].msg : found[1] ? err[1].msg : "");
        image_list_free(&names);
        return 1;
    }
    for (int k = 0; k < 2; ++k) /* one side missing: every image is missing there */
        if (found[k])
            fprintf(stderr, "gltrace diff-images: warning: %s\n", err[k].msg);
    diff_counts n = {0};
    status = write_report(&j, &names, &n) == 0 ? 0 : 1;
    printf("%zu images: %u match, %u differ, %u missing, %u unreadable; report: %s\n", names.n,
           n.match, n.mismatch, n.missing, n.unreadable, j.output);
    image_list_free(&names);
    if (n.mismatch || n.missing || n.unreadable)
        status = 1;
    return status;
}
