/* The JSON writer of the state dump (glretrace -D): apitrace's layout, two spaces of
 * indent per object level, arrays on one line; strings escaped as RFC 8259 asks
 * (common/util/gt_json.h). It tracks commas itself: callers name members and write values. */
#ifndef RETRACE_STATE_JSON_H
#define RETRACE_STATE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_strbuf.h"

#define SJ_MAX_DEPTH 32

typedef struct sj {
    gt_strbuf *b;
    int depth;
    bool first[SJ_MAX_DEPTH]; /* no member or element written yet at this level */
    bool array[SJ_MAX_DEPTH];
} sj;

void sj_init(sj *w, gt_strbuf *b);
void sj_begin_object(sj *w);
void sj_end_object(sj *w);
void sj_begin_array(sj *w);
void sj_end_array(sj *w);
/* The next value is the member NAME of the object being written. */
void sj_member(sj *w, const char *name);
void sj_int(sj *w, int64_t v);
void sj_uint(sj *w, uint64_t v);
/* A float with 7 significant digits (a GLfloat's), a double with 16; NaN and the
 * infinities, which JSON lacks, as Python's NaN / Infinity (what apitrace writes). */
void sj_float(sj *w, double v);
void sj_double(sj *w, double v);
void sj_string(sj *w, const char *s, size_t n);
void sj_cstring(sj *w, const char *s);
void sj_bool(sj *w, bool v); /* "GL_TRUE" / "GL_FALSE", as GL booleans are written */
/* A string of DATA in base64, as images are embedded. */
void sj_base64(sj *w, const uint8_t *data, size_t n);

/* Objects left out when empty: the members are written to CHILD (into its own buffer B,
 * indented as members of a member of W's current object), then sj_splice writes
 * them to W as the object member NAME, when CHILD has any or KEEP_EMPTY. */
void sj_child(const sj *w, sj *child, gt_strbuf *b);
bool sj_splice(sj *w, const char *name, sj *child, bool keep_empty);

#endif
