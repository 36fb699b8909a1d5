/* File and line from a DWARF 5 line table alone (backtrace_lines.h says why).
 *
 * Opening a file maps it and checks the first unit of .debug_line. Lookups index the
 * units in order, only as far as the first one with a sequence (its rows from the
 * first to end_sequence) holding the address, inflating .debug_line in steps as they
 * go (.debug_line_str and .debug_str whole, when a name is needed), so nothing past
 * that unit is inflated or read. The row is picked as libdw does: among the unit's
 * rows at or below the address, the highest address, an end_sequence row before the
 * other rows at its address, then the later row; none when that row ends a sequence.
 * libdw picks the unit from .debug_aranges; the unit whose sequences hold the address
 * is that one in any file a linker wrote, once sequences from address 0 (functions
 * the linker discarded) are left out. */
#define _GNU_SOURCE
#include "backtrace_lines.h"

#include "gt_grow.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* The DWARF 5 constants a line table uses (dwarf.h comes with libdw's headers, which
 * a build may lack). */
enum {
    FORM_data2 = 0x05, FORM_data4 = 0x06, FORM_data8 = 0x07, FORM_string = 0x08,
    FORM_block = 0x09, FORM_data1 = 0x0b, FORM_strp = 0x0e, FORM_udata = 0x0f,
    FORM_data16 = 0x1e, FORM_line_strp = 0x1f,
    LNCT_path = 1, LNCT_directory_index = 2,
    LNS_copy = 1, LNS_advance_pc = 2, LNS_advance_line = 3, LNS_set_file = 4,
    LNS_const_add_pc = 8, LNS_fixed_advance_pc = 9,
    LNE_end_sequence = 1, LNE_set_address = 2,
};

/* ---- zlib, loaded at run time (libgltrace.so does not link it) -------------------- */

static struct {
    __typeof__(inflateInit_) *init;
    __typeof__(inflate) *inflate;
    __typeof__(inflateEnd) *end;
} z;

