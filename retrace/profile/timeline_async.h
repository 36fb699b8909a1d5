/* The timeline writers' thread (glretrace --fxt/--chrome).
 * Encoding an event as FXT and JSON takes longer than replaying most calls, and the
 * replay would wait for it. So, unless an output is stdout (shared with the text
 * profile and -v), the writers sit behind a sink that copies each event into a ring
 * of bytes, and a thread of ours hands them to the writers in the same order: the
 * same files. Strings interned since the previous event travel first, and the writer
 * thread interns them into a timeline of its own in the same order, which gives them
 * the same ids without reading the replay's tables while they grow. The ring is
 * fixed, so memory stays bounded: when it is full the replay waits; a record too big
 * for it travels as a heap copy. One producer at a time (whichever thread holds the
 * replay's baton), one consumer. */

#ifndef RETRACE_TIMELINE_ASYNC_H
#define RETRACE_TIMELINE_ASYNC_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "gt_error.h"
#include "gt_timeline.h"

enum { TLA_EVENT = 1, TLA_STRING, TLA_WRAP, TLA_HEAP };

#define TLA_RING (4u << 20)     /* bytes in the ring */
#define TLA_BIG (TLA_RING / 16) /* records beyond this go as heap copies */
#define TLA_WAKE (64u << 10)    /* how often the producer looks whether the writer sleeps */
#define TLA_BATCH (256u << 10)  /* how often the writer frees the space it has read */
#define TLA_NAP_NS 20000000     /* a wait's longest: a lost wake-up costs this, not a hang */

typedef struct tla_rec {
    uint32_t type;
    uint32_t size; /* bytes, this header included; a multiple of 16 */
    union {
        struct {
            gt_tl_str id; /* the id it has in the producer's timeline */
            uint32_t len;
        } str;      /* TLA_STRING */
        void *heap; /* TLA_HEAP: a record in an allocation of its own */
    } u;
} tla_rec;
_Static_assert(sizeof(tla_rec) == 16, "a record header is 16 bytes");

typedef struct tl_async {
    bool running;
    gt_tl_sink *to;
    pthread_t th;
    unsigned char *ring;
    atomic_uint_fast64_t head, tail; /* bytes published and consumed, ever */
    uint64_t phead;                  /* producer: bytes written (head once published) */
    uint64_t checked;                /* producer: phead when it last looked at sleeping */
    uint32_t shipped;                /* producer: string ids sent */
    atomic_bool sleeping, waiting, closing, failed;
    pthread_mutex_t mu;
    pthread_cond_t wake_writer, wake_producer;
    gt_timeline tl; /* the writer's copy of the producer's strings */
    gt_error err;   /* the writer's error, set once before failed */
} tl_async;

/* Starts the thread in front of the sink to (the writers), copying src's strings as
 * they come: 0, or -1 when it cannot start (then write synchronously). */
int tla_start(tl_async *q, gt_tl_sink *to, const gt_timeline *src);
/* The sink the replay emits into while the thread runs. */
gt_tl_sink tla_sink(tl_async *q);
/* Stops the thread (if running) and frees what it holds. */
void tla_free(tl_async *q);

#endif
