/* Tests for pqpan idle --link 802154 (src/run/run_idle_802154.c, cli/idle_802154.c)
 * through cli_idle_run: the JSON and CSV of a Thread-like poll (short addresses, ENC-MIC-32, key identifier mode 1)
 * on the nRF52840 profile against a hand computation from the profile's figures, and the
 * exit codes of bad requests. Standard output is captured in a temporary file. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: stdout capture */
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "cli.h"
#include "commands.h"

#define FIXTURES PQPAN_SOURCE_DIR "/tests/fixtures/"
#define OUT_MAX 16384

static char out[OUT_MAX];

/* Runs the command with argv (argv[0] = "idle") and stdout going to a temporary file (or
 * to path, when given), its output in out[]. Returns the exit code. */
static int run_to(const char *path, int argc, char **argv)
{
    int saved, fd, rc;
    FILE *tmp = tmpfile();
    size_t n;
    assert_non_null(tmp);
    fflush(stdout);
    saved = dup(1);
    fd = path != NULL ? open(path, O_WRONLY) : fileno(tmp);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 1);
    rc = cli_idle_run(argc, argv);
    fflush(stdout);
    clearerr(stdout);
    dup2(saved, 1);
    close(saved);
    if (path != NULL) {
        close(fd);
    }
    rewind(tmp);
    n = fread(out, 1, sizeof out - 1, tmp);
    out[n] = '\0';
    fclose(tmp);
    return rc;
}

static int run(int argc, char **argv)
{
    return run_to(NULL, argc, argv);
}

static double number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static void assert_close(double got, double want, double tol)
{
    if (fabs(got - want) > tol) {
        fail_msg("got %.9f, want %.9f", got, want);
    }
}

/* nRF52840 profile: TX 6400 uA, RX 6530 uA (802.15.4 mode), sleep 3.16 uA, crystal start
 * 1400 us at 267 uA (hfxo_start_us, hfxo_start_ua), CPU 100 us at 3300 uA. Data Request
 * with short addresses and PAN ID compression: MHR 9 + aux 6 + Command ID 1 + MIC 4 +
 * FCS 2 = 22 octets, (6 + 22) x 32 = 896 us on air. Poll: 0.3738 + 0.33 + 7.3136 (backoff
 * 1120 us listening) + 0.83584 (CCA) + 1.2288 (turnaround) + 6400 x 896 us = 5.7344 +
 * 3.55232 (ACK wait 544 us) = 19.36876 uC; active 4 380 us, sleep 3.16 x 0.99562 s =
 * 3.1461592 uC over 1 s: average 22.5149192 uA. */
static void test_json_thread_like_poll(void **state)
{
    static char *argv[] = {"idle", "--link", "802154", "--poll-ms", "1000", "--addr", "short",
                           "--mac-security", "enc-mic32", "--format", "json"};
    const cJSON *phases, *ph;
    cJSON *doc;
    double sum = 0.0;
    (void)state;
    assert_int_equal(run(11, argv), EXIT_OK);
    doc = cJSON_Parse(out);
    assert_non_null(doc);
    assert_int_equal((int)number(doc, "request_psdu_octets"), 22);
    assert_int_equal((int)number(doc, "aux_header_octets"), 6);
    assert_int_equal((int)number(doc, "mic_octets"), 4);
    assert_close(number(doc, "charge_per_poll_uc"), 19.36876, 1e-6);
    assert_close(number(doc, "sleep_charge_uc"), 3.1461592, 1e-6);
    assert_close(number(doc, "avg_current_ua"), 22.5149192, 1e-6);
    assert_close(number(doc, "active_us"), 4380.0, 1e-9);
    phases = cJSON_GetObjectItemCaseSensitive(doc, "phases");
    assert_int_equal(cJSON_GetArraySize(phases), 8);
    cJSON_ArrayForEach(ph, phases)
    {
        const char *name = cJSON_GetObjectItemCaseSensitive(ph, "phase")->valuestring;
        if (strcmp(name, "tx") == 0) {
            assert_close(number(ph, "time_us"), 896.0, 1e-9);
            assert_close(number(ph, "charge_uc"), 5.7344, 1e-6);
        }
        if (strcmp(name, "sleep") != 0) {
            sum += number(ph, "charge_uc");
        }
    }
    assert_close(sum, 19.36876, 1e-5); /* the phases add up to the poll */
    cJSON_Delete(doc);
}