void bt_lines_init(void *(*open)(const char *, int))
{
    void *h = open("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    *(void **)&z.init = dlsym(h, "inflateInit_");
    *(void **)&z.inflate = dlsym(h, "inflate");
    *(void **)&z.end = dlsym(h, "inflateEnd");
    if (!z.init || !z.inflate || !z.end)
        memset(&z, 0, sizeof z);
}

/* ---- the ELF file ----------------------------------------------------------------- */

/* A section read as far as needed: a compressed one is inflated in steps into buf
 * (have bytes of total so far), so a lookup near the start of a large line table
 * inflates and reads only that part. */
typedef struct {
    const uint8_t *src; /* the section in the file (after its Elf64_Chdr) */
    size_t src_n;
    bool compressed, failed;
    uint8_t *buf;
    size_t have, total;
    z_stream zs;
} lazy;

struct bt_lines {
    void *map;
    size_t map_size;
    lazy line, line_str, str;
    size_t indexed; /* the units of .debug_line before this offset are indexed */
    bool index_done; /* all of them, or up to one this reader does not know */
    bool index_known; /* ... all of them */
    struct seq {
        uint64_t lo, hi;
        size_t unit; /* the unit's offset in .debug_line */
    } *seqs;
    size_t nseqs, cap;
};

typedef struct {
    const uint8_t *map;
    size_t size;
    const Elf64_Shdr *sh;
    size_t shnum;
    const char *names;
    size_t names_size;
} elf_file;

static bool elf_parse(elf_file *e, const void *map, size_t size)
{
    const Elf64_Ehdr *h = map;
    if (size < sizeof *h || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0 ||
        h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_ident[EI_DATA] != ELFDATA2LSB ||
        h->e_shentsize != sizeof(Elf64_Shdr) || h->e_shnum == 0 || h->e_shoff % 8 != 0 ||
        h->e_shstrndx >= h->e_shnum || h->e_shoff > size ||
        (size - h->e_shoff) / sizeof(Elf64_Shdr) < h->e_shnum)
        return false;
    e->map = map;
    e->size = size;
    e->sh = (const Elf64_Shdr *)((const uint8_t *)map + h->e_shoff);
    e->shnum = h->e_shnum;
    const Elf64_Shdr *names = &e->sh[h->e_shstrndx];
    if (names->sh_offset > size || names->sh_size > size - names->sh_offset)
        return false;
    e->names = (const char *)map + names->sh_offset;
    e->names_size = names->sh_size;
    return true;
}

static const Elf64_Shdr *elf_section(const elf_file *e, const char *name)
{
    size_t len = strlen(name) + 1;
    for (size_t i = 1; i < e->shnum; ++i) {
        const Elf64_Shdr *s = &e->sh[i];
        if (s->sh_name < e->names_size && e->names_size - s->sh_name >= len &&
            !memcmp(e->names + s->sh_name, name, len))
            return s;
    }
    return NULL;
}

/* Sets up the lazy section s (empty when absent); false when it cannot be read. */
static bool lazy_init(const elf_file *e, const Elf64_Shdr *sh, lazy *s)
{
    memset(s, 0, sizeof *s);
    if (!sh || sh->sh_type == SHT_NOBITS)
        return true;
    if (sh->sh_offset > e->size || sh->sh_size > e->size - sh->sh_offset)
        return false;
    const uint8_t *p = e->map + sh->sh_offset;
    if (!(sh->sh_flags & SHF_COMPRESSED)) {
        *s = (lazy){.src = p, .src_n = sh->sh_size, .have = sh->sh_size, .total = sh->sh_size};
        return true;
    }
    Elf64_Chdr c;
    if (sh->sh_size < sizeof c)
        return false;
    memcpy(&c, p, sizeof c);
    if (c.ch_type != ELFCOMPRESS_ZLIB || !z.init || c.ch_size > (1u << 30) ||
        sh->sh_size - sizeof c > UINT32_MAX)
        return false;
    s->buf = malloc(c.ch_size ? c.ch_size : 1);
    if (!s->buf)
        return false;
    s->src = p + sizeof c;
    s->src_n = sh->sh_size - sizeof c;
    s->compressed = true;
    s->total = c.ch_size;
    s->zs = (z_stream){.next_in = (Bytef *)s->src, .avail_in = (uInt)s->src_n,
                       .next_out = s->buf};
    if (z.init(&s->zs, ZLIB_VERSION, (int)sizeof s->zs) != Z_OK) {
        free(s->buf);
        s->buf = NULL;
        return false;
    }
    return true;
}

static const uint8_t *lazy_bytes(const lazy *s) { return s->compressed ? s->buf : s->src; }

/* Whether the first `need` bytes of s are there, inflating more (at least 64 KiB at
 * a time) when they are not yet. */
static bool lazy_ensure(lazy *s, size_t need)
{
    while (s->have < need && !s->failed && need <= s->total) {
        size_t step = need - s->have < 65536 ? 65536 : need - s->have;
        if (step > s->total - s->have)
            step = s->total - s->have;
        s->zs.next_out = s->buf + s->have;
        s->zs.avail_out = (uInt)step;
        int rc = z.inflate(&s->zs, Z_SYNC_FLUSH);
        s->have = (size_t)(s->zs.next_out - s->buf);
        if (rc == Z_STREAM_END ? s->have != s->total : rc != Z_OK)
            s->failed = true;
        if (rc == Z_STREAM_END || s->failed)
            z.end(&s->zs);
    }
    return s->have >= need;
}

static void lazy_free(lazy *s)
{
    if (s->compressed && s->have < s->total && !s->failed)
        z.end(&s->zs);
    free(s->buf);
}

static bool map_file(const char *path, void **map, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && st.st_size > 0;
    if (ok) {
        *size = (size_t)st.st_size;
        *map = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
        ok = *map != MAP_FAILED;
    }
    close(fd);
    return ok;
}

bool bt_lines_has_debug_info(const char *path)
{
    void *map;
    size_t size;
    if (!map_file(path, &map, &size))
        return false;
    elf_file e;
    bool has = elf_parse(&e, map, size) && elf_section(&e, ".debug_info");
    munmap(map, size);
    return has;
}

/* ---- reading a line program ------------------------------------------------------- */

typedef struct {
    const uint8_t *p, *end;
    bool bad;
} cursor;

static uint64_t fixed(cursor *c, size_t n)
{
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i)
        v |= (uint64_t)c->p[i] << (8 * i);
    c->p += n;
    return v;
}

static uint64_t uleb(cursor *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0; !c->bad; shift += 7) {
        if (c->p >= c->end || shift > 63) {
            c->bad = true;
            break;
        }
        uint8_t b = *c->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    return 0;
}

static int64_t sleb(cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b = 0x80;
    while (!c->bad && (b & 0x80)) {
        if (c->p >= c->end || shift > 63) {
            c->bad = true;
            return 0;
        }
        b = *c->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    }
    if (shift < 64 && (b & 0x40))
        v |= ~(uint64_t)0 << shift;
    return (int64_t)v;
}

