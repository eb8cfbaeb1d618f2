/* Tests for libpqpan-io's cycle tables (src/io/load/cycles.c, data.c): the built-in
 * data/cycles/ rows (pqm4, pqpan_m4.csv, P-256, ML-DSA), users' CSV files, energy from
 * built-in data against a hand computation, and every error path: malformed CSV
 * (tests/fixtures/cycles/), implausible cycle counts, a full table, a directory, NULL
 * arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/energy.h"
#include "pqpan/io.h"
#include "pqpan/ledger.h"

#define FIXTURES PQPAN_SOURCE_DIR "/tests/fixtures/"

static struct pqpan_cycle_table table;

/* Values straight from data/cycles/ (pqm4 commit cc2c1b99, Emill/P256-Cortex-M4 README). */
/* Both pqpan M4 builds have a row for every ML-KEM level and operation (--crypto-impl
 * pqpan-m4 and pqpan-m4-asm), and the assembly backend is never the slower. */
static void kem_rows_of_both_m4_builds(void)
{
    static const char *const kems[] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
    static const enum pqpan_op ops[] = {PQPAN_OP_KEM_KEYGEN, PQPAN_OP_KEM_ENCAPS, PQPAN_OP_KEM_DECAPS};
    for (size_t k = 0; k < 3; k++) {
        for (size_t o = 0; o < 3; o++) {
            uint64_t portable, backend;
            assert_int_equal(pqpan_cycles_lookup(&table, kems[k], "pqpan-m4", ops[o], &portable), PQPAN_OK);
            assert_int_equal(pqpan_cycles_lookup(&table, kems[k], "pqpan-m4-asm", ops[o], &backend), PQPAN_OK);
            assert_true(backend > 0 && backend < portable);
        }
    }
}

static void test_builtin_cycles(void **state)
{
    char err[PQPAN_IO_ERR_MAX];
    uint64_t c;
    (void)state;
    if (pqpan_io_cycles_load_builtin(&table, err, sizeof err) != PQPAN_OK) {
        fail_msg("%s", err);
    }
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-KEM-768", "clean", PQPAN_OP_KEM_KEYGEN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 988722);
    assert_int_equal(
        pqpan_cycles_lookup(&table, "ML-KEM-768", "m4fspeed", PQPAN_OP_KEM_DECAPS, &c), PQPAN_OK);
    assert_int_equal(c, 707827);
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-KEM-1024", "m4fstack", PQPAN_OP_KEM_ENCAPS,
                                         &c),
                     PQPAN_OK);
    assert_int_equal(c, 1037953);
    assert_int_equal(pqpan_cycles_lookup(&table, "P-256", NULL, PQPAN_OP_ECDH_KEYGEN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 327000);
    assert_int_equal(pqpan_cycles_lookup(&table, "P-256", NULL, PQPAN_OP_ECDH_SHARED, &c),
                     PQPAN_OK);
    assert_int_equal(c, 906000);
    assert_int_equal(pqpan_cycles_lookup(&table, "X25519", NULL, PQPAN_OP_ECDH_KEYGEN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 548873);
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-KEM-768", "clean", PQPAN_OP_KDF, &c),
                     PQPAN_OK);
    assert_int_equal(c, 253000); /* estimate: 23 permutations x 11000 */
    /* ML-DSA rows (pqm4 means; signing is the mean over its benchmark's messages) */
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-DSA-44", "m4fstack", PQPAN_OP_SIG_SIGN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 12134284);
    assert_int_equal(pqpan_cycles_lookup(&table, "ml-dsa-87", "clean", PQPAN_OP_SIG_VERIFY, &c),
                     PQPAN_OK);
    assert_int_equal(c, 5610203);
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-DSA-65", "m4f", PQPAN_OP_SIG_KEYGEN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 2516006);
    /* pqpan's own rows (make bench-m4; their values move with the code) */
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-DSA-44", "pqpan-m4", PQPAN_OP_SIG_SIGN, &c),
                     PQPAN_OK);
    assert_true(c > 0);
    kem_rows_of_both_m4_builds();
}

