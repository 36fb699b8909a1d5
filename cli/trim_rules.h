/* The state setters of `gltrace trim` (cli/trim_deps.c), generated from specs/trim.txt
 * by specs/gen_trim.py into build/gen/trim_rules.gen.c; the grammar and meaning of each
 * field are that file's. The functions' other roles are gt_roles.h's. */
#ifndef TRIM_RULES_H
#define TRIM_RULES_H

#include <stdint.h>

/* Tracked values of a context: ids 1..3, each also the id of the slot its setters set. */
enum { TRIM_VALUE_PROGRAM = 1, TRIM_VALUE_VAO, TRIM_VALUE_UNIT, TRIM_VALUES };

typedef struct trim_rule {
    const char *name;
    uint8_t slot;          /* the slot (trim_slot_names) */
    int8_t arg;            /* the argument setting a tracked value (sets), -1 none */
    int8_t key_arg;        /* the argument keying the slot, -1 none */
    uint8_t key_value;     /* ... and the tracked value keying it, 0 none ... */
    uint32_t key_value_if; /* ... only when the argument key is this enum (0: always) */
    uint8_t sets;          /* the tracked value this call sets (from arg), 0 none */
    uint8_t read_slot;     /* a slot the call reads, 0 none: its key is read_key and, */
    uint32_t read_key;     /* when read_value is set, that tracked value */
    uint8_t read_value;
} trim_rule;

extern const trim_rule trim_rules[]; /* sorted by name */
extern const unsigned trim_rule_count;
extern const char *const trim_slot_names[];
extern const unsigned trim_slot_count;

#endif
