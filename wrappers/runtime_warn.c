/* One-time warnings (runtime_private.h: gltrace_first_time): the names already warned
 * about, per kind of warning. */
#include "runtime_private.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct seen_name {
    struct seen_name *next;
    char name[];
} seen_name;

static pthread_mutex_t g_seen_lock = PTHREAD_MUTEX_INITIALIZER;
static seen_name *g_seen; /* under g_seen_lock */

static int seen_locked(const char *what, size_t lw, const char *name)
{
    for (seen_name *s = g_seen; s; s = s->next)
        if (!strncmp(s->name, what, lw) && s->name[lw] == ':' && !strcmp(s->name + lw + 1, name))
            return 1;
    return 0;
}

int gltrace_first_time(const char *what, const char *name)
{
    size_t lw = strlen(what), ln = strlen(name);
    pthread_mutex_lock(&g_seen_lock);
    int first = !seen_locked(what, lw, name);
    if (first) {
        seen_name *s = malloc(sizeof *s + lw + ln + 2);
        if (s) {
            memcpy(s->name, what, lw);
            s->name[lw] = ':';
            memcpy(s->name + lw + 1, name, ln + 1);
            s->next = g_seen;
            g_seen = s;
        }
    }
    pthread_mutex_unlock(&g_seen_lock);
    return first;
}

/* Another thread may have held the lock at the fork; only this thread exists now. */
static void child_after_fork(void)
{
    pthread_mutex_init(&g_seen_lock, NULL);
}

__attribute__((constructor)) static void warn_init(void)
{
    pthread_atfork(NULL, NULL, child_after_fork);
}