/* --p256-impl pqpan's rows are make bench-m4's of the small build at -Os (data/cycles/
 * pqpan_m4.csv, pqpan-m4), not a copy that drifts from them (it did: 10,421,085 keygen
 * cycles against the re-run's 10,411,439). */
static void test_p256_impl_pqpan_rows_are_bench_m4s(void **state)
{
    static const char *const pairs[][2] = {{"pqpan", "pqpan-m4"}};
    static const enum pqpan_op ops[] = {PQPAN_OP_ECDH_KEYGEN, PQPAN_OP_ECDH_SHARED};
    char err[PQPAN_IO_ERR_MAX];
    size_t i, o;
    (void)state;
    if (pqpan_io_cycles_load_builtin(&table, err, sizeof err) != PQPAN_OK) {
        fail_msg("%s", err);
    }
    for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        for (o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            const struct pqpan_cycle_row *impl = pqpan_cycles_find(&table, "P-256", pairs[i][0], ops[o]);
            const struct pqpan_cycle_row *bench = pqpan_cycles_find(&table, "p-256", pairs[i][1], ops[o]);
            if (impl == NULL || bench == NULL || strcmp(impl->impl, pairs[i][0]) != 0) {
                fail_msg("no P-256 %s row for %s or %s", pqpan_op_name(ops[o]), pairs[i][0],
                         pairs[i][1]);
            }
            if (impl->cycles != bench->cycles) {
                fail_msg("P-256 %s %s: %llu cycles, make bench-m4's %s row %llu", pairs[i][0],
                         pqpan_op_name(ops[o]), (unsigned long long)impl->cycles, pairs[i][1],
                         (unsigned long long)bench->cycles);
            }
        }
    }
}

/* Every row of data/cycles/p256_impl_cortex_m4.csv (--p256-impl) against its source's
 * figure, typed here from the source: a figure in ms at a clock is cycles = ms x MHz x 1000
 * (the row's scaling); a figure in cycles is taken as it is. */
static void test_p256_impl_rows(void **state)
{
    static const struct {
        const char *impl;
        enum pqpan_op op;
        double figure;    /* as the source gives it */
        double clock_mhz; /* 0: the figure is in cycles */
    } rows[] = {
        /* Emill/P256-Cortex-M4 README @ecd3ec22: 327k / 906k cycles on the nRF52840 */
        {"emill-asm", PQPAN_OP_ECDH_KEYGEN, 327000, 0},
        {"emill-asm", PQPAN_OP_ECDH_SHARED, 906000, 0},
        /* Mbed-TLS/mbedtls 3rdparty/p256-m/README.md @a0fc9987, Cortex-M4 at 100 MHz
         * (STM32F411): p256-m 145 / 144 ms, TinyCrypt 178 / 177 ms */
        {"p256-m", PQPAN_OP_ECDH_KEYGEN, 145, 100},
        {"p256-m", PQPAN_OP_ECDH_SHARED, 144, 100},
        {"tinycrypt", PQPAN_OP_ECDH_KEYGEN, 178, 100},
        {"tinycrypt", PQPAN_OP_ECDH_SHARED, 177, 100},
        /* contiki-ng PR #3177: CC310 on the nRF52840-DK, about 19 ms per operation, at the
         * nRF52840's 64 MHz */
        {"cc310", PQPAN_OP_ECDH_KEYGEN, 19, 64},
        {"cc310", PQPAN_OP_ECDH_SHARED, 19, 64},
    };
    char err[PQPAN_IO_ERR_MAX];
    size_t i;
    (void)state;
    if (pqpan_io_cycles_load_builtin(&table, err, sizeof err) != PQPAN_OK) {
        fail_msg("%s", err);
    }
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct pqpan_cycle_row *r =
            pqpan_cycles_find(&table, "P-256", rows[i].impl, rows[i].op);
        double want = rows[i].clock_mhz > 0 ? rows[i].figure * rows[i].clock_mhz * 1000.0
                                             : rows[i].figure;
        if (r == NULL || strcmp(r->impl, rows[i].impl) != 0) {
            fail_msg("no P-256 %s row for %s", pqpan_op_name(rows[i].op), rows[i].impl);
        }
        if ((double)r->cycles != want) {
            fail_msg("%s %s: %llu cycles, source gives %.0f", rows[i].impl,
                     pqpan_op_name(rows[i].op), (unsigned long long)r->cycles, want);
        }
    }
}

