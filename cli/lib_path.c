/* See lib_path.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib_path.h"

/* Where the libraries lie relative to our directory: installed, build tree. */
static const char *const places[] = {"../lib/gltrace/", "../lib/"};

int gltrace_exe_path(char *out, size_t size, bool folder, gt_error *err)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0) {
        gt_error_set(err, "cannot read /proc/self/exe: %s", strerror(errno));
        return -1;
    }
    out[n] = '\0';
    char *slash = folder ? strrchr(out, '/') : NULL;
    if (slash)
        *slash = '\0';
    return 0;
}

int gltrace_find_lib(const char *env_var, const char *name, char *out, size_t size, gt_error *err)
{
    const char *env = getenv(env_var);
    char guess[PATH_MAX];
    if (env && *env) {
        if (strlen(env) >= sizeof guess) {
            gt_error_set(err, "%s is too long", env_var);
            return -1;
        }
        strcpy(guess, env);
    } else {
        char exe[PATH_MAX];
        if (gltrace_exe_path(exe, sizeof exe, true, err) != 0)
            return -1;
        for (size_t i = 0; i < sizeof places / sizeof *places; ++i) {
            if (snprintf(guess, sizeof guess, "%s/%s%s", exe, places[i], name) >= (int)sizeof guess) {
                gt_error_set(err, "the path of %s is too long", name);
                return -1;
            }
            if (access(guess, R_OK) == 0)
                break; /* else the last place, whose error is reported below */
        }
    }
    char real[PATH_MAX];
    if (!realpath(guess, real) || access(real, R_OK) != 0) {
        gt_error_set(err, "cannot find %s: %s%s%s%s", guess, strerror(errno),
                     env && *env ? "" : " (set ", env && *env ? "" : env_var,
                     env && *env ? "" : " to its path)");
        return -1;
    }
    if (strlen(real) >= size) {
        gt_error_set(err, "the path %s is too long", real);
        return -1;
    }
    strcpy(out, real);
    return 0;
}
