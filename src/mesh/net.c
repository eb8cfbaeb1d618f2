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

uint32_t pqpan_mesh_net_parts(uint32_t msg_len, uint32_t transmic)
{
    uint32_t max = pqpan_mesh_net_part_data_max(transmic), parts;
    if (max == 0u || msg_len == 0u) {
        return 0u;
    }
    parts = (msg_len + max - 1u) / max;
    return parts <= PQPAN_MESH_NET_PARTS_MAX ? parts : 0u;
}

uint32_t pqpan_mesh_net_part_data(uint32_t msg_len, uint32_t transmic, uint32_t p)
{
    uint32_t max = pqpan_mesh_net_part_data_max(transmic);
    if (p >= pqpan_mesh_net_parts(msg_len, transmic)) {
        return 0u;
    }
    return msg_len - p * max < max ? msg_len - p * max : max;
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
    return c->per >= 0.0 && c->per <= 1.0 && c->sar_retrans_count <= PQPAN_MESH_NET_SAR_COUNT_MAX &&
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
    return ns >= PQPAN_MESH_NET_STEP_NS && ns <= PQPAN_MESH_NET_STEPS_MAX * (uint64_t)PQPAN_MESH_NET_STEP_NS &&
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

int pqpan_mesh_net_config_check(const struct pqpan_mesh_net_config *c)
{
    if (c == NULL || pqpan_mesh_net_part_data_max(c->transmic) == 0u || c->hops < 1u ||
        c->hops > PQPAN_MESH_NET_HOPS_MAX || c->relays < 1u || c->relays > PQPAN_MESH_NET_RELAYS_MAX || !ttl_ok(c->ttl, c->hops) || c->net_transmit_count > PQPAN_MESH_NET_COUNT_MAX ||
        c->relay_retransmit_count > PQPAN_MESH_NET_COUNT_MAX || c->seg_interval_ns == 0u ||
        !interval_ok(c->net_transmit_interval_ns) || !interval_ok(c->relay_retransmit_interval_ns) ||
        !sar_ok(c)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return PQPAN_OK;
}
