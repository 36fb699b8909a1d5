/* `gltrace --frames=RANGES --trigger=SIGNAL --quit-after`: checked here before the
 * program starts, then passed to the recording library (wrappers/capture_frames.c)
 * as GLTRACE_FRAMES, GLTRACE_TRIGGER and GLTRACE_QUIT_AFTER. */
#ifndef RECORD_FRAMES_H
#define RECORD_FRAMES_H

typedef struct record_frames {
    const char *frames, *trigger; /* NULL when not given */
    int quit_after;
    int trigger_sig;              /* the trigger's number, once checked */
} record_frames;

/* Takes GLTRACE_FRAMES, GLTRACE_TRIGGER and GLTRACE_QUIT_AFTER for the options not
 * given; 0 when they make sense together (else a message on stderr, -1). */
int record_frames_check(record_frames *f);
/* Sets (or clears) the library's variables; 0, or -1 with errno. */
int record_frames_env(const record_frames *f);
/* Says what the user can do while the program runs (the trigger's signal). */
void record_frames_announce(const record_frames *f, int program_pid);

#endif