/* One line program's header: where its entry tables and opcodes are. */
typedef struct {
    size_t off;           /* in .debug_line */
    cursor tables;        /* the directory table's formats onwards */
    cursor prog;          /* the opcodes */
    unsigned offsz;       /* 4 or 8: DWARF 32 or 64 */
    uint8_t min_inst, line_range, opcode_base;
    int8_t line_base;
    const uint8_t *std_lens;
} unit;

/* The unit at off, inflated as far as its end; false when it is not a DWARF 5
 * program this reader knows. Sets *next to the following unit's offset. */
static bool unit_at(bt_lines *t, size_t off, unit *u, size_t *next)
{
    if (!lazy_ensure(&t->line, off + 12 > t->line.total ? t->line.total : off + 12))
        return false;
    const uint8_t *base = lazy_bytes(&t->line);
    cursor c = {base + off, base + t->line.have, false};
    uint64_t len = fixed(&c, 4);
    u->offsz = 4;
    if (len == 0xffffffffu) {
        len = fixed(&c, 8);
        u->offsz = 8;
    }
    size_t start = (size_t)(c.p - base);
    if (c.bad || len > t->line.total - start || !lazy_ensure(&t->line, start + (size_t)len))
        return false;
    c.end = c.p + len;
    *next = start + (size_t)len;
    unsigned version = (unsigned)fixed(&c, 2);
    unsigned addr_size = (unsigned)fixed(&c, 1);
    unsigned seg_size = (unsigned)fixed(&c, 1);
    uint64_t hlen = fixed(&c, u->offsz);
    if (c.bad || version != 5 || addr_size != 8 || seg_size != 0 ||
        hlen > (uint64_t)(c.end - c.p))
        return false;
    u->off = off;
    u->prog = (cursor){c.p + hlen, c.end, false};
    u->min_inst = (uint8_t)fixed(&c, 1);
    unsigned max_ops = (unsigned)fixed(&c, 1);
    fixed(&c, 1); /* default_is_stmt: libdw's choice of row ignores it */
    u->line_base = (int8_t)fixed(&c, 1);
    u->line_range = (uint8_t)fixed(&c, 1);
    u->opcode_base = (uint8_t)fixed(&c, 1);
    u->std_lens = c.p;
    if (c.bad || max_ops != 1 || u->line_range == 0 || u->opcode_base == 0 ||
        (size_t)(c.end - c.p) < u->opcode_base - 1u)
        return false;
    c.p += u->opcode_base - 1;
    u->tables = (cursor){c.p, u->prog.p, false};
    return true;
}

/* The value of one attribute: a string for the forms that name one (string,
 * line_strp, strp), else NULL with a number in *num; c->bad set for a form this
 * reader does not know. */
static const char *form_value(bt_lines *t, cursor *c, unsigned offsz, uint64_t form,
                              uint64_t *num)
{
    lazy *in;
    switch (form) {
    case FORM_string: {
        const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
        if (!nul)
            break;
        const char *s = (const char *)c->p;
        c->p = nul + 1;
        return s;
    }
    case FORM_line_strp:
    case FORM_strp: {
        in = form == FORM_strp ? &t->str : &t->line_str;
        uint64_t o = fixed(c, offsz);
        if (c->bad || !lazy_ensure(in, in->total) || o >= in->total ||
            !memchr(lazy_bytes(in) + o, 0, in->total - o))
            break;
        return (const char *)lazy_bytes(in) + o;
    }
    case FORM_udata: *num = uleb(c); return NULL;
    case FORM_data1: *num = fixed(c, 1); return NULL;
    case FORM_data2: *num = fixed(c, 2); return NULL;
    case FORM_data4: *num = fixed(c, 4); return NULL;
    case FORM_data8: *num = fixed(c, 8); return NULL;
    case FORM_data16: fixed(c, 8); fixed(c, 8); return NULL;
    case FORM_block: {
        uint64_t n = uleb(c);
        if (c->bad || n > (uint64_t)(c->end - c->p))
            break;
        c->p += n;
        return NULL;
    }
    default: break;
    }
    c->bad = true;
    return NULL;
}

/* Reads one entry table (directories or files) at c, keeping the path and
 * directory index of entry `want`. False for a table this reader does not know or
 * when there is no entry `want`. */
