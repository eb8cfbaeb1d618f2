/* The simulator's GATT discovery (Core v5.4 Vol 3 Part G) as the study's central runs it
 * before the exchange: the server's attribute table and its answers to the discovery
 * requests (Part F §3.4.3, §3.4.4), and the client, which discovers the key-exchange
 * service by its UUID (Part G §4.4.2), its characteristics (§4.6.1) and the
 * characteristic's descriptors (§4.7.1), then writes the CCCD to enable the server's
 * notifications or indications (§4.12.3). The server is the side cfg.ble.gatt_server
 * names (the study's: the peripheral), the client the other. The same PDUs the estimator
 * counts (src/ble/setup.c). */
#include <string.h>

#include "pqpan/sim.h"
#include "sim/sim_internal.h"

#include "ble/le_bytes.h"

/* Assigned Numbers (GATT declarations and descriptors). */
#define UUID_PRIMARY_SERVICE 0x2800u
#define UUID_CHARACTERISTIC 0x2803u
#define UUID_CCCD 0x2902u
/* Part G §3.3.1.1, Table 3.5: characteristic properties Write Without Response (0x04),
 * Write (0x08), Notify (0x10), Indicate (0x20). */
#define PROP_WRITE_CMD 0x04u
#define PROP_WRITE 0x08u
#define PROP_NOTIFY 0x10u
#define PROP_INDICATE 0x20u
/* Part G §3.3.3.3, Table 3.11: CCCD values with Notification or Indication enabled. */
#define CCCD_NOTIFICATION 0x0001u
#define CCCD_INDICATION 0x0002u
#define HANDLE_MAX 0xFFFFu
/* The table's handles: service declaration, characteristic declaration, value, CCCD. A
 * real server also holds the GAP and GATT services (Part G §7) below them; a discovery by
 * service UUID does not return those. */
#define H_SERVICE 0x0010u
#define H_DECL 0x0011u
#define H_CCCD 0x0013u

/* pqpan's key-exchange service and characteristic: random (version 4) 128-bit UUIDs
 * 4253459d-e84a-4ac4-af14-a78d75a86b61 and 0067ad9e-3425-4ee7-811e-8209c86cc960, as the
 * little-endian octets they are sent in. */
static const uint8_t service_uuid[16] = {0x61, 0x6b, 0xa8, 0x75, 0x8d, 0xa7, 0x14, 0xaf,
                                         0xc4, 0x4a, 0x4a, 0xe8, 0x9d, 0x45, 0x53, 0x42};
/* The characteristic declaration's value (Part G §3.3.1): properties (char_properties:
 * the study's Write and Indicate here), value handle (SIM_ATT_HANDLE = 0x0012,
 * little-endian), the characteristic's UUID. */
static const uint8_t char_declaration[19] = {PROP_WRITE | PROP_INDICATE, 0x12, 0x00, 0x60, 0xc9,
                                             0x6c, 0xc8, 0x09, 0x82, 0x1e, 0x81, 0xe7, 0x4e,
                                             0x25, 0x34, 0x9e, 0xad, 0x67, 0x00};
#define CHAR_UUID (char_declaration + 3)

enum disc_state { DISC_IDLE = 0, DISC_SERVICE, DISC_CHARS, DISC_DESCS, DISC_CCCD, DISC_DONE };

/* One attribute: its handle, its type (a 16-bit UUID, or 0 for the characteristic's
 * 128-bit UUID), and its value (NULL: not readable; the CCCD's is the node's state). */
struct attr {
    uint16_t handle;
    uint16_t type16;
    const uint8_t *value;
    uint8_t value_len;
};

static const struct attr table[] = {
    {H_SERVICE, UUID_PRIMARY_SERVICE, service_uuid, sizeof service_uuid},
    {H_DECL, UUID_CHARACTERISTIC, char_declaration, sizeof char_declaration},
    {SIM_ATT_HANDLE, 0u, NULL, 0u},
    {H_CCCD, UUID_CCCD, NULL, 2u},
};
#define N_ATTR (sizeof table / sizeof table[0])
#define SERVICE_END H_CCCD

const uint8_t *pqpan_sim_gatt_service_uuid(void)
{
    return service_uuid;
}

/* The property of the characteristic that lets a side send with procedure t. */
static uint8_t property_of(enum pqpan_ble_transfer t)
{
    switch (t) {
    case PQPAN_BLE_NOTIFY:
        return PROP_NOTIFY;
    case PQPAN_BLE_INDICATE:
        return PROP_INDICATE;
    case PQPAN_BLE_WRITE_CMD:
        return PROP_WRITE_CMD;
    default: /* Write Request, long write (Prepare/Execute Write) */
        return PROP_WRITE;
    }
}

