/* Backtraces of chosen calls (--backtrace=CALLSET / GLTRACE_BACKTRACE).
 *
 * Which calls: GLTRACE_BACKTRACE holds globs (fnmatch, case-sensitive) separated by
 * commas or white space, matched against the function's name; the words `all`
 * (every call), `none` (no call) and `default` (the default set below, so
 * `default,glUniform*` extends it). Unset: the default set; set but empty: none.
 * Each function is decided once, the first time it is recorded, and the answer is
 * kept in a table indexed by its signature id, so a call that was not chosen costs
 * one byte load and a compare.
 *
 * The default set is the calls that make pixels or end a frame, where "which code
 * issued this?" is the question one asks of a trace: draws, compute dispatches,
 * display-list and immediate-mode draws, clears, blits and swaps. apitrace records no
 * backtraces by default; we do for these because they are few per frame next to the
 * state calls around them, so the cost (one unwind of cached frames per chosen call,
 * a few microseconds; a handful of varint ids in the trace) stays small, while the
 * answer is there when one opens a trace recorded by someone else. Draw-call-bound
 * programs that care pass --backtrace=none.
 *
 * Frames: the stack is walked with libunwind's unw_backtrace (glibc's backtrace()
 * when libunwind cannot be loaded); frames inside libgltrace.so itself are left out.
 * Each return address is resolved once and cached in a hash map (PC -> gt_frame);
 * frames are allocated once, never freed, and numbered in order, so the writer writes
 * each frame in full the first time and by id afterwards. A frame holds:
 *   - module: the ELF file (dladdr's dli_fname; the main program as /proc/self/exe);
 *   - function: the ELF symbol table's name through elfutils libdw when it has one
 *     (it sees static functions, and `main` in programs not linked with -rdynamic),
 *     else dladdr's dynamic symbol; C++ names demangled when the program has
 *     __cxa_demangle;
 *   - offset: as apitrace writes it, the return address minus the function's start
 *     when the function is known, else minus the module's load address;
 *   - file and line from the DWARF line table (libdw) where the module has debug
 *     information (in the file itself or found by libdw's standard search of
 *     /usr/lib/debug; never fetched through debuginfod, see find_debuginfo below).
 *     When that file's debug sections are compressed (libc6-dbg's are), the line
 *     table is read without libdw (backtrace_lines.c), which gives the same answer:
 *     libdw would inflate every debug section of the file, 90 ms for libc's, on the
 *     thread of the first call that names a line there.
 * Lookups use the return address minus one, so the line is the call's, not the next.
 * So a backtrace from a place seen before costs the unwind (0.15 us when libunwind's
 * caches are warm, about 2 us between frames of a GL program that evicts them) and
 * one hash lookup per frame; each new PC is resolved once (dladdr, a symbol lookup
 * and a line lookup).
 *
 * Why dlopen, not linking: libunwind.so.8 exports _Unwind_RaiseException & co. and a
 * `backtrace`; as a dependency of a preloaded library it would come before libgcc_s
 * and libc in the global scope and take over C++ exception unwinding and backtrace()
 * in every traced program. Loaded with RTLD_LOCAL (and libdw with it) nothing of
 * theirs is visible to the program, and a recording without backtraces loads neither.
 * They are loaded from our constructor (before main, single-threaded) when the call
 * set is not empty, so no dlopen happens later under the writer's lock.
 *
 * Thread safety: gltrace_backtrace runs inside the wrapper's enter event with the
 * writer's lock held, so the choice table, the PC cache, the frames and the libdw
 * session (which is not thread-safe) are only ever touched by one thread at a time;
 * nothing here takes another lock. The unwind itself only reads the calling thread's
 * stack.
 *
 * Bounds: at most MAX_DEPTH frames per call; at most MAX_FRAMES distinct PCs are
 * resolved per process (beyond that a backtrace stops at the first new PC). A failed
 * unwind, a failed allocation or a PC nobody can name gives a shorter backtrace, an
 * empty one (then the call carries none) or a "?" frame with the absolute address,
 * never a crash.
 *
 * Known limits: the PC cache is never invalidated, so a library unloaded and another
 * loaded at the same addresses keep the first one's frames. Unwinding and dladdr
 * take the dynamic loader's lock under the writer's lock: a thread inside dlopen
 * whose library constructor makes GL calls while another thread records a backtrace
 * could deadlock (capturing the PCs before the writer's lock is taken would lift
 * this; the wrappers call us inside the enter event). */
