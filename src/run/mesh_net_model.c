/* --bearer network as the run layer runs it (`estimate --link ble-mesh --bearer network`):
 * its options as data, the library's estimator (pqpan_mesh_net_estimate, mesh_net.h) and
 * the energy model → rows initiator, responder, relay, total (docs/MODEL.md "Keys between
 * mesh nodes"). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_model.h"
#include "pqpan/error.h"
#include "pqpan/pqke.h"

static const char *const transmic_words[] = {"32", "64", NULL};
static const char *const lpn_words[] = {"none", "initiator", "responder", NULL};
static const char *const switch_words[] = {"off", "on", NULL};

/* --auth and --sig of link_pqke_table (--hybrid is the ble-mesh table's own). */
const char *const mesh_pqke_opts[] = {"--auth", "--sig", NULL};

/* Relay nodes in one stage: managed flooding's relays in range of one hop. */
#define RELAYS_MAX PQPAN_MESH_NET_RELAYS_MAX

#define NET(m) offsetof(struct mesh_opts, net.m)
#define STEP_MS ((double)PQPAN_MESH_NET_STEP_NS * 1e-6)
#define INTERVAL_MAX_MS (STEP_MS * PQPAN_MESH_NET_STEPS_MAX)
#define SAR_STEP_MS ((double)PQPAN_MESH_NET_SAR_RETRANS_STEP_NS * 1e-6)

