/* Program pipeline objects for the state snapshot's programs part (snap_programs.c
 * writes them after the programs they use). */
#ifndef SNAP_PIPELINES_H
#define SNAP_PIPELINES_H

#include "snapshot.h"

/* The pipelines' stages and active programs (NULL: none); freed with free(). */
void *snap_pipelines_collect(snap *s);
void snap_pipelines_write(const void *data);

#endif
