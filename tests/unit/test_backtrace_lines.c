/* The backtraces' line table reader (wrappers/backtrace_lines.c) gives the file and
 * line libdw gives, for every address of this program's functions (built with DWARF
 * 5 compressed with zlib, see CMakeLists.txt) and for a sample of libc's when its
 * compressed debug file is installed (libc6-dbg). The file is compared as the
 * recording library writes it: joined to an absolute compilation directory. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backtrace_lines.h"

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

/* file as the recording library writes it (backtrace.c, set_source) */
static char *joined(const char *file, const char *dir)
{
    char *out = NULL;
    if (file[0] != '/' && dir && dir[0] == '/')
        assert_true(asprintf(&out, "%s/%s", dir, file) > 0);
    else
        out = strdup(file);
    assert_non_null(out);
    return out;
}

/* Addresses where libdw finds no line and the reader finds one: tolerated while rare,
 * never the other way (libdw's line is always the reader's). libdw 0.188 reads none of
 * clang 14's DWARF 5 line rows (the ASan build), where binutils' addr2line and
 * llvm-dwarfdump give the rows the reader gives: this program then has no oracle. */
static long reader_only, compared;

/* Compares both answers at addr; returns whether libdw found a line there. */
static bool same_answer(Dwfl_Module *m, bt_lines *t, GElf_Addr bias, GElf_Addr addr)
{
    Dwfl_Line *l = dwfl_module_getsrc(m, addr);
    int want_line = 0;
    const char *want = l ? dwfl_lineinfo(l, NULL, &want_line, NULL, NULL, NULL) : NULL;
    char *file = NULL;
    const char *dir = NULL;
    int line = 0;
    int rc = bt_lines_find(t, addr - bias, &file, &line, &dir);
    ++compared;
    if (!want || !*want) {
        if (rc == 1) {
            ++reader_only;
            free(file);
            return false;
        }
        if (rc != 0)
            fail_msg("0x%lx: libdw has no line, the reader has %s:%d", (unsigned long)addr,
                     file, line);
        return false;
    }
    if (rc != 1)
        fail_msg("0x%lx: libdw has %s:%d, the reader %d", (unsigned long)addr, want,
                 want_line, rc);
    char *a = joined(want, want[0] != '/' ? dwfl_line_comp_dir(l) : NULL);
    char *b = joined(file, dir);
    if (strcmp(a, b) != 0 || line != want_line)
        fail_msg("0x%lx: libdw %s:%d, the reader %s:%d", (unsigned long)addr, a, want_line,
                 b, line);
    free(a);
    free(b);
    free(file);
    return true;
}

typedef struct {
    const char *name; /* a module whose main file's name contains this */
    bool every_byte;  /* else the first, middle and last byte of each function */
    Dwfl_Module *found;
} wanted;

static int find_module(Dwfl_Module *m, void **ud, const char *name, Dwarf_Addr start,
                       void *arg)
{
    (void)ud, (void)start;
    wanted *w = arg;
    if (name && strstr(name, w->name))
        w->found = m;
    return DWARF_CB_OK;
}

/* Compares the answers for the functions of the module; returns how many addresses
 * had a line, or -1 when the module's debug file is not one the reader opens. */
static long compare_module(Dwfl *dwfl, wanted *w)
{
    dwfl_getmodules(dwfl, find_module, w, 0);
    assert_non_null(w->found);
    Dwfl_Module *m = w->found;
    int nsyms = dwfl_module_getsymtab(m);
    const char *main = NULL, *debug = NULL;
    dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, &main, &debug);
    assert_non_null(main);
    const char *from = bt_lines_has_debug_info(main) ? main : debug;
    bt_lines *t = from ? bt_lines_open(from) : NULL;
    if (!t)
        return -1;
    GElf_Addr bias = 0;
    assert_non_null(dwfl_module_getelf(m, &bias));
    long lines = 0;
    for (int i = 1; i < nsyms; ++i) {
        GElf_Sym sym;
        if (!dwfl_module_getsym(m, i, &sym, NULL) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
            sym.st_shndx == SHN_UNDEF || sym.st_size == 0)
            continue;
        GElf_Addr step = w->every_byte ? 1 : (sym.st_size + 1) / 2;
        for (GElf_Addr a = sym.st_value; a < sym.st_value + sym.st_size; a += step)
            lines += same_answer(m, t, bias, a);
        lines += same_answer(m, t, bias, sym.st_value + sym.st_size - 1);
    }
    bt_lines_close(t);
    return lines;
}

static Dwfl *report_self(void)
{
    Dwfl *dwfl = dwfl_begin(&callbacks);
    assert_non_null(dwfl);
    dwfl_report_begin(dwfl);
    assert_int_equal(dwfl_linux_proc_report(dwfl, getpid()), 0);
    assert_int_equal(dwfl_report_end(dwfl, NULL, NULL), 0);
    return dwfl;
}

static void test_this_program(void **state)
{
    (void)state;
    Dwfl *dwfl = report_self();
    wanted w = {"test_backtrace_lines", true, NULL};
    reader_only = compared = 0;
    long lines = compare_module(dwfl, &w);
    print_message("this program: %ld addresses with a line, %ld only the reader's\n", lines,
                  reader_only);
    if (lines == 0 && reader_only > 1000) {
        dwfl_end(dwfl);
        skip(); /* libdw reads none of this build's lines (see reader_only) */
    }
    assert_true(lines > 1000);
    assert_true(reader_only * 100 < compared); /* under 1% */
    dwfl_end(dwfl);
}

static void test_libc(void **state)
{
    (void)state;
    Dwfl *dwfl = report_self();
    wanted w = {"libc.so", false, NULL};
    long lines = compare_module(dwfl, &w);
    if (lines < 0)
        print_message("libc: no compressed DWARF 5 debug file here (libc6-dbg): "
                      "compared this program only\n");
    else
        print_message("libc: %ld addresses with a line\n", lines);
    dwfl_end(dwfl);
}

static void test_declines(void **state)
{
    (void)state;
    assert_null(bt_lines_open("/nonexistent/file"));
    assert_null(bt_lines_open("/proc/self/status")); /* not ELF */
    assert_false(bt_lines_has_debug_info("/proc/self/status"));
}

int main(void)
{
    bt_lines_init(dlopen);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_this_program),
        cmocka_unit_test(test_libc),
        cmocka_unit_test(test_declines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
