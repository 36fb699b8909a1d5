/* The state snapshot's context state (snap_state*.c): the table of setters generated
 * from specs/state_setters.txt by specs/gen_snap_state.py (snap_state.gen.c), and the
 * pieces of the part that share it. */
#ifndef SNAP_STATE_H
#define SNAP_STATE_H

#include "snapshot.h"

/* How a value is read (specs/state.txt's types). */
enum { SNAP_BOOL, SNAP_ENABLED, SNAP_ENUM, SNAP_INT, SNAP_INT64, SNAP_FLOAT, SNAP_POINTER,
       SNAP_STRING };
#define ST_BOOL SNAP_BOOL
#define ST_ENABLED SNAP_ENABLED
#define ST_ENUM SNAP_ENUM
#define ST_INT SNAP_INT
#define ST_INT64 SNAP_INT64
#define ST_FLOAT SNAP_FLOAT
#define ST_POINTER SNAP_POINTER
#define ST_STRING SNAP_STRING

/* Where a setter's values are read: glGet* on the context, with each texture unit
 * active, glGetLightfv of each light, glGetMaterialfv of each face, glGetTexEnv*v. */
enum { SNAP_SEC_GET, SNAP_SEC_UNIT, SNAP_SEC_LIGHT, SNAP_SEC_MATERIAL, SNAP_SEC_TEXENV };

/* Conditions on top of the providers: compatibility or core profile only, desktop or
 * ES only, the first light or the others. */
enum { SNAP_IF_COMPAT = 1, SNAP_IF_CORE = 2, SNAP_IF_GL = 4, SNAP_IF_ES = 8, SNAP_IF_LIGHT0 = 16,
       SNAP_IF_LIGHTN = 32 };

/* One value read: integers (and booleans, enums) in i, floats in d. */
typedef struct {
    long long i;
    double d;
} snap_value;

typedef struct {
    unsigned pname;
    unsigned char type;  /* SNAP_BOOL.. */
    unsigned char count; /* values the pname has */
    signed char element; /* the one taken, or -1: all */
} snap_read;

typedef struct {
    const char *name; /* the function, for messages */
    unsigned char section;
    /* what the context must provide: groups separated by ';', each a list of
     * alternatives (GL3.2, ES3.0, GL_ARB_foo) of which one suffices */
    const char *providers;
    unsigned char flags; /* SNAP_IF_* */
    const snap_read *reads;
    unsigned char nreads, nvalues;
    const double *defaults; /* nvalues of them; NULL: always written */
    /* writes the call through our wrappers; obj: the section's light, face, ... */
    void (*write)(unsigned obj, const snap_value *v);
} snap_setter;

/* A binding: target and the pname that reads it; where it has indexed bindings, the
 * pname of their number and those of each one's buffer, start and size (else 0); its
 * providers, SNAP_IF_COMPAT. */
typedef struct {
    unsigned target, binding, max, i_binding, i_start, i_size;
    const char *providers;
    unsigned char flags;
} snap_binding;

extern const snap_setter snap_setters[];
extern const unsigned snap_setter_count;
extern const snap_binding snap_bind_texture[];
extern const unsigned snap_bind_texture_count;
extern const snap_binding snap_bind_buffer[];
extern const unsigned snap_bind_buffer_count;

/* Whether the snapshot's context provides all the groups of PROVIDERS (above). */
int snap_state_provided(const snap *s, const char *providers);
/* Whether the context is a core profile one (GL 3.2+ without compatibility, or 3.1
 * without GL_ARB_compatibility). */
int snap_state_core(const snap *s);

#endif
