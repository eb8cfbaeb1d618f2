/* The field tables of an exchange (include/pqpan/run.h): every column estimate, reproduce,
 * simulate and sweep print for one side, its name, table label, unit, type and place in
 * struct pqpan_run_exchange_row. One table per link; the CLI's table, CSV and JSON
 * printers, the Python package and the web page read them (STYLE.md habit 10). Moved
 * from cli/ble_model.c (issue 28), a unit column added. */
#include <stddef.h>

#include "pqpan/run.h"

/* A table row's group and store (run.h enums), written short. */
#define G(g) PQPAN_RUN_GROUP_##g
#define S(s) PQPAN_RUN_STORE_##s
#define ROW_OFF(m) offsetof(struct pqpan_run_exchange_row, m)
#define OP_OFF(op) (ROW_OFF(e_comp_op_uj) + (size_t)(op) * sizeof(double))
#define PH_E_OFF(p) (ROW_OFF(e_phase_uj) + (size_t)(p) * sizeof(double))
#define PH_T_OFF(p) (ROW_OFF(t_phase_ms) + (size_t)(p) * sizeof(double))

/* The computation of each operation, the same in both field tables. */
#define OP_FIELDS \
    {"e_comp_kem_keygen_uj", "  KEM KeyGen (uJ)", "uJ", G(DETAIL),            \
     S(REAL), OP_OFF(PQPAN_OP_KEM_KEYGEN), 3},                                \
    {"e_comp_kem_encaps_uj", "  KEM Encaps (uJ)", "uJ", G(DETAIL),            \
     S(REAL), OP_OFF(PQPAN_OP_KEM_ENCAPS), 3},                                \
    {"e_comp_kem_decaps_uj", "  KEM Decaps (uJ)", "uJ", G(DETAIL),            \
     S(REAL), OP_OFF(PQPAN_OP_KEM_DECAPS), 3},                                \
    {"e_comp_kdf_uj", "  key schedule, KDF (uJ)", "uJ", G(DETAIL),            \
     S(REAL), OP_OFF(PQPAN_OP_KDF), 3},                                       \
    {"e_comp_ecdh_keygen_uj", "  P-256 key generation (uJ)", "uJ", G(DETAIL), \
     S(REAL), OP_OFF(PQPAN_OP_ECDH_KEYGEN), 3},                               \
    {"e_comp_ecdh_shared_uj", "  P-256 ECDH (uJ)", "uJ", G(DETAIL),           \
     S(REAL), OP_OFF(PQPAN_OP_ECDH_SHARED), 3},                               \
    {"e_comp_sig_sign_uj", "  ML-DSA Sign (uJ)", "uJ", G(DETAIL),             \
     S(REAL), OP_OFF(PQPAN_OP_SIG_SIGN), 3},                                  \
    {"e_comp_sig_verify_uj", "  ML-DSA Verify (uJ)", "uJ", G(DETAIL),         \
     S(REAL), OP_OFF(PQPAN_OP_SIG_VERIFY), 3}

/* ML-DSA signing's mean and spread (GROUP_SIG; docs/MODEL.md "ML-DSA signing"). */
#define SIG_FIELDS \
    {"sig_sign_cycles_source", "ML-DSA Sign cycles: source", NULL, G(SIG),                     \
     S(TEXT), ROW_OFF(sig_sign_source), 0},                                                    \
    {"sig_sign_cycles_mean", "ML-DSA Sign cycles, mean (used)", "cycles", G(SIG),              \
     S(OPT_ULL), ROW_OFF(sig_sign_cycles_mean), 0},                                            \
    {"sig_sign_runs", "  runs measured", NULL, G(SIG), S(OPT_ULL), ROW_OFF(sig_sign_runs), 0}, \
    {"sig_sign_cycles_median", "  median", "cycles", G(SIG),                                   \
     S(OPT_ULL), ROW_OFF(sig_sign_cycles_median), 0},                                          \
    {"sig_sign_cycles_p99", "  99th percentile", "cycles", G(SIG),                             \
     S(OPT_ULL), ROW_OFF(sig_sign_cycles_p99), 0},                                             \
    {"sig_sign_cycles_max", "  largest", "cycles", G(SIG),                                     \
     S(OPT_ULL), ROW_OFF(sig_sign_cycles_max), 0},                                             \
    {"t_sig_sign_ms", "time ML-DSA Sign, mean (ms)", "ms", G(SIG),                             \
     S(REAL), ROW_OFF(t_sig_sign_ms), 3},                                                      \
    {"t_sig_sign_p99_ms", "time ML-DSA Sign, p99 (ms)", "ms", G(SIG),                          \
     S(OPT_REAL), ROW_OFF(t_sig_sign_p99_ms), 3},                                              \
    {"e_comp_sig_sign_p99_uj", "ML-DSA Sign at p99 cycles (uJ)", "uJ", G(SIG),                 \
     S(OPT_REAL), ROW_OFF(e_comp_sig_sign_p99_uj), 3}

