#include "at_output_internal.h"
#include "at_snappy_encode.h"

#include <errno.h>
#include <fcntl.h>
#include <snappy-c.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes n bytes at p; *sent (when given) counts what went out as it goes, so a
 * signal handler that interrupts the write knows where to go on from. */
static int write_all(at_output *o, const uint8_t *p, size_t n, size_t *sent)
{
    while (n) {
        ssize_t k = write(o->fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            gt_error_set(&o->err, "%s: write failed: %s", o->path, k < 0 ? strerror(errno) : "no space");
            o->failed = 1;
            return 0;
        }
        p += k;
        n -= (size_t)k;
        if (sent)
            *sent += (size_t)k;
        o->file_bytes += (uint64_t)k;
    }
    return 1;
}

static void free_buffers(at_output *o)
{
    for (unsigned i = 0; i < AT_OUTPUT_SLOTS; ++i)
        free(o->slot[i]);
    free(o->cbuf);
    free(o->table);
    memset(o->slot, 0, sizeof o->slot);
    o->buf = o->cbuf = NULL;
    o->table = NULL;
}

int at_output_open_fd(at_output *o, int fd, const char *name, gt_error *err)
{
    memset(o, 0, sizeof *o);
    o->fd = fd;
    o->path = name;
    gt_error_clear(&o->err);
    size_t bound = snappy_max_compressed_length(AT_OUTPUT_CHUNK);
    o->ccap = 4 + (bound > at_snappy_bound(AT_OUTPUT_CHUNK) ? bound : at_snappy_bound(AT_OUTPUT_CHUNK));
    int ok = (o->cbuf = malloc(o->ccap)) != NULL;
    ok = ok && (o->table = malloc(AT_SNAPPY_TABLE_SIZE * sizeof *o->table)) != NULL;
    for (unsigned i = 0; ok && i < AT_OUTPUT_SLOTS; ++i)
        ok = (o->slot[i] = malloc(AT_OUTPUT_CHUNK)) != NULL;
    if (!ok) {
        free_buffers(o);
        close(fd);
        gt_error_set(err, "%s: out of memory", name);
        return 0;
    }
    o->buf = o->slot[0];
    static const uint8_t magic[2] = {'a', 't'};
    if (!write_all(o, magic, 2, NULL)) {
        gt_error_set(err, "%s", o->err.msg);
        at_output_close(o);
        return 0;
    }
    at_queue_start(o); /* without the thread, callers compress */
    return 1;
}

int at_output_open(at_output *o, const char *path, gt_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        gt_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        return 0;
    }
    return at_output_open_fd(o, fd, path, err);
}

/* A Snappy block of one literal: the length as a varint, the literal tag with a
 * 4-byte length, the bytes: the dying flush's, written without its lock (so without
 * cbuf or the encoder's table, which the lock's holder may be using). Returns the
 * block's length (its head's alone when src is NULL). */
static size_t literal_block(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t k = 0;
    for (size_t v = n; ; v >>= 7) {
        dst[k++] = (uint8_t)(v < 0x80 ? v : (v & 0x7f) | 0x80);
        if (v < 0x80)
            break;
    }
    dst[k++] = 63 << 2; /* literal, length - 1 in the next 4 bytes */
    for (int i = 0; i < 4; i++)
        dst[k++] = (uint8_t)((n - 1) >> (8 * i));
    if (!src)
        return k; /* the head alone */
    memcpy(dst + k, src, n);
    return k + n;
}

/* Writes cbuf's chunk, counting what went out for at_output_flush_dying. */
static int send_chunk(at_output *o)
{
    return write_all(o, o->cbuf + o->chunk_sent, o->chunk_len - o->chunk_sent, &o->chunk_sent);
}

/* Whether a chunk may go out: not once a dying flush wrote the file. A dying flush
 * from another thread that is deciding (CLAIMED) is waited for; it sees `writing`
 * and lets this chunk go (SKIPPED), or wrote the records first (WROTE). */
static int may_send(at_output *o)
{
    atomic_store(&o->writing, 1);
    int s;
    while ((s = atomic_load(&o->sealed)) == AT_SEAL_CLAIMED)
        ;
    if (s != AT_SEAL_WROTE)
        return 1;
    atomic_store(&o->writing, 0);
    return 0;
}