static bool entry_table(bt_lines *t, cursor *c, unsigned offsz, uint64_t want,
                        const char **path, uint64_t *dir)
{
    uint64_t formats[16][2];
    unsigned nformats = (unsigned)fixed(c, 1);
    if (nformats > 16)
        return false;
    for (unsigned i = 0; i < nformats; ++i) {
        formats[i][0] = uleb(c);
        formats[i][1] = uleb(c);
    }
    uint64_t count = uleb(c);
    if (nformats == 0 && count > 0)
        return false; /* entries without a path, and nothing bounds their count */
    bool found = false;
    for (uint64_t n = 0; n < count && !c->bad; ++n) {
        for (unsigned i = 0; i < nformats && !c->bad; ++i) {
            uint64_t num = 0;
            const char *s = form_value(t, c, offsz, formats[i][1], &num);
            if (n != want)
                continue;
            if (formats[i][0] == LNCT_path && s) {
                *path = s;
                found = true;
            } else if (formats[i][0] == LNCT_directory_index) {
                *dir = num;
            }
        }
    }
    return !c->bad && found;
}

/* ---- running a line program ------------------------------------------------------- */

typedef struct {
    uint64_t addr, file;
    int64_t line;
    bool end_seq;
} row;

typedef bool (*row_fn)(void *ctx, const row *r);

static void special(const unit *u, row *r, unsigned adjusted)
{
    r->addr += (uint64_t)u->min_inst * (adjusted / u->line_range);
}

static bool extended(cursor *c, row *r, row_fn fn, void *ctx)
{
    uint64_t len = uleb(c);
    if (c->bad || len == 0 || len > (uint64_t)(c->end - c->p))
        return false;
    const uint8_t *after = c->p + len;
    uint8_t op = *c->p++;
    bool ok = true;
    if (op == LNE_end_sequence) {
        r->end_seq = true;
        ok = fn(ctx, r);
        *r = (row){0, 1, 1, false};
    } else if (op == LNE_set_address && len == 9) {
        r->addr = fixed(c, 8);
    }
    c->p = after;
    return ok;
}

/* Runs the unit's opcodes, calling fn for each row; false when fn stops the run or
 * the program is malformed. */
static bool run_unit(const unit *u, row_fn fn, void *ctx)
{
    cursor c = u->prog;
    row r = {0, 1, 1, false};
    while (c.p < c.end && !c.bad) {
        uint8_t op = *c.p++;
        if (op >= u->opcode_base) {
            unsigned adjusted = op - u->opcode_base;
            special(u, &r, adjusted);
            r.line += u->line_base + (int)(adjusted % u->line_range);
            if (!fn(ctx, &r))
                return false;
            continue;
        }
        switch (op) {
        case 0:
            if (!extended(&c, &r, fn, ctx))
                return false;
            break;
        case LNS_copy:
            if (!fn(ctx, &r))
                return false;
            break;
        case LNS_advance_pc: r.addr += (uint64_t)u->min_inst * uleb(&c); break;
        case LNS_advance_line: r.line += sleb(&c); break;
        case LNS_set_file: r.file = uleb(&c); break;
        case LNS_const_add_pc: special(u, &r, 255u - u->opcode_base); break;
        case LNS_fixed_advance_pc: r.addr += fixed(&c, 2); break;
        default: /* column, stmt, block, prologue, epilogue, isa and unknown ones */
            for (unsigned i = 0; i < u->std_lens[op - 1]; ++i)
                uleb(&c);
        }
    }
    return !c.bad;
}

/* ---- the index of sequences ------------------------------------------------------- */

typedef struct {
    bt_lines *t;
    size_t unit;
    uint64_t lo;
    bool open;
} indexer;

static bool index_row(void *ctx, const row *r)
{
    indexer *x = ctx;
    if (!x->open) {
        x->open = true;
        x->lo = r->addr;
    } else if (r->addr < x->lo) {
        x->lo = r->addr;
    }
    if (!r->end_seq)
        return true;
    x->open = false;
    bt_lines *t = x->t;
    /* An empty sequence holds no address; one from address 0 is a function the linker
     * discarded (code is never at 0), which must not take the address of another. */
    if (r->addr <= x->lo || x->lo == 0)
        return true;
    if (GT_GROW(t->seqs, t->cap, t->nseqs + 1, 256) != 0)
        return false;
    t->seqs[t->nseqs++] = (struct seq){x->lo, r->addr, x->unit};
    return true;
}

/* Indexes the next unit; false when there is none, or it is one this reader does not
 * know (index_known false then). */
