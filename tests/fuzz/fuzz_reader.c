/* libFuzzer target: any bytes as a trace file. Opens them from memory, reads every
 * call and dumps it, twice: with blob data and plain at_reader_next, then without blob
 * data through the event-level API with the other dump options. Nothing may crash,
 * leak, hang or allocate far beyond the input's size, whatever the bytes. */
#include <stddef.h>
#include <stdint.h>

#include "at_dump.h"
#include "at_reader.h"
#include "gt_strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_all(const uint8_t *data, size_t size, int events)
{
    gt_error err;
    gt_error_clear(&err);
    at_input *in = at_input_open_mem(data, size, "fuzz.trace", &err);
    if (!in)
        return;
    at_reader_options opt = {.skip_blob_data = events};
    at_reader *r = at_reader_open_input(in, &opt, &err); /* owns in, even on failure */
    if (!r)
        return;
    at_dump_options o;
    at_dump_default_options(&o);
    if (events) {
        o.thread_ids = o.color = true;
        o.arg_names = o.multiline = false;
    }
    gt_strbuf b;
    gt_strbuf_init(&b);
    for (unsigned i = 0; i < at_reader_num_properties(r); ++i) {
        const at_property *p = at_reader_property(r, i);
        at_dump_property(&b, p->name, p->value, &o);
    }
    gt_call *c;
    at_event_kind kind = AT_EV_LEAVE;
    while ((c = events ? at_reader_next_event(r, &kind) : at_reader_next(r))) {
        at_dump_call(&b, c, &o);
        if (b.len > (1u << 20))
            b.len = 0; /* the text is not kept: only producing it matters */
        if (kind != AT_EV_ENTER) /* calls at their enter event stay the reader's */
            at_reader_release(r, c);
    }
    (void)at_reader_error(r);
    (void)at_reader_warning(r);
    at_reader_stats st;
    at_reader_get_stats(r, &st);
    at_reader_close(r);
    gt_strbuf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_all(data, size, 0);
    read_all(data, size, 1);
    return 0;
}
