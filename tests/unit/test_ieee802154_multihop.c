/* Tests for the chain of 802.15.4 hops (src/ieee802154/multihop.c, chain.c,
 * src/sim/chain154.c).
 *
 * Hand computation (extended addresses, PAN ID compression, NHC UDP, idle channel, IEEE
 * CSMA set): a 34-octet message is one frame, PSDU 63 (test_ieee802154_estimate.c), so
 * its PPDU lasts (5 + 1 + 63) x 32 us = 2 208 us (IEEE 802.15.4-2020 §12.1, 250 kb/s).
 * One hop of it: expected backoff (2^3 - 1) / 2 x 320 = 1 120 us (§6.2.5.1, macMinBE 3),
 * CCA 128, aTurnaroundTime 192, the frame 2 208, aTurnaroundTime 192, the Imm-Ack
 * (5 + 1 + 5) x 32 = 352: 4 192 us per hop. The message is handed over when the last hop's
 * frame ends, its Imm-Ack (544 us) overlapping the receiver's computation:
 * transfer(H) = 4 192 H - 544 us, whatever the forwarding (one frame is one unit).
 *
 * A forwarder receives and sends each of the three messages once: per message RX 2 208
 * (the frame) + 352 (the Imm-Ack it gets) + 1 120 (backoff, listening) + 128 (CCA), TX
 * 2 208 + 352 (its frame and the Imm-Ack it sends), RAMP_TX 192, IFS 2 x 192. Crypto at
 * 64 MHz: KeyGen 10 ms, Encaps 12 + KDF 1, Decaps 13 + KDF 1, nothing after FIN (the last
 * Imm-Ack, 544 us, ends the exchange). With H = 3:
 * latency = 37 000 + 3 x (3 x 4 192 - 544) + 544 = 73 640 us, and the forwarder listens
 * (RX) whenever it is not busy. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"
#include "pqpan/kem.h"
#include "pqpan/multihop154.h"
#include "pqpan/pqke.h"

#define US 1000ull

static void cycles_of(uint64_t cycles[PQPAN_OP_COUNT])
{
    memset(cycles, 0, PQPAN_OP_COUNT * sizeof cycles[0]);
    cycles[PQPAN_OP_KEM_KEYGEN] = 640000;
    cycles[PQPAN_OP_KEM_ENCAPS] = 768000;
    cycles[PQPAN_OP_KEM_DECAPS] = 832000;
    cycles[PQPAN_OP_KDF] = 64000;
}

static void chain_default(struct pqpan_802154_chain_config *c, unsigned hops, unsigned fwd)
{
    memset(c, 0, sizeof *c);
    pqpan_802154_est_config_default(&c->exch);
    c->exch.csma = pqpan_802154_csma_ieee();
    c->hops = (uint8_t)hops;
    c->forwarding = (uint8_t)fwd;
}

static void small_messages(struct pqpan_802154_chain_config *c)
{
    c->exch.msg_octets[0] = 34;
    c->exch.msg_octets[1] = 34;
    c->exch.msg_octets[2] = 34;
    c->exch.msg_octets[3] = 0;
}

static uint64_t total_ns(const struct pqpan_ledger *l)
{
    uint64_t t = 0;
    int s;
    for (s = 0; s < PQPAN_STATE_COUNT; s++) {
        t += pqpan_ledger_state_ns(l, (enum pqpan_state)s);
    }
    return t;
}

static struct pqpan_802154_chain_estimate est;
static struct pqpan_802154_estimate one;
static struct pqpan_802154_chain_sim_result sim;

static void test_one_hop_is_the_single_link_estimate(void **state)
{
    static const char *const kems[] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
    struct pqpan_802154_chain_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    unsigned k, fwd, frag;
    (void)state;
    cycles_of(cycles);
    for (k = 0; k < 3; k++) {
        for (fwd = 0; fwd < 2; fwd++) {
            for (frag = 0; frag < 2; frag++) {
                const struct pqpan_kem *kem = pqpan_kem_by_name(kems[k]);
                chain_default(&c, 1, fwd);
                c.exch.ipv6_frag = (uint8_t)frag;
                assert_int_equal(pqpan_802154_est_config_pqke(
                                     &c.exch, pqpan_pqke_suite_for_kem(kem->id), pqpan_pqke_mode_by_name("none"), 0),
                                 PQPAN_OK);
                assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_OK);
                assert_int_equal(pqpan_802154_estimate_pqke(&one, &c.exch, cycles), PQPAN_OK);
                assert_int_equal(est.latency_ns, one.latency_ns);
                assert_memory_equal(&est.ledger[0], &one.ledger[0], sizeof one.ledger[0]);
                assert_memory_equal(&est.ledger[1], &one.ledger[1], sizeof one.ledger[1]);
                assert_memory_equal(&est.bits[0], &one.bits[0], sizeof one.bits[0]);
                assert_memory_equal(est.frames, one.frames, sizeof one.frames);
            }
        }
    }
}

static void test_per_hop_latency_by_hand(void **state)
{
    struct pqpan_802154_chain_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    unsigned h, fwd;
    (void)state;
    cycles_of(cycles);
    for (fwd = 0; fwd < 2; fwd++) {
        for (h = 1; h <= 8; h++) {
            chain_default(&c, h, fwd);
            small_messages(&c);
            assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_OK);
            assert_int_equal(est.frames[2], 1);
            assert_int_equal(est.transfer_ns[0], (4192ull * h - 544ull) * US);
            assert_int_equal(est.transfer_ns[2], (4192ull * h - 544ull) * US);
            assert_int_equal(est.latency_ns, (37000ull + 3ull * (4192ull * h - 544ull) + 544ull) * US);
        }
    }
}

static void test_forwarder_energy_by_hand(void **state)
{
    /* currents (uA) at 3 V for the hand computation: TX, RX (idle listening and CCA
     * included), RAMP_TX, IFS */
    const double i_tx = 6400.0, i_rx = 6530.0, i_ramp = 6400.0, i_ifs = 6530.0, v = 3.0;
    const uint64_t latency = 73640ull * US;
    const uint64_t tx = 3ull * (2208 + 352) * US, ramp = 3ull * 192 * US, ifs = 3ull * 2 * 192 * US;
    const uint64_t rx = latency - tx - ramp - ifs;
    struct pqpan_802154_chain_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    const struct pqpan_ledger *f;
    double e_hand, e_ledger;
    unsigned n;
    (void)state;
    cycles_of(cycles);
    chain_default(&c, 3, PQPAN_802154_FWD_REASSEMBLE);
    small_messages(&c);
    assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_OK);
    assert_int_equal(est.latency_ns, latency);
    for (n = 1; n <= 2; n++) {
        f = &est.ledger[n];
        assert_int_equal(pqpan_ledger_state_ns(f, PQPAN_STATE_TX), tx);
        assert_int_equal(pqpan_ledger_state_ns(f, PQPAN_STATE_RAMP_TX), ramp);
        assert_int_equal(pqpan_ledger_state_ns(f, PQPAN_STATE_IFS), ifs);
        assert_int_equal(pqpan_ledger_state_ns(f, PQPAN_STATE_RX), rx);
        assert_int_equal(pqpan_ledger_state_ns(f, PQPAN_STATE_CPU), 0);
        assert_int_equal(f->pdus_tx, 6);
        assert_int_equal(f->pdus_rx, 6);
        /* the hand figure: 3 V x (6.4 mA x 7.68 ms + 6.53 mA x 64.232 ms + 6.4 mA x 0.576 ms
         * + 6.53 mA x 1.152 ms), in uJ */
        e_hand = v * (6400.0 * 7.680e-3 + 6530.0 * 64.232e-3 + 6400.0 * 0.576e-3 +
                      6530.0 * 1.152e-3);
        e_ledger = v * (i_tx * (double)pqpan_ledger_state_ns(f, PQPAN_STATE_TX) +
                        i_rx * (double)pqpan_ledger_state_ns(f, PQPAN_STATE_RX) +
                        i_ramp * (double)pqpan_ledger_state_ns(f, PQPAN_STATE_RAMP_TX) +
                        i_ifs * (double)pqpan_ledger_state_ns(f, PQPAN_STATE_IFS)) *
                   1e-9;
        assert_true(fabs(e_ledger - e_hand) < 1e-6);
    }
    /* every node's ledger adds up to the latency */
    for (n = 0; n <= 3; n++) {
        assert_int_equal(total_ns(&est.ledger[n]), latency);
    }
}