#define _GNU_SOURCE
#include "gltrace_runtime.h"
#include "runtime_private.h"

#include "backtrace_lines.h"
#include "backtrace_set.h"
#include "gt_grow.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fnmatch.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef GLTRACE_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif


#define DEFAULT_SET                                                                    \
    "glDraw*,glMultiDraw*,glDispatchCompute*,glBegin,glCallList,glCallLists,glClear,"  \
    "glClearBuffer*,glBlitFramebuffer*,glBlitNamedFramebuffer,*SwapBuffers*"

enum { MAX_DEPTH = 64, MAX_FRAMES = 1 << 16, MAX_FIDS = 4096 };
enum { UNDECIDED = 0, NOT_CHOSEN = 1, CHOSEN = 2 };

/* ---- the call set --------------------------------------------------------------- */

static bool g_any;            /* some function may be chosen */
static bool g_all;            /* every function is */
static char **g_globs;        /* NULL-terminated */
static uint8_t g_choice[MAX_FIDS];

static bool add_glob(size_t *n, size_t *cap, const char *s, size_t len)
{
    if (GT_GROW(g_globs, *cap, *n + 2, 16) != 0) /* room for the NULL after it */
        return false;
    char *copy = strndup(s, len);
    if (!copy)
        return false;
    g_globs[(*n)++] = copy;
    g_globs[*n] = NULL;
    return true;
}

static void parse_set(const char *spec)
{
    size_t n = 0, cap = 0;
    bool none = false;
    char why[256];
    if (gltrace_backtrace_set_check(spec, why, sizeof why) != 0) /* set by hand: go on */
        fprintf(stderr, "gltrace: GLTRACE_BACKTRACE: %s\n", why);
    for (const char *p = spec; *p;) {
        size_t len = strcspn(p, ", \t\r\n");
        if (len == 4 && !strncmp(p, "none", 4)) {
            none = true;
        } else if (len == 3 && !strncmp(p, "all", 3)) {
            g_all = true;
        } else if (len == 7 && !strncmp(p, "default", 7)) {
            for (const char *d = DEFAULT_SET; *d;) {
                size_t k = strcspn(d, ",");
                if (!add_glob(&n, &cap, d, k))
                    break;
                d += k + (d[k] == ',');
            }
        } else if (len) {
            add_glob(&n, &cap, p, len);
        }
        p += len;
        p += strspn(p, ", \t\r\n");
    }
    if (none && (g_all || n))
        fprintf(stderr, "gltrace: GLTRACE_BACKTRACE: 'none' with other patterns; "
                        "taking the patterns\n");
    g_any = g_all || n;
}

static bool chosen_by_name(const char *name)
{
    if (g_all)
        return true;
    for (char **g = g_globs; g && *g; ++g)
        if (fnmatch(*g, name, 0) == 0)
            return true;
    return false;
}

/* ---- unwinding ------------------------------------------------------------------ */

typedef int (*unw_backtrace_fn)(void **, int);
static unw_backtrace_fn g_unw_backtrace;
static uintptr_t g_self_base; /* libgltrace.so's load address */

/* ---- libdw (optional: names of static functions, file:line) --------------------- */

#ifdef GLTRACE_HAVE_LIBDW
static struct {
    __typeof__(dwfl_begin) *begin;
    __typeof__(dwfl_report_begin) *report_begin;
    __typeof__(dwfl_linux_proc_report) *proc_report;
    __typeof__(dwfl_report_end) *report_end;
    __typeof__(dwfl_linux_proc_find_elf) *proc_find_elf;
    __typeof__(dwfl_standard_find_debuginfo) *standard_find_debuginfo;
    __typeof__(dwfl_module_build_id) *module_build_id;
    __typeof__(dwfl_addrmodule) *addrmodule;
    __typeof__(dwfl_module_info) *module_info;
    __typeof__(dwfl_module_getelf) *module_getelf;
    __typeof__(dwfl_module_addrinfo) *module_addrinfo;
    __typeof__(dwfl_module_getsrc) *module_getsrc;
    __typeof__(dwfl_lineinfo) *lineinfo;
    __typeof__(dwfl_line_comp_dir) *line_comp_dir;
} dw;
static Dwfl *g_dwfl;
static bool g_dwfl_failed;
static char *g_debuginfo_path; /* NULL: libdw's default search path */

