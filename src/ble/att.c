/* L2CAP fragmentation and the ATT transactions that carry one message
 * (Core v5.4 Vol 3 Part A §3.1, §7.2; Vol 3 Part F §3.4; Vol 3 Part G §4.9–§4.11). */
#include <string.h>

#include "ble/setup.h"
#include "pqpan/ble.h"

/* Vol 3 Part A §7.2 + Vol 6 Part B §2.4: the L2CAP PDU (basic header + information
 * payload) is cut into LL data PDUs of at most connMaxTxOctets, in order. */
void pqpan_ble_fragment(struct pqpan_ble_frags *out, uint32_t sdu_len, uint32_t ll_octets)
{
    uint32_t total = sdu_len + PQPAN_L2CAP_HDR_BYTES;
    out->count = total <= ll_octets ? 1u : (total + ll_octets - 1u) / ll_octets;
    out->full = out->count > 1u ? ll_octets : total;
    out->last = total - (out->count - 1u) * ll_octets;
}

static const char *const transfer_names[PQPAN_BLE_TRANSFER_COUNT] = {
    "notify", "indicate", "write-req", "write-cmd", "long-write", "study",
};

const char *pqpan_ble_transfer_name(enum pqpan_ble_transfer t)
{
    return (t >= 0 && t < PQPAN_BLE_TRANSFER_COUNT) ? transfer_names[t] : "unknown";
}

int pqpan_ble_transfer_parse(enum pqpan_ble_transfer *out, const char *name)
{
    int i;
    for (i = 0; i < PQPAN_BLE_TRANSFER_COUNT; i++) {
        if (strcmp(name, transfer_names[i]) == 0) {
            *out = (enum pqpan_ble_transfer)i;
            return PQPAN_OK;
        }
    }
    *out = PQPAN_BLE_NOTIFY;
    return PQPAN_ERR_INVALID_ARG;
}

/* Part G §2.2 (the client sends requests and commands, the server notifications and
 * indications): §4.10, §4.11 are the server's sub-procedures, §4.9's writes the client's. */
int pqpan_ble_transfer_of_server(enum pqpan_ble_transfer t)
{
    return t == PQPAN_BLE_NOTIFY || t == PQPAN_BLE_INDICATE;
}

int pqpan_ble_transfer_of_client(enum pqpan_ble_transfer t)
{
    return t == PQPAN_BLE_WRITE_REQ || t == PQPAN_BLE_WRITE_CMD || t == PQPAN_BLE_LONG_WRITE;
}

/* The named (server, client) pairs, in pqpan_ble_transfer_choice's order. */
static const struct {
    const char *name;
    enum pqpan_ble_transfer server, client;
} choices[PQPAN_BLE_TRANSFER_CHOICES] = {
    {"notify", PQPAN_BLE_NOTIFY, PQPAN_BLE_NOTIFY},
    {"indicate", PQPAN_BLE_INDICATE, PQPAN_BLE_INDICATE},
    {"write-req", PQPAN_BLE_WRITE_REQ, PQPAN_BLE_WRITE_REQ},
    {"write-cmd", PQPAN_BLE_WRITE_CMD, PQPAN_BLE_WRITE_CMD},
    {"long-write", PQPAN_BLE_LONG_WRITE, PQPAN_BLE_LONG_WRITE},
    {"study", PQPAN_BLE_STUDY, PQPAN_BLE_STUDY},
    {"notify/write-req", PQPAN_BLE_NOTIFY, PQPAN_BLE_WRITE_REQ},
    {"notify/write-cmd", PQPAN_BLE_NOTIFY, PQPAN_BLE_WRITE_CMD},
    {"notify/long-write", PQPAN_BLE_NOTIFY, PQPAN_BLE_LONG_WRITE},
    {"indicate/write-req", PQPAN_BLE_INDICATE, PQPAN_BLE_WRITE_REQ},
    {"indicate/write-cmd", PQPAN_BLE_INDICATE, PQPAN_BLE_WRITE_CMD},
    {"indicate/long-write", PQPAN_BLE_INDICATE, PQPAN_BLE_LONG_WRITE},
};

const char *pqpan_ble_transfer_choice(unsigned i, enum pqpan_ble_transfer *server,
                                      enum pqpan_ble_transfer *client)
{
    if (i >= PQPAN_BLE_TRANSFER_CHOICES) {
        return NULL;
    }
    if (server != NULL) {
        *server = choices[i].server;
    }
    if (client != NULL) {
        *client = choices[i].client;
    }
    return choices[i].name;
}

