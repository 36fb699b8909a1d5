/* Runs the fuzz target over files or directories of files without libFuzzer, so the
 * corpus and saved crashes replay in any build (under the sanitizers when enabled). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_replay: cannot open %s\n", path);
        return 0;
    }
    size_t cap = 1 << 16, len = 0, n;
    uint8_t *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "fuzz_replay: %s: out of memory\n", path);
        return 0;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    printf("%s: %zu bytes ok\n", path, len);
    return 1;
}

static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return replay_file(path);
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "fuzz_replay: cannot read directory %s\n", path);
        return 0;
    }
    int ok = 1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *p = malloc(n);
        if (!p) {
            ok = 0;
            break;
        }
        snprintf(p, n, "%s/%s", path, e->d_name);
        ok &= replay(p);
        free(p);
    }
    closedir(d);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    int ok = 1;
    for (int i = 1; i < argc; ++i)
        ok &= replay(argv[i]);
    return ok ? 0 : 1;
}
