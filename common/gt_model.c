#include "gt_model.h"

const char *gt_enum_name(const gt_enum_sig *sig, int64_t v)
{
    for (uint32_t i = 0; i < sig->num_values; ++i)
        if (sig->values[i].value == v)
            return sig->values[i].name;
    return NULL;
}
