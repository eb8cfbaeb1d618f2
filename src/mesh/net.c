/* The sizes of a PQKE message in the layers of the mesh network (mesh_net.h): pqpan's
 * parts, access messages, upper transport PDUs, segments and Network PDUs, and the
 * network bearer's configuration (docs/MODEL.md "Keys between mesh nodes"). */
#include <string.h>

#include "pqpan/defaults.h"
#include "pqpan/mesh_net.h"
#include "pqpan/pqke.h"

/* AdvA of the ADV_NONCONN_IND (Core v5.4 Vol 6 Part B §2.3.1.3). */
#define ADV_A_BYTES 6u

uint32_t pqpan_mesh_net_part_data_max(uint32_t transmic)
{
    if (transmic != PQPAN_MESH_NET_TRANSMIC_SMALL && transmic != PQPAN_MESH_NET_TRANSMIC_LARGE) {
        return 0u;
    }
    return PQPAN_MESH_NET_UPPER_MAX - transmic - PQPAN_MESH_NET_OPCODE_BYTES -
           PQPAN_MESH_NET_PART_HDR_BYTES;
}

static uint32_t parts_of(uint32_t msg_len, uint32_t max)
{
    uint32_t parts;
    if (max == 0u || msg_len == 0u) {
        return 0u;
    }
    parts = (msg_len + max - 1u) / max;
    return parts <= PQPAN_MESH_NET_PARTS_MAX ? parts : 0u;
}

static uint32_t part_data_of(uint32_t msg_len, uint32_t max, uint32_t p)
{
    if (p >= parts_of(msg_len, max)) {
        return 0u;
    }
    return msg_len - p * max < max ? msg_len - p * max : max;
}

uint32_t pqpan_mesh_net_parts(uint32_t msg_len, uint32_t transmic)
{
    return parts_of(msg_len, pqpan_mesh_net_part_data_max(transmic));
}

uint32_t pqpan_mesh_net_part_data(uint32_t msg_len, uint32_t transmic, uint32_t p)
{
    return part_data_of(msg_len, pqpan_mesh_net_part_data_max(transmic), p);
}

static int lpn_at(const struct pqpan_mesh_net_config *cfg, uint32_t pos)
{
    return (cfg->lpn == PQPAN_MESH_NET_LPN_INITIATOR && pos == 0u) ||
           (cfg->lpn == PQPAN_MESH_NET_LPN_RESPONDER && pos == cfg->hops);
}

/* The LPN's rule: a part to it fits the Friend Queue with a PDU to spare (Zephyr friend.c
 * friend_queue_has_space: room - pending segments > SegN + 1). */
uint32_t pqpan_mesh_net_part_max_to(const struct pqpan_mesh_net_config *cfg, uint32_t to)
{
    uint32_t max = pqpan_mesh_net_part_data_max(cfg->transmic), upper, lpn_max;
    if (!lpn_at(cfg, to) || cfg->friend_queue > PQPAN_MESH_NET_SEGMENTS_MAX) {
        return max;
    }
    upper = (cfg->friend_queue - 1u) * PQPAN_MESH_NET_SEG_DATA_MAX;
    if (upper <= cfg->transmic + PQPAN_MESH_NET_OPCODE_BYTES + PQPAN_MESH_NET_PART_HDR_BYTES) {
        return 0u;
    }
    lpn_max = upper - cfg->transmic - PQPAN_MESH_NET_OPCODE_BYTES - PQPAN_MESH_NET_PART_HDR_BYTES;
    return lpn_max < max ? lpn_max : max;
}

uint32_t pqpan_mesh_net_parts_to(const struct pqpan_mesh_net_config *cfg, uint32_t to,
                                 uint32_t msg_len)
{
    return parts_of(msg_len, pqpan_mesh_net_part_max_to(cfg, to));
}

uint32_t pqpan_mesh_net_part_data_to(const struct pqpan_mesh_net_config *cfg, uint32_t to,
                                     uint32_t msg_len, uint32_t p)
{
    return part_data_of(msg_len, pqpan_mesh_net_part_max_to(cfg, to), p);
}

/* §3.7.3 access payload (opcode, parameters) + §3.6.2 TransMIC. */
uint32_t pqpan_mesh_net_upper_len(uint32_t data, uint32_t transmic)
{
    return PQPAN_MESH_NET_OPCODE_BYTES + PQPAN_MESH_NET_PART_HDR_BYTES + data + transmic;
}

/* §3.5.2.2: SegN 5 bits, 12 octets a segment. */
uint32_t pqpan_mesh_net_segments(uint32_t upper)
{
    if (upper == 0u || upper > PQPAN_MESH_NET_UPPER_MAX) {
        return 0u;
    }
    return (upper + PQPAN_MESH_NET_SEG_DATA_MAX - 1u) / PQPAN_MESH_NET_SEG_DATA_MAX;
}