/* The same poll with the radio off in the backoff: 1 120 us at the sleep current instead
 * of RX, 3.16 x 1120 us = 0.0035392 uC for 7.3136: 19.36876 - 7.3136 + 0.0035392 =
 * 12.0586992 uC (docs/MODEL.md compares both with Nordic's measured poll charge). */
static void test_json_backoff_asleep(void **state)
{
    static char *argv[] = {"idle", "--link", "802154", "--poll-ms", "1000", "--addr", "short",
                           "--mac-security", "enc-mic32", "--backoff", "sleep", "--format",
                           "json"};
    cJSON *doc;
    (void)state;
    assert_int_equal(run(13, argv), EXIT_OK);
    doc = cJSON_Parse(out);
    assert_non_null(doc);
    assert_close(number(doc, "charge_per_poll_uc"), 12.0586992, 1e-6);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(doc, "backoff_source")->valuestring,
                        "--backoff (command line)");
    cJSON_Delete(doc);
}

/* CSV: the "period" row's current is the average current, its charge the period's. */
static void test_csv_period_row(void **state)
{
    static char *argv[] = {"idle", "--link", "802154", "--poll-ms", "1000", "--addr", "short",
                           "--mac-security", "enc-mic32", "--format", "csv"};
    (void)state;
    assert_int_equal(run(11, argv), EXIT_OK);
    assert_non_null(strstr(out, "poll_ms,mac_security,key_id_mode,addr,backoff,currents,tx_dbm,"
                                "phase,state,time_us,current_ua,charge_uc\n"));
    assert_non_null(strstr(out, "1000.000,enc-mic32,1,short,listen,system,0,tx,tx,896.000,"
                                "6400.000,5.734400\n"));
    assert_non_null(strstr(out, ",period,,1000000.000,22.515,22.514919\n"));
}

/* Without --poll-ms the device polls at the idle link's interval, --idle-ci-ms's default
 * (include/pqpan/defaults.h): the one idle rhythm of idle and advise. */
static void test_default_period(void **state)
{
    static char *no_period[] = {"idle", "--link", "802154", "--format", "csv"};
    char want[64];
    (void)state;
    assert_int_equal(run(5, no_period), EXIT_OK);
    snprintf(want, sizeof want, "\n%.3f,none,",
             (double)pqpan_default_ms_ns(PQPAN_DEFAULT_IDLE_CI_MS) * 1e-6);
    assert_non_null(strstr(out, want));
}

static void test_bad_requests(void **state)
{
    static char *too_short[] = {"idle", "--link", "802154", "--poll-ms", "3"};
    static char *kem[] = {"idle", "--link", "802154", "--poll-ms", "10", "--kem", "ML-KEM-512"};
    static char *level4[] = {"idle", "--link", "802154", "--poll-ms", "10", "--mac-security", "enc"};
    static char *no_currents[] = {"idle", "--link", "802154", "--poll-ms", "10", "--profile",
                                  "nrf54l15"};
    static char *no_wake[] = {"idle", "--link", "802154", "--poll-ms", "10", "--profile",
                              FIXTURES "profiles/no_wake_cpu.json"};
    static char *bad_file[] = {"idle", "--link", "802154", "--poll-ms", "10", "--profile",
                               FIXTURES "profiles/bad_section_wake_cpu.json"};
    static char *ok[] = {"idle", "--link", "802154", "--poll-ms", "10"};
    (void)state;
    assert_int_equal(run(5, too_short), EXIT_USAGE); /* 3 ms < 4.444 ms active */
    assert_int_equal(out[0], '\0');
    assert_int_equal(run(7, kem), EXIT_USAGE);
    assert_int_equal(run(7, level4), EXIT_USAGE);
    assert_int_equal(run(7, no_currents), EXIT_USAGE);
    assert_int_equal(run(7, no_wake), EXIT_USAGE);
    assert_int_equal(run(7, bad_file), EXIT_BAD_INPUT);
    assert_int_equal(run_to("/dev/full", 5, ok), EXIT_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_thread_like_poll),
        cmocka_unit_test(test_json_backoff_asleep),
        cmocka_unit_test(test_csv_period_row),
        cmocka_unit_test(test_default_period),
        cmocka_unit_test(test_bad_requests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
