/* Layout of the generated call-flags table (see specs/gen_callflags.py). */
#ifndef GT_CALLFLAGS_TABLE_H
#define GT_CALLFLAGS_TABLE_H

#include "gt_model.h"

/* The most regex rules gt_callflags.c compiles; the generated table asserts it holds
 * no more, so a rule is never dropped. */
#define GT_CALLFLAGS_MAX_RULES 16

typedef struct gt_callflags_rule {
    const char *regex; /* POSIX extended */
    unsigned flags;
} gt_callflags_rule;

typedef struct gt_callflags_entry {
    const char *name;
    unsigned flags;
} gt_callflags_entry;

extern const gt_callflags_rule gt_callflags_rules[];
extern const unsigned gt_callflags_num_rules;
extern const gt_callflags_entry gt_callflags_entries[]; /* sorted by strcmp */
extern const unsigned gt_callflags_num_entries;

#endif
