/* libgltrace_replay.so: the replayer library (replay.h) as a module that `gltrace`
 * loads with dlopen when it replays; its one entry point is the API table. */
#include "replay.h"

__attribute__((visibility("default"))) const replay_api gltrace_replay_api = {
    REPLAY_API_VERSION,
    replay_options_init,
    replay_run,
};
