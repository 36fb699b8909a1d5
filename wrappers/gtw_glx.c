/* GLX structures written as values, the way apitrace writes them. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "gtw_values.h"
#include "signatures.gen.h"

static const char *visual_members[] = {"visual", "visualid", "screen", "depth", "c_class",
                                       "red_mask", "green_mask", "blue_mask",
                                       "colormap_size", "bits_per_rgb"};
/* Struct ids are ours to choose; this is the only struct the wrappers write. */
static const gt_struct_sig visual_sig = {0, "XVisualInfo", 10, visual_members};

void gtw_struct_XVisualInfo(at_writer *w, const void *p)
{
    const XVisualInfo *vi = p;
    if (!vi) {
        at_writer_null(w);
        return;
    }
    at_writer_begin_array(w, 1); /* a pointer to one struct: apitrace prints &{...} */
    at_writer_begin_struct(w, &visual_sig);
    at_writer_pointer(w, (uint64_t)(uintptr_t)vi->visual);
    at_writer_uint(w, vi->visualid);
    at_writer_sint(w, vi->screen);
    at_writer_sint(w, vi->depth);
    at_writer_sint(w, vi->class);
    at_writer_uint(w, vi->red_mask);
    at_writer_uint(w, vi->green_mask);
    at_writer_uint(w, vi->blue_mask);
    at_writer_sint(w, vi->colormap_size);
    at_writer_sint(w, vi->bits_per_rgb);
}

/* glXQueryRendererIntegerMESA's value: as many unsigned ints as the attribute answers
 * with (3 for the version, 2 for the profile versions), booleans and the profile mask
 * named, as apitrace writes them. */
void gtw_glx_renderer_value(at_writer *w, int attribute, const unsigned *value)
{
    enum { VERSION = 0x8185, ACCELERATED = 0x8186, UMA = 0x8188, PROFILE = 0x8189,
           CORE_VERSION = 0x818A, ES2_VERSION = 0x818D };
    if (!value) {
        at_writer_null(w);
        return;
    }
    size_t n = attribute == VERSION ? 3
               : attribute >= CORE_VERSION && attribute <= ES2_VERSION ? 2 : 1;
    at_writer_begin_array(w, n);
    for (size_t i = 0; i < n; ++i) {
        if (attribute == ACCELERATED || attribute == UMA)
            at_writer_enum(w, &gtsig_Bool, value[i]);
        else if (attribute == PROFILE)
            at_writer_bitmask(w, &gtal_flags_GLXContextProfileMask, value[i]);
        else
            at_writer_uint(w, value[i]);
    }
}
