/* Keys between mesh nodes executed (mesh_net.h, pqpan_mesh_net_simulate): the real PQKE
 * between two nodes, every message carried octet by octet through the access, upper
 * transport, lower transport and network layers and the relays, timed on the estimator's
 * clock (net_clock.h) with the lengths built (docs/MODEL.md "Keys between mesh nodes"). */
#include <string.h>

#include "net_sar.h"
#include "pqpan/ble_pdu.h"
#include "pqpan/mesh_sim.h"

/* MshPRT sample data §8.2: NetKey, AppKey. */
static const uint8_t sample_net_key[16] = {0x7d, 0xd7, 0x36, 0x4c, 0xd8, 0x42, 0xad, 0x18,
                                           0xc1, 0x7c, 0x2b, 0x82, 0x0c, 0x84, 0xc3, 0xd6};
static const uint8_t sample_app_key[16] = {0x63, 0x96, 0x47, 0x71, 0x73, 0x4f, 0xbd, 0x76,
                                           0xe3, 0xb4, 0x05, 0x19, 0xd1, 0xd9, 0x4a, 0x48};

#define SEG_BIT 0x80u
#define AKF_BIT 0x40u
#define SEQ_ZERO_MASK 0x1FFFu
#define OBO_BIT 0x80u /* §3.5.2.3.1: acknowledged by a Friend on behalf of its LPN */
/* The loss draws' own source, apart from the keys' (so a --per changes no key), as PB-ADV's
 * (pbadv_sim.c). */
#define LOSS_SEED_XOR UINT64_C(0x9e3779b97f4a7c15)
/* Core v5.4 Vol 6 Part B §2.3, Table 2.3: PDU Type ADV_NONCONN_IND = 0b0010, TxAdd (bit 6)
 * set: AdvA a random address. */
#define ADV_NONCONN_IND_HDR0 0x42u
/* The capture's AdvA of a node (Vol 6 Part B §1.3.2.1 static device address: the two most
 * significant bits 0b11), little-endian on the air: C0:50:00:00:position:relay index. */
#define ADV_A_TOP 0xC0u
#define ADV_A_MARK 0x50u
/* The advertising channels of an event in order (Vol 6 Part B §4.4.2.1). */
#define ADV_FIRST_CHANNEL 37u
#define ADV_CHANNELS 3u

/* What both endpoints and the relays share, and each endpoint's next SEQ. */
struct net_run {
    struct mesh_net_clock clock;
    struct pqpan_mesh_net_sim *s;
    struct pqpan_mesh_net_keys keys;
    struct pqpan_mesh_net_keys friend_keys; /* --lpn: the friendship credentials */
    uint8_t aid;
    uint32_t seq[2];      /* index: 0 initiator, 1 responder */
    uint32_t cache[PQPAN_MESH_NET_HOPS_MAX + 1u][2]; /* a stage's last SEQ seen per source */
    struct pqpan_prng loss;
    uint32_t tag;       /* the part's PDU carry builds: segment k, or segs for its ack */
    int capture_failed; /* s->on_packet returned non-zero */
    uint32_t friend_seq; /* the Friend's next SEQ when it is a relay (--lpn, hops > 1) */
    /* the capture's Friend Poll or Update (both transmissions of a Poll alike): for which
     * tag and poll cycle, its octets */
    uint32_t ctl_tag, ctl_cycle;
    uint8_t ctl_pdu[PQPAN_MESH_NET_PDU_MAX];
    size_t ctl_len;
};

static uint16_t addr_of(uint32_t end)
{
    return end == 0u ? PQPAN_MESH_NET_SIM_INITIATOR_ADDR : PQPAN_MESH_NET_SIM_RESPONDER_ADDR;
}

static int is_lpn(const struct net_run *r, uint32_t pos)
{
    const struct pqpan_mesh_net_config *cfg = r->clock.cfg;
    return (cfg->lpn == PQPAN_MESH_NET_LPN_INITIATOR && pos == 0u) ||
           (cfg->lpn == PQPAN_MESH_NET_LPN_RESPONDER && pos == cfg->hops);
}