/* LE SC's P-256 rows, key pair and named parts (GROUP_LESC; docs/MODEL.md "LE SC as stacks
 * run it"). */
#define LESC_FIELDS \
    {"p256_impl", "P-256 implementation", NULL, G(LESC), S(TEXT), ROW_OFF(p256_impl), 0}, \
    {"p256_cycles_source", "P-256 cycles: source", NULL, G(LESC),                         \
     S(TEXT), ROW_OFF(p256_source), 0},                                                   \
    {"lesc_keypair", "LE SC key pair", NULL, G(LESC), S(TEXT), ROW_OFF(lesc_keypair), 0}, \
    {"e_lesc_enc_start_uj", "LE SC encryption start, bits (uJ)", "uJ", G(LESC),           \
     S(OPT_REAL), ROW_OFF(e_lesc_enc_start_uj), 3},                                       \
    {"e_lesc_enc_start_events_uj", "LE SC encryption start, events (uJ)", "uJ", G(LESC),  \
     S(OPT_REAL), ROW_OFF(e_lesc_enc_start_events_uj), 3},                                \
    {"e_lesc_key_dist_uj", "LE SC key distribution, none sent (uJ)", "uJ", G(LESC),       \
     S(OPT_REAL), ROW_OFF(e_lesc_key_dist_uj), 3}

