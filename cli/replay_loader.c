/* See replay_loader.h. The module stays loaded until the process ends: SDL and the GL
 * driver it brought keep threads and handlers that must not lose their code. */
#include <dlfcn.h>
#include <limits.h>

#include "lib_path.h"
#include "replay_loader.h"

const replay_api *replay_load(gt_error *err)
{
    static const replay_api *api;
    if (api)
        return api;
    char path[PATH_MAX];
    if (gltrace_find_lib("GLTRACE_REPLAY", "libgltrace_replay.so", path, sizeof path, err) != 0)
        return NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        gt_error_set(err, "cannot load the replayer %s: %s", path, dlerror());
        return NULL;
    }
    const replay_api *a = dlsym(h, REPLAY_API_SYMBOL);
    if (!a || a->version != REPLAY_API_VERSION) {
        gt_error_set(err, "%s: %s", path, a ? "a replayer of another gltrace version"
                                            : "not gltrace's replayer");
        dlclose(h);
        return NULL;
    }
    return api = a;
}