/* A message of several frames: fragment forwarding pipelines them (the source sends its
 * next fragment once the one before is three hops on), per-hop reassembly does not. */
static void test_fragment_forwarding_pipelines(void **state)
{
    struct pqpan_802154_chain_config c;
    uint64_t cycles[PQPAN_OP_COUNT], reasm[9], frag[9];
    unsigned h;
    (void)state;
    cycles_of(cycles);
    for (h = 1; h <= 8; h++) {
        chain_default(&c, h, PQPAN_802154_FWD_REASSEMBLE);
        assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_OK);
        reasm[h] = est.transfer_ns[0];
        chain_default(&c, h, PQPAN_802154_FWD_FRAGMENT);
        assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_OK);
        frag[h] = est.transfer_ns[0];
    }
    assert_int_equal(reasm[1], frag[1]);
    assert_int_equal(reasm[2], 2 * reasm[1] + 544 * US); /* store and forward: two hops */
    for (h = 2; h <= 8; h++) {
        assert_true(frag[h] < reasm[h]);
        assert_true(frag[h] > frag[h - 1]);
    }
    /* beyond three hops the pipeline is full: each more hop adds about one fragment's hop
     * (13 frames: a hop of the whole datagram is over 5 times as long) */
    for (h = 5; h <= 8; h++) {
        assert_true(5 * (frag[h] - frag[h - 1]) < reasm[h] - reasm[h - 1]);
    }
}

