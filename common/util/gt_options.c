/* See gt_options.h. */
#include <stddef.h>
#include <strings.h>

#include "gt_options.h"

int gt_parse_bool(const char *s)
{
    static const char *const yes[] = {"1", "yes", "true", "on", "y"};
    static const char *const no[] = {"0", "no", "false", "off", "n"};
    if (!s)
        return 1;
    for (size_t i = 0; i < sizeof yes / sizeof *yes; ++i) {
        if (!strcasecmp(s, yes[i]))
            return 1;
        if (!strcasecmp(s, no[i]))
            return 0;
    }
    return -1;
}
