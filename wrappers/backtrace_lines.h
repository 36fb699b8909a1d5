/* File and line of a code address read from a debug file's DWARF 5 line table alone,
 * for files whose debug sections are compressed.
 *
 * Why: libdw inflates every debug section of a file the first time it is asked for
 * a line there (.debug_info, .debug_loclists, ...: about 10 MB and 90 ms for
 * libc6-dbg's libc), on the thread that records the call. The line table alone is an
 * eighth of that. The answer is the one libdw gives (the same row is chosen and the
 * file named the same way); anything this reader does not know (DWARF before 5, an
 * unknown form, ELF other than 64-bit little-endian, .zdebug sections) makes
 * bt_lines_open decline, and the caller asks libdw as before. */
#ifndef BACKTRACE_LINES_H
#define BACKTRACE_LINES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct bt_lines bt_lines;

/* Loads zlib (libz.so.1, RTLD_LOCAL) with open (dlopen or the recording library's
 * real one); call once, single-threaded, before any bt_lines_open. Without zlib
 * bt_lines_open declines every compressed file. */
void bt_lines_init(void *(*open)(const char *, int));

/* Whether the ELF file at path has a .debug_info section (then libdw reads its
 * debug information from this file, not from a separate one). */
bool bt_lines_has_debug_info(const char *path);

/* The line table of the ELF file at path when its .debug_info is compressed and its
 * line table is one this reader knows; NULL otherwise (libdw is cheap enough for an
 * uncompressed file, and must answer for the rest). */
bt_lines *bt_lines_open(const char *path);

/* The row of addr (an address of the file, before relocation), chosen as libdw's
 * dwfl_module_getsrc does: 1 with *file (allocated; the directory joined as libdw
 * does), *line and *comp_dir (the unit's compilation directory, owned by t); 0 when
 * no row covers addr; -1 when out of memory; -2 when the answer lies past a unit
 * this reader does not know (ask libdw). The line table is read only as far as the
 * answer needs: the first lookups near its start inflate little of it. */
int bt_lines_find(bt_lines *t, uint64_t addr, char **file, int *line, const char **comp_dir);

void bt_lines_close(bt_lines *t);

#endif