static bool file_exists(const char *path) { return access(path, R_OK) == 0; }

/* Whether a separate debug file for mod is where libdw's standard search looks on
 * this machine: /usr/lib/debug/.build-id/NN/REST.debug, or the .gnu_debuglink name
 * beside the module, in its .debug folder or under /usr/lib/debug. */
static bool local_debuginfo(Dwfl_Module *mod, const char *file_name, const char *debuglink)
{
    const unsigned char *id = NULL;
    GElf_Addr vaddr;
    int n = dw.module_build_id ? dw.module_build_id(mod, &id, &vaddr) : 0;
    char path[PATH_MAX];
    if (n > 1 && n <= 64) {
        int k = snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/", id[0]);
        for (int i = 1; i < n; ++i)
            k += snprintf(path + k, sizeof path - (size_t)k, "%02x", id[i]);
        snprintf(path + k, sizeof path - (size_t)k, ".debug");
        if (file_exists(path))
            return true;
    }
    if (!debuglink || !file_name)
        return false;
    const char *slash = strrchr(file_name, '/');
    int dir = slash ? (int)(slash - file_name) : 0;
    static const char *const forms[] = {"%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s"};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; ++i) {
        int k = snprintf(path, sizeof path, forms[i], dir, file_name, debuglink);
        if (k > 0 && (size_t)k < sizeof path && file_exists(path))
            return true;
    }
    return false;
}

/* libdw's standard search (build-id and .gnu_debuglink under /usr/lib/debug), only
 * when it can find something here: when it finds nothing it asks debuginfod, which
 * loads libdebuginfod, libcurl and a dozen more libraries into the traced program
 * (12 ms at the first backtrace of a program built without -g) and, with
 * DEBUGINFOD_URLS set, downloads while we hold the writer's lock. */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
                          GElf_Addr base, const char *file_name, const char *debuglink_file,
                          GElf_Word debuglink_crc, char **debuginfo_file_name)
{
    if (!local_debuginfo(mod, file_name, debuglink_file))
        return -1;
    return dw.standard_find_debuginfo(mod, userdata, modname, base, file_name,
                                      debuglink_file, debuglink_crc, debuginfo_file_name);
}

static Dwfl_Callbacks g_dwfl_callbacks = {
    .find_debuginfo = find_debuginfo,
    .debuginfo_path = &g_debuginfo_path,
};

static void load_libdw(void)
{
    void *h = gltrace_real_dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
#define DW_SYM(field, name)                                                            \
    if (!(*(void **)&dw.field = dlsym(h, name)))                                       \
        goto missing;
    DW_SYM(begin, "dwfl_begin")
    DW_SYM(report_begin, "dwfl_report_begin")
    DW_SYM(proc_report, "dwfl_linux_proc_report")
    DW_SYM(report_end, "dwfl_report_end")
    DW_SYM(proc_find_elf, "dwfl_linux_proc_find_elf")
    DW_SYM(standard_find_debuginfo, "dwfl_standard_find_debuginfo")
    DW_SYM(module_build_id, "dwfl_module_build_id")
    DW_SYM(addrmodule, "dwfl_addrmodule")
    DW_SYM(module_info, "dwfl_module_info")
    DW_SYM(module_getelf, "dwfl_module_getelf")
    DW_SYM(module_addrinfo, "dwfl_module_addrinfo")
    DW_SYM(module_getsrc, "dwfl_module_getsrc")
    DW_SYM(lineinfo, "dwfl_lineinfo")
    DW_SYM(line_comp_dir, "dwfl_line_comp_dir")
#undef DW_SYM
    g_dwfl_callbacks.find_elf = dw.proc_find_elf;
    return;
missing:
    memset(&dw, 0, sizeof dw);
    g_dwfl_failed = true;
}

/* (Re)reads /proc/self/maps into the session. Modules reported again with the same
 * name and addresses keep what libdw has read of them; new ones are added, unloaded
 * ones dropped (dwfl_report_begin_add would keep those). */
static bool dwfl_report(void)
{
    dw.report_begin(g_dwfl);
    int rc = dw.proc_report(g_dwfl, getpid());
    return dw.report_end(g_dwfl, NULL, NULL) == 0 && rc == 0;
}

/* dl_iterate_phdr's counts of objects loaded and unloaded when the session last
 * read /proc/self/maps: unchanged, a module libdw does not see is not worth reading
 * the maps again for (code mapped by other means, or a mapping libdw skips). */
