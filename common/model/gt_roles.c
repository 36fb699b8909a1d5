#include "gt_roles.h"

#include <stdlib.h>
#include <string.h>

#include "gt_roles_table.h"

static int cmp_entry(const void *key, const void *elem)
{
    return strcmp(key, ((const gt_roles_entry *)elem)->name);
}

gt_roles gt_roles_lookup(const char *name)
{
    gt_roles r = {0, -1, -1};
    if (!name)
        return r;
    const gt_roles_entry *e =
        bsearch(name, gt_roles_entries, gt_roles_num_entries, sizeof *e, cmp_entry);
    if (e)
        r = (gt_roles){e->bits, e->arg, e->arg2};
    for (unsigned i = 0; i < gt_roles_num_prefixes; ++i) /* the longest match first */
        if (!strncmp(name, gt_roles_prefixes[i].prefix, gt_roles_prefixes[i].len)) {
            r.bits |= gt_roles_prefixes[i].bits;
            break;
        }
    return r;
}

int gt_roles_find_arg(const gt_func_sig *sig, const char *const *names)
{
    for (uint32_t i = 0; i < sig->num_args && i < 127; ++i)
        for (const char *const *n = names; *n; ++n)
            if (sig->arg_names && sig->arg_names[i] && !strcmp(sig->arg_names[i], *n))
                return (int)i;
    return -1;
}
