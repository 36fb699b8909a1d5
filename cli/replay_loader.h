/* The replayer for the gltrace command: libgltrace_replay.so, found as the recording
 * library is (lib_path.h; $GLTRACE_REPLAY overrides) and loaded at the first use. */
#ifndef REPLAY_LOADER_H
#define REPLAY_LOADER_H

#include "gt_error.h"
#include "replay.h"

/* The replayer's API; NULL with err set when it cannot be loaded. */
const replay_api *replay_load(gt_error *err);

#endif