static unsigned long long g_adds = ~0ull, g_subs = ~0ull;

static int read_counts(struct dl_phdr_info *info, size_t size, void *data)
{
    unsigned long long *c = data;
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
        c[0] = info->dlpi_adds;
        c[1] = info->dlpi_subs;
    }
    return 1; /* the counts are the same in every entry */
}

/* Whether objects were loaded or unloaded since the last call (true the first time,
 * and always where the loader does not count them). */
static bool modules_changed(void)
{
    unsigned long long c[2] = {~0ull, ~0ull};
    dl_iterate_phdr(read_counts, c);
    bool changed = c[0] == ~0ull || c[0] != g_adds || c[1] != g_subs;
    g_adds = c[0];
    g_subs = c[1];
    return changed;
}

/* Whether libdw's module m is the one loaded at base (dladdr's dli_fbase). */
static bool module_is(Dwfl_Module *m, uintptr_t base)
{
    Dwarf_Addr start = 0;
    return m && dw.module_info(m, NULL, &start, NULL, NULL, NULL, NULL, NULL) &&
           (uintptr_t)start == base;
}

/* The libdw module holding addr, which dladdr says is the module loaded at base (0:
 * none). The process's modules are reported on first use, and again when libdw's
 * session has no module there or another one: a library loaded since, possibly
 * where one unloaded since used to be (Mesa loads and unloads libraries). Code in
 * no module (JIT) must not reread /proc/self/maps for each new address. NULL without
 * libdw, or when libdw does not see the module dladdr found. The maps are read again
 * only when the loader's counts of loaded and unloaded objects moved since the last
 * read, never once per backtrace. */
static Dwfl_Module *dwfl_module_at(uintptr_t addr, uintptr_t base)
{
    if (!dw.begin || g_dwfl_failed)
        return NULL;
    if (!g_dwfl) {
        g_dwfl = dw.begin(&g_dwfl_callbacks);
        modules_changed(); /* the counts this first report sees */
        if (!g_dwfl || !dwfl_report()) {
            g_dwfl_failed = true;
            return NULL;
        }
    }
    if (!base)
        return dw.addrmodule(g_dwfl, addr);
    Dwfl_Module *m = dw.addrmodule(g_dwfl, addr);
    if (!module_is(m, base) && modules_changed() && dwfl_report())
        m = dw.addrmodule(g_dwfl, addr);
    return module_is(m, base) ? m : NULL;
}

/* Modules whose line tables are read without libdw (backtrace_lines.h), by the
 * main file's name; lines NULL: libdw answers for that module. */
static struct lines_module {
    char *main;
    bt_lines *lines;
} *g_lines_mods;
static size_t g_lines_n, g_lines_cap;

/* The line table reader for m, opened the first time m is asked for: when the file
 * libdw would take the debug information from (the module's own file when it has
 * some, else the separate debug file the symbol lookup found) is compressed. */
static bt_lines *lines_of(Dwfl_Module *m)
{
    const char *main = NULL, *debug = NULL;
    dw.module_info(m, NULL, NULL, NULL, NULL, NULL, &main, &debug);
    if (!main)
        return NULL;
    for (size_t i = 0; i < g_lines_n; ++i)
        if (!strcmp(g_lines_mods[i].main, main))
            return g_lines_mods[i].lines;
    if (GT_GROW(g_lines_mods, g_lines_cap, g_lines_n + 1, 8) != 0)
        return NULL;
    char *name = strdup(main);
    if (!name)
        return NULL;
    const char *from = bt_lines_has_debug_info(main) ? main : debug;
    bt_lines *lines = from ? bt_lines_open(from) : NULL;
    g_lines_mods[g_lines_n++] = (struct lines_module){name, lines};
    return lines;
}

/* Sets f's file (joined to the compilation directory dir when relative to an
 * absolute one) and line. */
static void set_source(gt_frame *f, const char *file, int lineno, const char *dir)
{
    if (!file || !*file)
        return;
    if (file[0] != '/' && dir && dir[0] == '/') {
        size_t nd = strlen(dir), nf = strlen(file);
        char *path = malloc(nd + nf + 2);
        if (path) {
            memcpy(path, dir, nd);
            path[nd] = '/';
            memcpy(path + nd + 1, file, nf + 1);
        }
        f->filename = path;
    } else {
        f->filename = strdup(file);
    }
    f->line = f->filename && lineno > 0 ? lineno : -1;
}

