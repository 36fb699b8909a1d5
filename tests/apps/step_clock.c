/* step_clock.so: a clock that the program itself sees advance by a fixed step per
 * reading, for record_diff.sh (LD_PRELOAD=step_clock.so). Programs animated by the wall
 * clock (glxgears, es2gears_x11, glmark2) then make the same calls with the same angles
 * in every run, whichever recorder runs them, so two recordings compare call by call.
 *
 * Only readings made by the main program's own code are stepped (clock_gettime,
 * gettimeofday, time): the GL driver and the recorders, whose clock readings differ
 * from run to run, get the real clock, so their timeouts and timestamps work and do not
 * shift the program's sequence. Reading n (from 0) gives 1000000 s + n * STEP, STEP
 * being $STEP_CLOCK_US microseconds (default 2000).
 *
 * $STEP_CLOCK_OBJECTS (a colon-separated list of substrings of library paths) names
 * libraries that read the wall clock on the program's behalf, such as libQt5Core
 * (QDateTime::currentMSecsSinceEpoch): their wall-clock readings (CLOCK_REALTIME,
 * gettimeofday, time) are stepped too. Their monotonic readings drive event-loop timers
 * and stay real. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static uintptr_t exe_lo, exe_hi; /* the main program's loaded segments */
static atomic_int ready;
static atomic_ulong readings;

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (!exe_lo || lo < exe_lo)
            exe_lo = lo;
        if (hi > exe_hi)
            exe_hi = hi;
    }
    return 1; /* the first object listed is the main program */
}

static int from_program(const void *caller)
{
    if (!atomic_load(&ready)) {
        dl_iterate_phdr(first_object, NULL);
        atomic_store(&ready, 1);
    }
    return (uintptr_t)caller >= exe_lo && (uintptr_t)caller < exe_hi;
}

/* Is CALLER in a library $STEP_CLOCK_OBJECTS names? */
static int from_listed_object(const void *caller)
{
    const char *list = getenv("STEP_CLOCK_OBJECTS");
    Dl_info info;
    if (!list || !*list || !dladdr(caller, &info) || !info.dli_fname)
        return 0;
    while (*list) {
        size_t n = strcspn(list, ":");
        char name[256];
        if (n > 0 && n < sizeof name) {
            memcpy(name, list, n);
            name[n] = '\0';
            if (strstr(info.dli_fname, name))
                return 1;
        }
        list += n + (list[n] == ':');
    }
    return 0;
}

/* Is a wall-clock reading by CALLER stepped? */
static int stepped_wall(const void *caller)
{
    return from_program(caller) || from_listed_object(caller);
}

/* The program's next reading, in microseconds. */
static uint64_t next_us(void)
{
    static long step = -1;
    if (step < 0) {
        const char *s = getenv("STEP_CLOCK_US");
        step = s && atol(s) > 0 ? atol(s) : 2000;
    }
    return 1000000ull * 1000000ull + (uint64_t)atomic_fetch_add(&readings, 1) * (uint64_t)step;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    static int (*real)(clockid_t, struct timespec *);
    const void *caller = __builtin_return_address(0);
    if (id == CLOCK_REALTIME ? stepped_wall(caller) : from_program(caller)) {
        uint64_t us = next_us();
        ts->tv_sec = (time_t)(us / 1000000);
        ts->tv_nsec = (long)(us % 1000000) * 1000;
        return 0;
    }
    if (!real)
        real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real(id, ts);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    static int (*real)(struct timeval *restrict, void *restrict);
    if (stepped_wall(__builtin_return_address(0))) {
        uint64_t us = next_us();
        tv->tv_sec = (time_t)(us / 1000000);
        tv->tv_usec = (suseconds_t)(us % 1000000);
        return 0;
    }
    if (!real)
        real = (int (*)(struct timeval *restrict, void *restrict))dlsym(RTLD_NEXT, "gettimeofday");
    return real(tv, tz);
}

time_t time(time_t *t)
{
    static time_t (*real)(time_t *);
    if (stepped_wall(__builtin_return_address(0))) {
        time_t now = (time_t)(next_us() / 1000000);
        if (t)
            *t = now;
        return now;
    }
    if (!real)
        real = (time_t(*)(time_t *))dlsym(RTLD_NEXT, "time");
    return real(t);
}

/* SDL's ticks: libSDL2 reads CLOCK_MONOTONIC inside itself, where the stepping above never
 * reaches, so a game that paces itself by SDL_GetTicks (chromium-bsu) is stepped here when
 * it calls it itself (its own calls reach this exported symbol first; SDL's internal ones go
 * through its own jump table). Milliseconds from the first stepped reading, as SDL's count
 * from its start. */
uint32_t SDL_GetTicks(void);
uint64_t SDL_GetTicks64(void);

static uint64_t stepped_ticks(void)
{
    return (next_us() - 1000000ull * 1000000ull) / 1000;
}

uint32_t SDL_GetTicks(void)
{
    static uint32_t (*real)(void);
    if (from_program(__builtin_return_address(0)))
        return (uint32_t)stepped_ticks();
    if (!real)
        real = (uint32_t(*)(void))dlsym(RTLD_NEXT, "SDL_GetTicks");
    return real ? real() : 0;
}

uint64_t SDL_GetTicks64(void)
{
    static uint64_t (*real)(void);
    if (from_program(__builtin_return_address(0)))
        return stepped_ticks();
    if (!real)
        real = (uint64_t(*)(void))dlsym(RTLD_NEXT, "SDL_GetTicks64");
    return real ? real() : 0;
}