/* k4(AppKey) (§3.9.2.7): k1(AppKey, s1("smk4"), "id6" || 0x01) mod 2^6. */
static uint8_t aid_of(const uint8_t app_key[16])
{
    static const uint8_t smk4[4] = {'s', 'm', 'k', '4'};
    static const uint8_t id6[4] = {'i', 'd', '6', 0x01};
    uint8_t salt[16], t[16];
    pqpan_mesh_s1(salt, smk4, sizeof smk4);
    pqpan_mesh_k1(t, app_key, 16, salt, id6, sizeof id6);
    return (uint8_t)(t[15] & 0x3Fu);
}

/* Keeps the Network PDU the node at pos sends for the part's PDU r->tag (the capture's). */
static void keep(struct net_run *r, uint32_t pos, const uint8_t *pdu, size_t len)
{
    memcpy(r->s->air[r->tag][pos], pdu, len);
    r->s->air_len[r->tag][pos] = (uint8_t)len;
}

static uint16_t friend_addr(const struct net_run *r)
{
    return r->clock.cfg->hops == 1u ? addr_of(r->clock.friend.friend_pos)
                                    : PQPAN_MESH_NET_SIM_FRIEND_ADDR;
}

/* The next SEQ of the node at pos (an endpoint, or the Friend when it is a relay). */
static uint32_t next_seq(struct net_run *r, uint32_t pos)
{
    if (pos != 0u && pos != r->clock.cfg->hops) {
        return r->friend_seq++;
    }
    return r->seq[pos != 0u]++;
}

/* The Friend Poll (tag MESH_NET_TAG_POLL, FSN the poll cycle's parity) or Friend Update of
 * the clock's current poll cycle, built once a cycle with the friendship credentials, on
 * the sender's own SEQ. */
static int friend_ctl(struct net_run *r, uint32_t tag, const uint8_t **pdu, size_t *len)
{
    const struct mesh_friend *f = &r->clock.friend;
    uint32_t cycle = r->clock.out->polls;
    int poll = tag == MESH_NET_TAG_POLL, rc = PQPAN_OK;
    if (r->ctl_len == 0u || r->ctl_tag != tag || r->ctl_cycle != cycle) {
        uint16_t lpn = addr_of(f->lpn_pos), frnd = friend_addr(r);
        rc = pqpan_mesh_net_friend_build(
            r->ctl_pdu, &r->ctl_len, &r->friend_keys, PQPAN_MESH_NET_SIM_IV_INDEX,
            poll ? lpn : frnd, poll ? frnd : lpn,
            poll ? PQPAN_MESH_NET_FRIEND_POLL_OP : PQPAN_MESH_NET_FRIEND_UPDATE_OP,
            (uint8_t)(poll ? cycle & 1u : tag == MESH_NET_TAG_UPDATE_MD),
            next_seq(r, poll ? f->lpn_pos : f->friend_pos));
        r->ctl_tag = tag;
        r->ctl_cycle = cycle;
    }
    *pdu = r->ctl_pdu;
    *len = r->ctl_len;
    return rc;
}

/* The octets the node at pos sends for the clock's current tag; 0 when it has none. */
static size_t air_of(struct net_run *r, uint32_t pos, const uint8_t **pdu)
{
    uint32_t tag = r->clock.tag;
    size_t len = 0;
    if (tag >= MESH_NET_TAG_POLL) {
        return friend_ctl(r, tag, pdu, &len) == PQPAN_OK ? len : 0u;
    }
    *pdu = r->s->air[tag][pos];
    return r->s->air_len[tag][pos];
}

/* The clock's event of the holder-th node at pos from start: its ADV_NONCONN_IND (AdvData
 * the «Mesh Message» AD structure, MshPRT v1.1 §3.3.1) on each channel, each packet after
 * the pre-processing and its ramp-up (pbadv_clock.c's channel times). */
