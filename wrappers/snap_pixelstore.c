/* The pixel-store state around the snapshot's pixel transfers (snap_objects.h). The
 * program's pack state would reshape what the snapshot reads, and the wrappers size the
 * blobs of the uploads the snapshot writes from the driver's unpack state: both are set
 * to tightly packed rows while the snapshot works, then put back. */
#include "snap_objects.h"

#include "gl_enums.gen.h"
#include "protos.gen.h"

/* The parameters a context has: GLES 2 only the alignment, GLES 3 rows and skips,
 * GL all of them (the compressed block sizes from 4.2). */
static int store_pnames(snap *s, int pack, unsigned *out)
{
    static const unsigned gl_pack[] = {
        GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS,
        GL_PACK_IMAGE_HEIGHT, GL_PACK_SKIP_IMAGES, GL_PACK_SWAP_BYTES, GL_PACK_LSB_FIRST,
        GL_PACK_COMPRESSED_BLOCK_WIDTH, GL_PACK_COMPRESSED_BLOCK_HEIGHT,
        GL_PACK_COMPRESSED_BLOCK_DEPTH, GL_PACK_COMPRESSED_BLOCK_SIZE};
    static const unsigned gl_unpack[] = {
        GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS,
        GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_IMAGES, GL_UNPACK_SWAP_BYTES,
        GL_UNPACK_LSB_FIRST, GL_UNPACK_COMPRESSED_BLOCK_WIDTH,
        GL_UNPACK_COMPRESSED_BLOCK_HEIGHT, GL_UNPACK_COMPRESSED_BLOCK_DEPTH,
        GL_UNPACK_COMPRESSED_BLOCK_SIZE};
    const unsigned *all = pack ? gl_pack : gl_unpack;
    int n;
    if (snap_api(s) == SNAP_API_GLES)
        n = snap_version(s) < 30 ? 1 : pack ? 4 : 6;
    else
        n = snap_version(s) >= 42 ? 12 : 8;
    for (int i = 0; i < n; ++i)
        out[i] = all[i];
    return n;
}

void snap_store_begin(snap *s, snap_store *saved, int pack)
{
    saved->pack = pack;
    saved->n = store_pnames(s, pack, saved->pname);
    for (int i = 0; i < saved->n; ++i) {
        saved->value[i] = 0;
        SNAP_REAL(glGetIntegerv)(saved->pname[i], &saved->value[i]);
        int want = i == 0 ? 1 : 0; /* the alignment first, then zeroes */
        if (saved->value[i] != want)
            SNAP_REAL(glPixelStorei)(saved->pname[i], want);
    }
    saved->buffer = -1;
    if (snap_api(s) == SNAP_API_GL ? snap_version(s) >= 21 : snap_version(s) >= 30) {
        saved->buffer = 0;
        SNAP_REAL(glGetIntegerv)(pack ? GL_PIXEL_PACK_BUFFER_BINDING
                                      : GL_PIXEL_UNPACK_BUFFER_BINDING, &saved->buffer);
        if (saved->buffer)
            SNAP_REAL(glBindBuffer)(pack ? GL_PIXEL_PACK_BUFFER : GL_PIXEL_UNPACK_BUFFER, 0);
    }
}

void snap_store_end(const snap_store *saved)
{
    for (int i = 0; i < saved->n; ++i)
        if (saved->value[i] != (i == 0 ? 1 : 0))
            SNAP_REAL(glPixelStorei)(saved->pname[i], saved->value[i]);
    if (saved->buffer > 0)
        SNAP_REAL(glBindBuffer)(saved->pack ? GL_PIXEL_PACK_BUFFER : GL_PIXEL_UNPACK_BUFFER,
                                (unsigned)saved->buffer);
}

void snap_store_write_unpack(const snap_store *unpack)
{
    for (int i = 0; i < unpack->n; ++i)
        glPixelStorei(unpack->pname[i], i == 0 ? 1 : 0);
    if (unpack->buffer >= 0)
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}