static const struct cli_opt net_opt_rows[] = {
    {.name = "--hops", .kind = CLI_OPT_UINT, .meta = "H", .min = 1,
     .max = PQPAN_MESH_NET_HOPS_MAX, .def = PQPAN_DEFAULT_HOPS, .store = CLI_STORE_U32,
     .offset = NET(hops),
     .help = "network: hops between the two nodes (H - 1 relay stages on the path)"},
    {.name = "--relays", .kind = CLI_OPT_UINT, .meta = "N", .min = 1, .max = RELAYS_MAX,
     .def = PQPAN_DEFAULT_MESH_RELAYS, .store = CLI_STORE_U32, .offset = NET(relays),
     .help = "network: relay nodes in range of each hop, each relaying every Network PDU once "
             "(managed flooding, MshPRT v1.1 §3.4.6)"},
    {.name = "--ttl", .kind = CLI_OPT_UINT, .meta = "T", .min = 0, .max = PQPAN_MESH_NET_TTL_MAX,
     .def = PQPAN_DEFAULT_MESH_TTL, .store = CLI_STORE_U32, .offset = NET(ttl),
     .help = "network: the endpoints' Default TTL (§4.2.7); a relay relays while the TTL it "
             "receives is at least 2, so it must be at least --hops"},
    {.name = "--net-transmit-count", .kind = CLI_OPT_UINT, .meta = "N", .min = 0,
     .max = PQPAN_MESH_NET_COUNT_MAX, .def = PQPAN_DEFAULT_MESH_NET_TRANSMIT_COUNT,
     .store = CLI_STORE_U32, .offset = NET(net_transmit_count),
     .help = "network: Network Transmit Count (§4.2.19): each Network PDU an endpoint sends "
             "goes N + 1 times"},
    {.name = "--net-transmit-interval-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = STEP_MS, .max = INTERVAL_MAX_MS,
     .def = PQPAN_DEFAULT_MESH_NET_TRANSMIT_INTERVAL_MS, .store = CLI_STORE_MS_NS,
     .offset = NET(net_transmit_interval_ns),
     .help = "network: Network Transmit Interval, (steps + 1) x 10 ms; transmissions start "
             "the interval + 5 ms (mean advDelay) apart"},
    {.name = "--relay-retransmit-count", .kind = CLI_OPT_UINT, .meta = "N", .min = 0,
     .max = PQPAN_MESH_NET_COUNT_MAX, .def = PQPAN_DEFAULT_MESH_RELAY_RETRANSMIT_COUNT,
     .store = CLI_STORE_U32, .offset = NET(relay_retransmit_count),
     .help = "network: Relay Retransmit Count (§4.2.20): a relay sends each PDU it relays "
             "N + 1 times"},
    {.name = "--relay-retransmit-interval-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = STEP_MS, .max = INTERVAL_MAX_MS,
     .def = PQPAN_DEFAULT_MESH_RELAY_RETRANSMIT_INTERVAL_MS, .store = CLI_STORE_MS_NS,
     .offset = NET(relay_retransmit_interval_ns),
     .help = "network: Relay Retransmit Interval, (steps + 1) x 10 ms"},
    {.name = "--seg-interval-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = STEP_MS, .max = STEP_MS * 16.0, .def = PQPAN_DEFAULT_MESH_SEG_INTERVAL_MS,
     .store = CLI_STORE_MS_NS, .offset = NET(seg_interval_ns),
     .help = "network: SAR Segment Interval (§4.2.48.1: (step + 1) x 10 ms, step 0..15) "
             "between the segments of one message"},
    {.name = "--sar-retrans-count", .kind = CLI_OPT_UINT, .meta = "N", .min = 0,
     .max = PQPAN_MESH_NET_SAR_COUNT_MAX, .def = PQPAN_DEFAULT_MESH_SAR_RETRANS_COUNT,
     .store = CLI_STORE_U32, .offset = NET(sar_retrans_count),
     .help = "network: SAR Unicast Retransmissions Count (§4.2.48.2): rounds of the "
             "unacknowledged segments after the first, then the message is given up"},
    {.name = "--sar-retrans-no-progress", .kind = CLI_OPT_UINT, .meta = "N", .min = 0,
     .max = PQPAN_MESH_NET_SAR_COUNT_MAX, .def = PQPAN_DEFAULT_MESH_SAR_RETRANS_NO_PROGRESS,
     .store = CLI_STORE_U32, .offset = NET(sar_retrans_no_progress),
     .help = "network: SAR Unicast Retransmissions Without Progress Count (§4.2.48.3): rounds "
             "after the first without an acknowledgment of a new segment"},
    {.name = "--sar-retrans-interval-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = SAR_STEP_MS, .max = SAR_STEP_MS * PQPAN_MESH_NET_SAR_STEPS_MAX,
     .def = PQPAN_DEFAULT_MESH_SAR_RETRANS_INTERVAL_MS, .store = CLI_STORE_MS_NS,
     .offset = NET(sar_retrans_step_ns),
     .help = "network: SAR Unicast Retransmissions Interval Step (§4.2.48.4, (n + 1) x 25 "
             "ms): the retransmissions timer is it + the increment x (TTL - 1)"},
    {.name = "--sar-retrans-increment-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = SAR_STEP_MS, .max = SAR_STEP_MS * PQPAN_MESH_NET_SAR_STEPS_MAX,
     .def = PQPAN_DEFAULT_MESH_SAR_RETRANS_INCREMENT_MS, .store = CLI_STORE_MS_NS,
     .offset = NET(sar_retrans_inc_ns),
     .help = "network: SAR Unicast Retransmissions Interval Increment (§4.2.48.5, (n + 1) x "
             "25 ms)"},
    {.name = "--sar-ack-delay-inc", .kind = CLI_OPT_UINT, .meta = "N", .min = 0,
     .max = PQPAN_MESH_NET_SAR_ACK_INC_MAX, .def = PQPAN_DEFAULT_MESH_SAR_ACK_DELAY_INC,
     .store = CLI_STORE_U32, .offset = NET(sar_ack_delay_inc),
     .help = "network: SAR Acknowledgment Delay Increment (§4.2.49.2): the receiver "
             "acknowledges min(SegN + 0.5, N + 1.5) segment reception intervals after a new "
             "segment when it misses some"},
    {.name = "--sar-rx-seg-interval-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = STEP_MS, .max = STEP_MS * PQPAN_MESH_NET_SAR_STEPS_MAX,
     .def = PQPAN_DEFAULT_MESH_SAR_RX_SEG_INTERVAL_MS, .store = CLI_STORE_MS_NS,
     .offset = NET(sar_rx_seg_interval_ns),
     .help = "network: SAR Receiver Segment Interval (§4.2.49.5, (n + 1) x 10 ms)"},
    {.name = "--sar-discard-timeout-s", .kind = CLI_OPT_UINT, .meta = "S", .unit = "s",
     .min = 5, .max = 80, .def = PQPAN_DEFAULT_MESH_SAR_DISCARD_S, .store = CLI_STORE_U32,
     .offset = NET(sar_discard_s),
     .help = "network: SAR Discard Timeout (§4.2.49.4, (n + 1) x 5 s): the receiver drops an "
             "incomplete message when no new segment comes for this long"},
    {.name = "--relay-collisions", .kind = CLI_OPT_WORD, .words = switch_words,
     .def = PQPAN_DEFAULT_MESH_RELAY_COLLISIONS, .store = CLI_STORE_INT,
     .offset = NET(relay_collisions),
     .help = "network: on: the relays of a stage each wait their own advDelay (0..10 ms, Core "
             "v5.4 Vol 6 Part B §4.4.2.2.1) and two copies that overlap on a channel are both "
             "lost; off: they never collide"},
    {.name = "--transmic", .kind = CLI_OPT_WORD, .words = transmic_words,
     .def = PQPAN_DEFAULT_MESH_TRANSMIC, .store = CLI_STORE_INT, .offset = NET(transmic),
     .help = "network: TransMIC bits of each access message (§3.6.2, SZMIC 0 or 1): 32 "
             "leaves 375 octets of PQKE message per access message, 64 leaves 371"},
    {.name = "--lpn", .kind = CLI_OPT_WORD, .words = lpn_words, .def = PQPAN_DEFAULT_LPN,
     .store = CLI_STORE_INT, .offset = NET(lpn),
     .help = "network: the endpoint that is a Low Power Node polling its Friend, the node one "
             "hop away (MshPRT §3.6.6); the friendship is established before the exchange"},
    {.name = "--friend-queue", .kind = CLI_OPT_UINT, .meta = "N",
     .min = PQPAN_MESH_NET_FRIEND_QUEUE_MIN, .max = PQPAN_MESH_NET_FRIEND_QUEUE_MAX,
     .def = PQPAN_DEFAULT_FRIEND_QUEUE, .store = CLI_STORE_U32, .offset = NET(friend_queue),
     .help = "network, --lpn: Network PDUs the Friend Queue holds; a part to the LPN has at "
             "most N - 1 segments"},
    {.name = "--lpn-recv-delay-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 10,
     .max = 255, .def = PQPAN_DEFAULT_LPN_RECV_DELAY_MS, .store = CLI_STORE_MS_NS,
     .offset = NET(lpn_recv_delay_ns),
     .help = "network, --lpn: ReceiveDelay, from the start of a Friend Poll to the LPN's "
             "receive window"},
    {.name = "--friend-recv-win-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 1,
     .max = 255, .def = PQPAN_DEFAULT_FRIEND_RECV_WIN_MS, .store = CLI_STORE_MS_NS,
     .offset = NET(friend_recv_win_ns),
     .help = "network, --lpn: the Friend's ReceiveWindow; it answers ReceiveDelay + window / 5 "
             "after the Poll (Zephyr friend.c)"},
    {.name = "--lpn-poll-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 10,
     .max = 3600000, .def = PQPAN_DEFAULT_LPN_POLL_MS, .store = CLI_STORE_MS_NS,
     .offset = NET(lpn_poll_ns),
     .help = "network, --lpn: the LPN's poll period when its Friend had nothing for it"},
};

