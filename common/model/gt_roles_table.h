/* Layout of the generated function-roles table (specs/gen_roles.py). */
#ifndef GT_ROLES_TABLE_H
#define GT_ROLES_TABLE_H

#include "gt_roles.h"

typedef struct gt_roles_entry {
    const char *name;
    uint32_t bits;
    int8_t arg, arg2;
} gt_roles_entry;

typedef struct gt_roles_prefix {
    const char *prefix;
    unsigned len;
    uint32_t bits;
} gt_roles_prefix;

extern const gt_roles_entry gt_roles_entries[]; /* sorted by strcmp */
extern const unsigned gt_roles_num_entries;
extern const gt_roles_prefix gt_roles_prefixes[]; /* longest first */
extern const unsigned gt_roles_num_prefixes;

#endif
