/* Inside the trace writer (at_writer*.c): the shared stream and the thread's event.
 *
 * A thread encodes an event (one call's enter or leave details) into a scratch buffer
 * of its own, without any lock, then places it into the shared stream under the
 * writer's lock: a copy of a few dozen bytes (at_writer_event.c). The call number is
 * given when the enter event is placed, so numbers follow the stream's order as
 * readers count them. Signatures (function, enum, bitmask, struct, frame) go in full
 * into the stream the first time their id appears there: an encoder that cannot tell
 * from the shared bitmap that an id was written leaves a patch (where the id ends),
 * and placing the event writes the signature there when it is still the first use.
 *
 * An event larger than the scratch buffer, or with more unknown signatures than it
 * has patches, goes direct: the lock is taken, what was encoded is placed, and the
 * rest is written straight into the stream under the lock (the old way). */
#ifndef AT_WRITER_INTERNAL_H
#define AT_WRITER_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "at_output.h"
#include "at_writer.h"

/* The encoders of a call's bytes, inline in every wrapper (where a call per value
 * would cost as much as the value). AT_LEAF forces it for the few instructions of a
 * value's common case, whose rare case is a call (at_writer_event.c); forcing it for
 * all (whole events) made the library 2.6x larger and recording slower. */
#define AT_INLINE static inline
#define AT_LEAF static inline __attribute__((always_inline))

enum { AT_SIG_FUNC, AT_SIG_ENUM, AT_SIG_BITMASK, AT_SIG_STRUCT, AT_SIG_FRAME, AT_SIG_KINDS };

/* Ids below this are tracked in a bitmap that encoders read without the lock; larger
 * ids (only from traces read back: the wrappers' ids are small) always take a patch. */
#define AT_FAST_IDS (1u << 16)

/* The writer's lock: one atomic exchange to take it, a plain store to give it back
 * (at_writer_lock.c). Whether the calling thread holds it is a thread-local pointer:
 * a signal handler must know whether it interrupted its own thread inside. */
typedef struct at_lock {
    atomic_int word;
} at_lock;

extern __thread const at_lock *at_t_holding __attribute__((tls_model("initial-exec")));
void at_lock_wait(at_lock *l);
int at_lock_try(at_lock *l);
/* Waits at most about ms milliseconds; async-signal-safe. 1 when taken. */
int at_lock_bounded(at_lock *l, int ms);

static inline void at_lock_take(at_lock *l)
{
    if (atomic_exchange_explicit(&l->word, 1, memory_order_acquire) != 0)
        at_lock_wait(l);
    at_t_holding = l;
}

static inline void at_lock_give(at_lock *l)
{
    at_t_holding = NULL;
    atomic_store_explicit(&l->word, 0, memory_order_release);
}

static inline bool at_lock_mine(const at_lock *l) { return at_t_holding == l; }

/* Which ids of one signature kind have been written in full. Written under the lock. */
typedef struct at_id_set {
    uint8_t *fast;   /* AT_FAST_IDS bits, allocated at open, never moved */
    uint8_t *bits;   /* ids from AT_FAST_IDS up, growing */
    size_t nbytes;
} at_id_set;

/* Epochs: a writer is reused for the files of successive frame ranges
 * (at_writer_reopen). Finishing a file and opening the next each start an epoch; an
 * event is placed only in the epoch it started in (a call's leave event in its enter
 * event's), so a call a thread was recording while its range ended never lands, half
 * written or with signatures the next file lacks, in the next file. */
#define AT_NO_EPOCH UINT32_MAX

struct at_writer {
    at_output out;
    at_lock lock;
    _Atomic uint32_t epoch; /* changed under the lock */
    uint32_t next_call_no;
    at_id_set sigs[AT_SIG_KINDS];
};

/* Without the lock: 1 when id was written in full (the bit, once set, stays). */
static inline bool at_sig_known(const at_writer *w, unsigned kind, uint32_t id)
{
    return id < AT_FAST_IDS &&
           (__atomic_load_n(&w->sigs[kind].fast[id >> 3], __ATOMIC_RELAXED) & (1u << (id & 7)));
}

/* Under the lock: 1 the first time id is seen (then its signature must follow). */
bool at_sig_first_use(at_writer *w, unsigned kind, uint32_t id);
/* Under the lock: the signature's body (what follows its id) into the stream. */
void at_sig_put_body(at_writer *w, unsigned kind, const void *sig);