static void init_net(void *o)
{
    mesh_opts_init(o);
}

const struct cli_opt_table mesh_net_opts_table =
    CLI_OPT_TABLE("ble-mesh-network", "keys between mesh nodes (--link ble-mesh --bearer network)",
                  net_opt_rows, struct mesh_opts, init_net);

uint32_t mesh_net_transmic(const struct mesh_opts *o)
{
    return o->net.transmic != 0 ? PQPAN_MESH_NET_TRANSMIC_LARGE : PQPAN_MESH_NET_TRANSMIC_SMALL;
}

/* On the 10 ms grid of §4.2.19, §4.2.20, §4.2.48.1. */
static int on_grid(uint64_t ns)
{
    return ns % PQPAN_MESH_NET_STEP_NS == 0u;
}

static int sar_grid_check(const struct mesh_opts *o, const char **option, struct cli_msg *msg);
static int ttl_check(const struct mesh_opts *o, const char **option, struct cli_msg *msg);

static int grid_refusal(const char **option, const char *name, struct cli_msg *msg)
{
    *option = name;
    return cli_msg_set(msg, EXIT_USAGE, "%s: the mesh states count in steps of 10 ms (MshPRT "
                                        "v1.1 §4.2.19, §4.2.20, §4.2.48.1)", name);
}

int mesh_net_opts_check(const struct mesh_opts *o, const char **option, struct cli_msg *msg)
{
    const char *other = o->adv_given != NULL ? o->adv_given : o->gatt_given;
    if (other == NULL) {
        other = o->prov_given;
    }
    if (other != NULL) {
        *option = other;
        return cli_msg_set(msg, EXIT_USAGE, "%s applies to provisioning (--bearer pb-adv or "
                                            "pb-gatt), not to --bearer network", other);
    }
    if (o->net.lpn != PQPAN_MESH_NET_LPN_NONE && mesh_lossy(o)) {
        *option = "--lpn";
        return cli_msg_set(msg, EXIT_USAGE, "--lpn with --per or --relay-collisions on: a Low "
                                            "Power Node's polling is priced without loss (no "
                                            "Poll retries, docs/MODEL.md \"A Low Power Node "
                                            "polling its Friend\"); leave one out");
    }
    if (strcmp(o->kem, MESH_P256_NAME) == 0) {
        *option = "--kem";
        return cli_msg_set(msg, EXIT_USAGE, "--bearer network runs pqpan's PQKE: --kem is an "
                                            "ML-KEM set (ML-KEM-512, ML-KEM-768, ML-KEM-1024)");
    }
    if (o->gatt.cfg.phy != PQPAN_BLE_PHY_1M) {
        *option = "--phy";
        return cli_msg_set(msg, EXIT_USAGE, "the advertising bearer sends legacy advertising "
                                            "PDUs, on LE 1M only (Core v5.4 Vol 6 Part B §2.3): "
                                            "--phy 1M");
    }
    if (!on_grid(o->net.net_transmit_interval_ns)) {
        return grid_refusal(option, "--net-transmit-interval-ms", msg);
    }
    if (!on_grid(o->net.relay_retransmit_interval_ns)) {
        return grid_refusal(option, "--relay-retransmit-interval-ms", msg);
    }
    if (!on_grid(o->net.seg_interval_ns)) {
        return grid_refusal(option, "--seg-interval-ms", msg);
    }
    if (!on_grid(o->net.sar_rx_seg_interval_ns)) {
        return grid_refusal(option, "--sar-rx-seg-interval-ms", msg);
    }
    return sar_grid_check(o, option, msg);
}

/* The SAR Transmitter's intervals count in steps of 25 ms, the Discard Timeout in 5 s. */
static int sar_grid_check(const struct mesh_opts *o, const char **option, struct cli_msg *msg)
{
    const char *off = NULL;
    if (o->net.sar_retrans_step_ns % PQPAN_MESH_NET_SAR_RETRANS_STEP_NS != 0u) {
        off = "--sar-retrans-interval-ms";
    } else if (o->net.sar_retrans_inc_ns % PQPAN_MESH_NET_SAR_RETRANS_STEP_NS != 0u) {
        off = "--sar-retrans-increment-ms";
    } else if (o->net.sar_discard_s % 5u != 0u) {
        off = "--sar-discard-timeout-s";
    }
    if (off != NULL) {
        *option = off;
        return cli_msg_set(msg, EXIT_USAGE, "%s: the SAR states count in steps of 25 ms (the "
                                            "retransmissions interval and increment) and 5 s "
                                            "(the discard timeout): MshPRT v1.1 §4.2.48, §4.2.49",
                           off);
    }
    return ttl_check(o, option, msg);
}