static void test_cycles_csv_file(void **state)
{
    char err[PQPAN_IO_ERR_MAX];
    const struct pqpan_cycle_row *r;
    (void)state;
    memset(&table, 0, sizeof table);
    assert_int_equal(pqpan_io_cycles_load(&table, FIXTURES "cycles/good.csv", err, sizeof err),
                     PQPAN_OK);
    assert_int_equal(table.count, 4); /* the ECDSA row is skipped */
    r = pqpan_cycles_find(&table, "ML-DSA-44", "mine", PQPAN_OP_SIG_KEYGEN);
    assert_non_null(r);
    assert_int_equal(r->cycles, 999);
    r = pqpan_cycles_find(&table, "ml-kem-768", "MINE", PQPAN_OP_KEM_KEYGEN);
    assert_non_null(r);
    assert_int_equal(r->cycles, 123456);
    assert_int_equal(r->stack_bytes, 100);
    assert_string_equal(r->source, "good.csv");
    r = pqpan_cycles_find(&table, "ML-KEM-768", "mine", PQPAN_OP_KEM_DECAPS);
    assert_non_null(r);
    assert_int_equal(r->code_bytes, 0);
}

static void test_malformed_cycles(void **state)
{
    static const struct {
        const char *file, *where;
    } cases[] = {
        {"bad_number.csv", "line 2: cycles"},
        {"bad_fields.csv", "line 2"},
        {"bad_quote.csv", "line 3"},
        {"bad_header.csv", "line 1"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512], err[PQPAN_IO_ERR_MAX];
        snprintf(path, sizeof path, FIXTURES "cycles/%s", cases[i].file);
        memset(&table, 0, sizeof table);
        if (pqpan_io_cycles_load(&table, path, err, sizeof err) != PQPAN_ERR_MALFORMED) {
            fail_msg("%s: accepted", cases[i].file);
        }
        if (strstr(err, cases[i].file) == NULL || strstr(err, cases[i].where) == NULL) {
            fail_msg("%s: message does not say '%s': %s", cases[i].file, cases[i].where, err);
        }
        assert_int_equal(table.count, 0);
    }
}

/* LE Secure Connections crypto per side on the nRF52840 with default γ, by hand:
 * (327 000 + 906 000) cycles / 64 MHz = 19.265625 ms; × 3 V × 3300 µA = 190.7296875 µJ;
 * × γ_comp 1.12 = 213.6172500 µJ. */
static void test_lesc_baseline_crypto_energy(void **state)
{
    struct pqpan_profile p;
    struct pqpan_gamma g;
    struct pqpan_ledger l;
    struct pqpan_energy e;
    const struct pqpan_energy_opts o = {PQPAN_RADIO_BLE_1M, PQPAN_CURRENTS_SYSTEM, 0};
    char err[PQPAN_IO_ERR_MAX];
    uint64_t keygen, shared;
    double got;
    (void)state;
    assert_int_equal(pqpan_io_profile_load_builtin(&p, NULL, "nrf52840", err, sizeof err), PQPAN_OK);
    assert_int_equal(pqpan_io_cycles_load_builtin(&table, err, sizeof err), PQPAN_OK);
    assert_int_equal(pqpan_cycles_lookup(&table, "P-256", NULL, PQPAN_OP_ECDH_KEYGEN, &keygen),
                     PQPAN_OK);
    assert_int_equal(pqpan_cycles_lookup(&table, "P-256", NULL, PQPAN_OP_ECDH_SHARED, &shared),
                     PQPAN_OK);
    pqpan_gamma_default(&g);
    pqpan_ledger_init(&l);
    pqpan_ledger_add_op(&l, PQPAN_OP_ECDH_KEYGEN, keygen);
    pqpan_ledger_add_op(&l, PQPAN_OP_ECDH_SHARED, shared);
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_OK);
    got = e.comp_uj;
    if (got < 213.61725 - 1e-6 || got > 213.61725 + 1e-6) {
        fail_msg("LESC crypto energy %.9f µJ, want 213.61725", got);
    }
}


