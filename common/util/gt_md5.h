/* MD5 (RFC 1321), for glretrace's `-s - --snapshot-format=MD5`: a digest per snapshot,
 * as apitrace prints it, to compare replays without storing images. */
#ifndef GT_MD5_H
#define GT_MD5_H

#include <stddef.h>
#include <stdint.h>

typedef struct gt_md5 {
    uint32_t h[4];
    uint64_t len;      /* bytes hashed so far */
    uint8_t buf[64];
    size_t nbuf;
} gt_md5;

void gt_md5_init(gt_md5 *m);
void gt_md5_update(gt_md5 *m, const void *data, size_t n);
void gt_md5_final(gt_md5 *m, uint8_t digest[16]);

#endif