/* The characteristic's properties: those of the procedures both sides send with. */
static uint8_t char_properties(const struct pqpan_sim *s)
{
    return (uint8_t)(property_of(pqpan_ble_config_procedure(&s->cfg.ble, PQPAN_BLE_CENTRAL)) |
                     property_of(pqpan_ble_config_procedure(&s->cfg.ble, PQPAN_BLE_PERIPHERAL)));
}

/* ---- server ---------------------------------------------------------------------------- */

/* A response carrying a list (and its format or length octet). */
static int send_list(struct pqpan_sim *s, int n, uint8_t opcode, uint8_t format,
                     const uint8_t *list, size_t len)
{
    struct pqpan_att_pdu r;
    memset(&r, 0, sizeof r);
    r.opcode = opcode;
    r.format = format;
    r.value = list;
    r.value_len = len;
    return pqpan_sim_reply_att(s, n, &r);
}

static int send_error(struct pqpan_sim *s, int n, uint8_t req, uint16_t handle, uint8_t code)
{
    struct pqpan_att_pdu r;
    memset(&r, 0, sizeof r);
    r.opcode = PQPAN_ATT_ERROR_RSP;
    r.req_opcode = req;
    r.handle = handle;
    r.error_code = code;
    return pqpan_sim_reply_att(s, n, &r);
}

/* Part F §3.4.3.1, §3.4.3.3, §3.4.4.1: a range starting at 0 or ending before its start
 * is answered with Invalid Handle. */
static int range_bad(const struct pqpan_att_pdu *p)
{
    return p->handle == 0u || p->handle > p->end_handle;
}

static int in_range(const struct attr *a, const struct pqpan_att_pdu *p)
{
    return a->handle >= p->handle && a->handle <= p->end_handle;
}

/* §3.4.3.3/4: the primary services in the range whose UUID is the value, as (found
 * handle, group end handle) pairs, as many as ATT_MTU - 1 octets hold. */
int pqpan_sim_gatt_find_by_type(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    uint8_t list[PQPAN_ATT_MAX_MTU];
    size_t len = 0, i;
    if (range_bad(p)) {
        return send_error(s, n, p->opcode, p->handle, PQPAN_ATT_ERR_INVALID_HANDLE);
    }
    for (i = 0; i < N_ATTR && len + 4u <= (size_t)s->att_mtu - 1u; i++) {
        const struct attr *a = &table[i];
        if (in_range(a, p) && a->type16 == p->type16 && a->type16 == UUID_PRIMARY_SERVICE &&
            a->value_len == p->value_len && memcmp(a->value, p->value, p->value_len) == 0) {
            put_le16(list + len, a->handle);
            put_le16(list + len + 2, SERVICE_END);
            len += 4u;
        }
    }
    if (len == 0u) {
        return send_error(s, n, p->opcode, p->handle, PQPAN_ATT_ERR_ATTRIBUTE_NOT_FOUND);
    }
    return send_list(s, n, PQPAN_ATT_FIND_BY_TYPE_VALUE_RSP, 0u, list, len);
}

static int type_matches(const struct attr *a, const struct pqpan_att_pdu *p)
{
    if (p->value_len == 2u) {
        return a->type16 != 0u && a->type16 == get_le16(p->value);
    }
    return a->type16 == 0u && memcmp(CHAR_UUID, p->value, 16) == 0;
}

/* An attribute's value: the CCCD's state, the declaration with its properties, or the
 * table's value (buf: room for the longest, the declaration). */
static const uint8_t *value_of(const struct pqpan_sim *s, const struct attr *a,
                               uint8_t buf[sizeof char_declaration])
{
    if (a->handle == H_CCCD) {
        put_le16(buf, s->cccd);
        return buf;
    }
    if (a->handle == H_DECL) {
        memcpy(buf, char_declaration, sizeof char_declaration);
        buf[0] = char_properties(s);
        return buf;
    }
    return a->value;
}

/* §3.4.4.1/2: the attributes of the type in the range as handle-value pairs, all of the
 * first's length, as many as ATT_MTU - 2 octets hold; a value is cut to ATT_MTU - 4. The
 * characteristic's value cannot be read (its properties have no Read). */
int pqpan_sim_gatt_read_by_type(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    uint8_t list[PQPAN_ATT_MAX_MTU], buf[sizeof char_declaration];
    size_t len = 0, item = 0, i;
    if (range_bad(p)) {
        return send_error(s, n, p->opcode, p->handle, PQPAN_ATT_ERR_INVALID_HANDLE);
    }
    for (i = 0; i < N_ATTR; i++) {
        const struct attr *a = &table[i];
        size_t v;
        if (!in_range(a, p) || !type_matches(a, p)) {
            continue;
        }
        if (a->value_len == 0u) {
            if (len > 0u) {
                break;
            }
            return send_error(s, n, p->opcode, a->handle, PQPAN_ATT_ERR_READ_NOT_PERMITTED);
        }
        v = a->value_len < (size_t)s->att_mtu - 4u ? a->value_len : (size_t)s->att_mtu - 4u;
        if ((item != 0u && 2u + v != item) || len + 2u + v > (size_t)s->att_mtu - 2u) {
            break;
        }
        item = 2u + v;
        put_le16(list + len, a->handle);
        memcpy(list + len + 2, value_of(s, a, buf), v);
        len += item;
    }
    if (len == 0u) {
        return send_error(s, n, p->opcode, p->handle, PQPAN_ATT_ERR_ATTRIBUTE_NOT_FOUND);
    }
    return send_list(s, n, PQPAN_ATT_READ_BY_TYPE_RSP, (uint8_t)item, list, len);
}