int at_chunk_send(at_output *o, const uint8_t *src, size_t n, int lib)
{
    if (atomic_load(&o->sealed) == AT_SEAL_WROTE) /* the process is going: drop */
        return 0;
    if (n == 0 || o->failed)
        return !o->failed;
    size_t clen = o->ccap - 4;
    if (!lib) { /* no allocation: a signal handler may have interrupted malloc */
        clen = at_snappy_encode(src, n, o->cbuf + 4, o->table);
    } else if (snappy_compress((const char *)src, n, (char *)o->cbuf + 4, &clen) != SNAPPY_OK) {
        gt_error_set(&o->err, "%s: Snappy compression failed", o->path);
        o->failed = 1;
        return 0;
    }
    for (int i = 0; i < 4; i++)
        o->cbuf[i] = (uint8_t)(clen >> (8 * i));
    o->chunk_len = clen + 4;
    o->chunk_sent = 0;
    o->chunk_pos = lseek(o->fd, 0, SEEK_CUR); /* one call a chunk: see chunk_rest */
    if (!may_send(o))
        return 0;
    int ok = send_chunk(o);
    atomic_store(&o->writing, 0);
    return ok;
}

uint32_t at_output_queue_pending(at_output *o)
{
    if (o->len)
        at_queue_push(o, o->len);
    return atomic_load(&o->tail);
}

int at_output_wait(at_output *o, uint32_t ticket)
{
    at_queue_wait(o, ticket);
    return !o->failed;
}

int at_output_flush(at_output *o) { return at_output_wait(o, at_output_queue_pending(o)); }

int at_output_flush_signal_safe(at_output *o)
{
    if (!at_queue_park(o, 500))
        return 0;
    int ok = at_queue_write_here(o, 0);
    ok &= at_chunk_send(o, o->buf, o->len, 0);
    o->stream_bytes += o->len;
    o->len = o->mark = 0;
    at_queue_resume(o);
    return ok && !o->failed;
}

/* Full buffer: the complete records go, the one in progress stays for a crash to
 * find whole (unless it alone fills the buffer). */
void at_output_spill(at_output *o) { at_queue_push(o, o->mark ? o->mark : o->len); }

/* write(2) of all n bytes; async-signal-safe. */
static int raw_write(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        p += k;
        n -= (size_t)k;
    }
    return 1;
}

/* src[0, n) as one chunk, compressed into cbuf, which the caller owns now. */
static int write_block(at_output *o, const uint8_t *src, size_t n)
{
    if (n == 0)
        return 1;
    size_t clen = at_snappy_encode(src, n, o->cbuf + 4, o->table);
    for (int i = 0; i < 4; i++)
        o->cbuf[i] = (uint8_t)(clen >> (8 * i));
    return raw_write(o->fd, o->cbuf, 4 + clen);
}

/* The complete records as a chunk. Compressed into cbuf when the lock's holder is this
 * thread (OWN: what it was doing with cbuf is abandoned, the process is going); else
 * stored, its head built on the stack and the bytes straight from buf, since the
 * holder, another thread, may be using cbuf. */
static int write_records(at_output *o, int own)
{
    size_t n = o->mark;
    if (n == 0 || own)
        return write_block(o, o->buf, n);
    uint8_t head[4 + 16];
    size_t k = literal_block(head + 4, NULL, n);
    size_t clen = k + n;
    for (int i = 0; i < 4; i++)
        head[i] = (uint8_t)(clen >> (8 * i));
    return raw_write(o->fd, head, 4 + k) && raw_write(o->fd, o->buf, n);
}

/* The part of the chunk in flight that is not in the file yet. chunk_sent lags: a
 * signal is typically delivered right as write(2) returns, before its count is
 * added, so the file offset says how much went out (a pipe or device has none:
 * then chunk_sent, which may repeat one write's bytes). */
static size_t chunk_rest(const at_output *o)
{
    size_t sent = o->chunk_sent;
    off_t cur = o->chunk_pos >= 0 ? lseek(o->fd, 0, SEEK_CUR) : -1;
    if (cur >= o->chunk_pos && o->chunk_pos >= 0)
        sent = (size_t)(cur - o->chunk_pos);
    return sent < o->chunk_len ? o->chunk_len - sent : 0;
}

/* Queued chunks from head to tail, then the complete records of buf, the buffer being
 * filled, unless buf is the last queued chunk (a caller interrupted while moving on
 * to the next buffer, at_queue_push). */
static int write_queued(at_output *o, uint32_t tail, const uint8_t *buf, size_t mark)
{
    int ok = 1;
    uint32_t h = atomic_load(&o->head);
    int queued = h != tail && buf == o->slot[(tail - 1) % AT_OUTPUT_SLOTS];
    for (; h != tail; ++h) {
        unsigned i = h % AT_OUTPUT_SLOTS;
        ok = ok && write_block(o, o->slot[i], o->slot_len[i]);
        atomic_store(&o->head, h + 1);
    }
    return ok && (queued || write_block(o, buf, mark));
}

/* With the compressor thread, parked by the caller (or the caller itself: a fault
 * inside it, its own chunk in flight first): the queue and the buffer go out from
 * here; once the file is sealed it may go on (every chunk it takes is dropped). */