static void capture_event(void *ctx, uint32_t pos, uint32_t holder, uint64_t start)
{
    struct net_run *r = ctx;
    const struct pqpan_ble_device *d = r->clock.dev;
    const uint8_t *net = NULL;
    uint32_t len = (uint32_t)air_of(r, pos, &net), ch;
    uint32_t payload = pqpan_mesh_net_adv_payload(len);
    uint64_t packet_ns = pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, payload, 0);
    uint8_t pdu[PQPAN_LL_HDR_BYTES + PQPAN_BD_ADDR_BYTES + PQPAN_ADV_DATA_MAX + PQPAN_LL_CRC_BYTES];
    uint8_t *a = pdu + PQPAN_LL_HDR_BYTES, *ad = a + PQPAN_BD_ADDR_BYTES;
    if (len == 0u) {
        r->capture_failed = 1; /* a position that sent no PDU of this part: a fault */
        return;
    }
    pdu[0] = ADV_NONCONN_IND_HDR0;
    pdu[1] = (uint8_t)payload;
    a[0] = (uint8_t)holder;
    a[1] = (uint8_t)pos;
    a[2] = 0x00;
    a[3] = 0x00;
    a[4] = ADV_A_MARK;
    a[5] = ADV_A_TOP;
    ad[0] = (uint8_t)(len + 1u); /* AD Length: AD Type + the Network PDU */
    ad[1] = PQPAN_MESH_NET_AD_TYPE;
    memcpy(ad + PQPAN_MESH_NET_AD_HDR_BYTES, net, len);
    pqpan_crc24_append(PQPAN_LL_ADV_CRC_INIT, pdu, PQPAN_LL_HDR_BYTES + payload);
    for (ch = 0; ch < ADV_CHANNELS && !r->capture_failed; ch++) {
        uint64_t t = start + d->pre_ns + ch * (d->ramp_ns + packet_ns) + d->ramp_ns;
        r->capture_failed = r->s->on_packet(r->s->packet_ctx, t, (uint8_t)(ADV_FIRST_CHANNEL + ch),
                                            pdu, PQPAN_LL_HDR_BYTES + payload + PQPAN_LL_CRC_BYTES) !=
                            0;
    }
}

/* A relay stage takes a Network PDU: decodes it, drops a copy its message cache has seen
 * (§3.4.6.5), relays it with the TTL decremented when it arrived with 2 or more
 * (§3.4.6.3). PQPAN_OK with pdu rebuilt in place. */