static const struct pqpan_run_field fields_ble[] = {
    {"reading", "reading", NULL, G(READING), S(TEXT), ROW_OFF(reading), 0},
    {"side", "side", NULL, G(CONFIG), S(TEXT), ROW_OFF(side), 0},
    {"kem", "KEM", NULL, G(CONFIG), S(TEXT), ROW_OFF(kem), 0},
    {"protocol", "protocol", NULL, G(CONFIG), S(TEXT), ROW_OFF(protocol), 0},
    {"auth", "authentication", NULL, G(CONFIG), S(TEXT), ROW_OFF(auth), 0},
    {"idle", "idle radio", NULL, G(CONFIG), S(TEXT), ROW_OFF(idle), 0},
    {"phy", "PHY", NULL, G(CONFIG), S(TEXT), ROW_OFF(phy), 0},
    {"att_mtu", "ATT_MTU", "octets", G(CONFIG), S(UINT), ROW_OFF(att_mtu), 0},
    {"ll_octets", "LL payload octets", "octets", G(CONFIG), S(UINT), ROW_OFF(ll_octets), 0},
    {"dle", "DLE", NULL, G(CONFIG), S(INT), ROW_OFF(dle), 0},
    {"transfer", "transfer", NULL, G(CONFIG), S(TEXT), ROW_OFF(transfer), 0},
    {"ci_ms", "connection interval (ms)", "ms", G(CONFIG), S(REAL), ROW_OFF(ci_ms), 2},
    {"keygen_side", "KeyGen side", NULL, G(CONFIG), S(TEXT), ROW_OFF(keygen_side), 0},
    {"e_comp_uj", "computation (uJ)", "uJ", G(HEADLINE), S(REAL), ROW_OFF(e_comp_uj), 3},
    {"e_comm_uj", "communication, bits (uJ)", "uJ", G(HEADLINE), S(REAL), ROW_OFF(e_comm_uj), 3},
    {"e_total_uj", "total, bits (uJ)", "uJ", G(HEADLINE), S(REAL), ROW_OFF(e_total_uj), 3},
    {"comm_share_pct", "communication share, bits (%)", "%", G(HEADLINE), S(REAL),
     ROW_OFF(comm_share_pct), 1},
    {"latency_ms", "latency (ms)", "ms", G(HEADLINE), S(REAL), ROW_OFF(latency_ms), 3},
    OP_FIELDS,
    {"e_comm_tx_uj", "  bits: TX (uJ)", "uJ", G(DETAIL), S(REAL), ROW_OFF(e_comm_tx_uj), 3},
    {"e_comm_rx_uj", "  bits: RX (uJ)", "uJ", G(DETAIL), S(REAL), ROW_OFF(e_comm_rx_uj), 3},
    {"e_comm_ifs_uj", "  bits: T_IFS (uJ)", "uJ", G(DETAIL), S(REAL), ROW_OFF(e_comm_ifs_uj), 3},
    {"e_comm_events_uj", "communication, events (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_comm_events_uj), 3},
    {"e_ev_radio_uj", "  events: radio TX/RX/IFS (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_ev_radio_uj), 3},
    {"e_ev_hfxo_uj", "  events: HFXO start (uJ)", "uJ", G(DETAIL),
     S(REAL), ROW_OFF(e_ev_hfxo_uj), 3},
    {"e_ev_ramp_uj", "  events: ramp-up (uJ)", "uJ", G(DETAIL), S(REAL), ROW_OFF(e_ev_ramp_uj), 3},
    {"e_ev_pre_uj", "  events: CPU pre-processing (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_ev_pre_uj), 3},
    {"e_ev_rx_window_uj", "  events: RX window (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_ev_rx_window_uj), 3},
    {"e_ev_post_uj", "  events: CPU post-processing (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_ev_post_uj), 3},
    {"e_ev_sleep_uj", "  events: sleep (uJ)", "uJ", G(DETAIL), S(REAL), ROW_OFF(e_ev_sleep_uj), 3},
    {"e_total_events_uj", "total, events (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_total_events_uj),
     3},
    {"comm_share_events_pct", "communication share, events (%)", "%", G(DETAIL), S(REAL),
     ROW_OFF(comm_share_events_pct), 1},
    {"e_exchange_events_uj", "exchange on an open link, events (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_exchange_events_uj), 3},
    {"e_advertise_uj", "events by phase: advertise (uJ)", "uJ", G(DETAIL), S(REAL),
     PH_E_OFF(PQPAN_PHASE_ADVERTISE), 3},
    {"e_connect_uj", "  connect (uJ)", "uJ", G(DETAIL), S(REAL), PH_E_OFF(PQPAN_PHASE_CONNECT), 3},
    {"e_features_uj", "  features (uJ)", "uJ", G(DETAIL),
     S(REAL), PH_E_OFF(PQPAN_PHASE_FEATURES), 3},
    {"e_conn_update_uj", "  conn_update (uJ)", "uJ", G(DETAIL), S(REAL),
     PH_E_OFF(PQPAN_PHASE_CONN_UPDATE), 3},
    {"e_phy_update_uj", "  phy_update (uJ)", "uJ", G(DETAIL), S(REAL),
     PH_E_OFF(PQPAN_PHASE_PHY_UPDATE), 3},
    {"e_length_update_uj", "  length_update (uJ)", "uJ", G(DETAIL), S(REAL),
     PH_E_OFF(PQPAN_PHASE_LENGTH_UPDATE), 3},
    {"e_mtu_exchange_uj", "  mtu_exchange (uJ)", "uJ", G(DETAIL), S(REAL),
     PH_E_OFF(PQPAN_PHASE_MTU_EXCHANGE), 3},
    {"e_discovery_uj", "  discovery (uJ)", "uJ", G(DETAIL),
     S(REAL), PH_E_OFF(PQPAN_PHASE_DISCOVERY), 3},
    {"e_key_transfer_uj", "  key_transfer (uJ)", "uJ", G(DETAIL), S(REAL),
     PH_E_OFF(PQPAN_PHASE_KEY_TRANSFER), 3},
    {"e_crypto_uj", "  crypto, with computation (uJ)", "uJ", G(DETAIL), S(REAL),
     PH_E_OFF(PQPAN_PHASE_CRYPTO), 3},
    {"e_confirm_uj", "  confirm (uJ)", "uJ", G(DETAIL), S(REAL), PH_E_OFF(PQPAN_PHASE_CONFIRM), 3},
    {"setup_ms", "set-up before the exchange (ms)", "ms", G(DETAIL), S(REAL), ROW_OFF(setup_ms), 3},
    {"t_advertise_ms", "  advertise, expected (ms)", "ms", G(DETAIL), S(REAL),
     PH_T_OFF(PQPAN_PHASE_ADVERTISE), 3},
    {"t_connect_ms", "  connect (ms)", "ms", G(DETAIL), S(REAL), PH_T_OFF(PQPAN_PHASE_CONNECT), 3},
    {"t_features_ms", "  features (ms)", "ms", G(DETAIL),
     S(REAL), PH_T_OFF(PQPAN_PHASE_FEATURES), 3},
    {"t_conn_update_ms", "  conn_update (ms)", "ms", G(DETAIL), S(REAL),
     PH_T_OFF(PQPAN_PHASE_CONN_UPDATE), 3},
    {"t_phy_update_ms", "  phy_update (ms)", "ms", G(DETAIL), S(REAL),
     PH_T_OFF(PQPAN_PHASE_PHY_UPDATE), 3},
    {"t_length_update_ms", "  length_update (ms)", "ms", G(DETAIL), S(REAL),
     PH_T_OFF(PQPAN_PHASE_LENGTH_UPDATE), 3},
    {"t_mtu_exchange_ms", "  mtu_exchange (ms)", "ms", G(DETAIL), S(REAL),
     PH_T_OFF(PQPAN_PHASE_MTU_EXCHANGE), 3},
    {"t_discovery_ms", "  discovery (ms)", "ms", G(DETAIL),
     S(REAL), PH_T_OFF(PQPAN_PHASE_DISCOVERY), 3},
    {"t_tx_ms", "time TX, exchange PDUs (ms)", "ms", G(DETAIL), S(REAL), ROW_OFF(t_tx_ms), 3},
    {"t_rx_ms", "time RX, exchange PDUs (ms)", "ms", G(DETAIL), S(REAL), ROW_OFF(t_rx_ms), 3},
    {"t_ifs_ms", "time T_IFS (ms)", "ms", G(DETAIL), S(REAL), ROW_OFF(t_ifs_ms), 3},
    {"t_crypto_ms", "time crypto CPU (ms)", "ms", G(DETAIL), S(REAL), ROW_OFF(t_crypto_ms), 3},
    {"ll_octets_eff", "LL payload octets in use", "octets", G(DETAIL),
     S(UINT), ROW_OFF(ll_octets_eff), 0},
    {"pdus_tx", "LL PDUs sent, exchange", NULL, G(DETAIL), S(ULL), ROW_OFF(pdus_tx), 0},
    {"pdus_rx", "LL PDUs received, exchange", NULL, G(DETAIL), S(ULL), ROW_OFF(pdus_rx), 0},
    {"bytes_tx", "octets sent, exchange", "octets", G(DETAIL), S(ULL), ROW_OFF(bytes_tx), 0},
    {"bytes_rx", "octets received, exchange", "octets", G(DETAIL), S(ULL), ROW_OFF(bytes_rx), 0},
    {"data_pdus_tx", "LL PDUs with payload sent, all", NULL, G(DETAIL), S(ULL),
     ROW_OFF(data_pdus_tx),
     0},
    {"empty_pdus_tx", "empty LL PDUs sent, all", NULL, G(DETAIL),
     S(ULL), ROW_OFF(empty_pdus_tx), 0},
    {"att_pdus_tx", "ATT/SMP PDUs sent", NULL, G(DETAIL), S(ULL), ROW_OFF(att_pdus_tx), 0},
    {"conn_events", "connection events, first to last", NULL, G(DETAIL), S(ULL),
     ROW_OFF(conn_events),
     0},
    {"idle_events", "  of which idle (crypto, instants)", NULL, G(DETAIL), S(ULL),
     ROW_OFF(idle_events),
     0},
    SIG_FIELDS,
    LESC_FIELDS,
};

/* The IEEE 802.15.4 link (--link 802154) in its own terms: data frames and Imm-Acks,
 * aTurnaroundTime, CCA and CSMA-CA backoff, wake-ups from sleep (crystal start and CPU);
 * no ATT/LL/connection-event rows. */
static const struct pqpan_run_field fields_802154[] = {
    {"side", "side", NULL, G(CONFIG), S(TEXT), ROW_OFF(side), 0},
    {"kem", "KEM", NULL, G(CONFIG), S(TEXT), ROW_OFF(kem), 0},
    {"protocol", "protocol", NULL, G(CONFIG), S(TEXT), ROW_OFF(protocol), 0},
    {"auth", "authentication", NULL, G(CONFIG), S(TEXT), ROW_OFF(auth), 0},
    {"radio_mode", "radio mode", NULL, G(CONFIG), S(TEXT), ROW_OFF(phy), 0},
    {"idle", "idle radio", NULL, G(CONFIG), S(TEXT), ROW_OFF(idle), 0},
    {"backoff", "backoff radio", NULL, G(CONFIG), S(TEXT), ROW_OFF(backoff), 0},
    {"mac_security", "MAC security", NULL, G(CONFIG), S(TEXT), ROW_OFF(mac_security), 0},
    {"e_comp_uj", "computation (uJ)", "uJ", G(HEADLINE), S(REAL), ROW_OFF(e_comp_uj), 3},
    {"e_comm_uj", "communication, bits (uJ)", "uJ", G(HEADLINE), S(REAL), ROW_OFF(e_comm_uj), 3},
    {"e_total_uj", "total, bits (uJ)", "uJ", G(HEADLINE), S(REAL), ROW_OFF(e_total_uj), 3},
    {"comm_share_pct", "communication share, bits (%)", "%", G(HEADLINE), S(REAL),
     ROW_OFF(comm_share_pct), 1},
    {"latency_ms", "latency (ms)", "ms", G(HEADLINE), S(REAL), ROW_OFF(latency_ms), 3},
    OP_FIELDS,
    {"e_comm_tx_uj", "  bits: TX, data + Imm-Ack frames (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_comm_tx_uj), 3},
    {"e_comm_rx_uj", "  bits: RX, data + Imm-Ack frames (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_comm_rx_uj), 3},
    {"e_comm_turnaround_uj", "  bits: turnaround to Imm-Ack, RX (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_comm_ifs_uj), 3},
    {"e_comm_events_uj", "communication, all states (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_comm_events_uj), 3},
    {"e_radio_uj", "  radio TX/RX/turnaround to Ack (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_ev_radio_uj), 3},
    {"e_cca_uj", "    of which CCA, RX (uJ)", "uJ", G(DETAIL), S(REAL), ROW_OFF(e_cca_uj), 3},
    {"e_backoff_listen_uj", "    of which backoff, listening (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_backoff_rx_uj), 3},
    {"e_turnaround_cca_tx_uj", "  turnaround CCA->frame, TX (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_ev_ramp_uj), 3},
    {"e_wake_xtal_uj", "  wake-ups: crystal start (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_ev_hfxo_uj), 3},
    {"e_wake_cpu_uj", "  wake-ups: CPU (uJ)", "uJ", G(DETAIL), S(REAL), ROW_OFF(e_ev_cpu_uj), 3},
    {"e_sleep_uj", "  sleep (uJ)", "uJ", G(DETAIL), S(REAL), ROW_OFF(e_ev_sleep_uj), 3},
    {"e_backoff_sleep_uj", "    of which backoff, asleep (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_backoff_sleep_uj), 3},
    {"e_total_events_uj", "total, all states (uJ)", "uJ", G(DETAIL), S(REAL),
     ROW_OFF(e_total_events_uj), 3},
    {"comm_share_events_pct", "communication share, all states (%)", "%", G(DETAIL), S(REAL),
     ROW_OFF(comm_share_events_pct), 1},
    {"t_tx_ms", "time TX, data + Imm-Ack frames (ms)", "ms", G(DETAIL),
     S(REAL), ROW_OFF(t_tx_ms), 3},
    {"t_rx_ms", "time RX, data + Imm-Ack frames (ms)", "ms", G(DETAIL),
     S(REAL), ROW_OFF(t_rx_ms), 3},
    {"t_turnaround_ms", "time turnaround to Imm-Ack (ms)", "ms", G(DETAIL), S(REAL),
     ROW_OFF(t_ifs_ms), 3},
    {"t_cca_ms", "time CCA (ms)", "ms", G(DETAIL), S(REAL), ROW_OFF(t_cca_ms), 3},
    {"t_backoff_ms", "time CSMA-CA backoff (ms)", "ms", G(DETAIL),
     S(REAL), ROW_OFF(t_backoff_ms), 3},
    {"t_crypto_ms", "time crypto CPU (ms)", "ms", G(DETAIL), S(REAL), ROW_OFF(t_crypto_ms), 3},
    {"data_frames_tx", "data frames sent", NULL, G(DETAIL), S(ULL), ROW_OFF(data_frames_tx), 0},
    {"acks_tx", "Imm-Acks sent", NULL, G(DETAIL), S(ULL), ROW_OFF(acks_tx), 0},
    {"frames_rx", "frames received (data + Imm-Ack)", NULL, G(DETAIL), S(ULL), ROW_OFF(pdus_rx), 0},
    {"octets_tx", "octets sent (SHR+PHR+PSDU)", "octets", G(DETAIL), S(ULL), ROW_OFF(bytes_tx), 0},
    {"octets_rx", "octets received (SHR+PHR+PSDU)", "octets", G(DETAIL),
     S(ULL), ROW_OFF(bytes_rx), 0},
    SIG_FIELDS,
};

_Static_assert(sizeof fields_ble / sizeof fields_ble[0] <= PQPAN_RUN_FIELDS_MAX &&
                   sizeof fields_802154 / sizeof fields_802154[0] <= PQPAN_RUN_FIELDS_MAX,
               "every field table fits PQPAN_RUN_FIELDS_MAX");

const struct pqpan_run_field *pqpan_run_exchange_fields(enum pqpan_run_link link, size_t *n)
{
    if (link == PQPAN_RUN_LINK_802154) {
        *n = sizeof fields_802154 / sizeof fields_802154[0];
        return fields_802154;
    }
    *n = sizeof fields_ble / sizeof fields_ble[0];
    return fields_ble;
}

int pqpan_run_field_shown(const struct pqpan_run_field *f, unsigned groups)
{
    return (f->group & groups) != 0;
}

void pqpan_run_field_value(struct pqpan_run_value *out, const struct pqpan_run_field *f,
                           const struct pqpan_run_exchange_row *r)
{
    pqpan_run_record_value(out, f, r);
}

void pqpan_run_record_value(struct pqpan_run_value *out, const struct pqpan_run_field *f,
                            const void *data)
{
    const void *p = (const unsigned char *)data + f->offset;
    out->known = 1;
    out->text = NULL;
    out->i = 0;
    out->u = 0;
    out->x = 0.0;
    switch (f->store) {
    case S(TEXT):
        out->type = PQPAN_RUN_TEXT;
        out->text = *(const char *const *)p;
        out->known = out->text != NULL;
        return;
    case S(UINT):
        out->type = PQPAN_RUN_COUNT;
        out->u = *(const unsigned *)p;
        return;
    case S(INT):
        out->type = PQPAN_RUN_INT;
        out->i = *(const int *)p;
        return;
    case S(ULL):
    case S(OPT_ULL):
        out->type = PQPAN_RUN_COUNT;
        out->u = *(const unsigned long long *)p;
        out->known = f->store == S(ULL) || out->u != 0;
        return;
    default:
        out->type = PQPAN_RUN_REAL;
        out->x = *(const double *)p;
        out->known = f->store == S(REAL) || out->x >= 0.0;
        return;
    }
}