/* §3.4.3.1/2: the handles and types of the attributes in the range, all in the first's
 * format (16- or 128-bit UUID), as many as ATT_MTU - 2 octets hold. */
int pqpan_sim_gatt_find_information(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    uint8_t list[PQPAN_ATT_MAX_MTU];
    size_t len = 0, i;
    uint8_t format = 0;
    if (range_bad(p)) {
        return send_error(s, n, p->opcode, p->handle, PQPAN_ATT_ERR_INVALID_HANDLE);
    }
    for (i = 0; i < N_ATTR; i++) {
        const struct attr *a = &table[i];
        uint8_t f = a->type16 != 0u ? PQPAN_ATT_FORMAT_UUID16 : PQPAN_ATT_FORMAT_UUID128;
        size_t item = f == PQPAN_ATT_FORMAT_UUID16 ? 4u : 18u;
        if (!in_range(a, p)) {
            continue;
        }
        if ((format != 0u && f != format) || len + item > (size_t)s->att_mtu - 2u) {
            break;
        }
        format = f;
        put_le16(list + len, a->handle);
        if (f == PQPAN_ATT_FORMAT_UUID16) {
            put_le16(list + len + 2, a->type16);
        } else {
            memcpy(list + len + 2, CHAR_UUID, 16);
        }
        len += item;
    }
    if (len == 0u) {
        return send_error(s, n, p->opcode, p->handle, PQPAN_ATT_ERR_ATTRIBUTE_NOT_FOUND);
    }
    return send_list(s, n, PQPAN_ATT_FIND_INFORMATION_RSP, format, list, len);
}

int pqpan_sim_gatt_is_cccd(uint16_t handle)
{
    return handle == H_CCCD;
}

/* Part G §3.3.3.3: the CCCD takes a 2-octet value. */
int pqpan_sim_gatt_write_cccd(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    if (n != sim_gatt_server(s) || p->value_len != 2u) {
        return PQPAN_ERR_MALFORMED;
    }
    s->cccd = get_le16(p->value);
    return pqpan_sim_reply_opcode(s, n, PQPAN_ATT_WRITE_RSP);
}

/* ---- client ---------------------------------------------------------------------------- */

static int request_range(struct pqpan_sim *s, uint8_t opcode, uint16_t start, uint16_t end,
                         const uint8_t *value, size_t value_len)
{
    struct pqpan_att_pdu r;
    memset(&r, 0, sizeof r);
    r.opcode = opcode;
    r.handle = start;
    r.end_handle = end;
    r.type16 = UUID_PRIMARY_SERVICE;
    r.value = value;
    r.value_len = value_len;
    return pqpan_sim_reply_att(s, sim_gatt_client(s), &r);
}

/* Discover Primary Service by Service UUID (Part G §4.4.2) over the whole handle range
 * first, then over what is left after the service found. */
static int find_service(struct pqpan_sim *s, uint16_t start)
{
    s->disc_state = DISC_SERVICE;
    return request_range(s, PQPAN_ATT_FIND_BY_TYPE_VALUE_REQ, start, HANDLE_MAX, service_uuid,
                         sizeof service_uuid);
}

/* Discover All Characteristics of a Service (§4.6.1): Read By Type «Characteristic». */
static int find_characteristics(struct pqpan_sim *s, uint16_t start)
{
    uint8_t uuid[2];
    put_le16(uuid, UUID_CHARACTERISTIC);
    s->disc_state = DISC_CHARS;
    return request_range(s, PQPAN_ATT_READ_BY_TYPE_REQ, start, s->disc_service_end, uuid, 2);
}

/* Discover All Characteristic Descriptors (§4.7.1): from after the value handle to the
 * characteristic's end, here the service's. */
static int find_descriptors(struct pqpan_sim *s, uint16_t start)
{
    if (s->disc_value_handle == 0u || start > s->disc_service_end) {
        return PQPAN_ERR_MALFORMED; /* no key-exchange characteristic, or no descriptor */
    }
    s->disc_state = DISC_DESCS;
    return request_range(s, PQPAN_ATT_FIND_INFORMATION_REQ, start, s->disc_service_end, NULL, 0);
}