static int relay(struct net_run *r, uint32_t stage, uint8_t *pdu, size_t *len)
{
    struct pqpan_mesh_net_hdr h;
    uint8_t tpdu[16];
    size_t t_len = 0;
    uint32_t src;
    int rc = pqpan_mesh_net_pdu_decode(&h, tpdu, &t_len, &r->keys, PQPAN_MESH_NET_SIM_IV_INDEX,
                                       pdu, *len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    r->s->decoded++;
    src = h.src == PQPAN_MESH_NET_SIM_INITIATOR_ADDR ? 0u : 1u;
    if (h.seq < r->cache[stage][src] || h.ttl < 2u) {
        return PQPAN_ERR_MALFORMED; /* no copy, no spent TTL on a chain at zero loss */
    }
    r->cache[stage][src] = h.seq + 1u;
    h.ttl--;
    r->s->network_pdus++;
    return pqpan_mesh_net_pdu_encode(pdu, len, &r->keys, PQPAN_MESH_NET_SIM_IV_INDEX, &h, tpdu,
                                     t_len);
}

/* One lower transport PDU from the endpoint at from to the other, as a Network PDU through
 * every relay stage; *pdu_len = its length on the air, *h and tpdu what the destination
 * decoded. */
static int carry(struct net_run *r, uint32_t from, uint8_t ctl, const uint8_t *lower,
                 size_t l_len, uint32_t *pdu_len, struct pqpan_mesh_net_hdr *h, uint8_t tpdu[16],
                 size_t *t_len)
{
    uint32_t to = from == 0u ? r->clock.cfg->hops : 0u, pos;
    struct pqpan_mesh_net_hdr out;
    uint8_t pdu[PQPAN_MESH_NET_PDU_MAX];
    size_t len = 0;
    int rc;
    out.ctl = ctl;
    out.ttl = (uint8_t)r->clock.cfg->ttl;
    out.seq = r->seq[from != 0u]++;
    out.src = addr_of(from);
    out.dst = addr_of(to);
    rc = pqpan_mesh_net_pdu_encode(pdu, &len, &r->keys, PQPAN_MESH_NET_SIM_IV_INDEX, &out, lower,
                                   l_len);
    keep(r, from, pdu, len);
    r->s->network_pdus++;
    *pdu_len = (uint32_t)len;
    pos = from;
    while (rc == PQPAN_OK && pos != to) {
        pos = to > from ? pos + 1u : pos - 1u;
        if (pos != to) {
            rc = relay(r, pos, pdu, &len);
            keep(r, pos, pdu, len);
        }
    }
    if (rc == PQPAN_OK && is_lpn(r, to)) {
        rc = pqpan_mesh_net_friend_forward(&r->keys, &r->friend_keys, PQPAN_MESH_NET_SIM_IV_INDEX,
                                           pdu, &len);
        keep(r, r->clock.friend.friend_pos, pdu, len); /* the copy its Friend delivers */
        r->s->decoded += rc == PQPAN_OK;
        r->s->network_pdus += rc == PQPAN_OK;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_mesh_net_pdu_decode(h, tpdu, t_len, is_lpn(r, to) ? &r->friend_keys : &r->keys,
                                       PQPAN_MESH_NET_SIM_IV_INDEX, pdu, len);
        r->s->decoded += rc == PQPAN_OK;
    }
    return rc;
}

/* §3.5.2.2: SEG 1, AKF 1, AID; SZMIC, SeqZero, SegO, SegN. */
static void segment_header(uint8_t hdr[PQPAN_MESH_NET_SEG_HDR_BYTES], uint8_t aid, int szmic,
                           uint32_t seq_zero, uint32_t seg_o, uint32_t seg_n)
{
    hdr[0] = (uint8_t)(SEG_BIT | AKF_BIT | aid);
    hdr[1] = (uint8_t)((szmic ? 0x80u : 0u) | ((seq_zero >> 6) & 0x7Fu));
    hdr[2] = (uint8_t)(((seq_zero & 0x3Fu) << 2) | (seg_o >> 3));
    hdr[3] = (uint8_t)(((seg_o & 0x7u) << 5) | seg_n);
}

/* The destination's check of one segment of the part it expects; *seg_o its offset. */
static int segment_ok(const struct net_run *r, const uint8_t *tpdu, size_t t_len,
                      uint32_t seq_zero, uint32_t seg_n, uint32_t *seg_o)
{
    if (t_len <= PQPAN_MESH_NET_SEG_HDR_BYTES || tpdu[0] != (SEG_BIT | AKF_BIT | r->aid) ||
        (((uint32_t)(tpdu[1] & 0x7Fu) << 6) | (uint32_t)(tpdu[2] >> 2)) != seq_zero ||
        (tpdu[3] & 0x1Fu) != seg_n) {
        return PQPAN_ERR_MALFORMED;
    }
    *seg_o = ((uint32_t)(tpdu[2] & 0x3u) << 3) | (uint32_t)(tpdu[3] >> 5);
    return *seg_o <= seg_n ? PQPAN_OK : PQPAN_ERR_MALFORMED;
}

/* The part the destination reassembled: decrypted, «PQKE Part» p of parts checked, its
 * data appended to the message at *got. */
static int take_part(const struct net_run *r, uint8_t *upper, uint32_t upper_len,
                     const struct pqpan_mesh_upper_nonce *n, uint32_t p, uint32_t parts,
                     uint8_t *msg, size_t *got)
{
    uint32_t mic = r->clock.cfg->transmic, hdr = PQPAN_MESH_NET_OPCODE_BYTES + 2u, data;
    int rc = pqpan_mesh_upper_decrypt(upper, upper_len - mic, upper + upper_len - mic, mic,
                                      sample_app_key, n);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (upper[0] != PQPAN_MESH_NET_OPCODE || upper[1] != 0xFFu || upper[2] != 0xFFu ||
        upper[3] != p || upper[4] != parts || upper_len - mic < hdr) {
        return PQPAN_ERR_MALFORMED;
    }
    data = upper_len - mic - hdr;
    if (*got + data > PQPAN_MESH_NET_MSG_MAX) {
        return PQPAN_ERR_CAPACITY;
    }
    memcpy(msg + *got, upper + hdr, data);
    *got += data;
    return PQPAN_OK;
}

/* The Segment Acknowledgment of a part (§3.5.2.3.1: OBO 0, SeqZero, BlockAck) from the
 * destination, checked by the sender on arrival. */
static int acknowledge(struct net_run *r, uint32_t dest, uint32_t seq_zero, uint32_t block,
                       uint32_t *ack_len)
{
    uint8_t ack[PQPAN_MESH_NET_SEG_ACK_BYTES], tpdu[16];
    struct pqpan_mesh_net_hdr h;
    size_t t_len = 0;
    int rc;
    ack[0] = 0x00;
    ack[1] = (uint8_t)((is_lpn(r, dest) && r->clock.cfg->hops > 1u ? OBO_BIT : 0u) |
                       ((seq_zero >> 6) & 0x7Fu));
    ack[2] = (uint8_t)((seq_zero & 0x3Fu) << 2);
    ack[3] = (uint8_t)(block >> 24);
    ack[4] = (uint8_t)(block >> 16);
    ack[5] = (uint8_t)(block >> 8);
    ack[6] = (uint8_t)block;
    rc = carry(r, dest, 1u, ack, sizeof ack, ack_len, &h, tpdu, &t_len);
    if (rc == PQPAN_OK && (t_len != sizeof ack || memcmp(tpdu, ack, sizeof ack) != 0 || !h.ctl)) {
        rc = PQPAN_ERR_MALFORMED;
    }
    return rc;
}

/* Part p of parts of the message msg[0..len) from the endpoint at from: built, carried,
 * reassembled into out at *got, acknowledged; timed. Returns the clock's acknowledgment
 * time in *acked, the destination's in *rx. */
static int send_part(struct net_run *r, uint32_t from, const uint8_t *msg, uint32_t len,
                     uint32_t p, uint32_t parts, enum pqpan_phase phase, uint8_t *out,
                     size_t *got, uint64_t *acked, uint64_t *rx)
{
    const struct pqpan_mesh_net_config *cfg = r->clock.cfg;
    uint32_t to = from == 0u ? cfg->hops : 0u;
    uint32_t max = pqpan_mesh_net_part_max_to(cfg, to);
    uint32_t data = pqpan_mesh_net_part_data_to(cfg, to, len, p);
    uint32_t upper_len = pqpan_mesh_net_upper_len(data, cfg->transmic);
    uint32_t segs = pqpan_mesh_net_segments(upper_len), seg_n = segs - 1u, k, block = 0;
    uint32_t pdu_len[PQPAN_MESH_NET_SEGMENTS_MAX], ack_len = 0, seg_o = 0;
    uint8_t upper[PQPAN_MESH_NET_UPPER_MAX], back[PQPAN_MESH_NET_UPPER_MAX], tpdu[16];
    uint8_t lower[PQPAN_MESH_NET_SEG_HDR_BYTES + PQPAN_MESH_NET_SEG_DATA_MAX];
    struct pqpan_mesh_upper_nonce n;
    struct pqpan_mesh_net_hdr h;
    size_t t_len = 0;
    int rc;
    n.type = PQPAN_MESH_NONCE_APPLICATION;
    n.aszmic = cfg->transmic == PQPAN_MESH_NET_TRANSMIC_LARGE;
    n.seq = r->seq[from != 0u];
    n.iv_index = PQPAN_MESH_NET_SIM_IV_INDEX;
    n.src = addr_of(from);
    n.dst = addr_of(from == 0u ? cfg->hops : 0u);
    upper[0] = PQPAN_MESH_NET_OPCODE;
    upper[1] = (uint8_t)(PQPAN_MESH_NET_COMPANY_ID >> 8);
    upper[2] = (uint8_t)PQPAN_MESH_NET_COMPANY_ID;
    upper[3] = (uint8_t)p;
    upper[4] = (uint8_t)parts;
    memcpy(upper + 5, msg + p * max, data);
    rc = pqpan_mesh_upper_encrypt(upper, upper_len - cfg->transmic,
                                  upper + upper_len - cfg->transmic, cfg->transmic,
                                  sample_app_key, &n);
    for (k = 0; k < segs && rc == PQPAN_OK; k++) {
        uint32_t chunk = upper_len - k * PQPAN_MESH_NET_SEG_DATA_MAX;
        chunk = chunk < PQPAN_MESH_NET_SEG_DATA_MAX ? chunk : PQPAN_MESH_NET_SEG_DATA_MAX;
        segment_header(lower, r->aid, n.aszmic, n.seq & SEQ_ZERO_MASK, k, seg_n);
        r->tag = k;
        memcpy(lower + PQPAN_MESH_NET_SEG_HDR_BYTES, upper + k * PQPAN_MESH_NET_SEG_DATA_MAX, chunk);
        rc = carry(r, from, 0u, lower, PQPAN_MESH_NET_SEG_HDR_BYTES + chunk, &pdu_len[k], &h, tpdu,
                   &t_len);
        if (rc == PQPAN_OK) {
            rc = segment_ok(r, tpdu, t_len, n.seq & SEQ_ZERO_MASK, seg_n, &seg_o);
        }
        if (rc == PQPAN_OK) {
            memcpy(back + seg_o * PQPAN_MESH_NET_SEG_DATA_MAX, tpdu + PQPAN_MESH_NET_SEG_HDR_BYTES,
                   t_len - PQPAN_MESH_NET_SEG_HDR_BYTES);
            block |= 1u << seg_o;
        }
    }
    if (rc == PQPAN_OK) {
        rc = take_part(r, back, upper_len, &n, p, parts, out, got);
    }
    /* at one hop an LPN's Friend is the sender: it queued the part, nothing to acknowledge */
    r->tag = segs;
    if (rc == PQPAN_OK && !(is_lpn(r, to) && cfg->hops == 1u)) {
        rc = acknowledge(r, to, n.seq & SEQ_ZERO_MASK, block, &ack_len);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_mesh_net_sar_part(&r->clock, from, *acked, pdu_len, segs, ack_len, phase, rx,
                                     acked);
    }
    return rc;
}

/* A whole PQKE message from the endpoint at from; out[0..*got) what the destination
 * joined. */
static int send_message(struct net_run *r, uint32_t from, const uint8_t *msg, uint32_t len,
                        enum pqpan_phase phase, uint8_t *out, size_t *got, uint64_t *acked,
                        uint64_t *rx)
{
    uint32_t to = from == 0u ? r->clock.cfg->hops : 0u;
    uint32_t parts = pqpan_mesh_net_parts_to(r->clock.cfg, to, len), p;
    int rc = parts != 0u ? PQPAN_OK : PQPAN_ERR_CAPACITY;
    *got = 0;
    for (p = 0; p < parts && rc == PQPAN_OK; p++) {
        rc = send_part(r, from, msg, len, p, parts, phase, out, got, acked, rx);
    }
    return rc == PQPAN_OK && (*got != len || memcmp(out, msg, len) != 0) ? PQPAN_ERR_MALFORMED
                                                                       : rc;
}

static uint64_t later(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The friendship credentials of the LPN and its Friend (§3.9.6.3.1 / v1.0 §3.8.6.3.1: k2 with
 * P = 0x01 || LPNAddress || FriendAddress || LPNCounter || FriendCounter; both counters 0). */
static void friendship(struct net_run *r)
{
    const struct mesh_friend *f = &r->clock.friend;
    uint16_t lpn, frnd;
    uint8_t p[9];
    if (r->clock.cfg->lpn == PQPAN_MESH_NET_LPN_NONE) {
        return;
    }
    lpn = addr_of(f->lpn_pos);
    frnd = friend_addr(r);
    p[0] = 0x01;
    p[1] = (uint8_t)(lpn >> 8);
    p[2] = (uint8_t)lpn;
    p[3] = (uint8_t)(frnd >> 8);
    p[4] = (uint8_t)frnd;
    memset(p + 5, 0, 4);
    pqpan_mesh_k2(&r->friend_keys, sample_net_key, p, sizeof p);
}

/* The Friend Polls and Friend Updates the clock counted, built and taken apart with the
 * friendship credentials (FSN alternating; every Update MD 0, the IV Index, no flags). */
static int friend_control(struct net_run *r)
{
    const struct pqpan_mesh_net_estimate *e = &r->s->run;
    uint16_t lpn = addr_of(r->clock.friend.lpn_pos);
    uint16_t frnd = friend_addr(r);
    uint32_t i, seq = 1u;
    int rc = PQPAN_OK;
    for (i = 0; i < e->polls && rc == PQPAN_OK; i++) {
        rc = pqpan_mesh_net_friend_check(&r->friend_keys, PQPAN_MESH_NET_SIM_IV_INDEX, lpn, frnd,
                                         PQPAN_MESH_NET_FRIEND_POLL_OP, (uint8_t)(i & 1u), seq++);
    }
    for (i = 0; i < e->friend_updates && rc == PQPAN_OK; i++) {
        rc = pqpan_mesh_net_friend_check(&r->friend_keys, PQPAN_MESH_NET_SIM_IV_INDEX, frnd, lpn,
                                         PQPAN_MESH_NET_FRIEND_UPDATE_OP, 0u, seq++);
    }
    r->s->network_pdus += e->polls + e->friend_updates;
    r->s->decoded += rc == PQPAN_OK ? e->polls + e->friend_updates : 0u;
    return rc;
}

/* The exchange: INIT from the initiator, then each message the receiving party answers
 * with, until one answers nothing. */
static int exchange(struct net_run *r, const uint64_t cycles[PQPAN_OP_COUNT])
{
    const struct pqpan_sim_app *app = pqpan_sim_pqke_app();
    struct pqpan_mesh_net_sim *s = r->s;
    struct pqpan_sim_work w;
    size_t len = 0, got = 0;
    uint32_t from = 0u, m = 0u, cur = 0u;
    uint64_t t, rx = 0, acked = 0;
    int rc;
    memset(&w, 0, sizeof w);
    rc = app->start(&s->pqke, PQPAN_BLE_CENTRAL, s->msg[0], PQPAN_MESH_NET_MSG_MAX, &len, &w);
    t = pqpan_mesh_net_clock_compute(&r->clock, PQPAN_MESH_NET_INITIATOR, w.ops, 0u, cycles);
    while (rc == PQPAN_OK && len > 0u) {
        uint32_t to = from == 0u ? r->clock.cfg->hops : 0u;
        enum pqpan_mesh_net_role dest = to == 0u ? PQPAN_MESH_NET_INITIATOR : PQPAN_MESH_NET_RESPONDER;
        acked = t;
        rc = send_message(r, from, s->msg[cur], (uint32_t)len,
                          m < 2u ? PQPAN_PHASE_KEY_TRANSFER : PQPAN_PHASE_CONFIRM, s->msg[1u - cur],
                          &got, &acked, &rx);
        memset(&w, 0, sizeof w);
        len = 0;
        if (rc == PQPAN_OK) {
            rc = app->receive(&s->pqke, to == 0u ? PQPAN_BLE_CENTRAL : PQPAN_BLE_PERIPHERAL,
                              s->msg[1u - cur], got, s->msg[cur], PQPAN_MESH_NET_MSG_MAX, &len, &w);
        }
        t = pqpan_mesh_net_clock_compute(&r->clock, dest, w.ops, rx, cycles);
        s->run.latency_ns = later(t, acked);
        from = to;
        m++;
    }
    return rc;
}

int pqpan_mesh_net_simulate(struct pqpan_mesh_net_sim *s, const struct pqpan_mesh_net_config *cfg,
                            uint64_t seed, const struct pqpan_ble_device *dev,
                            const uint64_t cycles[PQPAN_OP_COUNT])
{
    static const uint8_t zero = 0x00;
    struct net_run r;
    int rc;
    if (s == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(&s->run, 0, sizeof s->run);
    s->keys_equal = 0;
    s->complete = 0;
    s->network_pdus = 0;
    s->decoded = 0;
    if (dev == NULL || cycles == NULL || pqpan_mesh_net_config_check(cfg) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_sim_pqke_init(&s->pqke, cfg->suite, cfg->mode, cfg->sig, PQPAN_BLE_CENTRAL, seed);
    if (rc != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(&r, 0, sizeof r);
    r.s = s;
    pqpan_mesh_k2(&r.keys, sample_net_key, &zero, 1);
    r.aid = aid_of(sample_app_key);
    r.seq[0] = 1u;
    r.seq[1] = 1u;
    r.friend_seq = 1u;
    pqpan_mesh_net_clock_init(&r.clock, &s->run, cfg, dev);
    friendship(&r);
    pqpan_prng_seed(&r.loss, seed ^ LOSS_SEED_XOR);
    r.clock.loss = &r.loss;
    if (s->on_packet != NULL) {
        memset(s->air_len, 0, sizeof s->air_len);
        r.clock.on_event = capture_event;
        r.clock.event_ctx = &r;
    }
    rc = exchange(&r, cycles);
    pqpan_mesh_net_clock_finish(&r.clock); /* with an LPN: its last poll cycles, captured */
    rc = r.capture_failed ? PQPAN_ERR_IO : rc;
    if (rc == PQPAN_OK) {
        rc = friend_control(&r);
    }
    if (rc == PQPAN_OK && s->run.friend_queue_peak > cfg->friend_queue) {
        rc = PQPAN_ERR_CAPACITY;
    }
    s->keys_equal = rc == PQPAN_OK && pqpan_sim_pqke_keys_equal(&s->pqke);
    s->complete = rc == PQPAN_OK && pqpan_sim_pqke_confirmed(&s->pqke);
    pqpan_sim_pqke_wipe(&s->pqke);
    /* a message given up is a failed run (no keys), not an error of the simulator */
    return rc == PQPAN_ERR_TIMEOUT && s->run.abandoned ? PQPAN_OK : rc;
}