/* --ttl against --hops (§3.4.4, §3.4.6.3). */
static int ttl_check(const struct mesh_opts *o, const char **option, struct cli_msg *msg)
{
    *option = "--ttl";
    if (o->net.ttl == 1u || (o->net.ttl < o->net.hops && !(o->net.ttl == 0u && o->net.hops == 1u))) {
        return cli_msg_set(msg, EXIT_USAGE, "--ttl %u does not reach the responder %u hops away "
                                            "(TTL 1 is not sent, 0 is not relayed, a relay relays "
                                            "from 2: MshPRT v1.1 §3.4.4, §3.4.6.3)",
                           (unsigned)o->net.ttl, (unsigned)o->net.hops);
    }
    *option = NULL;
    return EXIT_OK;
}

/* The library's configuration of o: the PQKE the other links would run, the states. */
static int net_config(struct pqpan_mesh_net_config *c, const struct mesh_opts *o,
                      struct cli_msg *msg)
{
    const struct pqpan_kem *k = pqpan_kem_by_name(o->kem);
    pqpan_mesh_net_config_default(c);
    if (k == NULL) {
        return cli_msg_set(msg, EXIT_USAGE, "unknown --kem '%s'", o->kem);
    }
    c->suite = o->hybrid ? pqpan_pqke_hybrid_suite_for_kem(k->id) : pqpan_pqke_suite_for_kem(k->id);
    c->mode = o->pqke.mode;
    c->sig = model_pqke_sig(o->pqke.mode, o->pqke.sig, o->kem);
    c->transmic = mesh_net_transmic(o);
    c->hops = o->net.hops;
    c->relays = o->net.relays;
    c->ttl = o->net.ttl;
    c->net_transmit_count = o->net.net_transmit_count;
    c->net_transmit_interval_ns = o->net.net_transmit_interval_ns;
    c->relay_retransmit_count = o->net.relay_retransmit_count;
    c->relay_retransmit_interval_ns = o->net.relay_retransmit_interval_ns;
    c->seg_interval_ns = o->net.seg_interval_ns;
    c->lpn = (uint32_t)o->net.lpn;
    c->friend_queue = o->net.friend_queue;
    c->lpn_recv_delay_ns = o->net.lpn_recv_delay_ns;
    c->friend_recv_win_ns = o->net.friend_recv_win_ns;
    c->lpn_poll_ns = o->net.lpn_poll_ns;
    c->per = o->per;
    c->relay_collisions = o->net.relay_collisions;
    c->sar_retrans_count = o->net.sar_retrans_count;
    c->sar_retrans_no_progress = o->net.sar_retrans_no_progress;
    c->sar_retrans_step_ns = o->net.sar_retrans_step_ns;
    c->sar_retrans_inc_ns = o->net.sar_retrans_inc_ns;
    c->sar_ack_delay_inc = o->net.sar_ack_delay_inc;
    c->sar_rx_seg_interval_ns = o->net.sar_rx_seg_interval_ns;
    c->sar_discard_ns = o->net.sar_discard_s * (uint64_t)1000000000u;
    return EXIT_OK;
}

/* The cycles of the PQKE's operations, as --link 802154 prices them (lowpan_setup). */
static int net_cycles(uint64_t cycles[PQPAN_OP_COUNT], const struct model_env *env,
                      const struct mesh_opts *o, struct cli_msg *msg)
{
    struct pqpan_ble_config ble;
    pqpan_ble_config_default(&ble);
    ble.protocol = PQPAN_BLE_PROTO_PQPAN;
    ble.pqke_mode = o->pqke.mode;
    ble.pqke_sig = o->pqke.sig;
    ble.pqke_hybrid = o->hybrid;
    return model_setup(cycles, &ble, env, o->kem, msg);
}

/* The counts of role r's row (a relay row is one relay node). */
static void role_counts(struct pqpan_run_mesh_row *row, const struct pqpan_mesh_net_estimate *e,
                        enum pqpan_mesh_net_role r)
{
    row->adv_events = e->adv_events[r];
    row->nodes = 1;
    if (r == PQPAN_MESH_NET_INITIATOR || r == PQPAN_MESH_NET_RESPONDER) {
        row->access_messages = e->parts[r];
        row->segments = e->segments[r];
        row->seg_acks = e->seg_acks[r];
        row->resent_segments = e->resent_segments[r];
    }
}

/* A relay row other than the Friend's: with --lpn over more than one hop the Friend is one
 * of the relays. */
static uint32_t plain_relays(const struct pqpan_mesh_net_estimate *e,
                             const struct pqpan_mesh_net_config *c)
{
    return c->lpn != PQPAN_MESH_NET_LPN_NONE && c->hops > 1u ? e->relay_nodes - 1u
                                                            : e->relay_nodes;
}

/* Every node's ledger: the two endpoints', the Friend's (a relay) and the other relays'. */
static void total_ledger(struct pqpan_ledger *t, const struct pqpan_mesh_net_estimate *e,
                         const struct pqpan_mesh_net_config *c)
{
    uint32_t i;
    *t = e->ledger[PQPAN_MESH_NET_INITIATOR];
    pqpan_ledger_accumulate(t, &e->ledger[PQPAN_MESH_NET_RESPONDER]);
    for (i = 0; i < plain_relays(e, c); i++) {
        pqpan_ledger_accumulate(t, &e->ledger[PQPAN_MESH_NET_RELAY]);
    }
    if (plain_relays(e, c) != e->relay_nodes) {
        pqpan_ledger_accumulate(t, &e->ledger[PQPAN_MESH_NET_FRIEND]);
    }
}

