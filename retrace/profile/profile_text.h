/* apitrace's text profile (glretrace --pcpu/--pgpu), line for line as apitrace 11
 * prints it, so its scripts (scripts/profileshader.py, tracediff, qapitrace's
 * profile view) read ours:
 *
 *   # call no gpu_start gpu_dura cpu_start cpu_dura vsize_start vsize_dura rss_start rss_dura pixels program name
 *   call NO GPU_START GPU_DURA CPU_START CPU_DURA VSIZE VSIZE_DURA RSS RSS_DURA PIXELS PROGRAM NAME
 *   frame_end
 *   rendering_finished NS      (--pframe-times: when the frame's rendering finished)
 *
 * Times in ns from the start of the replay; columns of what was not asked for are 0.
 * --pmem: the process's vsize (bytes) and rss (pages) when the call began, absolute,
 * and their growth over it; --ppd: the samples a draw call passed, -1 for other calls. Calls whose CPU time is
 * under --min-cpu-time (default 1000 ns) are left out, as apitrace does (with --pcpu).
 * Lines are printed when the GPU results of their calls are in, in call order.
 * Like apitrace, lines are committed at each frame end and each switch of traced
 * thread; calls after the last commit are never printed (apitrace never flushes them).
 * Which calls are listed is the caller's business (timeline_replay.c). */
#ifndef RETRACE_PROFILE_TEXT_H
#define RETRACE_PROFILE_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Prints the header. Times given later are on the CPU clock; base is subtracted. */
void profile_text_init(FILE *out, bool cpu, bool gpu, int64_t min_cpu_ns, int64_t base_ns);
/* A listed call; returns its record id. name must outlive the profile. */
uint64_t profile_text_call(uint32_t no, const char *name, uint32_t program, int64_t cpu_start,
                           int64_t cpu_dur, bool gpu_pending);
/* After init: the pixels (--ppd) and memory (--pmem) columns are printed. */
void profile_text_columns(bool pixels, bool memory);
/* A record's pixels (a draw call's) and memory use. */
void profile_text_pixels(uint64_t rec, int64_t pixels);
void profile_text_mem(uint64_t rec, int64_t vsize, int64_t vsize_dur, int64_t rss,
                      int64_t rss_dur);
/* The CPU duration of a record, known later (glBegin: up to its glEnd). */
void profile_text_set_cpu(uint64_t rec, int64_t cpu_dur);
/* The GPU time of a record (valid false: none). */
void profile_text_gpu(uint64_t rec, bool valid, int64_t start, int64_t dur);
/* A switch of traced thread: what is recorded so far will be printed. */
void profile_text_commit(void);
/* Frame end: commits and adds "frame_end", then "rendering_finished FINISHED_NS" when
 * FINISHED_NS is not 0 (an absolute CPU-clock time, as apitrace's --pframe-times). */
void profile_text_frame_end(int64_t finished_ns);
/* Prints what is committed (GPU times never come for pending ones: 0) and frees. */
void profile_text_finish(void);

#endif
