/* libFuzzer target: any bytes as a state dump read by `gltrace diff-state`
 * (cli/json_tree.c), with and without images stripped, every scalar printed. Nothing
 * may crash, leak, hang or recurse past the depth limit; a failure always says why. */
#include "fuzz_file.h"

#include "json_tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void print_all(gt_strbuf *b, const jt_value *v)
{
    if (v->type == JT_ARRAY)
        for (size_t i = 0; i < v->n; ++i)
            print_all(b, &v->items[i]);
    else if (v->type == JT_OBJECT)
        for (size_t i = 0; i < v->n; ++i)
            print_all(b, &v->members[i].v);
    else
        jt_print_scalar(b, v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    for (int strip = 0; strip < 2; ++strip) {
        jt_options opt = {.strip_images = strip};
        gt_arena arena;
        gt_arena_init(&arena);
        jt_value root;
        gt_error err;
        gt_error_clear(&err);
        if (jt_load(path, &opt, &arena, &root, &err) == 0) {
            gt_strbuf b;
            gt_strbuf_init(&b);
            print_all(&b, &root);
            gt_strbuf_free(&b);
        } else if (!err.set) {
            abort();
        }
        gt_arena_free(&arena);
    }
    close(fd);
    return 0;
}
