#include "gt_callflags.h"

#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "gt_callflags_table.h"

/* The rules are compiled once, by whichever thread looks a name up first, while the
 * others wait: readers on many threads (the viewer's) may be the first. The generated
 * table refuses to build with more rules than there is room for here. */
static regex_t compiled[GT_CALLFLAGS_MAX_RULES];
static int compiled_ok[GT_CALLFLAGS_MAX_RULES];
static pthread_once_t compile_once = PTHREAD_ONCE_INIT;

static void compile_rules(void)
{
    for (unsigned i = 0; i < gt_callflags_num_rules; ++i)
        compiled_ok[i] = regcomp(&compiled[i], gt_callflags_rules[i].regex,
                                 REG_EXTENDED | REG_NOSUB) == 0;
}

static int cmp_entry(const void *key, const void *elem)
{
    return strcmp(key, ((const gt_callflags_entry *)elem)->name);
}

uint32_t gt_callflags_lookup(const char *name)
{
    pthread_once(&compile_once, compile_rules);
    if (name[0] == 'g') { /* every rule is about gl* names */
        for (unsigned i = 0; i < gt_callflags_num_rules; ++i)
            if (compiled_ok[i] && regexec(&compiled[i], name, 0, NULL, 0) == 0)
                return gt_callflags_rules[i].flags;
    }
    const gt_callflags_entry *e = bsearch(name, gt_callflags_entries, gt_callflags_num_entries,
                                          sizeof *e, cmp_entry);
    return e ? e->flags : 0;
}
