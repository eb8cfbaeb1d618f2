/* A program of a library user, built against an installed libpqpan-io and libpqpan
 * (tests/integration/install_package.sh builds it with pkg-config and with CMake): loads the
 * built-in profile nrf52840 and the profile file given as argv[1] through pqpan/io.h, the
 * built-in cycle tables and the default γ, and prices one ML-KEM-768 exchange (the study's
 * link, pqpan_ble_config_default, and the study's protocol) with each profile through
 * pqpan_ble_estimate_pqke and pqpan_energy_compute, as `pqpan estimate --protocol study`
 * does. Prints, per profile, the peripheral's e_total_uj (bits accounting: computation with
 * its events + PDU bits) and latency_ms; the test compares them with the installed CLI's.
 * Exit 0, or 1 with the library's message on stderr. */
#include <stdio.h>
#include <string.h>

#include "pqpan/io.h"
#include "pqpan/pqpan.h"

/* The device timing of a profile, as the CLI derives it (fast radio ramp-up). */

static int cycles_of(uint64_t cycles[PQPAN_OP_COUNT], const struct pqpan_cycle_table *t)
{
    static const enum pqpan_op ops[] = {PQPAN_OP_KEM_KEYGEN, PQPAN_OP_KEM_ENCAPS,
                                        PQPAN_OP_KEM_DECAPS};
    size_t i;
    memset(cycles, 0, PQPAN_OP_COUNT * sizeof cycles[0]);
    for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (pqpan_cycles_lookup(t, "ML-KEM-768", "clean", ops[i], &cycles[ops[i]]) != PQPAN_OK) {
            return -1;
        }
    }
    return 0;
}

/* One exchange priced with profile p; prints "LABEL e_total_uj X latency_ms Y". */
static int price(const char *label, const struct pqpan_profile *p,
                 const struct pqpan_cycle_table *t)
{
    const struct pqpan_energy_opts o = {PQPAN_RADIO_BLE_1M, PQPAN_CURRENTS_SYSTEM, 0};
    static struct pqpan_ble_estimate est;
    struct pqpan_ble_config cfg;
    struct pqpan_ble_device dev;
    struct pqpan_energy full, bits;
    struct pqpan_gamma g;
    uint64_t cycles[PQPAN_OP_COUNT];
    pqpan_gamma_default(&g);
    pqpan_ble_config_default(&cfg);
    cfg.protocol = PQPAN_BLE_PROTO_STUDY; /* raw ek and ct: the KEM's cycles only */
    if (pqpan_ble_device_from_profile(&dev, p, 0) != PQPAN_OK || cycles_of(cycles, t) != 0 ||
        pqpan_ble_estimate_pqke(&est, &cfg, &dev, cycles) != PQPAN_OK ||
        pqpan_energy_compute(&full, &est.ledger[PQPAN_BLE_PERIPHERAL], p, &o, &g) != PQPAN_OK ||
        pqpan_energy_compute(&bits, &est.bits[PQPAN_BLE_PERIPHERAL], p, &o, &g) != PQPAN_OK) {
        fprintf(stderr, "%s: the exchange could not be priced\n", label);
        return 1;
    }
    printf("%s e_total_uj %.3f latency_ms %.3f\n", label, full.comp_uj + bits.comm_bits_uj,
           (double)est.latency_ns * 1e-6);
    return 0;
}

int main(int argc, char **argv)
{
    static struct pqpan_profile builtin, file;
    static struct pqpan_cycle_table table;
    char err[PQPAN_IO_ERR_MAX];
    if (argc != 2) {
        fprintf(stderr, "usage: example_io PROFILE.json\n");
        return 1;
    }
    if (pqpan_io_profile_load_builtin(&builtin, NULL, "nrf52840", err, sizeof err) != PQPAN_OK ||
        pqpan_io_profile_load_file(&file, NULL, argv[1], err, sizeof err) != PQPAN_OK ||
        pqpan_io_cycles_load_builtin(&table, err, sizeof err) != PQPAN_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    return price("builtin", &builtin, &table) | price("file", &file, &table);
}
