/* ATT PDU codecs for the opcodes a key transfer and the GATT discovery before it use
 * (Core v5.4 Vol 3 Part F §3.4). One table row per opcode gives its layout; write and
 * parse share the table. */
#include "pqpan/ble_pdu.h"

#include <string.h>

#include "ble/le_bytes.h"

/* Which fields follow the opcode, in order. */
enum att_layout {
    LAYOUT_MTU = 1,             /* MTU (2) */
    LAYOUT_HANDLE_VALUE,        /* handle (2), value */
    LAYOUT_HANDLE_OFFSET_VALUE, /* handle (2), offset (2), value */
    LAYOUT_FLAGS,               /* flags (1) */
    LAYOUT_EMPTY,               /* nothing */
    LAYOUT_ERROR,               /* request opcode in error (1), handle (2), error code (1) */
    LAYOUT_RANGE,               /* starting handle (2), ending handle (2) */
    LAYOUT_RANGE_TYPE_VALUE,    /* starting, ending handle, attribute type (2), value */
    LAYOUT_RANGE_UUID,          /* starting, ending handle, attribute type UUID (2 or 16) */
    LAYOUT_FORMAT_LIST,         /* format or length (1), a list of equal-sized items */
    LAYOUT_LIST                 /* a list of handle pairs (4 octets each) */
};

struct att_row {
    uint8_t opcode;
    uint8_t layout;
};

static const struct att_row att_rows[] = {
    {PQPAN_ATT_ERROR_RSP, LAYOUT_ERROR},                       /* §3.4.1.1 */
    {PQPAN_ATT_EXCHANGE_MTU_REQ, LAYOUT_MTU},                  /* §3.4.2.1 */
    {PQPAN_ATT_EXCHANGE_MTU_RSP, LAYOUT_MTU},                  /* §3.4.2.2 */
    {PQPAN_ATT_FIND_INFORMATION_REQ, LAYOUT_RANGE},            /* §3.4.3.1 */
    {PQPAN_ATT_FIND_INFORMATION_RSP, LAYOUT_FORMAT_LIST},      /* §3.4.3.2 */
    {PQPAN_ATT_FIND_BY_TYPE_VALUE_REQ, LAYOUT_RANGE_TYPE_VALUE}, /* §3.4.3.3 */
    {PQPAN_ATT_FIND_BY_TYPE_VALUE_RSP, LAYOUT_LIST},           /* §3.4.3.4 */
    {PQPAN_ATT_READ_BY_TYPE_REQ, LAYOUT_RANGE_UUID},           /* §3.4.4.1 */
    {PQPAN_ATT_READ_BY_TYPE_RSP, LAYOUT_FORMAT_LIST},          /* §3.4.4.2 */
    {PQPAN_ATT_WRITE_REQ, LAYOUT_HANDLE_VALUE},                /* §3.4.5.1 */
    {PQPAN_ATT_WRITE_RSP, LAYOUT_EMPTY},                       /* §3.4.5.2 */
    {PQPAN_ATT_PREPARE_WRITE_REQ, LAYOUT_HANDLE_OFFSET_VALUE}, /* §3.4.6.1 */
    {PQPAN_ATT_PREPARE_WRITE_RSP, LAYOUT_HANDLE_OFFSET_VALUE}, /* §3.4.6.2 */
    {PQPAN_ATT_EXECUTE_WRITE_REQ, LAYOUT_FLAGS},               /* §3.4.6.3 */
    {PQPAN_ATT_EXECUTE_WRITE_RSP, LAYOUT_EMPTY},               /* §3.4.6.4 */
    {PQPAN_ATT_HANDLE_VALUE_NTF, LAYOUT_HANDLE_VALUE},         /* §3.4.7.1 */
    {PQPAN_ATT_HANDLE_VALUE_IND, LAYOUT_HANDLE_VALUE},         /* §3.4.7.2 */
    {PQPAN_ATT_HANDLE_VALUE_CFM, LAYOUT_EMPTY},                /* §3.4.7.3 */
    {PQPAN_ATT_WRITE_CMD, LAYOUT_HANDLE_VALUE},                /* §3.4.5.3 */
};

static int layout_of(uint8_t opcode)
{
    size_t i;
    for (i = 0; i < sizeof att_rows / sizeof att_rows[0]; i++) {
        if (att_rows[i].opcode == opcode) {
            return att_rows[i].layout;
        }
    }
    return 0;
}

/* Octets before the value (opcode included). */
static size_t fixed_len(int layout)
{
    switch (layout) {
    case LAYOUT_MTU:
    case LAYOUT_HANDLE_VALUE:
        return 3;
    case LAYOUT_HANDLE_OFFSET_VALUE:
    case LAYOUT_ERROR:
    case LAYOUT_RANGE:
    case LAYOUT_RANGE_UUID:
        return 5;
    case LAYOUT_RANGE_TYPE_VALUE:
        return 7;
    case LAYOUT_FLAGS:
    case LAYOUT_FORMAT_LIST:
        return 2;
    default:
        return 1;
    }
}

static int has_value(int layout)
{
    return layout == LAYOUT_HANDLE_VALUE || layout == LAYOUT_HANDLE_OFFSET_VALUE ||
           layout == LAYOUT_RANGE_TYPE_VALUE || layout == LAYOUT_RANGE_UUID ||
           layout == LAYOUT_FORMAT_LIST || layout == LAYOUT_LIST;
}