/* A cycle count outside 1..10^12 is refused, with the line; the table stays as it was. */
static void test_implausible_cycles(void **state)
{
    static const char zero[] = "scheme,implementation,operation,cycles\nML-KEM-768,x,keygen,0\n";
    static const char huge[] = "scheme,implementation,operation,cycles\n"
                               "ML-KEM-768,x,keygen,1000000000001\n";
    static const char hex[] = "scheme,implementation,operation,cycles\nML-KEM-768,x,keygen,0x10\n";
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    memset(&table, 0, sizeof table);
    assert_int_equal(pqpan_io_cycles_parse(&table, zero, strlen(zero), "z.csv", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_string_equal(err, "z.csv: line 2: cycles: not a positive integer");
    assert_int_equal(pqpan_io_cycles_parse(&table, huge, strlen(huge), "h.csv", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_io_cycles_parse(&table, hex, strlen(hex), "x.csv", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_int_equal(table.count, 0);
}

/* More rows than PQPAN_CYCLE_ROWS_MAX: PQPAN_ERR_CAPACITY; the rows of earlier files stay. */
static void test_table_full(void **state)
{
    static char text[PQPAN_CYCLE_ROWS_MAX * 48 + 64];
    char err[PQPAN_IO_ERR_MAX];
    size_t len = 0, before;
    int i;
    (void)state;
    assert_int_equal(pqpan_io_cycles_load_builtin(&table, err, sizeof err), PQPAN_OK);
    before = table.count;
    len += (size_t)snprintf(text, sizeof text, "scheme,implementation,operation,cycles\n");
    for (i = 0; i < PQPAN_CYCLE_ROWS_MAX; i++) {
        len += (size_t)snprintf(text + len, sizeof text - len, "ML-KEM-768,i%d,keygen,%d\n", i,
                                i + 1);
    }
    assert_int_equal(pqpan_io_cycles_parse(&table, text, len, "big.csv", err, sizeof err),
                     PQPAN_ERR_CAPACITY);
    assert_non_null(strstr(err, "big.csv: line "));
    assert_non_null(strstr(err, "cycle table full"));
    assert_int_equal(table.count, before);
}

static void test_directory_and_arguments(void **state)
{
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    memset(&table, 0, sizeof table);
    assert_int_equal(pqpan_io_cycles_load(&table, FIXTURES "cycles", err, sizeof err),
                     PQPAN_ERR_IO);
    assert_non_null(strstr(err, "cycles: is a directory"));
    assert_int_equal(pqpan_io_cycles_load(&table, FIXTURES "cycles/absent.csv", err, sizeof err),
                     PQPAN_ERR_IO);
    assert_int_equal(pqpan_io_cycles_load(NULL, "x", err, sizeof err), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_io_cycles_parse(&table, NULL, 0, "x", err, sizeof err),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_io_cycles_load_builtin(NULL, err, sizeof err), PQPAN_ERR_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_cycles),
        cmocka_unit_test(test_p256_impl_rows),
        cmocka_unit_test(test_p256_impl_pqpan_rows_are_bench_m4s),
        cmocka_unit_test(test_cycles_csv_file),
        cmocka_unit_test(test_malformed_cycles),
        cmocka_unit_test(test_lesc_baseline_crypto_energy),
        cmocka_unit_test(test_implausible_cycles),
        cmocka_unit_test(test_table_full),
        cmocka_unit_test(test_directory_and_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
