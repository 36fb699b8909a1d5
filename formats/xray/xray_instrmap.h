/* An XRay instrumentation map: function ids to addresses and names, read from
 * the ELF section xray_instr_map of an instrumented binary and its symbol
 * table, numbered as llvm-xray and the runtime do (ids from 1, a new id each
 * time the function address changes between consecutive sleds). */
#ifndef XRAY_INSTRMAP_H
#define XRAY_INSTRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"

typedef struct gt_xray_instrmap gt_xray_instrmap;

gt_xray_instrmap *gt_xray_instrmap_load(const char *path, gt_error *err);
gt_xray_instrmap *gt_xray_instrmap_load_mem(const uint8_t *data, size_t size, const char *name,
                                            gt_error *err);
void gt_xray_instrmap_free(gt_xray_instrmap *m);

/* Number of function ids (ids are 1..count). */
uint32_t gt_xray_instrmap_count(const gt_xray_instrmap *m);
/* Function address of an id, 0 if unknown. */
uint64_t gt_xray_instrmap_addr(const gt_xray_instrmap *m, uint32_t id);
/* Symbol name of an id's function, NULL if unknown or unnamed. */
const char *gt_xray_instrmap_name(const gt_xray_instrmap *m, uint32_t id);

#endif