static void total_counts(struct pqpan_run_mesh_row *t, const struct pqpan_mesh_net_estimate *e,
                         const struct pqpan_mesh_net_config *c)
{
    uint32_t relays = plain_relays(e, c);
    t->nodes = 2u + (unsigned long long)e->relay_nodes;
    t->access_messages = (unsigned long long)e->parts[0] + e->parts[1];
    t->segments = (unsigned long long)e->segments[0] + e->segments[1];
    t->seg_acks = (unsigned long long)e->seg_acks[0] + e->seg_acks[1];
    t->resent_segments = e->resent_segments[0] + e->resent_segments[1];
    t->adv_events = (unsigned long long)e->adv_events[0] + e->adv_events[1] +
                    (unsigned long long)relays * e->adv_events[PQPAN_MESH_NET_RELAY] +
                    (relays != e->relay_nodes ? e->adv_events[PQPAN_MESH_NET_FRIEND] : 0u);
}

/* Whether role r has a row: a relay other than the Friend, the Friend when it is a relay. */
static int role_shown(const struct pqpan_mesh_net_estimate *e,
                      const struct pqpan_mesh_net_config *c, int r)
{
    if (r == PQPAN_MESH_NET_RELAY) {
        return plain_relays(e, c) > 0u;
    }
    return r != PQPAN_MESH_NET_FRIEND || plain_relays(e, c) != e->relay_nodes;
}

static int net_rows(struct mesh_result *res, const struct model_env *env,
                    const struct pqpan_mesh_net_estimate *e,
                    const struct pqpan_mesh_net_config *c, struct cli_msg *msg)
{
    static const char *const names[PQPAN_MESH_NET_ROLES] = {"initiator", "responder", "relay",
                                                            "friend"};
    struct pqpan_ledger total;
    int r, rc = EXIT_OK;
    res->n_rows = 0;
    for (r = 0; r < (int)PQPAN_MESH_NET_ROLES && rc == EXIT_OK; r++) {
        struct pqpan_run_mesh_row *row = &res->rows[res->n_rows];
        if (!role_shown(e, c, r)) {
            continue;
        }
        rc = mesh_fill_row(row, env, PQPAN_RADIO_BLE_1M, &e->ledger[r], msg);
        row->side = names[r];
        role_counts(row, e, (enum pqpan_mesh_net_role)r);
        res->n_rows++;
    }
    total_ledger(&total, e, c);
    if (rc == EXIT_OK) {
        rc = mesh_fill_row(&res->rows[res->n_rows], env, PQPAN_RADIO_BLE_1M, &total, msg);
        res->rows[res->n_rows].side = "total";
        total_counts(&res->rows[res->n_rows], e, c);
        res->n_rows++;
    }
    return rc;
}

/* The figures every row shares: latency, the path, the relay stage's delay. */
static void shared_figures(struct mesh_result *res, const struct pqpan_mesh_net_estimate *e,
                           const struct pqpan_mesh_net_config *c)
{
    int k;
    for (k = 0; k < res->n_rows; k++) {
        res->rows[k].latency_ms = (double)e->latency_ns * 1e-6;
        res->rows[k].hops = c->hops;
        res->rows[k].relays = c->relays;
        res->rows[k].hop_ms = (double)e->hop_ns * 1e-6;
    }
    res->span_ms = (double)e->span_ns * 1e-6;
}

/* INIT .. REVEAL sizes and parts, for the notes. */
static void message_plan(struct mesh_result *res, const struct pqpan_mesh_net_config *c)
{
    struct pqpan_pqke_sizes sz = pqpan_pqke_message_sizes(c->suite, c->mode, c->sig);
    int m;
    res->msg_octets[0] = (uint32_t)sz.init_bytes;
    res->msg_octets[1] = (uint32_t)sz.resp_bytes;
    res->msg_octets[2] = (uint32_t)sz.fin_bytes;
    res->msg_octets[3] = (uint32_t)sz.reveal_bytes;
    for (m = 0; m < 4; m++) {
        uint32_t to = m % 2 == 0 ? c->hops : 0u; /* INIT, FIN to the responder */
        res->msg_parts[m] = pqpan_mesh_net_parts_to(c, to, res->msg_octets[m]);
    }
}

/* The library's refusal rc as a message (e: the run's figures, for the Friend Queue). */
static int net_refusal(int rc, const struct mesh_opts *o, const struct pqpan_mesh_net_estimate *e,
                       struct cli_msg *msg)
{
    if (rc == PQPAN_ERR_CAPACITY && e->friend_queue_peak > o->net.friend_queue) {
        return cli_msg_set(msg, EXIT_USAGE, "--friend-queue %u: the Friend would have to hold "
                                            "%u Network PDUs for the LPN at once and discards "
                                            "the oldest (MshPRT §3.6.6, Zephyr friend.c "
                                            "friend_queue_prepare_space): the exchange fails; %s",
                           (unsigned)o->net.friend_queue, (unsigned)e->friend_queue_peak,
                           e->friend_queue_peak > PQPAN_MESH_NET_FRIEND_QUEUE_MAX
                               ? "no Friend Queue holds that many (a Friend Offer announces at "
                                 "most 255)"
                               : "a larger --friend-queue, or a shorter --lpn-recv-delay-ms");
    }
    if (rc == PQPAN_ERR_CAPACITY) {
        return cli_msg_set(msg, EXIT_USAGE, "a PQKE message needs more than %u access messages "
                                            "(pqpan's Part header, docs/PROTOCOL.md §11)",
                           (unsigned)PQPAN_MESH_NET_PARTS_MAX);
    }
    if (rc == PQPAN_ERR_TIMEOUT) {
        return cli_msg_set(msg, EXIT_USAGE, "--per %.10g over %u hop(s): a segment so rarely "
                                            "arrives that the expected SAR rounds exceed what "
                                            "an estimate can book (no message completes in "
                                            "practice; simulate shows the messages given up)",
                           o->per, (unsigned)o->net.hops);
    }
    if (rc == PQPAN_ERR_INVALID_ARG) {
        return cli_msg_set(msg, EXIT_USAGE, "--auth %s: no such PQKE variant, or the network's "
                                            "configuration is out of range",
                           pqpan_pqke_mode_name(o->pqke.mode));
    }
    return cli_msg_set(msg, EXIT_FAILURE_RUN, "the exchange failed: %s", pqpan_strerror(rc));
}