const char *pqpan_ble_transfer_choice_name(enum pqpan_ble_transfer server,
                                           enum pqpan_ble_transfer client)
{
    unsigned i;
    for (i = 0; i < PQPAN_BLE_TRANSFER_CHOICES; i++) {
        if (choices[i].server == server && choices[i].client == client) {
            return choices[i].name;
        }
    }
    return NULL;
}

int pqpan_ble_transfer_choice_parse(enum pqpan_ble_transfer *server,
                                    enum pqpan_ble_transfer *client, const char *name)
{
    unsigned i;
    for (i = 0; i < PQPAN_BLE_TRANSFER_CHOICES; i++) {
        if (strcmp(name, choices[i].name) == 0) {
            *server = choices[i].server;
            *client = choices[i].client;
            return PQPAN_OK;
        }
    }
    return PQPAN_ERR_INVALID_ARG;
}

enum pqpan_ble_transfer pqpan_ble_config_transfer(const struct pqpan_ble_config *cfg,
                                                  enum pqpan_ble_role sender)
{
    return sender == cfg->gatt_server ? cfg->server_transfer : cfg->client_transfer;
}

enum pqpan_ble_transfer pqpan_ble_config_procedure(const struct pqpan_ble_config *cfg,
                                                   enum pqpan_ble_role sender)
{
    enum pqpan_ble_transfer t = pqpan_ble_config_transfer(cfg, sender);
    if (t != PQPAN_BLE_STUDY) {
        return t;
    }
    return sender == cfg->keygen_side ? PQPAN_BLE_INDICATE : PQPAN_BLE_WRITE_REQ;
}

/* The fault of side r's messages, if any. */
static enum pqpan_ble_gatt_fault side_fault(const struct pqpan_ble_config *cfg,
                                            enum pqpan_ble_role r)
{
    enum pqpan_ble_transfer t = pqpan_ble_config_procedure(cfg, r);
    if (r == cfg->gatt_server) {
        return pqpan_ble_transfer_of_server(t) ? PQPAN_BLE_GATT_OK : PQPAN_BLE_GATT_SERVER_WRITES;
    }
    return pqpan_ble_transfer_of_client(t) ? PQPAN_BLE_GATT_OK : PQPAN_BLE_GATT_CLIENT_NOTIFIES;
}

enum pqpan_ble_gatt_fault pqpan_ble_config_gatt_fault(const struct pqpan_ble_config *cfg,
                                                      enum pqpan_ble_role *side)
{
    enum pqpan_ble_role k = cfg->keygen_side;
    enum pqpan_ble_role o = k == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
    enum pqpan_ble_gatt_fault f = side_fault(cfg, k);
    enum pqpan_ble_role at = k;
    if (f == PQPAN_BLE_GATT_OK) {
        f = side_fault(cfg, o);
        at = o;
    }
    if (f != PQPAN_BLE_GATT_OK && side != NULL) {
        *side = at;
    }
    return f;
}

/* The study's prototype (DESIGN.md): ek values of at most 400 octets per indication
 * (ATT_MTU 403); ct in frames of ceil(ct / n) octets, n = ceil(ct / 392), each written
 * with one frame-number octet in front (768 → 2×385, 1088 → 364+364+363, 1568 → 4×393). */
#define STUDY_EK_CHUNK 400u
#define STUDY_CT_FRAME_MAX 392u
#define STUDY_FRAME_NUMBER_BYTES 1u
#define STUDY_ATT_MTU 403u

struct plan {
    struct pqpan_ble_txn *t;
    uint32_t n;
    enum pqpan_ble_role sender;
    enum pqpan_phase phase;
};

static void plan_add(struct plan *p, uint32_t count, uint32_t len, uint32_t last_len,
                     uint32_t rsp_len)
{
    struct pqpan_ble_txn *x;
    if (count == 0u) {
        return;
    }
    x = &p->t[p->n++];
    memset(x, 0, sizeof *x);
    x->sender = p->sender;
    x->phase = p->phase;
    x->count = count;
    x->len = len;
    x->last_len = last_len;
    x->rsp_len = rsp_len;
}

/* msg_len octets in values of at most unit octets, each behind an ATT header of hdr
 * octets, optionally with extra octets added to every value (the study's frame number). */
static void plan_values(struct plan *p, uint32_t msg_len, uint32_t unit, uint32_t hdr,
                        uint32_t extra, uint32_t rsp_len)
{
    uint32_t count = (msg_len + unit - 1u) / unit;
    uint32_t last = msg_len - (count - 1u) * unit;
    plan_add(p, count, hdr + extra + unit, hdr + extra + last, rsp_len);
}

