/* Writes a small, deterministic trace with gltrace's writer: a GLX window, a few
 * frames of GL calls using every value kind, a fake call and backtraces. It stands
 * in for a recorded program until the recording wrappers exist, and gives the
 * tests a trace whose every byte we chose. Usage: demo_trace OUT.trace [FRAMES] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "at_writer.h"

static const char *clear_args[] = {"mask"};
static const char *color_args[] = {"red", "green", "blue", "alpha"};
static const char *viewport_args[] = {"x", "y", "width", "height"};
static const char *buffer_args[] = {"target", "size", "data", "usage"};
static const char *swap_args[] = {"dpy", "drawable"};
static const char *choose_args[] = {"dpy", "screen", "attribList"};
static const char *shader_args[] = {"shader", "count", "string", "length"};
static const char *uniform_args[] = {"location", "count", "transpose", "value"};
static const char *geterror_args[] = {NULL};
static const char *clearDepth_args[] = {"depth"};
static const char *label_args[] = {"text"};

static gt_func_sig sig_choose = {4, "glXChooseVisual", 3, choose_args, 0};
static gt_func_sig sig_viewport = {5, "glViewport", 4, viewport_args, 0};
static gt_func_sig sig_color = {6, "glClearColor", 4, color_args, 0};
static gt_func_sig sig_clear = {7, "glClear", 1, clear_args, 0};
static gt_func_sig sig_buffer = {8, "glBufferData", 4, buffer_args, 0};
static gt_func_sig sig_swap = {9, "glXSwapBuffers", 2, swap_args, 0};
static gt_func_sig sig_shader = {10, "glShaderSource", 4, shader_args, 0};
static gt_func_sig sig_uniform = {11, "glUniformMatrix2fv", 4, uniform_args, 0};
static gt_func_sig sig_geterror = {12, "glGetError", 0, geterror_args, 0};
static gt_func_sig sig_depth = {13, "glClearDepth", 1, clearDepth_args, 0};
static gt_func_sig sig_label = {14, "glStringMarkerGREMEDY", 1, label_args, 0};

static gt_enum_value glx_values[] = {{"GLX_RGBA", 4}, {"GLX_DOUBLEBUFFER", 5}, {"GLX_RED_SIZE", 8}};
static gt_enum_sig glx_enum = {1, 3, glx_values, NULL};
static gt_enum_value gl_values[] = {{"GL_ARRAY_BUFFER", 0x8892}, {"GL_STATIC_DRAW", 0x88E4},
                                    {"GL_FALSE", 0}, {"GL_TRUE", 1}, {"GL_NO_ERROR", 0}};
static gt_enum_sig gl_enum = {2, 5, gl_values, NULL};
static gt_bitmask_flag clear_flags[] = {{"GL_DEPTH_BUFFER_BIT", 0x100}, {"GL_STENCIL_BUFFER_BIT", 0x400},
                                        {"GL_COLOR_BUFFER_BIT", 0x4000}};
static gt_bitmask_sig clear_mask = {0, 3, clear_flags};
static const char *visual_members[] = {"visual", "visualid", "depth"};
static gt_struct_sig visual_struct = {0, "XVisualInfo", 3, visual_members};
static gt_frame frame_main = {0, "/usr/bin/demo", "main", "demo.c", 42, 0x1234};
static gt_frame frame_draw = {1, "/usr/bin/demo", "draw_frame", NULL, -1, 0x99};
static gt_frame frame_libc = {2, "/lib/x86_64-linux-gnu/libc.so.6", NULL, NULL, -1, -1};

static void call_choose(at_writer *w)
{
    at_writer_begin_enter(w, &sig_choose, 0, 0);
    at_writer_begin_arg(w, 0); at_writer_pointer(w, 0x5555deadbeefULL);
    at_writer_begin_arg(w, 1); at_writer_sint(w, 0);
    at_writer_begin_arg(w, 2); at_writer_begin_array(w, 4);
    at_writer_enum(w, &glx_enum, 4); at_writer_enum(w, &glx_enum, 8); at_writer_sint(w, 1);
    at_writer_sint(w, 0);
    uint32_t no = at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    at_writer_begin_return(w); at_writer_begin_array(w, 1);
    at_writer_begin_struct(w, &visual_struct);
    at_writer_pointer(w, 0x5555cafe0000ULL); at_writer_uint(w, 33); at_writer_sint(w, 24);
    at_writer_end_leave(w);
}

static void simple(at_writer *w, gt_func_sig *sig, unsigned flags, void (*args)(at_writer *, int),
                   int frame, const gt_frame *const *bt, uint32_t nbt)
{
    at_writer_begin_enter(w, sig, 0, flags);
    args(w, frame);
    if (bt)
        at_writer_backtrace(w, bt, nbt);
    uint32_t no = at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    if (sig == &sig_geterror) {
        at_writer_begin_return(w);
        at_writer_enum(w, &gl_enum, frame % 2 ? 0x500 : 0);
    }
    at_writer_end_leave(w);
}

static void a_viewport(at_writer *w, int f) { (void)f;
    at_writer_begin_arg(w, 0); at_writer_sint(w, 0); at_writer_begin_arg(w, 1); at_writer_sint(w, 0);
    at_writer_begin_arg(w, 2); at_writer_sint(w, 300); at_writer_begin_arg(w, 3); at_writer_sint(w, -300); }
static void a_color(at_writer *w, int f) {
    at_writer_begin_arg(w, 0); at_writer_float(w, 0.1f * (float)f);
    at_writer_begin_arg(w, 1); at_writer_float(w, 1.0f / 3.0f);
    at_writer_begin_arg(w, 2); at_writer_float(w, 1e-7f); at_writer_begin_arg(w, 3); at_writer_float(w, 1); }
static void a_clear(at_writer *w, int f) {
    at_writer_begin_arg(w, 0); at_writer_bitmask(w, &clear_mask, f ? 0x4100u : 0x4000u | 0x8u); }
static void a_depth(at_writer *w, int f) { (void)f; at_writer_begin_arg(w, 0); at_writer_double(w, 1.0 / 7.0); }
static void a_buffer(at_writer *w, int f) {
    unsigned char data[48];
    for (unsigned i = 0; i < sizeof data; ++i) data[i] = (unsigned char)(i * 7 + (unsigned)f);
    at_writer_begin_arg(w, 0); at_writer_enum(w, &gl_enum, 0x8892);
    at_writer_begin_arg(w, 1); at_writer_uint(w, sizeof data);
    at_writer_begin_arg(w, 2); at_writer_blob(w, data, sizeof data);
    at_writer_begin_arg(w, 3); at_writer_enum(w, &gl_enum, 0x88E4); }
static void a_shader(at_writer *w, int f) { (void)f;
    static const char src[] = "#version 330 core\n\tout vec4 c; // \"quoted\" \\ \x01\x1b\xc3\xa9\n";
    at_writer_begin_arg(w, 0); at_writer_uint(w, 3); at_writer_begin_arg(w, 1); at_writer_sint(w, 1);
    at_writer_begin_arg(w, 2); at_writer_begin_array(w, 1); at_writer_cstring(w, src);
    at_writer_begin_arg(w, 3); at_writer_null(w); }
static void a_uniform(at_writer *w, int f) {
    at_writer_begin_arg(w, 0); at_writer_sint(w, f); at_writer_begin_arg(w, 1); at_writer_sint(w, 1);
    at_writer_begin_arg(w, 2); at_writer_enum(w, &gl_enum, 0);
    at_writer_begin_arg(w, 3); at_writer_begin_array(w, 4);
    at_writer_float(w, 1.5f); at_writer_float(w, -0.0f); at_writer_float(w, 3e38f); at_writer_float(w, 123456789.0f); }
static void a_none(at_writer *w, int f) { (void)w; (void)f; }
static void a_label(at_writer *w, int f) { (void)f; at_writer_begin_arg(w, 0); at_writer_cstring(w, "frame start"); }
static void a_swap(at_writer *w, int f) { (void)f;
    at_writer_begin_arg(w, 0); at_writer_pointer(w, 0x5555deadbeefULL);
    at_writer_begin_arg(w, 1); at_writer_uint(w, 0x200002); }

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s OUT.trace [FRAMES]\n", argv[0]);
        return 2;
    }
    int frames = argc == 3 ? atoi(argv[2]) : 3;
    at_writer_property props[] = {{"process.name", "/usr/bin/demo"},
                                  {"process.commandLine", "demo --frames 3"}};
    gt_error err;
    gt_error_clear(&err);
    at_writer *w = at_writer_open(argv[1], props, 2, &err);
    if (!w) {
        fprintf(stderr, "demo_trace: %s\n", err.msg);
        return 1;
    }
    const gt_frame *bt[] = {&frame_draw, &frame_main, &frame_libc};
    call_choose(w);
    simple(w, &sig_viewport, AT_WRITER_FAKE, a_viewport, 0, NULL, 0);
    simple(w, &sig_shader, 0, a_shader, 0, NULL, 0);
    for (int f = 0; f < frames; ++f) {
        simple(w, &sig_label, 0, a_label, f, NULL, 0);
        simple(w, &sig_color, 0, a_color, f, NULL, 0);
        simple(w, &sig_depth, 0, a_depth, f, NULL, 0);
        simple(w, &sig_clear, 0, a_clear, f, bt, 3);
        simple(w, &sig_buffer, 0, a_buffer, f, bt + 1, 2);
        simple(w, &sig_uniform, 0, a_uniform, f, NULL, 0);
        simple(w, &sig_geterror, 0, a_none, f, NULL, 0);
        simple(w, &sig_swap, 0, a_swap, f, NULL, 0);
    }
    /* a call that never returns, as when a program dies inside it */
    at_writer_begin_enter(w, &sig_clear, 1, 0);
    a_clear(w, 1);
    at_writer_end_enter(w);
    if (!at_writer_close(w, &err)) {
        fprintf(stderr, "demo_trace: %s\n", err.msg);
        return 1;
    }
    return 0;
}
