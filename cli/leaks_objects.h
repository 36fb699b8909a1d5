/* The functions `gltrace leaks` follows, generated from specs/leaks.txt and the
 * registry's class= namespaces (leak_objects.gen.c), and the objects alive. */
#ifndef LEAKS_OBJECTS_H
#define LEAKS_OBJECTS_H

#include <stddef.h>
#include <stdint.h>

typedef enum lk_op {
    LK_GEN,         /* fills the array `arg` with `count` new names of `kind` */
    LK_RET,         /* returns a new name of `kind` */
    LK_DELETE,      /* deletes the names of the array `arg` (`count` of them), or the one name `arg` */
    LK_CTX_CREATE,  /* creates a context */
    LK_CTX_DESTROY, /* destroys one */
    LK_CURRENT,     /* makes context `arg` current */
} lk_op;

typedef struct lk_func {
    const char *name;
    lk_op op;
    const char *kind, *arg, *count; /* "" when none */
} lk_func;

extern const lk_func lk_funcs[]; /* sorted by name */
extern const size_t lk_num_funcs;

/* The row of the function NAME, or NULL. */
const lk_func *lk_lookup(const char *name);

/* The objects alive, per kind in the order the kinds were first met (as apitrace's
 * leaks.py keeps its dictionaries). */
typedef struct lk_entry {
    uint64_t name, ctx;
    uint32_t call_no;
    uint32_t alive;
} lk_entry;

typedef struct lk_kind {
    const char *kind;
    lk_entry *entries; /* in order of first creation (a name created again keeps its place) */
    size_t n, cap;
    uint32_t *map;     /* open addressing over entries: index + 1, 0 when free */
    size_t map_size, used;
} lk_kind;

typedef struct lk_state {
    lk_kind *kinds;
    size_t n, cap;
} lk_state;

lk_kind *lk_kind_get(lk_state *s, const char *kind); /* NULL when memory runs out */
int lk_create(lk_kind *k, uint64_t name, uint32_t call_no, uint64_t ctx); /* 0 or -1 */
void lk_delete(lk_kind *k, uint64_t name);
/* The alive entries sorted by creation call (then order of creation): *out (malloc'd),
 * *n; the kind is emptied. 0, or -1 when memory runs out. */
int lk_take_alive(lk_kind *k, lk_entry **out, size_t *n);
void lk_state_free(lk_state *s);

#endif