/* f's file and line at a in module m: from the line table alone when the module's
 * debug sections are compressed, else from libdw. */
static void source_of(Dwfl_Module *m, uintptr_t a, gt_frame *f)
{
    bt_lines *lines = lines_of(m);
    GElf_Addr bias = 0;
    if (lines && dw.module_getelf(m, &bias)) {
        char *file = NULL;
        const char *dir = NULL;
        int lineno = 0;
        int rc = bt_lines_find(lines, (uint64_t)(a - bias), &file, &lineno, &dir);
        if (rc == 1)
            set_source(f, file, lineno, dir);
        free(file);
        if (rc != -2) /* -2: past what the reader knows */
            return;
    }
    Dwfl_Line *line = dw.module_getsrc(m, a);
    int lineno = 0;
    const char *file = line ? dw.lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    set_source(f, file, lineno, file && file[0] != '/' ? dw.line_comp_dir(line) : NULL);
}
#endif

/* ---- PC -> frame ---------------------------------------------------------------- */

typedef struct {
    uintptr_t pc;     /* 0: empty slot */
    gt_frame *frame;  /* NULL: a frame of libgltrace.so, left out */
} pc_slot;

static pc_slot *g_slots;
static size_t g_slot_mask; /* capacity - 1 (a power of two) */
static size_t g_used;
static uint32_t g_next_id;
static char *g_exe;        /* /proc/self/exe */

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
static demangle_fn g_demangle;

static size_t slot_of(uintptr_t pc, size_t mask)
{
    uint64_t h = (uint64_t)pc * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & mask;
}

static bool grow_slots(void)
{
    size_t cap = g_slots ? (g_slot_mask + 1) * 2 : 1024;
    pc_slot *s = calloc(cap, sizeof *s);
    if (!s)
        return false;
    for (size_t i = 0; g_slots && i <= g_slot_mask; ++i) {
        if (!g_slots[i].pc)
            continue;
        size_t j = slot_of(g_slots[i].pc, cap - 1);
        while (s[j].pc)
            j = (j + 1) & (cap - 1);
        s[j] = g_slots[i];
    }
    free(g_slots);
    g_slots = s;
    g_slot_mask = cap - 1;
    return true;
}

static const char *module_name(const char *fname)
{
    if (!fname || !*fname)
        return NULL;
    /* dladdr names the main program by argv[0], which may be relative or a bare name
     * found in PATH: use the executable's real path instead. */
    if (!strcmp(fname, program_invocation_name) && g_exe)
        return g_exe;
    return fname;
}

static char *demangled(const char *name)
{
    if (g_demangle && name[0] == '_' && name[1] == 'Z') {
        int status = -1;
        char *d = g_demangle(name, NULL, NULL, &status);
        if (d && status == 0)
            return d;
        free(d);
    }
    return strdup(name);
}

/* A new frame for the return address pc, or NULL for our own frames (*own set) or
 * when memory runs out. */
static gt_frame *resolve(uintptr_t pc, bool *own)
{
    uintptr_t a = pc - 1; /* inside the call instruction */
    Dl_info di;
    memset(&di, 0, sizeof di);
    int have_dl = dladdr((void *)a, &di);
    *own = have_dl && (uintptr_t)di.dli_fbase == g_self_base;
    if (*own)
        return NULL;

    gt_frame *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->id = g_next_id++;
    f->line = -1;
    f->offset = -1;
    const char *module = have_dl ? module_name(di.dli_fname) : NULL;
    const char *function = NULL;
    char *symbol = NULL;
    uintptr_t start = 0;
    if (have_dl && di.dli_sname && di.dli_saddr) {
        function = di.dli_sname;
        start = (uintptr_t)di.dli_saddr;
    }
#ifdef GLTRACE_HAVE_LIBDW
    Dwfl_Module *m = dwfl_module_at(a, have_dl ? (uintptr_t)di.dli_fbase : 0);
    if (m) {
        GElf_Off off = 0;
        GElf_Sym sym;
        const char *name = dw.module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL);
        if (name && *name) {
            /* dynamic symbols come versioned ("memcpy@@GLIBC_2.14"): the name alone */
            symbol = strndup(name, strcspn(name, "@"));
            if (symbol) {
                function = symbol;
                start = a - off;
            }
        }
        source_of(m, a, f);
    }