/* Size of one list item: Find Information Response Format 0x01 = handle + 16-bit UUID,
 * 0x02 = handle + 128-bit UUID (§3.4.3.2); Read By Type Response Length = the item size,
 * at least the 2-octet handle (§3.4.4.2); Find By Type Value Response: handle pairs. 0 if
 * the format is not valid. */
static size_t item_len(uint8_t opcode, uint8_t format)
{
    if (opcode == PQPAN_ATT_FIND_INFORMATION_RSP) {
        return format == PQPAN_ATT_FORMAT_UUID16 ? 4u : format == PQPAN_ATT_FORMAT_UUID128 ? 18u : 0u;
    }
    if (opcode == PQPAN_ATT_READ_BY_TYPE_RSP) {
        return format >= 2u ? format : 0u;
    }
    return 4u;
}

/* Whether a value of len octets fits the layout: a UUID of 2 or 16 octets, or a
 * non-empty list of whole items. */
static int value_ok(uint8_t opcode, int layout, uint8_t format, size_t len)
{
    size_t item;
    if (layout == LAYOUT_RANGE_UUID) {
        return len == 2u || len == 16u;
    }
    if (layout != LAYOUT_FORMAT_LIST && layout != LAYOUT_LIST) {
        return 1;
    }
    item = item_len(opcode, format);
    return item > 0u && len > 0u && len % item == 0u;
}

static void write_fields(uint8_t *out, int layout, const struct pqpan_att_pdu *p)
{
    switch (layout) {
    case LAYOUT_MTU:
        put_le16(out + 1, p->mtu);
        break;
    case LAYOUT_FLAGS:
        out[1] = p->flags;
        break;
    case LAYOUT_FORMAT_LIST:
        out[1] = p->format;
        break;
    case LAYOUT_ERROR:
        out[1] = p->req_opcode;
        put_le16(out + 2, p->handle);
        out[4] = p->error_code;
        break;
    case LAYOUT_RANGE:
    case LAYOUT_RANGE_UUID:
    case LAYOUT_RANGE_TYPE_VALUE:
        put_le16(out + 1, p->handle);
        put_le16(out + 3, p->end_handle);
        if (layout == LAYOUT_RANGE_TYPE_VALUE) {
            put_le16(out + 5, p->type16);
        }
        break;
    case LAYOUT_HANDLE_VALUE:
    case LAYOUT_HANDLE_OFFSET_VALUE:
        put_le16(out + 1, p->handle);
        if (layout == LAYOUT_HANDLE_OFFSET_VALUE) {
            put_le16(out + 3, p->offset);
        }
        break;
    default:
        break;
    }
}

int pqpan_att_pdu_write(uint8_t *out, size_t cap, const struct pqpan_att_pdu *p, size_t *written)
{
    int layout = layout_of(p->opcode);
    size_t head = fixed_len(layout);
    size_t vlen = has_value(layout) ? p->value_len : 0u;
    *written = 0;
    if (layout == 0) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    if ((vlen > 0 && p->value == NULL) || !value_ok(p->opcode, layout, p->format, vlen)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < head || cap - head < vlen) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = p->opcode;
    write_fields(out, layout, p);
    if (vlen > 0) {
        memcpy(out + head, p->value, vlen);
    }
    *written = head + vlen;
    return PQPAN_OK;
}

static void parse_fields(struct pqpan_att_pdu *p, int layout, const uint8_t *in)
{
    switch (layout) {
    case LAYOUT_MTU:
        p->mtu = get_le16(in + 1);
        break;
    case LAYOUT_FLAGS:
        p->flags = in[1];
        break;
    case LAYOUT_FORMAT_LIST:
        p->format = in[1];
        break;
    case LAYOUT_ERROR:
        p->req_opcode = in[1];
        p->handle = get_le16(in + 2);
        p->error_code = in[4];
        break;
    case LAYOUT_RANGE:
    case LAYOUT_RANGE_UUID:
    case LAYOUT_RANGE_TYPE_VALUE:
        p->handle = get_le16(in + 1);
        p->end_handle = get_le16(in + 3);
        if (layout == LAYOUT_RANGE_TYPE_VALUE) {
            p->type16 = get_le16(in + 5);
        }
        break;
    case LAYOUT_HANDLE_VALUE:
    case LAYOUT_HANDLE_OFFSET_VALUE:
        p->handle = get_le16(in + 1);
        if (layout == LAYOUT_HANDLE_OFFSET_VALUE) {
            p->offset = get_le16(in + 3);
        }
        break;
    default:
        break;
    }
}

int pqpan_att_pdu_parse(struct pqpan_att_pdu *p, const uint8_t *in, size_t len)
{
    int layout;
    size_t head;
    memset(p, 0, sizeof *p);
    if (len < 1 || len > PQPAN_ATT_MAX_MTU) {
        return PQPAN_ERR_BAD_LENGTH; /* §3.2.8: no ATT PDU is longer than ATT_MTU */
    }
    layout = layout_of(in[0]);
    if (layout == 0) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    head = fixed_len(layout);
    if (len < head || (!has_value(layout) && len != head)) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    p->opcode = in[0];
    parse_fields(p, layout, in);
    if (has_value(layout)) {
        p->value = in + head;
        p->value_len = len - head;
    }
    if (!value_ok(p->opcode, layout, p->format, p->value_len)) {
        memset(p, 0, sizeof *p);
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}