/* Write Characteristic Descriptors (§4.12.3): a Write Request to the CCCD enabling the
 * server's notifications, or its indications (the study's, and for a server method that
 * is none of the two: a configuration GATT cannot build, priced when asked to). */
static int write_cccd(struct pqpan_sim *s)
{
    struct pqpan_att_pdu r;
    uint8_t v[2];
    int notify = pqpan_ble_config_procedure(&s->cfg.ble, (enum pqpan_ble_role)sim_gatt_server(s)) ==
                 PQPAN_BLE_NOTIFY;
    if (s->disc_cccd_handle == 0u) {
        return PQPAN_ERR_MALFORMED;
    }
    put_le16(v, notify ? CCCD_NOTIFICATION : CCCD_INDICATION);
    memset(&r, 0, sizeof r);
    r.opcode = PQPAN_ATT_WRITE_REQ;
    r.handle = s->disc_cccd_handle;
    r.value = v;
    r.value_len = sizeof v;
    s->disc_state = DISC_CCCD;
    return pqpan_sim_reply_att(s, sim_gatt_client(s), &r);
}

int pqpan_sim_start_discovery(struct pqpan_sim *s)
{
    return find_service(s, 0x0001u);
}

static int client_ok(const struct pqpan_sim *s, int n, int state)
{
    return n == sim_gatt_client(s) && s->disc_state == state;
}

/* The sub-procedure ends at a Group End Handle of 0xFFFF, or goes on after it. */
int pqpan_sim_gatt_on_find_by_type_rsp(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    uint16_t end;
    if (!client_ok(s, n, DISC_SERVICE)) {
        return PQPAN_ERR_MALFORMED;
    }
    end = get_le16(p->value + p->value_len - 2u);
    s->disc_service_start = get_le16(p->value);
    s->disc_service_end = get_le16(p->value + 2);
    return end == HANDLE_MAX ? find_characteristics(s, s->disc_service_start)
                             : find_service(s, (uint16_t)(end + 1u));
}

/* Each declaration: handle, properties, value handle, UUID. The sub-procedure ends when a
 * declaration reaches the range's end, or goes on after the last one. */
int pqpan_sim_gatt_on_read_by_type_rsp(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    size_t i, item = p->format;
    uint16_t last = 0;
    if (!client_ok(s, n, DISC_CHARS) || item < 5u) {
        return PQPAN_ERR_MALFORMED;
    }
    for (i = 0; i < p->value_len; i += item) {
        last = get_le16(p->value + i);
        if (item == 5u + 16u && memcmp(p->value + i + 5, CHAR_UUID, 16) == 0) {
            s->disc_value_handle = get_le16(p->value + i + 3);
        }
    }
    return last >= s->disc_service_end ? find_descriptors(s, (uint16_t)(s->disc_value_handle + 1u))
                                       : find_characteristics(s, (uint16_t)(last + 1u));
}

int pqpan_sim_gatt_on_find_info_rsp(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    size_t i, item = p->format == PQPAN_ATT_FORMAT_UUID16 ? 4u : 18u;
    uint16_t last = 0;
    if (!client_ok(s, n, DISC_DESCS)) {
        return PQPAN_ERR_MALFORMED;
    }
    for (i = 0; i < p->value_len; i += item) {
        last = get_le16(p->value + i);
        if (item == 4u && get_le16(p->value + i + 2) == UUID_CCCD) {
            s->disc_cccd_handle = last;
        }
    }
    return last >= s->disc_service_end ? write_cccd(s) : find_descriptors(s, (uint16_t)(last + 1u));
}

/* Attribute Not Found ends a sub-procedure (§4.4.2, §4.6.1, §4.7.1); the next follows. */
int pqpan_sim_gatt_on_error(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    if (n != sim_gatt_client(s) || p->error_code != PQPAN_ATT_ERR_ATTRIBUTE_NOT_FOUND) {
        return PQPAN_ERR_MALFORMED;
    }
    switch (s->disc_state) {
    case DISC_SERVICE:
        return s->disc_service_end != 0u ? find_characteristics(s, s->disc_service_start)
                                         : PQPAN_ERR_MALFORMED;
    case DISC_CHARS:
        return find_descriptors(s, (uint16_t)(s->disc_value_handle + 1u));
    case DISC_DESCS:
        return write_cccd(s);
    default:
        return PQPAN_ERR_MALFORMED;
    }
}

/* A Write Response: the CCCD's ends the discovery; others answer a message's writes. */
int pqpan_sim_gatt_on_write_rsp(struct pqpan_sim *s, int n)
{
    if (n != sim_gatt_client(s) || s->disc_state != DISC_CCCD) {
        return 0;
    }
    s->disc_state = DISC_DONE;
    pqpan_sim_negotiation_done(s);
    return 1;
}