#endif
    if (module)
        f->module = strdup(module);
    if (function) {
        f->function = demangled(function);
        f->offset = (int64_t)(pc - start);
    } else if (have_dl && di.dli_fbase) {
        f->offset = (int64_t)(pc - (uintptr_t)di.dli_fbase);
    } else {
        f->offset = (int64_t)pc; /* "?+0xADDRESS": nobody knows this code */
    }
    free(symbol);
    return f;
}

/* The cached frame of pc; *stop when the cache cannot take another PC. */
static gt_frame *frame_of(uintptr_t pc, bool *own, bool *stop)
{
    *own = false;
    *stop = false;
    if (g_slots) {
        for (size_t i = slot_of(pc, g_slot_mask);; i = (i + 1) & g_slot_mask) {
            if (g_slots[i].pc == pc) {
                *own = !g_slots[i].frame;
                return g_slots[i].frame;
            }
            if (!g_slots[i].pc)
                break;
        }
    }
    if (g_used >= MAX_FRAMES || (2 * (g_used + 1) > (g_slots ? g_slot_mask + 1 : 0) &&
                                 !grow_slots())) {
        *stop = true;
        return NULL;
    }
    gt_frame *f = resolve(pc, own);
    if (!f && !*own) {
        *stop = true;
        return NULL;
    }
    size_t i = slot_of(pc, g_slot_mask);
    while (g_slots[i].pc)
        i = (i + 1) & g_slot_mask;
    g_slots[i].pc = pc;
    g_slots[i].frame = f;
    ++g_used;
    return f;
}

/* ---- setup and the entry point ---------------------------------------------------- */

static void anchor(void) {}

__attribute__((constructor)) static void backtrace_init(void)
{
    const char *spec = getenv("GLTRACE_BACKTRACE");
    parse_set(spec ? spec : "default");
    if (!g_any)
        return;
    Dl_info self;
    if (dladdr((const void *)&anchor, &self))
        g_self_base = (uintptr_t)self.dli_fbase;
    char exe[PATH_MAX];
    if (realpath("/proc/self/exe", exe))
        g_exe = strdup(exe);
    /* Loaded now, before main and single-threaded, never later under the lock. */
    void *unw = gltrace_real_dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (unw)
        g_unw_backtrace = (unw_backtrace_fn)dlsym(unw, "unw_backtrace");
    if (!g_unw_backtrace) {
        void *pcs[2];
        backtrace(pcs, 2); /* glibc loads libgcc_s on first use: do it now */
    }
#ifdef GLTRACE_HAVE_LIBDW
    load_libdw();
    bt_lines_init(gltrace_real_dlopen);
#endif
    g_demangle = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
}

/* Out of line (and reached by a tail call) so that the test every recorded call
 * makes sets up no stack frame for the arrays below: that prologue alone was about
 * 2 ns a call, backtraces or not. */
static __attribute__((noinline)) void record_backtrace(at_writer *w)
{
    void *pcs[MAX_DEPTH + 8]; /* + our own frames, left out below */
    int n = g_unw_backtrace ? g_unw_backtrace(pcs, MAX_DEPTH + 8)
                            : backtrace(pcs, MAX_DEPTH + 8);
    const gt_frame *frames[MAX_DEPTH];
    uint32_t k = 0;
    for (int i = 0; i < n && k < MAX_DEPTH; ++i) {
        uintptr_t pc = (uintptr_t)pcs[i];
        if (pc < 2)
            break;
        bool own, stop;
        gt_frame *f = frame_of(pc, &own, &stop);
        if (stop)
            break;
        if (f)
            frames[k++] = f;
    }
    if (k)
        at_writer_backtrace(w, frames, k);
}

/* A function not decided yet (or beyond the table): decides, keeps the answer. */
static __attribute__((noinline, cold)) void first_time(at_writer *w, uint32_t fid,
                                                       const char *name)
{
    bool yes = chosen_by_name(name);
    if (fid < MAX_FIDS)
        g_choice[fid] = yes ? CHOSEN : NOT_CHOSEN;
    if (yes)
        record_backtrace(w);
}

void gltrace_backtrace(at_writer *w, uint32_t fid, const char *name)
{
    if (!g_any)
        return;
    uint8_t c = fid < MAX_FIDS ? g_choice[fid] : UNDECIDED;
    if (c == CHOSEN)
        record_backtrace(w);
    else if (c == UNDECIDED)
        first_time(w, fid, name);
}