static bool index_next(bt_lines *t)
{
    if (t->index_done)
        return false;
    unit u;
    size_t next;
    indexer x = {t, t->indexed, 0, false};
    if (t->indexed >= t->line.total || !unit_at(t, t->indexed, &u, &next) ||
        !run_unit(&u, index_row, &x)) {
        t->index_done = true;
        t->index_known = t->indexed >= t->line.total;
        return false;
    }
    t->indexed = next;
    return true;
}

bt_lines *bt_lines_open(const char *path)
{
    bt_lines *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    elf_file e;
    if (!map_file(path, &t->map, &t->map_size)) {
        free(t);
        return NULL;
    }
    const Elf64_Shdr *info;
    unit u;
    size_t next;
    bool ok = elf_parse(&e, t->map, t->map_size) && (info = elf_section(&e, ".debug_info")) &&
              (info->sh_flags & SHF_COMPRESSED) &&
              lazy_init(&e, elf_section(&e, ".debug_line"), &t->line) &&
              lazy_init(&e, elf_section(&e, ".debug_line_str"), &t->line_str) &&
              lazy_init(&e, elf_section(&e, ".debug_str"), &t->str) && t->line.total &&
              unit_at(t, 0, &u, &next); /* a line table of the version this reader knows */
    if (!ok) {
        bt_lines_close(t);
        return NULL;
    }
    return t;
}

void bt_lines_close(bt_lines *t)
{
    if (!t)
        return;
    lazy_free(&t->line);
    lazy_free(&t->line_str);
    lazy_free(&t->str);
    if (t->map)
        munmap(t->map, t->map_size);
    free(t->seqs);
    free(t);
}

/* ---- a lookup --------------------------------------------------------------------- */

typedef struct {
    uint64_t target;
    row best;
    bool have;
} chooser;

static bool choose_row(void *ctx, const row *r)
{
    chooser *ch = ctx;
    if (r->addr > ch->target)
        return true;
    if (!ch->have || r->addr > ch->best.addr ||
        (r->addr == ch->best.addr && (!r->end_seq || ch->best.end_seq))) {
        ch->best = *r;
        ch->have = true;
    }
    return true;
}

/* The file's name as libdw writes it: absolute, or its directory (a string of the
 * directory table), a slash and the name. -2 when the tables are not ones this
 * reader knows, or name no such file (libdw will say what it makes of them). */
static int file_name(bt_lines *t, const unit *u, uint64_t file, char **out,
                     const char **comp_dir)
{
    cursor dirs = u->tables;
    const char *d0 = NULL, *dname = NULL, *fname = NULL;
    uint64_t unused, diridx = 0;
    if (!entry_table(t, &dirs, u->offsz, 0, &d0, &unused))
        return -2;
    cursor files = dirs;
    if (!entry_table(t, &files, u->offsz, file, &fname, &diridx))
        return -2;
    cursor again = u->tables;
    if (!entry_table(t, &again, u->offsz, diridx, &dname, &unused))
        return -2;
    *comp_dir = d0;
    if (fname[0] == '/') {
        *out = strdup(fname);
    } else {
        size_t nd = strlen(dname), nf = strlen(fname);
        *out = malloc(nd + nf + 2);
        if (*out) {
            memcpy(*out, dname, nd);
            (*out)[nd] = '/';
            memcpy(*out + nd + 1, fname, nf + 1);
        }
    }
    return *out ? 1 : -1;
}

/* The row for addr in the unit at off (see bt_lines_find). */
static int find_in_unit(bt_lines *t, size_t off, uint64_t addr, char **file, int *line,
                        const char **comp_dir)
{
    unit u;
    size_t next;
    chooser ch = {addr, {0, 0, 0, false}, false};
    if (!unit_at(t, off, &u, &next) || !run_unit(&u, choose_row, &ch))
        return -2;
    if (!ch.have || ch.best.end_seq)
        return 0;
    int rc = file_name(t, &u, ch.best.file, file, comp_dir);
    if (rc == 1)
        *line = (int)ch.best.line;
    return rc;
}

int bt_lines_find(bt_lines *t, uint64_t addr, char **file, int *line, const char **comp_dir)
{
    /* the first unit (in .debug_line's order) with a sequence holding addr: units are
     * indexed as far as needed to find it */
    for (size_t i = 0;; ++i) {
        while (i == t->nseqs)
            if (!index_next(t))
                return t->index_known ? 0 : -2;
        const struct seq *s = &t->seqs[i];
        if (addr >= s->lo && addr < s->hi)
            return find_in_unit(t, s->unit, addr, file, line, comp_dir);
    }
}