/* §3.4.4: header, the segmented access message (§3.5.2.2), NetMIC 32 bits (CTL 0). */
uint32_t pqpan_mesh_net_segment_pdu(uint32_t upper, uint32_t seg)
{
    uint32_t data;
    if (seg >= pqpan_mesh_net_segments(upper)) {
        return 0u;
    }
    data = upper - seg * PQPAN_MESH_NET_SEG_DATA_MAX;
    if (data > PQPAN_MESH_NET_SEG_DATA_MAX) {
        data = PQPAN_MESH_NET_SEG_DATA_MAX;
    }
    return PQPAN_MESH_NET_HDR_BYTES + PQPAN_MESH_NET_SEG_HDR_BYTES + data +
           PQPAN_MESH_NET_NETMIC_ACCESS;
}

/* §3.4.4 with CTL 1 (NetMIC 64 bits) around §3.5.2.3.1's Segment Acknowledgment. */
uint32_t pqpan_mesh_net_ack_pdu(void)
{
    return PQPAN_MESH_NET_HDR_BYTES + PQPAN_MESH_NET_SEG_ACK_BYTES + PQPAN_MESH_NET_NETMIC_CONTROL;
}

uint32_t pqpan_mesh_net_adv_payload(uint32_t pdu)
{
    return ADV_A_BYTES + PQPAN_MESH_NET_AD_HDR_BYTES + pdu;
}

_Static_assert(PQPAN_MESH_NET_HDR_BYTES + PQPAN_MESH_NET_SEG_HDR_BYTES +
                       PQPAN_MESH_NET_SEG_DATA_MAX + PQPAN_MESH_NET_NETMIC_ACCESS ==
                   PQPAN_MESH_NET_PDU_MAX,
               "a full segment fills the 29-octet Network PDU (MshPRT v1.1 §3.4.4)");
_Static_assert(ADV_A_BYTES + PQPAN_MESH_NET_AD_HDR_BYTES + PQPAN_MESH_NET_PDU_MAX == 37u,
               "a full Network PDU fills the legacy advertising payload (AdvData 31)");

void pqpan_mesh_net_config_default(struct pqpan_mesh_net_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->suite = pqpan_pqke_suite_for_kem(PQPAN_KEM_MLKEM768);
    cfg->mode = pqpan_pqke_mode_by_name("none");
    cfg->transmic = pqpan_default_u32(PQPAN_DEFAULT_MESH_TRANSMIC) / 8u;
    cfg->hops = pqpan_default_u32(PQPAN_DEFAULT_HOPS);
    cfg->relays = pqpan_default_u32(PQPAN_DEFAULT_MESH_RELAYS);
    cfg->ttl = pqpan_default_u32(PQPAN_DEFAULT_MESH_TTL);
    cfg->net_transmit_count = pqpan_default_u32(PQPAN_DEFAULT_MESH_NET_TRANSMIT_COUNT);
    cfg->net_transmit_interval_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_MESH_NET_TRANSMIT_INTERVAL_MS);
    cfg->relay_retransmit_count = pqpan_default_u32(PQPAN_DEFAULT_MESH_RELAY_RETRANSMIT_COUNT);
    cfg->relay_retransmit_interval_ns =
        pqpan_default_ms_ns(PQPAN_DEFAULT_MESH_RELAY_RETRANSMIT_INTERVAL_MS);
    cfg->seg_interval_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_MESH_SEG_INTERVAL_MS);
    cfg->lpn = PQPAN_MESH_NET_LPN_NONE;
    cfg->friend_queue = pqpan_default_u32(PQPAN_DEFAULT_FRIEND_QUEUE);
    cfg->lpn_recv_delay_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_LPN_RECV_DELAY_MS);
    cfg->friend_recv_win_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_FRIEND_RECV_WIN_MS);
    cfg->lpn_poll_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_LPN_POLL_MS);
    cfg->per = 0.0;
    cfg->relay_collisions = pqpan_default_is(PQPAN_DEFAULT_MESH_RELAY_COLLISIONS, "on");
    cfg->sar_retrans_count = pqpan_default_u32(PQPAN_DEFAULT_MESH_SAR_RETRANS_COUNT);
    cfg->sar_retrans_no_progress = pqpan_default_u32(PQPAN_DEFAULT_MESH_SAR_RETRANS_NO_PROGRESS);
    cfg->sar_retrans_step_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_MESH_SAR_RETRANS_INTERVAL_MS);
    cfg->sar_retrans_inc_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_MESH_SAR_RETRANS_INCREMENT_MS);
    cfg->sar_ack_delay_inc = pqpan_default_u32(PQPAN_DEFAULT_MESH_SAR_ACK_DELAY_INC);
    cfg->sar_rx_seg_interval_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_MESH_SAR_RX_SEG_INTERVAL_MS);
    cfg->sar_discard_ns =
        pqpan_default_u32(PQPAN_DEFAULT_MESH_SAR_DISCARD_S) * (uint64_t)1000000000u;
}

