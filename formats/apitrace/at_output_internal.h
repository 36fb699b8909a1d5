/* Between the chunk writer (at_output_snappy.c) and the queue of chunks with its
 * compressor thread (at_output_queue.c). */
#ifndef AT_OUTPUT_INTERNAL_H
#define AT_OUTPUT_INTERNAL_H

#include "at_output.h"

/* Compresses src[0, n) (libsnappy when lib, else the signal-safe encoder) into cbuf
 * and writes it as one chunk; 0 when it failed or was dropped (a dying flush sealed
 * the file). */
int at_chunk_send(at_output *o, const uint8_t *src, size_t n, int lib);

/* The compressor thread, started with every signal blocked; 0 when it could not be
 * (the caller then compresses: o->async stays 0). */
int at_queue_start(at_output *o);
/* Under the caller's lock: buf[0, n) becomes a queued chunk and the rest of buf moves
 * to the front of the next buffer, which becomes buf. */
void at_queue_push(at_output *o, size_t n);
/* Waits until every queued chunk is written; _wait: those before ticket (a tail). */
void at_queue_drain(at_output *o);
void at_queue_wait(at_output *o, uint32_t ticket);
/* For handlers: parks the compressor between chunks (waiting at most ms), then
 * resumes it. Async-signal-safe (futexes). */
int at_queue_park(at_output *o, int ms);
void at_queue_resume(at_output *o);
/* With the compressor parked (or never started): writes the queued chunks here. */
int at_queue_write_here(at_output *o, int lib);
/* 1 when the caller is o's compressor thread (a fault inside it). */
int at_queue_is_compressor(const at_output *o);
/* Writes what is queued and ends the thread (close). */
void at_queue_stop(at_output *o);

#endif
