/* The instrumentation map of an XRay-instrumented ELF64 little-endian binary:
 * section xray_instr_map holds 32-byte sled entries (address, function, kind,
 * always-instrument, version); version 2+ entries are PC-relative, older ones
 * absolute, or zero with a relocation (R_*_RELATIVE, R_*_64) in PIE binaries
 * and objects. Names come from .symtab (else .dynsym): the FUNC symbol at
 * the function's address. */
#include "xray_instrmap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gt_input.h"
#include "xray_format.h"
#include "xray_map.h"

#define SHT_SYMTAB 2
#define SHT_RELA 4
#define SHT_NOBITS 8
#define SHT_DYNSYM 11
#define STT_FUNC 2
#define EM_X86_64 62
#define EM_AARCH64 183
#define SLED_SIZE 32

struct gt_xray_instrmap {
    uint8_t *data;
    size_t size;
    uint32_t count;
    uint64_t *addr;    /* [id - 1] */
    const char **name; /* [id - 1], NULL when unnamed */
};

typedef struct elf_sec {
    uint32_t name, type, link;
    uint64_t addr, off, size, entsize;
} elf_sec;

typedef struct elf {
    const uint8_t *d;
    size_t size;
    const char *file;
    gt_error *err;
    unsigned machine, shnum, shstrndx;
    uint64_t shoff;
} elf;

static uint64_t ld(const uint8_t *p, unsigned n) { return xray_load(p, n, 0); }

static int sec(const elf *e, unsigned i, elf_sec *s)
{
    const uint8_t *p = e->d + e->shoff + (uint64_t)i * 64;
    *s = (elf_sec){(uint32_t)ld(p, 4), (uint32_t)ld(p + 4, 4), (uint32_t)ld(p + 40, 4),
                   ld(p + 16, 8), ld(p + 24, 8), ld(p + 32, 8), ld(p + 56, 8)};
    if (s->type != SHT_NOBITS && (s->off > e->size || s->size > e->size - s->off)) {
        gt_error_at(e->err, e->file, e->shoff + (uint64_t)i * 64,
                    "ELF section %u lies outside the file", i);
        return -1;
    }
    return 0;
}

/* A NUL-terminated string at off in a string table section, or NULL. */
static const char *str_at(const elf *e, const elf_sec *tab, uint64_t off)
{
    if (tab->type == SHT_NOBITS || off >= tab->size)
        return NULL;
    const char *s = (const char *)e->d + tab->off + off;
    return memchr(s, 0, tab->size - off) ? s : NULL;
}

static int parse_header(elf *e)
{
    const uint8_t *d = e->d;
    if (e->size < 64 || memcmp(d, "\x7f" "ELF", 4) != 0) {
        gt_error_at(e->err, e->file, 0, "not an ELF file");
        return -1;
    }
    if (d[4] != 2 || d[5] != 1) {
        gt_error_at(e->err, e->file, 4, "only 64-bit little-endian ELF instrumentation maps are read");
        return -1;
    }
    e->machine = (unsigned)ld(d + 18, 2);
    e->shoff = ld(d + 40, 8);
    e->shnum = (unsigned)ld(d + 60, 2);
    e->shstrndx = (unsigned)ld(d + 62, 2);
    if (ld(d + 58, 2) != 64 || e->shoff > e->size || (uint64_t)e->shnum * 64 > e->size - e->shoff ||
        e->shstrndx >= e->shnum) {
        gt_error_at(e->err, e->file, 40, "bad ELF section header table");
        return -1;
    }
    return 0;
}

/* Index of the first section named name (or of type type when name is NULL). */
static int find_sec(const elf *e, const char *name, uint32_t type, elf_sec *out)
{
    elf_sec strs;
    if (sec(e, e->shstrndx, &strs) != 0)
        return -2;
    for (unsigned i = 0; i < e->shnum; i++) {
        if (sec(e, i, out) != 0)
            return -2;
        const char *n = str_at(e, &strs, out->name);
        if (name ? (n && strcmp(n, name) == 0) : out->type == type)
            return (int)i;
    }
    return -1;
}

static int is_relative(unsigned machine, uint32_t t)
{
    return (machine == EM_X86_64 && t == 8) || (machine == EM_AARCH64 && t == 1027);
}
static int is_abs64(unsigned machine, uint32_t t)
{
    return (machine == EM_X86_64 && t == 1) || (machine == EM_AARCH64 && t == 257);
}

/* Relocated values by target address (llvm-xray applies them to zero fields). */
static int relocs(const elf *e, xray_map *rel)
{
    for (unsigned i = 0; i < e->shnum; i++) {
        elf_sec s, symtab;
        if (sec(e, i, &s) != 0)
            return -1;
        if (s.type != SHT_RELA)
            continue;
        int have_syms = s.link < e->shnum && sec(e, s.link, &symtab) == 0 &&
                        symtab.type != SHT_NOBITS;
        for (uint64_t o = 0; o + 24 <= s.size; o += 24) {
            const uint8_t *p = e->d + s.off + o;
            uint64_t info = ld(p + 8, 8), v = ld(p + 16, 8);
            uint32_t t = (uint32_t)info, symi = (uint32_t)(info >> 32);
            if (is_abs64(e->machine, t) && have_syms && ((uint64_t)symi + 1) * 24 <= symtab.size)
                v += ld(e->d + symtab.off + (uint64_t)symi * 24 + 8, 8);
            else if (!is_relative(e->machine, t))
                continue;
            if (xray_map_put(rel, ld(p, 8), 0, v) != 0)
                return -1;
        }
    }
    return 0;
}