/* (n + 1) × step for n in 0 .. PQPAN_MESH_NET_SAR_STEPS_MAX - 1. */
static int sar_step_ok(uint64_t ns, uint64_t step)
{
    return ns >= step && ns <= PQPAN_MESH_NET_SAR_STEPS_MAX * step && ns % step == 0u;
}

/* The loss and the SAR states (§4.2.48, §4.2.49). */
static int sar_ok(const struct pqpan_mesh_net_config *c)
{
    return c->per >= 0.0 && c->per <= 1.0 &&
           c->sar_retrans_count <= PQPAN_MESH_NET_SAR_COUNT_MAX &&
           c->sar_retrans_no_progress <= PQPAN_MESH_NET_SAR_COUNT_MAX &&
           sar_step_ok(c->sar_retrans_step_ns, PQPAN_MESH_NET_SAR_RETRANS_STEP_NS) &&
           sar_step_ok(c->sar_retrans_inc_ns, PQPAN_MESH_NET_SAR_RETRANS_STEP_NS) &&
           c->sar_ack_delay_inc <= PQPAN_MESH_NET_SAR_ACK_INC_MAX &&
           sar_step_ok(c->sar_rx_seg_interval_ns, PQPAN_MESH_NET_STEP_NS) &&
           sar_step_ok(c->sar_discard_ns, PQPAN_MESH_NET_SAR_DISCARD_STEP_NS);
}

/* §4.2.19 / §4.2.20: (steps + 1) × 10 ms, steps 0..31. */
static int interval_ok(uint64_t ns)
{
    return ns >= PQPAN_MESH_NET_STEP_NS &&
           ns <= PQPAN_MESH_NET_STEPS_MAX * (uint64_t)PQPAN_MESH_NET_STEP_NS &&
           ns % PQPAN_MESH_NET_STEP_NS == 0u;
}

/* §3.4.4: TTL 1 is not sent, 0 is not relayed; a relay at stage k gets ttl - k + 1 and
 * relays from 2 (§3.4.6.3), so hops - 1 stages need ttl >= hops. */
static int ttl_ok(uint32_t ttl, uint32_t hops)
{
    if (ttl == 0u) {
        return hops == 1u;
    }
    return ttl != 1u && ttl >= hops && ttl <= PQPAN_MESH_NET_TTL_MAX;
}

/* §3.6.5.3 Friend Request ReceiveDelay 0x0A..0xFF ms, §3.6.5.4 Friend Offer ReceiveWindow
 * 0x01..0xFF ms (v1.0 numbering; Zephyr friend.c refuses a ReceiveDelay <= 0x09); a poll
 * period within PollTimeout (0x00000A..0x34BBFF × 100 ms). */
static int lpn_ok(const struct pqpan_mesh_net_config *c)
{
    const uint64_t ms = 1000000u;
    if (c->lpn == PQPAN_MESH_NET_LPN_NONE) {
        return 1;
    }
    return c->lpn <= PQPAN_MESH_NET_LPN_RESPONDER && c->per == 0.0 && !c->relay_collisions &&
           c->friend_queue >= PQPAN_MESH_NET_FRIEND_QUEUE_MIN &&
           c->friend_queue <= PQPAN_MESH_NET_FRIEND_QUEUE_MAX && c->lpn_recv_delay_ns >= 10u * ms &&
           c->lpn_recv_delay_ns <= 255u * ms && c->friend_recv_win_ns >= ms &&
           c->friend_recv_win_ns <= 255u * ms && c->lpn_poll_ns >= 10u * ms &&
           c->lpn_poll_ns < UINT64_C(0x34BBFF) * 100u * ms;
}

/* The path and managed flooding's states (§3.4.4, §4.2.19, §4.2.20, §4.2.48.1). */
static int path_ok(const struct pqpan_mesh_net_config *c)
{
    return c->hops >= 1u && c->hops <= PQPAN_MESH_NET_HOPS_MAX && c->relays >= 1u &&
           c->relays <= PQPAN_MESH_NET_RELAYS_MAX && ttl_ok(c->ttl, c->hops) &&
           c->net_transmit_count <= PQPAN_MESH_NET_COUNT_MAX &&
           c->relay_retransmit_count <= PQPAN_MESH_NET_COUNT_MAX && c->seg_interval_ns != 0u &&
           interval_ok(c->net_transmit_interval_ns) && interval_ok(c->relay_retransmit_interval_ns);
}

int pqpan_mesh_net_config_check(const struct pqpan_mesh_net_config *c)
{
    if (c == NULL || pqpan_mesh_net_part_data_max(c->transmic) == 0u || !path_ok(c) ||
        !lpn_ok(c) || !sar_ok(c)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return PQPAN_OK;
}