/* The library's configuration and the cycles of o. */
static int net_prepare(struct pqpan_mesh_net_config *c, uint64_t cycles[PQPAN_OP_COUNT],
                       const struct model_env *env, const struct mesh_opts *o, struct cli_msg *msg)
{
    int rc = net_config(c, o, msg);
    return rc == EXIT_OK ? net_cycles(cycles, env, o, msg) : rc;
}

/* The rows and notes' figures of a run (estimated or executed). */
static int net_result(struct mesh_result *res, const struct model_env *env,
                      const struct pqpan_mesh_net_estimate *e,
                      const struct pqpan_mesh_net_config *c, struct cli_msg *msg)
{
    int rc;
    message_plan(res, c);
    res->polls = e->polls;
    res->friend_updates = e->friend_updates;
    res->friend_pdus = e->friend_pdus;
    res->friend_queue_peak = e->friend_queue_peak;
    res->lpn_rx_ms = (double)e->lpn_rx_ns * 1e-6;
    res->completes = e->completes;
    rc = net_rows(res, env, e, c, msg);
    shared_figures(res, e, c);
    return rc;
}

int mesh_net_estimate(struct mesh_result *res, const struct model_env *env,
                      const struct mesh_opts *o, struct cli_msg *msg)
{
    static struct pqpan_mesh_net_estimate e;
    struct pqpan_mesh_net_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    int rc = net_prepare(&c, cycles, env, o, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (o->per >= 1.0) {
        return cli_msg_set(msg, EXIT_USAGE, "--per 1 loses every packet: no segmented message "
                                            "completes, there is no expected run (simulate "
                                            "shows the messages given up)");
    }
    rc = pqpan_mesh_net_estimate(&e, &c, &env->dev, cycles);
    return rc != PQPAN_OK ? net_refusal(rc, o, &e, msg) : net_result(res, env, &e, &c, msg);
}

/* One run of seed: its rows into res, *complete whether both parties confirmed (a run with
 * a message given up is a failed run, not an error); what it agreed into info when first. */
static int net_simulate_once(struct mesh_result *res, int *complete, struct mesh_sim_info *info,
                             int first,
                             uint64_t seed, const struct model_env *env,
                             const struct pqpan_mesh_net_config *c,
                             const uint64_t cycles[PQPAN_OP_COUNT], const struct mesh_opts *o,
                             struct mesh_capture *cap, struct cli_msg *msg)
{
    static struct pqpan_mesh_net_sim s;
    int rc;
    s.on_packet = cap != NULL ? mesh_capture_packet : NULL;
    s.packet_ctx = cap;
    rc = pqpan_mesh_net_simulate(&s, c, seed, &env->dev, cycles);
    if (rc != PQPAN_OK) {
        return net_refusal(rc, o, &s.run, msg);
    }
    if (first) {
        info->keys_equal = s.keys_equal;
        info->complete = s.complete;
        info->failed_code = 0;
        info->packets = s.network_pdus;
    }
    info->keys_differ |= s.complete && !s.keys_equal;
    *complete = s.complete;
    return net_result(res, env, &s.run, c, msg);
}

/* Runs 1 .. info->runs (seeds seed ..): the first's rows in res and packets in cap (when
 * not NULL), each completed run's energy per row and latency into v (layout of
 * mesh_runs_stats), the resent segments' mean into res's rows. */
static int net_runs(struct mesh_result *res, struct mesh_sim_info *info, double *v,
                    const struct model_env *env, const struct pqpan_mesh_net_config *c,
                    const uint64_t cycles[PQPAN_OP_COUNT], const struct mesh_opts *o,
                    struct mesh_capture *cap, struct cli_msg *msg)
{
    static struct mesh_result one;
    double resent[MESH_ROWS_MAX] = {0};
    unsigned i, n = 0;
    int k, rc = EXIT_OK;
    for (i = 0; i < info->runs && rc == EXIT_OK; i++) {
        struct mesh_result *x = i == 0u ? res : &one;
        int complete = 0;
        rc = net_simulate_once(x, &complete, info, i == 0u, info->seed + i, env, c, cycles, o,
                               i == 0u ? cap : NULL, msg);
        if (rc == EXIT_OK && complete) {
            for (k = 0; k < x->n_rows; k++) {
                v[(size_t)k * info->runs + n] = x->rows[k].e_total_uj;
            }
            v[(size_t)x->n_rows * info->runs + n++] = x->rows[0].latency_ms;
        }
        for (k = 0; k < x->n_rows && rc == EXIT_OK; k++) {
            resent[k] += x->rows[k].resent_segments;
        }
    }
    for (k = 0; k < res->n_rows; k++) {
        res->rows[k].resent_segments = resent[k] / info->runs;
    }
    info->completed = n;
    return rc;
}

int mesh_net_simulate(struct mesh_result *res, struct mesh_sim_info *info,
                      const struct model_env *env, const struct mesh_opts *o,
                      struct mesh_capture *cap, struct cli_msg *msg)
{
    struct pqpan_mesh_net_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    double *v;
    int rc = net_prepare(&c, cycles, env, o, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    v = malloc(((size_t)MESH_ROWS_MAX + 1u) * info->runs * sizeof *v);
    if (v == NULL) {
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory for %u runs", info->runs);
    }
    info->keys_differ = 0;
    rc = net_runs(res, info, v, env, &c, cycles, o, cap, msg);
    if (rc == EXIT_OK) {
        mesh_runs_stats(res, info->runs, v, info->completed);
    }
    free(v);
    return rc;
}

/* ---- the notes (run_mesh.c prints them before the rows) ---- */

static const char *const msg_names[4] = {"INIT", "RESP", "FIN", "REVEAL"};
static const char *const msg_keys[4] = {"init", "resp", "fin", "reveal"};

static const char *const lpn_names[3] = {"none", "initiator", "responder"};

/* The friend: the relay one hop away, or the other endpoint at one hop. */
static const char *friend_name(const struct mesh_opts *o)
{
    if (o->net.hops > 1u) {
        return "a relay";
    }
    return o->net.lpn == PQPAN_MESH_NET_LPN_INITIATOR ? "the responder" : "the initiator";
}

/* ReceiveDelay + ReceiveWindow / 5 when the window exceeds 50 ms (Zephyr friend.c). */
static double answer_ms(const struct mesh_opts *o)
{
    double late = o->net.friend_recv_win_ns > 50000000u ? (double)(o->net.friend_recv_win_ns / 5u)
                                                         : 0.0;
    return ((double)o->net.lpn_recv_delay_ns + late) * 1e-6;
}

static void lpn_table_notes(FILE *f, const struct mesh_opts *o, const struct mesh_result *r)
{
    if (o->net.lpn == PQPAN_MESH_NET_LPN_NONE) {
        return;
    }
    fprintf(f, "  Low Power Node (assumption: friendship established before the exchange, not "
               "priced): the %s polls its Friend,\n  %s one hop away (MshPRT §3.6.6): Friend Poll "
               "x 2 / 20 ms, ReceiveDelay %.0f ms (scan from 2 ms before), ReceiveWindow\n  %.0f "
               "ms (the Friend answers %.0f ms after the Poll: Zephyr friend.c), poll period %.0f "
               "ms, Friend Queue %u\n  PDUs (peak %u); %u polls, %u queued PDUs, %u Friend "
               "Updates; the LPN's receive windows %.3f ms\n",
            lpn_names[o->net.lpn], friend_name(o), (double)o->net.lpn_recv_delay_ns * 1e-6,
            (double)o->net.friend_recv_win_ns * 1e-6, answer_ms(o),
            (double)o->net.lpn_poll_ns * 1e-6, (unsigned)o->net.friend_queue,
            (unsigned)r->friend_queue_peak, (unsigned)r->polls, (unsigned)r->friend_pdus,
            (unsigned)r->friend_updates, r->lpn_rx_ms);
}

static void lpn_json_notes(FILE *f, const struct mesh_opts *o, const struct mesh_result *r)
{
    if (o->net.lpn == PQPAN_MESH_NET_LPN_NONE) {
        return;
    }
    fprintf(f, "  \"lpn\": \"%s\",\n  \"friend_queue\": %u,\n  \"lpn_recv_delay_ms\": %.3f,\n"
               "  \"friend_recv_win_ms\": %.3f,\n  \"lpn_poll_ms\": %.3f,\n  \"polls\": %u,\n"
               "  \"friend_pdus\": %u,\n  \"friend_updates\": %u,\n  \"friend_queue_peak\": %u,\n"
               "  \"lpn_rx_ms\": %.3f,\n",
            lpn_names[o->net.lpn], (unsigned)o->net.friend_queue,
            (double)o->net.lpn_recv_delay_ns * 1e-6, (double)o->net.friend_recv_win_ns * 1e-6,
            (double)o->net.lpn_poll_ns * 1e-6, (unsigned)r->polls, (unsigned)r->friend_pdus,
            (unsigned)r->friend_updates, (unsigned)r->friend_queue_peak, r->lpn_rx_ms);
}

/* The library's SAR timers for o (net_sar.h's formulas on o's states). */
static void net_sar_times(const struct mesh_opts *o, double *retrans_ms, double *ack_ms)
{
    struct pqpan_mesh_net_config c;
    struct cli_msg msg;
    (void)net_config(&c, o, &msg);
    *retrans_ms = (double)pqpan_mesh_net_sar_retrans_ns(&c) * 1e-6;
    *ack_ms = (double)pqpan_mesh_net_sar_ack_delay_ns(&c, PQPAN_MESH_NET_SEGMENTS_MAX - 1u) * 1e-6;
}

/* With --per: where the loss applies and the SAR states that answer it. */
static void net_loss_notes(FILE *f, const struct mesh_opts *o)
{
    double retrans_ms, ack_ms;
    net_sar_times(o, &retrans_ms, &ack_ms);
    fprintf(f, "  loss: --per %g, each advertising packet lost with it on the channel the receiver "
               "scans, at every\n  receiver of every event (a stage misses a copy only when "
               "every sender's is lost); SAR\n  (MshPRT v1.1 §3.5.3): %u round(s) in all, %u "
               "without progress; retransmissions timer %.0f ms\n  (%.0f + %.0f x (TTL - 1)); "
               "acknowledgment delay %.0f ms (a full message, %.1f x %.0f ms);\n  discard "
               "after %u s; a message given up fails the PQKE (no keys)%s\n",
            o->per, (unsigned)o->net.sar_retrans_count + 1u,
            (unsigned)o->net.sar_retrans_no_progress + 1u, retrans_ms,
            (double)o->net.sar_retrans_step_ns * 1e-6, (double)o->net.sar_retrans_inc_ns * 1e-6,
            ack_ms, (double)o->net.sar_ack_delay_inc + 1.5,
            (double)o->net.sar_rx_seg_interval_ns * 1e-6, (unsigned)o->net.sar_discard_s,
            o->net.relay_collisions ? ";\n  the copies the relays of a stage send of an event "
                                      "collide when they overlap (each its own advDelay)"
                                    : "");
}

void mesh_net_table_notes(FILE *f, const struct mesh_opts *o, const struct mesh_result *r)
{
    char relays[48] = "no relay stage";
    int m;
    if (o->net.hops > 1u) {
        snprintf(relays, sizeof relays, "%u relay(s) per stage", (unsigned)o->net.relays);
    }
    fprintf(f, "  pqpan's PQKE (--auth %s) between two provisioned nodes %u hop(s) apart, %s;\n"
               "  access messages of a vendor model (opcode 0xC1 0xFF 0xFF), TransMIC %u bits, "
               "segmented (MshPRT v1.1 §3.5.2.2);\n  messages:",
            pqpan_pqke_mode_name(o->pqke.mode), (unsigned)o->net.hops, relays,
            (unsigned)mesh_net_transmic(o) * 8u);
    for (m = 0; m < 4; m++) {
        if (r->msg_octets[m] != 0u) {
            fprintf(f, " %s %u octets in %u part(s)%s", msg_names[m], (unsigned)r->msg_octets[m],
                    (unsigned)r->msg_parts[m], m < 3 && r->msg_octets[m + 1] != 0u ? "," : "");
        }
    }
    fprintf(f, "\n  Network Transmit %u x %.0f ms, Relay Retransmit %u x %.0f ms (+ 5 ms mean "
               "advDelay), SAR Segment\n  Interval %.0f ms, TTL %u; one Segment "
               "Acknowledgment per part; %s; last event ends at %.3f ms\n",
            (unsigned)o->net.net_transmit_count + 1u,
            (double)o->net.net_transmit_interval_ns * 1e-6,
            (unsigned)o->net.relay_retransmit_count + 1u,
            (double)o->net.relay_retransmit_interval_ns * 1e-6,
            (double)o->net.seg_interval_ns * 1e-6, (unsigned)o->net.ttl,
            mesh_lossy(o) ? "loss below" : "zero loss", r->span_ms);
    if (mesh_lossy(o)) {
        net_loss_notes(f, o);
    }
    lpn_table_notes(f, o, r);
}

/* With --per: the loss and the SAR states as JSON members. */
static void net_loss_json(FILE *f, const struct mesh_opts *o)
{
    double retrans_ms, ack_ms;
    net_sar_times(o, &retrans_ms, &ack_ms);
    fprintf(f, "  \"per\": %g,\n  \"sar_retrans_count\": %u,\n  \"sar_retrans_no_progress\": %u,\n"
               "  \"sar_retrans_timer_ms\": %.3f,\n  \"sar_ack_delay_ms\": %.3f,\n"
               "  \"sar_discard_timeout_s\": %u,\n  \"relay_collisions\": %s,\n",
            o->per, (unsigned)o->net.sar_retrans_count, (unsigned)o->net.sar_retrans_no_progress,
            retrans_ms, ack_ms, (unsigned)o->net.sar_discard_s,
            o->net.relay_collisions ? "true" : "false");
}

void mesh_net_json_notes(FILE *f, const struct mesh_opts *o, const struct mesh_result *r)
{
    int m;
    fprintf(f, "  \"auth\": \"%s\",\n  \"hops\": %u,\n  \"relays\": %u,\n  \"ttl\": %u,\n"
               "  \"transmic_bits\": %u,\n  \"net_transmit_count\": %u,\n"
               "  \"net_transmit_interval_ms\": %.3f,\n  \"relay_retransmit_count\": %u,\n"
               "  \"relay_retransmit_interval_ms\": %.3f,\n  \"seg_interval_ms\": %.3f,\n"
               "  \"span_ms\": %.3f,\n",
            pqpan_pqke_mode_name(o->pqke.mode), (unsigned)o->net.hops, (unsigned)o->net.relays,
            (unsigned)o->net.ttl, (unsigned)mesh_net_transmic(o) * 8u,
            (unsigned)o->net.net_transmit_count, (double)o->net.net_transmit_interval_ns * 1e-6,
            (unsigned)o->net.relay_retransmit_count,
            (double)o->net.relay_retransmit_interval_ns * 1e-6,
            (double)o->net.seg_interval_ns * 1e-6, r->span_ms);
    for (m = 0; m < 4; m++) {
        fprintf(f, "  \"%s_octets\": %u,\n  \"%s_parts\": %u,\n", msg_keys[m],
                (unsigned)r->msg_octets[m], msg_keys[m], (unsigned)r->msg_parts[m]);
    }
    lpn_json_notes(f, o, r);
    if (mesh_lossy(o)) {
        net_loss_json(f, o);
    }
}
