/* Byte codes of the apitrace stream grammar (../shared/formats/apitrace-binary-format.md). */
#ifndef AT_FORMAT_H
#define AT_FORMAT_H

#define AT_VERSION_MAX 6

enum at_event { AT_EVENT_ENTER = 0x00, AT_EVENT_LEAVE = 0x01 };

enum at_detail {
    AT_DETAIL_END = 0x00,
    AT_DETAIL_ARG = 0x01,
    AT_DETAIL_RET = 0x02,
    AT_DETAIL_THREAD = 0x03, /* version < 4 */
    AT_DETAIL_BACKTRACE = 0x04,
    AT_DETAIL_FLAGS = 0x05,  /* written by apitrace 7+: bit 0 = fake call */
};

enum { AT_FLAG_FAKE = 1 };

enum at_type {
    AT_TYPE_NULL = 0x00,
    AT_TYPE_FALSE = 0x01,
    AT_TYPE_TRUE = 0x02,
    AT_TYPE_SINT = 0x03,
    AT_TYPE_UINT = 0x04,
    AT_TYPE_FLOAT = 0x05,
    AT_TYPE_DOUBLE = 0x06,
    AT_TYPE_STRING = 0x07,
    AT_TYPE_BLOB = 0x08,
    AT_TYPE_ENUM = 0x09,
    AT_TYPE_BITMASK = 0x0a,
    AT_TYPE_ARRAY = 0x0b,
    AT_TYPE_STRUCT = 0x0c,
    AT_TYPE_OPAQUE = 0x0d,
    AT_TYPE_REPR = 0x0e,
    AT_TYPE_WSTRING = 0x0f,
};

enum at_frame_detail {
    AT_FRAME_END = 0x00,
    AT_FRAME_MODULE = 0x01,
    AT_FRAME_FUNCTION = 0x02,
    AT_FRAME_FILENAME = 0x03,
    AT_FRAME_LINE = 0x04,
    AT_FRAME_OFFSET = 0x05,
};

/* The Snappy container's magic and the writer's chunk size. */
#define AT_SNAPPY_MAGIC0 'a'
#define AT_SNAPPY_MAGIC1 't'
#define AT_SNAPPY_CHUNK (1u << 20)

#endif
