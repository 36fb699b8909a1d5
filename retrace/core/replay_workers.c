/* The replay's worker threads and the ring of calls between them and the main loop
 * (replay_workers.h).
 *
 * head: calls queued (written by the main thread); done: calls run (written by the
 * worker holding the baton); released: calls handed back (main thread only). The call
 * at done is the baton: only its owner runs it. Whoever moves head or done wakes the
 * owner of the call at done if it sleeps; sleepers announce themselves (sleeping) before
 * checking again, and wakers check after moving, so one of the two always sees the
 * other (all with sequentially consistent atomics). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "replay_workers.h"

enum {
    RING = 1024,      /* calls queued at most */
    MAX_WORKERS = 64, /* beyond, traced threads share workers */
    PUBLISH = 16,     /* a worker publishes done at least every PUBLISH calls */
    MAIN_BATCH = 256, /* a blocked main thread waits for this many calls to finish */
    SOON = 64,        /* a worker spins only when one of these next calls is its own */
    SPIN = 2000,      /* polls before sleeping: a switch is often immediate */
    INLINE = MAX_WORKERS, /* the first traced thread's calls run on the main thread */
};

typedef struct worker {
    pthread_t th;
    pthread_cond_t cv;
    atomic_bool sleeping;
    unsigned idx;
} worker;

typedef struct thread_map {
    uint32_t id;
    unsigned w;
} thread_map;

static struct {
    replay_workers_callbacks cb;
    bool single;
    gt_call *ring[RING];
    unsigned char owner[RING];
    bool keep[RING];
    atomic_uint_fast64_t head, done;
    uint64_t released;
    atomic_bool finished;
    pthread_mutex_t mu;
    pthread_cond_t main_cv;
    atomic_bool main_sleeping;
    atomic_uint_fast64_t main_target;
    worker w[MAX_WORKERS];
    unsigned nw;
    thread_map *map;
    size_t nmap, capmap;
} rw;

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void signal_worker(worker *w)
{
    if (!atomic_load(&w->sleeping))
        return;
    pthread_mutex_lock(&rw.mu);
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&rw.mu);
}

/* After head or done moved: the baton's owner and a waiting main thread learn of it. */
static void wake(void)
{
    uint64_t d = atomic_load(&rw.done), h = atomic_load(&rw.head);
    if (d < h)
        signal_worker(&rw.w[rw.owner[d % RING]]);
    if (atomic_load(&rw.main_sleeping) && d >= atomic_load(&rw.main_target)) {
        pthread_mutex_lock(&rw.mu);
        pthread_cond_signal(&rw.main_cv);
        pthread_mutex_unlock(&rw.mu);
    }
}

/* Whether w holds the baton, and where: done is d, the call at d is w's. done is read
 * again after the owner: a worker that stalled between the two reads could otherwise
 * see an old done and the owner of a newer call in the same slot. Once the baton is
 * w's, only w moves done. */
static bool baton(const worker *w, uint64_t *at)
{
    uint64_t d = atomic_load(&rw.done), h = atomic_load(&rw.head);
    if (d >= h || rw.owner[d % RING] != w->idx || atomic_load(&rw.done) != d)
        return false;
    *at = d;
    return true;
}

static bool my_turn(const worker *w)
{
    uint64_t d;
    return baton(w, &d);
}

static bool all_done(void)
{
    return atomic_load(&rw.finished) && atomic_load(&rw.done) == atomic_load(&rw.head);
}

/* Whether one of the SOON calls from the baton on is w's: its turn comes soon, so
 * polling beats sleeping (a wake-up costs a system call and a reschedule). */
static bool mine_soon(const worker *w)
{
    uint64_t d = atomic_load(&rw.done), h = atomic_load(&rw.head);
    for (uint64_t i = d; i < h && i < d + SOON; ++i)
        if (rw.owner[i % RING] == w->idx)
            return true;
    return d == h; /* nothing queued: the next call may well be w's */
}

static void wait_turn(worker *w)
{
    for (int i = 0; i < SPIN && mine_soon(w); ++i) {
        if (my_turn(w) || all_done())
            return;
        if (i % 64 == 63)
            sched_yield(); /* llvmpipe's threads may need this core */
        else
            cpu_relax();
    }
    pthread_mutex_lock(&rw.mu);
    atomic_store(&w->sleeping, true);
    while (!my_turn(w) && !all_done())
        pthread_cond_wait(&w->cv, &rw.mu);
    atomic_store(&w->sleeping, false);
    pthread_mutex_unlock(&rw.mu);
}

/* Runs this worker's calls from the baton on, publishing done as it goes. The baton is
 * taken again after each publication: once done moves, the next call may be another
 * worker's, which may run it and let the main thread reuse its slot. While w holds the
 * baton, done stays, so the slots from done to head keep their calls. */
