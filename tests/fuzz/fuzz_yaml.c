/* libFuzzer target: any bytes as a traces.yml read by `gltrace check`
 * (cli/check_yaml.c), for a device the file may or may not name. Nothing may crash,
 * leak or hang; a failure always says why; every listed trace has a path. */
#include "fuzz_file.h"

#include "check_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    static const char *const devices[] = {"gl-vmware-llvmpipe", ""};
    for (int d = 0; d < 2; ++d) {
        check_list l;
        gt_error err;
        gt_error_clear(&err);
        if (check_yaml_load(path, devices[d], &l, &err) == 0) {
            for (size_t i = 0; i < l.n; ++i)
                if (!l.t[i].path)
                    abort();
            check_list_free(&l);
        } else if (!err.set) {
            abort();
        }
    }
    close(fd);
    return 0;
}