/* Function addresses by id, numbered as llvm-xray's InstrumentationMap does. */
static int sleds(const elf *e, const elf_sec *map, const xray_map *rel, gt_xray_instrmap *m)
{
    if (map->type == SHT_NOBITS || map->size % SLED_SIZE) {
        gt_error_at(e->err, e->file, map->off, "xray_instr_map: %llu bytes, not whole 32-byte entries",
                    (unsigned long long)map->size);
        return -1;
    }
    size_t n = (size_t)(map->size / SLED_SIZE);
    m->addr = calloc(n ? n : 1, sizeof *m->addr);
    m->name = calloc(n ? n : 1, sizeof *m->name);
    if (!m->addr || !m->name) {
        gt_error_set(e->err, "%s: out of memory", e->file);
        return -1;
    }
    uint64_t cur = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = e->d + map->off + i * SLED_SIZE;
        uint64_t at = map->addr + i * SLED_SIZE, fn = ld(p + 8, 8), v;
        if (!fn && xray_map_get(rel, at + 8, 0, &v))
            fn = v;
        if (p[18] >= 2) /* PC-relative */
            fn += at + 8;
        if (cur == 0 || fn != cur)
            m->addr[m->count++] = cur = fn;
    }
    return 0;
}

static int symbols(const elf *e, gt_xray_instrmap *m)
{
    elf_sec st, strs;
    int i = find_sec(e, NULL, SHT_SYMTAB, &st);
    if (i == -1)
        i = find_sec(e, NULL, SHT_DYNSYM, &st);
    if (i == -2)
        return -1;
    if (i < 0 || st.link >= e->shnum)
        return 0; /* stripped: ids stay unnamed */
    if (sec(e, st.link, &strs) != 0)
        return -1;
    xray_map by_addr = {0};
    for (uint32_t k = 0; k < m->count; k++)
        if (xray_map_put(&by_addr, m->addr[k], 0, k) != 0)
            goto oom;
    for (uint64_t o = 0; st.type != SHT_NOBITS && o + 24 <= st.size; o += 24) {
        const uint8_t *p = e->d + st.off + o;
        uint64_t k;
        if ((p[4] & 0xf) != STT_FUNC || !xray_map_get(&by_addr, ld(p + 8, 8), 0, &k) || m->name[k])
            continue;
        m->name[k] = str_at(e, &strs, ld(p, 4));
    }
    xray_map_free(&by_addr);
    return 0;
oom:
    xray_map_free(&by_addr);
    gt_error_set(e->err, "%s: out of memory", e->file);
    return -1;
}

static gt_xray_instrmap *load(uint8_t *data, size_t size, const char *name, gt_error *err)
{
    gt_xray_instrmap *m = calloc(1, sizeof *m);
    elf e = {.d = data, .size = size, .file = name, .err = err};
    xray_map rel = {0};
    elf_sec map;
    if (!m) {
        free(data);
        gt_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    m->data = data;
    m->size = size;
    if (parse_header(&e) != 0)
        goto fail;
    int i = find_sec(&e, "xray_instr_map", 0, &map);
    if (i == -1)
        gt_error_at(err, name, 0, "no xray_instr_map section (not built with -fxray-instrument?)");
    if (i < 0 || relocs(&e, &rel) != 0 || sleds(&e, &map, &rel, m) != 0 || symbols(&e, m) != 0)
        goto fail;
    xray_map_free(&rel);
    return m;
fail:
    if (!err->set)
        gt_error_set(err, "%s: out of memory", name);
    xray_map_free(&rel);
    gt_xray_instrmap_free(m);
    return NULL;
}

gt_xray_instrmap *gt_xray_instrmap_load_mem(const uint8_t *data, size_t size, const char *name,
                                            gt_error *err)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) {
        gt_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    if (size) /* data may be NULL when empty */
        memcpy(copy, data, size);
    return load(copy, size, name, err);
}

gt_xray_instrmap *gt_xray_instrmap_load(const char *path, gt_error *err)
{
    uint64_t fsize;
    FILE *f = gt_input_fopen(path, &fsize, err);
    if (!f)
        return NULL;
    if (fsize > SIZE_MAX) {
        gt_error_set(err, "%s: too large", path);
        fclose(f);
        return NULL;
    }
    size_t size = (size_t)fsize;
    /* the ELF magic first: a wrong file is refused before it is loaded whole */
    uint8_t magic[4] = {0};
    if (fread(magic, 1, 4, f) != 4 || memcmp(magic, "\x7f" "ELF", 4) != 0 || fseek(f, 0, SEEK_SET) != 0) {
        gt_error_at(err, path, 0, "not an ELF file");
        fclose(f);
        return NULL;
    }
    uint8_t *data = malloc(size ? size : 1);
    if (!data || fread(data, 1, size, f) != size) {
        gt_error_set(err, "%s: %s", path, data ? "read error" : "out of memory");
        free(data);
        fclose(f);
        return NULL;
    }
    fclose(f);
    return load(data, size, path, err);
}

void gt_xray_instrmap_free(gt_xray_instrmap *m)
{
    if (!m)
        return;
    free(m->data);
    free(m->addr);
    free(m->name);
    free(m);
}

uint32_t gt_xray_instrmap_count(const gt_xray_instrmap *m) { return m->count; }

uint64_t gt_xray_instrmap_addr(const gt_xray_instrmap *m, uint32_t id)
{
    return id >= 1 && id <= m->count ? m->addr[id - 1] : 0;
}

const char *gt_xray_instrmap_name(const gt_xray_instrmap *m, uint32_t id)
{
    return id >= 1 && id <= m->count ? m->name[id - 1] : NULL;
}