/* The simulator draws the backoffs: its mean latency over 40 seeds is the estimate within
 * 2 % at every level, 1..8 hops, both forwardings (from 4 hops fragment forwarding
 * pipelines and a unit waits for the later of two random times: the closed form's Clark
 * moments carry that; with means only it was 1.6-4.7 % short). The chain rule leaves no
 * collision and no busy CCA; the TX time of every node is the estimate's. */
static void test_estimate_equals_simulate(void **state)
{
    static const char *const kems[] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
    struct pqpan_802154_chain_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    const unsigned runs = 40;
    unsigned k, h, fwd, seed, n;
    (void)state;
    cycles_of(cycles);
    for (k = 0; k < 3; k++) {
        for (fwd = 0; fwd < 2; fwd++) {
            for (h = 1; h <= 8; h++) {
                const struct pqpan_kem *kem = pqpan_kem_by_name(kems[k]);
                double lat = 0, node_ns[PQPAN_802154_CHAIN_NODES], tx[PQPAN_802154_CHAIN_NODES];
                chain_default(&c, h, fwd);
                assert_int_equal(pqpan_802154_est_config_pqke(
                                     &c.exch, pqpan_pqke_suite_for_kem(kem->id), pqpan_pqke_mode_by_name("none"), 0),
                                 PQPAN_OK);
                assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_OK);
                memset(node_ns, 0, sizeof node_ns);
                memset(tx, 0, sizeof tx);
                for (seed = 1; seed <= runs; seed++) {
                    assert_int_equal(pqpan_802154_chain_simulate(&sim, &c, cycles, seed), PQPAN_OK);
                    assert_int_equal(sim.collisions, 0);
                    assert_int_equal(sim.cca_busy, 0);
                    lat += (double)sim.latency_ns / runs;
                    for (n = 0; n <= h; n++) {
                        assert_int_equal(total_ns(&sim.ledger[n]), sim.latency_ns);
                        tx[n] += (double)pqpan_ledger_state_ns(&sim.ledger[n], PQPAN_STATE_TX) / runs;
                    }
                }
                assert_true(fabs(lat / (double)est.latency_ns - 1.0) < 0.02);
                for (n = 0; n <= h; n++) {
                    assert_true(fabs(tx[n] / (double)pqpan_ledger_state_ns(&est.ledger[n], PQPAN_STATE_TX) - 1.0) < 1e-9);
                }
            }
        }
    }
}

static void test_bad_configurations(void **state)
{
    struct pqpan_802154_chain_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    (void)state;
    cycles_of(cycles);
    chain_default(&c, 0, 0);
    assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_ERR_INVALID_ARG);
    chain_default(&c, PQPAN_802154_HOPS_MAX + 1u, 0);
    assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_ERR_INVALID_ARG);
    chain_default(&c, 2, 2);
    assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_ERR_INVALID_ARG);
    chain_default(&c, 2, 0);
    c.exch.rx_always_on = 0;
    assert_int_equal(pqpan_802154_chain_estimate(&est, &c, cycles), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_802154_chain_simulate(&sim, &c, cycles, 1), PQPAN_ERR_INVALID_ARG);
    assert_null(pqpan_802154_forwarding_name(2));
    assert_string_equal(pqpan_802154_forwarding_name(PQPAN_802154_FWD_FRAGMENT), "fragment");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_hop_is_the_single_link_estimate),
        cmocka_unit_test(test_per_hop_latency_by_hand),
        cmocka_unit_test(test_forwarder_energy_by_hand),
        cmocka_unit_test(test_fragment_forwarding_pipelines),
        cmocka_unit_test(test_estimate_equals_simulate),
        cmocka_unit_test(test_bad_configurations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
