/* ATT PDU codecs for the opcodes a key transfer uses (Core v5.4 Vol 3 Part F §3.4).
 * One table row per opcode gives its fixed part; write and parse share the table. */
#include "pqpan/ble_pdu.h"

#include <string.h>

#include "ble/le_bytes.h"

/* Which fields follow the opcode, in order. */
enum att_layout {
    LAYOUT_MTU = 1,            /* MTU (2) */
    LAYOUT_HANDLE_VALUE,       /* handle (2), value */
    LAYOUT_HANDLE_OFFSET_VALUE,/* handle (2), offset (2), value */
    LAYOUT_FLAGS,              /* flags (1) */
    LAYOUT_EMPTY               /* nothing */
};

struct att_row {
    uint8_t opcode;
    uint8_t layout;
};

static const struct att_row att_rows[] = {
    {PQPAN_ATT_EXCHANGE_MTU_REQ, LAYOUT_MTU},                  /* §3.4.2.1 */
    {PQPAN_ATT_EXCHANGE_MTU_RSP, LAYOUT_MTU},                  /* §3.4.2.2 */
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

static size_t fixed_len(int layout)
{
    switch (layout) {
    case LAYOUT_MTU:
    case LAYOUT_HANDLE_VALUE:
        return 3;
    case LAYOUT_HANDLE_OFFSET_VALUE:
        return 5;
    case LAYOUT_FLAGS:
        return 2;
    default:
        return 1;
    }
}

int pqpan_att_pdu_write(uint8_t *out, size_t cap, const struct pqpan_att_pdu *p, size_t *written)
{
    int layout = layout_of(p->opcode);
    size_t head = fixed_len(layout);
    size_t vlen = 0;
    *written = 0;
    if (layout == LAYOUT_HANDLE_VALUE || layout == LAYOUT_HANDLE_OFFSET_VALUE) {
        vlen = p->value_len;
    }
    if (layout == 0) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    if (vlen > 0 && p->value == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < head || cap - head < vlen) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = p->opcode;
    if (layout == LAYOUT_MTU) {
        put_le16(out + 1, p->mtu);
    } else if (layout == LAYOUT_FLAGS) {
        out[1] = p->flags;
    } else if (layout != LAYOUT_EMPTY) {
        put_le16(out + 1, p->handle);
        if (layout == LAYOUT_HANDLE_OFFSET_VALUE) {
            put_le16(out + 3, p->offset);
        }
        if (vlen > 0) {
            memcpy(out + head, p->value, vlen);
        }
    }
    *written = head + vlen;
    return PQPAN_OK;
}

int pqpan_att_pdu_parse(struct pqpan_att_pdu *p, const uint8_t *in, size_t len)
{
    int layout;
    size_t head;
    memset(p, 0, sizeof *p);
    if (len < 1) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    layout = layout_of(in[0]);
    if (layout == 0) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    head = fixed_len(layout);
    if (len < head ||
        ((layout == LAYOUT_MTU || layout == LAYOUT_FLAGS || layout == LAYOUT_EMPTY) && len != head)) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    p->opcode = in[0];
    if (layout == LAYOUT_MTU) {
        p->mtu = get_le16(in + 1);
    } else if (layout == LAYOUT_FLAGS) {
        p->flags = in[1];
    } else if (layout != LAYOUT_EMPTY) {
        p->handle = get_le16(in + 1);
        if (layout == LAYOUT_HANDLE_OFFSET_VALUE) {
            p->offset = get_le16(in + 3);
        }
        p->value = in + head;
        p->value_len = len - head;
    }
    return PQPAN_OK;
}
