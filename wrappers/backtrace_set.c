/* Checking a backtrace call set (backtrace_set.h). fnmatch takes an unclosed
 * '[' as a literal, so a typo such as `glDraw[` would silently choose no call:
 * names are C identifiers, and anything but their characters and the glob
 * syntax is refused. */
#include "backtrace_set.h"

#include <stdio.h>
#include <string.h>

#define SEPARATORS ", \t\r\n"

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A bracket expression at p ('['): its length through ']', or 0 when it is
 * not closed or holds something no name has. */
static size_t bracket(const char *p, size_t len)
{
    size_t i = 1;
    if (i < len && (p[i] == '!' || p[i] == '^'))
        i++;
    size_t first = i;
    for (; i < len && p[i] != ']'; i++)
        if (!ident_char(p[i]) && p[i] != '-')
            return 0;
    return i < len && i > first ? i + 1 : 0;
}

static int check_glob(const char *p, size_t len, char *why, size_t n)
{
    for (size_t i = 0; i < len;) {
        if (p[i] == '[') {
            size_t k = bracket(p + i, len - i);
            if (!k) {
                snprintf(why, n, "'%.*s': unclosed or empty [...] at character %zu", (int)len, p,
                         i + 1);
                return -1;
            }
            i += k;
        } else if (ident_char(p[i]) || p[i] == '*' || p[i] == '?') {
            i++;
        } else {
            snprintf(why, n, "'%.*s': '%c' cannot appear in a function name", (int)len, p, p[i]);
            return -1;
        }
    }
    return 0;
}

int gltrace_backtrace_set_check(const char *spec, char *why, size_t n)
{
    for (const char *p = spec + strspn(spec, SEPARATORS); *p;) {
        size_t len = strcspn(p, SEPARATORS);
        if (check_glob(p, len, why, n) != 0)
            return -1;
        p += len;
        p += strspn(p, SEPARATORS);
    }
    return 0;
}
