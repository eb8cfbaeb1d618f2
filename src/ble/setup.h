/* Shared inside src/ble: the set-up procedures (setup.c) that the estimator (estimate.c)
 * runs before the exchange, and the schedule's two steps (conn.c). */
#ifndef PQPAN_BLE_SETUP_H
#define PQPAN_BLE_SETUP_H

#include "ble/estimate_memo.h"
#include "pqpan/ble.h"

/* Appends a txn of one message of len octets (count 1) from sender in phase ph, waiting
 * for a reply of rsp_len octets (0: none); LL control PDUs when ll_control != 0. */
struct pqpan_ble_txn *pqpan_ble_txn_add(struct pqpan_ble_txn *t, uint32_t *n,
                                        enum pqpan_ble_role sender, enum pqpan_phase ph,
                                        uint32_t len, uint32_t rsp_len, int ll_control);

/* The transfer whose ATT transactions pqpan_ble_plan_message gives for t (att.c): a Write
 * Command carries what a notification carries, a Write Request what an indication does
 * (the same header sizes, and a one-octet reply for the confirmed ones: Vol 3 Part F
 * §3.4.5.1–3, §3.4.7.1–3); every other transfer is its own. */
enum pqpan_ble_transfer pqpan_ble_transfer_pdus(enum pqpan_ble_transfer t);

/* What of a schedule depends on which side sends each txn (for the memo's mirror of an
 * exchange with the keygen side flipped, estimate.c). */
struct pqpan_ble_flip {
    int by_side;            /* 0 when no packing depended on which side sent the PDUs
                               (every message went whole into one new event) and every
                               computation's output would go at the same anchor, so that
                               with every txn's sender swapped the events would be the
                               same and only the sides' air, PDUs and octets would swap */
    uint64_t crypto_end_ns; /* then, the last computation's end (counts' crypto_end_ns)
                               with every sender swapped: the events that suspend a
                               computation start earlier on the peripheral (its receive
                               window) */
};

/* pqpan_ble_schedule in two steps (conn.c): the txns' PDUs on the link's PHY and LL octets
 * (n <= PQPAN_BLE_PLAN_TXN_MAX), then the schedule of txns so shaped on a link of the same
 * PHY and LL octets (any interval and event rules); the two give what pqpan_ble_schedule
 * gives, and *flip what would differ with every sender swapped. */
void pqpan_ble_shape_txns(struct pqpan_ble_shaped *out, const struct pqpan_ble_link *link,
                          const struct pqpan_ble_txn *txns, uint32_t n);
void pqpan_ble_schedule_shaped(struct pqpan_ledger led[2], struct pqpan_ledger bits[2],
                               struct pqpan_ble_counts *counts, uint64_t *elapsed_ns,
                               const struct pqpan_ble_link *link,
                               const struct pqpan_ble_device *dev,
                               const struct pqpan_ble_txn *txns,
                               const struct pqpan_ble_shaped *shaped,
                               struct pqpan_ble_flip *flip);

/* Runs the set-up c asks for into out (ledgers, counts, span_ns, setup_ns): advertising,
 * connection, feature exchange, link switch, MTU exchange and discovery (by the GATT
 * client, the side that is not c->gatt_server). */
void pqpan_ble_setup_run(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *c,
                         const struct pqpan_ble_device *d);

#endif
