/* The call model: one parsed call with typed values (../shared/DESIGN.md). The
 * apitrace reader fills it; dump, info, glretrace and the timeline of a replay
 * consume it. Signatures are owned by the reader and outlive calls;
 * a call's values live in the call's arena. */
#ifndef GT_MODEL_H
#define GT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_arena.h"

/* Value kinds: the apitrace value kinds, plus GT_ABSENT for an argument the
 * trace never wrote (printed as "?"). */
typedef enum gt_kind {
    GT_ABSENT = 0,
    GT_NULL,
    GT_BOOL,
    GT_SINT,
    GT_UINT,
    GT_FLOAT,
    GT_DOUBLE,
    GT_STRING,
    GT_WSTRING,
    GT_BLOB,
    GT_ENUM,
    GT_BITMASK,
    GT_ARRAY,
    GT_STRUCT,
    GT_POINTER,
    GT_REPR,
} gt_kind;

typedef struct gt_enum_value {
    const char *name;
    int64_t value;
} gt_enum_value;

typedef struct gt_enum_sig {
    uint32_t id;
    uint32_t num_values;
    gt_enum_value *values;
    /* Optional: indices of values sorted by (value, index), for gt_enum_name on
     * large signatures such as GLenum's thousands of names. NULL: linear search. */
    const uint32_t *by_value;
} gt_enum_sig;

typedef struct gt_bitmask_flag {
    const char *name;
    uint64_t value;
} gt_bitmask_flag;

typedef struct gt_bitmask_sig {
    uint32_t id;
    uint32_t num_flags;
    gt_bitmask_flag *flags;
} gt_bitmask_sig;

typedef struct gt_struct_sig {
    uint32_t id;
    const char *name;
    uint32_t num_members;
    const char **member_names;
} gt_struct_sig;

typedef struct gt_func_sig {
    uint32_t id;
    const char *name;
    uint32_t num_args;
    const char **arg_names;
    uint32_t flags; /* GT_CALL_FLAG_* known from the function's name */
} gt_func_sig;

typedef struct gt_frame {
    uint32_t id;
    const char *module, *function, *filename; /* NULL when absent */
    int64_t line, offset;                    /* -1 when absent */
} gt_frame;

typedef struct gt_value gt_value;

struct gt_value {
    gt_kind kind;
    union {
        bool b;
        int64_t i;
        uint64_t u; /* GT_UINT and GT_POINTER */
        float f;
        double d;
        struct { const char *s; size_t len; } str;         /* NUL-terminated too */
        struct { const uint32_t *w; size_t len; } wstr;
        struct { const void *data; size_t size; } blob;   /* data NULL when skipped */
        struct { const gt_enum_sig *sig; int64_t v; } en;
        struct { const gt_bitmask_sig *sig; uint64_t v; } bm;
        struct { gt_value *items; size_t n; } arr;
        struct { const gt_struct_sig *sig; gt_value *members; } st;
        struct { gt_value *human, *machine; } repr;
    };
};

/* Call flags. The first group comes from the function name (specs/callflags.txt);
 * the second from the trace itself. Values follow no file format: they are ours. */
enum {
    GT_CALL_FLAG_NO_SIDE_EFFECTS = 1u << 0,
    GT_CALL_FLAG_VERBOSE = 1u << 1,
    GT_CALL_FLAG_END_FRAME = 1u << 2,
    GT_CALL_FLAG_SWAP_RENDERTARGET = 1u << 3,
    GT_CALL_FLAG_RENDER = 1u << 4,
    GT_CALL_FLAG_MARKER = 1u << 5,
    GT_CALL_FLAG_MARKER_PUSH = 1u << 6,
    GT_CALL_FLAG_MARKER_POP = 1u << 7,
    GT_CALL_FLAG_FAKE = 1u << 8,
    GT_CALL_FLAG_INCOMPLETE = 1u << 9,
};

typedef struct gt_call {
    uint32_t no;
    uint32_t thread;
    const gt_func_sig *sig;
    uint32_t flags;
    uint32_t num_args;
    uint32_t args_cap; /* entries allocated: args grow geometrically while parsing */
    gt_value *args;   /* num_args entries; GT_ABSENT where none was written */
    uint8_t *arg_at_leave; /* per argument: 1 when written by the leave event (outputs) */
    gt_value *ret;    /* NULL when the call returned nothing */
    uint32_t num_frames;
    const gt_frame **frames; /* backtrace, NULL when none */
    bool frames_at_leave;
    uint64_t offset;  /* stream offset of the enter event, for messages */
    gt_arena arena;   /* owns args, ret and every nested value */
} gt_call;

/* A scalar value as an integer: booleans, integers, pointers, enums, bitmasks, floats
 * (truncated), a repr's machine value, an array's first item (a `&value` output); 0 for
 * NULL and anything else. */
int64_t gt_value_sint(const gt_value *v);
uint64_t gt_value_uint(const gt_value *v);

/* Looks up the name of an enum value (the first one listed, when several share
 * the value); NULL when the signature has no such value. */
const char *gt_enum_name(const gt_enum_sig *sig, int64_t v);
/* Builds sig->by_value in memory from alloc (called by readers for large signatures).
 * Returns 0 when alloc fails; the signature then still works, only slower. */
int gt_enum_index(gt_enum_sig *sig, void *(*alloc)(void *ctx, size_t size), void *ctx);

#endif