static void run_turn(const worker *w)
{
    uint64_t d;
    while (baton(w, &d)) {
        uint64_t h = atomic_load(&rw.head);
        unsigned n = 0;
        do {
            rw.cb.run(rw.ring[d % RING]);
            ++d;
            ++n;
        } while (d < h && n < PUBLISH && rw.owner[d % RING] == w->idx);
        atomic_store(&rw.done, d);
        wake();
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    for (;;) {
        if (my_turn(w))
            run_turn(w);
        else if (all_done())
            break;
        else
            wait_turn(w);
    }
    pthread_mutex_lock(&rw.mu); /* one at a time: window-system calls are not locked */
    rw.cb.thread_exit();
    pthread_mutex_unlock(&rw.mu);
    return NULL;
}

int replay_workers_start(const replay_workers_callbacks *cb, bool single, gt_error *err)
{
    (void)err;
    memset(&rw, 0, sizeof rw);
    rw.cb = *cb;
    rw.single = single;
    pthread_mutex_init(&rw.mu, NULL);
    pthread_cond_init(&rw.main_cv, NULL);
    return 0;
}

static int start_worker(gt_error *err)
{
    worker *w = &rw.w[rw.nw];
    memset(w, 0, sizeof *w);
    w->idx = rw.nw;
    pthread_cond_init(&w->cv, NULL);
    int e = pthread_create(&w->th, NULL, worker_main, w);
    if (e != 0) {
        pthread_cond_destroy(&w->cv);
        gt_error_set(err, "cannot start a replay thread: %s", strerror(e));
        return -1;
    }
    rw.nw++;
    return 0;
}

/* The worker of traced thread id (INLINE for the first traced thread, and for all with
 * single), started when first needed; -1 with err set. */
static int worker_of(uint32_t id, gt_error *err)
{
    if (rw.single)
        return INLINE;
    for (size_t i = 0; i < rw.nmap; ++i)
        if (rw.map[i].id == id)
            return (int)rw.map[i].w;
    if (GT_GROW(rw.map, rw.capmap, rw.nmap + 1, 8) != 0) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    unsigned w;
    if (!rw.nmap) {
        w = INLINE;
    } else if (rw.nw < MAX_WORKERS) {
        gt_error start_err;
        gt_error_clear(&start_err);
        w = start_worker(&start_err) == 0 ? rw.nw - 1 : INLINE; /* correct, only slower */
    } else {
        w = (unsigned)(rw.nmap % MAX_WORKERS);
    }
    rw.map[rw.nmap++] = (thread_map){id, w};
    return (int)w;
}

/* Hands back every call that has run. */
static void collect(void)
{
    uint64_t d = atomic_load(&rw.done);
    for (; rw.released < d; ++rw.released)
        rw.cb.done(rw.ring[rw.released % RING], rw.keep[rw.released % RING]);
}

/* Sleeps until at least target calls have run. */
static void wait_done(uint64_t target)
{
    pthread_mutex_lock(&rw.mu);
    atomic_store(&rw.main_target, target);
    atomic_store(&rw.main_sleeping, true);
    while (atomic_load(&rw.done) < target)
        pthread_cond_wait(&rw.main_cv, &rw.mu);
    atomic_store(&rw.main_sleeping, false);
    pthread_mutex_unlock(&rw.mu);
}

/* Waits until every queued call has run: polls a while (the last worker's run is often
 * short), then sleeps. */
static void wait_all(void)
{
    uint64_t h = atomic_load(&rw.head);
    for (int i = 0; i < SPIN && atomic_load(&rw.done) < h; ++i)
        cpu_relax();
    if (atomic_load(&rw.done) < h)
        wait_done(h);
}

int replay_workers_push(gt_call *c, bool keep, gt_error *err)
{
    int w = worker_of(c->thread, err);
    if (w < 0)
        return -1;
    if (w == INLINE) {
        /* the traced program's first thread: on this thread, as a replay without other
         * threads runs, once the other threads' queued calls have run */
        if (rw.nw)
            wait_all();
        collect();
        rw.cb.run(c);
        rw.cb.done(c, keep);
        return 0;
    }
    uint64_t h = atomic_load(&rw.head);
    if (h - rw.released >= RING) { /* handed back in batches: done is the workers' line */
        collect();
        if (h - rw.released >= RING) {
            wait_done(rw.released + MAIN_BATCH);
            collect();
        }
    }
    rw.ring[h % RING] = c;
    rw.owner[h % RING] = (unsigned char)w;
    rw.keep[h % RING] = keep;
    atomic_store(&rw.head, h + 1);
    wake();
    return 0;
}

void replay_workers_drain(void)
{
    wait_all();
    collect();
}

void replay_workers_stop(void)
{
    replay_workers_drain();
    atomic_store(&rw.finished, true);
    for (unsigned i = 0; i < rw.nw; ++i) {
        pthread_mutex_lock(&rw.mu);
        pthread_cond_signal(&rw.w[i].cv);
        pthread_mutex_unlock(&rw.mu);
    }
    for (unsigned i = 0; i < rw.nw; ++i) {
        pthread_join(rw.w[i].th, NULL);
        pthread_cond_destroy(&rw.w[i].cv);
    }
    free(rw.map);
    pthread_cond_destroy(&rw.main_cv);
    pthread_mutex_destroy(&rw.mu);
    memset(&rw, 0, sizeof rw);
}
