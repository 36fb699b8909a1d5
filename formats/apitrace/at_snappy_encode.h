/* A Snappy block encoder that allocates nothing: the container's chunks written from
 * signal handlers and exit paths (at_output_snappy.c), where libsnappy, which
 * allocates its working memory, must not run. Greedy matching of 4-byte sequences
 * through a caller-owned hash table, 64 KiB at a time (Snappy's own block size);
 * libsnappy compresses somewhat better and faster and writes the chunks of normal
 * flushes. */
#ifndef AT_SNAPPY_ENCODE_H
#define AT_SNAPPY_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#define AT_SNAPPY_TABLE_BITS 14
#define AT_SNAPPY_TABLE_SIZE (1u << AT_SNAPPY_TABLE_BITS) /* uint16_t entries */

/* The most bytes at_snappy_encode writes for n input bytes (as libsnappy's bound). */
static inline size_t at_snappy_bound(size_t n) { return 32 + n + n / 6; }

/* Compresses src[0, n) into dst (at least at_snappy_bound(n) bytes) as one Snappy
 * block; table holds AT_SNAPPY_TABLE_SIZE entries of scratch. Returns the length. */
size_t at_snappy_encode(const uint8_t *src, size_t n, uint8_t *dst, uint16_t *table);

#endif
