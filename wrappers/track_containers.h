/* Which context made each container object (track_containers.c), as the state
 * snapshot's vertex arrays, framebuffers and queries parts ask it. */
#ifndef TRACK_CONTAINERS_H
#define TRACK_CONTAINERS_H

enum { GTT_CTR_VERTEX_ARRAY, GTT_CTR_FRAMEBUFFER, GTT_CTR_XFB, GTT_CTR_PIPELINE, GTT_CTR_KINDS };

/* Where name of kind was made: *here, in the calling thread's current context;
 * *elsewhere, in another live one. Both 0: the tracker did not see it made. */
void gtt_ctr_where(int kind, unsigned name, int *here, int *elsewhere);

/* The snapshot made ctx current on this thread itself (snapshot_contexts.c), past the
 * MakeCurrent hooks: the objects it asks about next are ctx's. */
void gtt_ctr_now_current(void *ctx);

#endif