enum { AT_SCRATCH = 64 * 1024, AT_PATCHES = 16 };

typedef struct at_patch {
    uint32_t off, id; /* the bytes before off end with the id */
    uint8_t kind;
    const void *sig;
} at_patch;

/* The calling thread's event in progress. */
typedef struct at_wevent {
    uint8_t *cur, *end; /* free scratch; both NULL in direct mode (every write slow) */
    uint8_t *buf;       /* AT_SCRATCH bytes, allocated at the thread's first event */
    at_writer *w;
    uint32_t leave_at;  /* a late call's leave details start here in buf */
    uint32_t call_no;   /* given when the enter event was placed */
    uint32_t epoch;     /* the writer's epoch this event belongs to */
    uint32_t call_epoch; /* the epoch the last enter event was placed in (AT_NO_EPOCH: dropped) */
    uint8_t late, leaving, direct, placed;
    uint8_t dropping;   /* direct mode, epoch gone: the rest of the event is dropped */
    unsigned npatch;
    at_patch patch[AT_PATCHES];
} at_wevent;

extern __thread at_wevent at_t_ev __attribute__((tls_model("initial-exec")));

static inline at_wevent *at_wevent_current(void) { return &at_t_ev; }
void at_wevent_write_slow(at_wevent *ev, const void *p, size_t n);
void at_wevent_sig(at_wevent *ev, unsigned kind, uint32_t id, const void *sig);
/* Ends the event: places it (taking the lock unless direct) and releases the lock. */
void at_wevent_commit(at_wevent *ev);

/* The position is read once and stored once: byte stores may alias the event. */
AT_INLINE void ev_write(at_wevent *ev, const void *p, size_t n)
{
    uint8_t *cur = ev->cur;
    if ((size_t)(ev->end - cur) >= n) {
        memcpy(cur, p, n); /* one move when n is a constant (floats, doubles) */
        ev->cur = cur + n;
    } else {
        at_wevent_write_slow(ev, p, n);
    }
}

AT_INLINE void ev_byte(at_wevent *ev, uint8_t b)
{
    uint8_t *cur = ev->cur;
    if (cur != ev->end) {
        *cur = b;
        ev->cur = cur + 1;
    } else {
        at_wevent_write_slow(ev, &b, 1);
    }
}

AT_INLINE void ev_uint(at_wevent *ev, uint64_t v)
{
    uint8_t tmp[10], *p = (size_t)(ev->end - ev->cur) >= sizeof tmp ? ev->cur : tmp, *q = p;
    while (v >= 0x80) {
        *q++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *q++ = (uint8_t)v;
    if (p == ev->cur)
        ev->cur = q;
    else
        at_wevent_write_slow(ev, tmp, (size_t)(q - tmp));
}

void at_wevent_tag_write_slow(at_wevent *ev, uint8_t tag, const void *p, size_t n);
void at_wevent_byte_uint_slow(at_wevent *ev, uint8_t b, uint64_t v);

/* A tag and n bytes (a float, a double). */
AT_LEAF void ev_tag_write(at_wevent *ev, uint8_t tag, const void *p, size_t n)
{
    uint8_t *cur = ev->cur;
    if (__builtin_expect((size_t)(ev->end - cur) > n, 1)) {
        cur[0] = tag;
        memcpy(cur + 1, p, n);
        ev->cur = cur + 1 + n;
    } else {
        at_wevent_tag_write_slow(ev, tag, p, n);
    }
}

/* A tag and a small varint: an argument's head, or a value's tag with its id. */
AT_LEAF void ev_byte_uint(at_wevent *ev, uint8_t b, uint64_t v)
{
    uint8_t *cur = ev->cur;
    if (__builtin_expect(v < 0x80 && (size_t)(ev->end - cur) >= 2, 1)) {
        cur[0] = b;
        cur[1] = (uint8_t)v;
        ev->cur = cur + 2;
    } else {
        at_wevent_byte_uint_slow(ev, b, v);
    }
}

AT_INLINE void ev_string(at_wevent *ev, const char *s, size_t len)
{
    ev_uint(ev, len);
    ev_write(ev, s, len);
}

/* The same straight into the stream, under the lock (signature bodies). */
void at_out_uint(at_output *o, uint64_t v);
void at_out_cstring(at_output *o, const char *s);
void at_out_sint(at_output *o, int64_t v);

#endif
