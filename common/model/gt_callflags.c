#include "gt_callflags.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "gt_callflags_table.h"

#define MAX_RULES 16

static regex_t compiled[MAX_RULES];
static int compiled_ok[MAX_RULES];
static int compiled_done;

static void compile_rules(void)
{
    for (unsigned i = 0; i < gt_callflags_num_rules && i < MAX_RULES; ++i)
        compiled_ok[i] = regcomp(&compiled[i], gt_callflags_rules[i].regex,
                                 REG_EXTENDED | REG_NOSUB) == 0;
    compiled_done = 1;
}

static int cmp_entry(const void *key, const void *elem)
{
    return strcmp(key, ((const gt_callflags_entry *)elem)->name);
}

uint32_t gt_callflags_lookup(const char *name)
{
    if (!compiled_done)
        compile_rules();
    if (name[0] == 'g') { /* every rule is about gl* names */
        for (unsigned i = 0; i < gt_callflags_num_rules && i < MAX_RULES; ++i)
            if (compiled_ok[i] && regexec(&compiled[i], name, 0, NULL, 0) == 0)
                return gt_callflags_rules[i].flags;
    }
    const gt_callflags_entry *e = bsearch(name, gt_callflags_entries, gt_callflags_num_entries,
                                          sizeof *e, cmp_entry);
    return e ? e->flags : 0;
}
