/* The program's GL errors across the state snapshot (snap_errors.c). The snapshot
 * reads the driver in the program's contexts, and glGetError is a queue the program
 * owns: a pending error it has not asked for yet must still be there after the
 * snapshot, and an error the snapshot's own reads raise (a snapshot bug) must not
 * reach it. */
#ifndef SNAP_ERRORS_H
#define SNAP_ERRORS_H

#include "snapshot.h"

enum { SNAP_MAX_ERRORS = 8 };

typedef struct snap_errors {
    unsigned pending[SNAP_MAX_ERRORS];
    int n;
} snap_errors;

/* Takes the errors pending in the current context (the program's) into e. */
void snap_errors_hold(snap_errors *e);

/* Takes the errors the snapshot's reads of part (its name) raised in the current
 * context, and says them: what s read may be incomplete. */
void snap_errors_said(snap *s, const char *part);

/* Raises the program's pending errors e again, with calls that change nothing but the
 * error flag: GL_INVALID_ENUM, GL_INVALID_VALUE and GL_INVALID_OPERATION; any other
 * kind cannot be raised on demand and is said lost. Call snap_errors_said first. */
void snap_errors_give_back(const snap_errors *e);

#endif
