/* A minimal x86-64 ELF executable that names XRay function ids for llvm-xray:
 * .text with one 16-byte slot per function, xray_instr_map with an entry and
 * an exit sled (version 0, absolute addresses) per function in id order, and
 * a symbol table with one FUNC symbol per slot. llvm-xray numbers functions by
 * sled order, so id i is slot i; its symbolizer finds the names. */
#include "xray_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray_format.h"

#define TEXT_ADDR 0x401000u
#define SLOT 16u
#define NSEC 6

typedef struct shdr {
    uint32_t name, type;
    uint64_t flags, addr, off, size;
    uint32_t link, info;
    uint64_t align, entsize;
} shdr;

static void put_shdr(uint8_t *p, const shdr *s)
{
    xray_store_le(p, s->name, 4);
    xray_store_le(p + 4, s->type, 4);
    xray_store_le(p + 8, s->flags, 8);
    xray_store_le(p + 16, s->addr, 8);
    xray_store_le(p + 24, s->off, 8);
    xray_store_le(p + 32, s->size, 8);
    xray_store_le(p + 40, s->link, 4);
    xray_store_le(p + 44, s->info, 4);
    xray_store_le(p + 48, s->align, 8);
    xray_store_le(p + 56, s->entsize, 8);
}

static void put_ehdr(uint8_t *p, uint64_t shoff)
{
    memcpy(p, "\x7f" "ELF\x02\x01\x01", 7);
    xray_store_le(p + 16, 2, 2);   /* ET_EXEC */
    xray_store_le(p + 18, 62, 2);  /* EM_X86_64 */
    xray_store_le(p + 20, 1, 4);
    xray_store_le(p + 40, shoff, 8);
    xray_store_le(p + 52, 64, 2);  /* e_ehsize */
    xray_store_le(p + 58, 64, 2);  /* e_shentsize */
    xray_store_le(p + 60, NSEC, 2);
    xray_store_le(p + 62, NSEC - 1, 2);
}

static const char shstr[] = "\0.text\0xray_instr_map\0.symtab\0.strtab\0.shstrtab";

/* Lays out the sections after the ELF header; fills sizes, offsets and the image. */
static uint8_t *build(const char *const *names, uint32_t n, size_t *size)
{
    size_t strsz = 1;
    for (uint32_t i = 0; i < n; i++)
        strsz += strlen(names[i]) + 1;
    uint64_t text = 64, map = text + (uint64_t)n * SLOT, sym = map + (uint64_t)n * 64,
             str = sym + (uint64_t)(n + 1) * 24, shs = str + strsz,
             sh = (shs + sizeof shstr + 7) & ~7ull;
    *size = (size_t)(sh + NSEC * 64);
    uint8_t *img = calloc(1, *size);
    if (!img)
        return NULL;
    put_ehdr(img, sh);
    size_t so = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t fn = TEXT_ADDR + (uint64_t)i * SLOT;
        uint8_t *e = img + map + (uint64_t)i * 64, *s = img + sym + (uint64_t)(i + 1) * 24;
        xray_store_le(e, fn, 8);          /* entry sled */
        xray_store_le(e + 8, fn, 8);
        xray_store_le(e + 32, fn + 1, 8); /* exit sled */
        xray_store_le(e + 40, fn, 8);
        e[48] = 1;
        xray_store_le(s, so, 4);
        s[4] = 0x12;                      /* STB_GLOBAL, STT_FUNC */
        xray_store_le(s + 6, 1, 2);       /* .text */
        xray_store_le(s + 8, fn, 8);
        xray_store_le(s + 16, SLOT, 8);
        size_t len = strlen(names[i]) + 1;
        memcpy(img + str + so, names[i], len);
        so += len;
    }
    memcpy(img + shs, shstr, sizeof shstr);
    const shdr secs[NSEC] = {
        {0},
        {1, 1, 0x6, TEXT_ADDR, text, (uint64_t)n * SLOT, 0, 0, 16, 0},
        {7, 1, 0x2, TEXT_ADDR + (uint64_t)n * SLOT + 0x1000, map, (uint64_t)n * 64, 0, 0, 8, 0},
        {22, 2, 0, 0, sym, (uint64_t)(n + 1) * 24, 4, 1, 8, 24},
        {30, 3, 0, 0, str, strsz, 0, 0, 1, 0},
        {38, 3, 0, 0, shs, sizeof shstr, 0, 0, 1, 0},
    };
    for (int i = 0; i < NSEC; i++)
        put_shdr(img + sh + (uint64_t)i * 64, &secs[i]);
    return img;
}

int gt_xray_write_instrmap(const char *path, const char *const *names, uint32_t n, gt_error *err)
{
    size_t size;
    uint8_t *img = build(names, n, &size);
    if (!img) {
        gt_error_set(err, "%s: out of memory", path);
        return -1;
    }
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(img, 1, size, f) == size;
    if (f && fclose(f) != 0)
        ok = 0;
    free(img);
    if (!ok) {
        gt_error_set(err, "%s: cannot write the instrumentation map: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