/* One long write of a value of len ≤ 512 octets, repeated times (Vol 3 Part G §4.9.4):
 * Prepare Write Requests of ≤ ATT_MTU-5 value octets, each echoed by a Prepare Write
 * Response of the same size (Part F §3.4.6.2), then Execute Write Request/Response. */
static void plan_long_write(struct plan *p, uint32_t times, uint32_t len, uint32_t att_mtu)
{
    uint32_t part = att_mtu - PQPAN_ATT_PREPARE_HDR;
    uint32_t parts = (len + part - 1u) / part;
    uint32_t last = len - (parts > 0u ? parts - 1u : 0u) * part;
    uint32_t full_sz = PQPAN_ATT_PREPARE_HDR + part;
    uint32_t last_sz = PQPAN_ATT_PREPARE_HDR + last;
    if (times == 0u || len == 0u) {
        return;
    }
    plan_add(p, times * (parts - 1u), full_sz, full_sz, full_sz);
    plan_add(p, times, last_sz, last_sz, last_sz);
    plan_add(p, times, PQPAN_ATT_EXECUTE_REQ_BYTES, PQPAN_ATT_EXECUTE_REQ_BYTES,
             PQPAN_ATT_OPCODE_ONLY_BYTES);
}

static void plan_study(struct plan *p, int is_ek, uint32_t msg_len)
{
    uint32_t frames, frame;
    if (is_ek) {
        plan_values(p, msg_len, STUDY_EK_CHUNK, PQPAN_ATT_HANDLE_VALUE_HDR, 0u,
                    PQPAN_ATT_OPCODE_ONLY_BYTES);
        return;
    }
    frames = (msg_len + STUDY_CT_FRAME_MAX - 1u) / STUDY_CT_FRAME_MAX;
    frame = (msg_len + frames - 1u) / frames;
    plan_values(p, msg_len, frame, PQPAN_ATT_HANDLE_VALUE_HDR, STUDY_FRAME_NUMBER_BYTES,
                PQPAN_ATT_OPCODE_ONLY_BYTES);
}

enum pqpan_ble_transfer pqpan_ble_transfer_pdus(enum pqpan_ble_transfer t)
{
    if (t == PQPAN_BLE_WRITE_CMD) {
        return PQPAN_BLE_NOTIFY;
    }
    return t == PQPAN_BLE_WRITE_REQ ? PQPAN_BLE_INDICATE : t;
}

int pqpan_ble_plan_message(struct pqpan_ble_txn out[PQPAN_BLE_TXN_MAX], uint32_t *n,
                           enum pqpan_ble_transfer t, int is_ek, uint32_t msg_len,
                           uint32_t att_mtu, enum pqpan_ble_role sender,
                           enum pqpan_phase phase)
{
    struct plan p;
    uint32_t value_max = att_mtu - PQPAN_ATT_HANDLE_VALUE_HDR;
    *n = 0;
    if (msg_len == 0u || att_mtu < PQPAN_ATT_DEFAULT_MTU || att_mtu > PQPAN_ATT_MAX_MTU ||
        t < 0 || t >= PQPAN_BLE_TRANSFER_COUNT ||
        (t == PQPAN_BLE_STUDY && att_mtu < STUDY_ATT_MTU)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    p.t = out;
    p.n = 0;
    p.sender = sender;
    p.phase = phase;
    switch (pqpan_ble_transfer_pdus(t)) {
    case PQPAN_BLE_NOTIFY:
        plan_values(&p, msg_len, value_max, PQPAN_ATT_HANDLE_VALUE_HDR, 0u, 0u);
        break;
    case PQPAN_BLE_INDICATE:
        plan_values(&p, msg_len, value_max, PQPAN_ATT_HANDLE_VALUE_HDR, 0u,
                    PQPAN_ATT_OPCODE_ONLY_BYTES);
        break;
    case PQPAN_BLE_LONG_WRITE:
        plan_long_write(&p, msg_len / PQPAN_BLE_ATT_VALUE_MAX, PQPAN_BLE_ATT_VALUE_MAX, att_mtu);
        plan_long_write(&p, 1u, msg_len % PQPAN_BLE_ATT_VALUE_MAX, att_mtu);
        break;
    default:
        plan_study(&p, is_ek, msg_len);
        break;
    }
    *n = p.n;
    return PQPAN_OK;
}