static int dying_async(at_output *o)
{
    if (at_queue_is_compressor(o) && atomic_load(&o->writing)) {
        size_t rest = chunk_rest(o);
        if (!raw_write(o->fd, o->cbuf + o->chunk_len - rest, rest))
            return 0;
        atomic_store(&o->head, atomic_load(&o->head) + 1);
    }
    const uint8_t *buf = o->buf;
    atomic_signal_fence(memory_order_seq_cst);
    size_t mark = o->mark;
    return write_queued(o, atomic_load(&o->tail), buf, mark);
}

/* Dying flush. The lock's holder may be suspended under us (owner_is_caller: this
 * thread, interrupted) or running on (another thread that held the lock too long).
 * Parks the compressor thread (before claiming: a chunk it sends waits while a
 * claim is being decided), then claims the file; with the compressor, see
 * dying_async. Without one, a
 * chunk in flight (`writing`) is finished here when its writer is this very thread,
 * else left to its writer (SKIPPED: that thread goes on writing), since two writers
 * of one chunk would duplicate it; otherwise the records up to the mark go out. Every
 * later flush is then dropped (WROTE). */
int at_output_flush_dying(at_output *o, int owner_is_caller)
{
    int none = AT_SEAL_NONE;
    if (o->fd < 0 || o->failed || atomic_load(&o->sealed) != AT_SEAL_NONE)
        return 0;
    int own_compressor = o->async && at_queue_is_compressor(o);
    if (o->async && !own_compressor && !at_queue_park(o, 500))
        return 0; /* stuck in a write: it goes on writing */
    if (!atomic_compare_exchange_strong(&o->sealed, &none, AT_SEAL_CLAIMED)) {
        if (!own_compressor)
            at_queue_resume(o);
        return 0;
    }
    int ok;
    if (o->async) {
        ok = dying_async(o);
    } else if (atomic_load(&o->writing) && !owner_is_caller) {
        ok = -1;
    } else if (atomic_load(&o->writing)) { /* interrupted in send_chunk: complete records */
        size_t rest = chunk_rest(o);
        ok = raw_write(o->fd, o->cbuf + o->chunk_len - rest, rest);
    } else {
        ok = write_records(o, owner_is_caller);
    }
    atomic_store(&o->sealed, ok < 0 ? AT_SEAL_SKIPPED : AT_SEAL_WROTE);
    if (o->async && !own_compressor)
        at_queue_resume(o);
    return ok > 0;
}

int at_output_seal(at_output *o)
{
    atomic_store(&o->sealed, AT_SEAL_WROTE);
    return 1;
}

void at_output_write_slow(at_output *o, const void *p, size_t n)
{
    const uint8_t *s = p;
    while (n) {
        if (o->len == AT_OUTPUT_CHUNK)
            at_output_spill(o);
        size_t k = AT_OUTPUT_CHUNK - o->len;
        if (k > n)
            k = n;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
    }
}

int at_output_finish(at_output *o)
{
    at_output_flush(o);
    at_queue_stop(o);
    atomic_store(&o->sealed, AT_SEAL_WROTE);
    if (o->fd >= 0 && close(o->fd) != 0 && !o->failed) {
        gt_error_set(&o->err, "%s: close failed: %s", o->path, strerror(errno));
        o->failed = 1;
    }
    o->fd = -1;
    return !o->failed;
}

int at_output_reopen(at_output *o, const char *path, gt_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        gt_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        return 0;
    }
    /* the buffers and the queue's counters stay (a flusher may hold a ticket); the
     * rest is as at_output_open_fd leaves it */
    o->fd = fd;
    o->path = path;
    o->failed = 0;
    gt_error_clear(&o->err);
    o->len = o->mark = 0;
    o->stream_bytes = o->file_bytes = 0;
    o->chunk_len = o->chunk_sent = 0;
    o->chunk_pos = 0;
    o->stalled = 0;
    atomic_store(&o->writing, 0);
    atomic_store(&o->sealed, AT_SEAL_NONE);
    atomic_store(&o->stop, 0);
    atomic_store(&o->parked, 0);
    atomic_store(&o->quit, 0);
    o->buf = o->slot[atomic_load(&o->tail) % AT_OUTPUT_SLOTS];
    static const uint8_t magic[2] = {'a', 't'};
    if (!write_all(o, magic, 2, NULL)) {
        gt_error_set(err, "%s", o->err.msg);
        close(o->fd);
        o->fd = -1;
        o->failed = 1;
        return 0;
    }
    at_queue_start(o);
    return 1;
}

int at_output_close(at_output *o)
{
    at_output_flush(o);
    at_queue_stop(o);
    if (o->fd >= 0 && close(o->fd) != 0 && !o->failed) {
        gt_error_set(&o->err, "%s: close failed: %s", o->path, strerror(errno));
        o->failed = 1;
    }
    o->fd = -1;
    free_buffers(o);
    return !o->failed;
}
