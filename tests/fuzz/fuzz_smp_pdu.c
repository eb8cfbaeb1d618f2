/* libFuzzer target: the SMP PDU parsers (src/ble/smp_pdu.c) and the LL_ENC_REQ/RSP parser
 * (src/ble/ll_pdu.c), which parse what a peer sends during LE Secure Connections pairing.
 * Every input goes through every parser; whatever parses must write back to exactly the
 * input bytes, and a rejected input leaves zeroed outputs. Seeds: the PDUs of one
 * simulated pairing (tests/fuzz/corpus/smp_pdu/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/ble_pdu.h"

static uint8_t out[PQPAN_SMP_PUBLIC_KEY_BYTES];

static void same(int rc, size_t written, const uint8_t *data, size_t size)
{
    if (rc != PQPAN_OK || written != size || memcmp(out, data, size) != 0) {
        abort();
    }
}

static void zero(const void *p, size_t len)
{
    const uint8_t *b = p;
    size_t i;
    for (i = 0; i < len; i++) {
        if (b[i] != 0) {
            abort();
        }
    }
}

static void pairing(uint8_t code, const uint8_t *data, size_t size)
{
    struct pqpan_smp_pairing p;
    size_t w;
    if (pqpan_smp_pdu_pairing_parse(&p, code, data, size) == PQPAN_OK) {
        same(pqpan_smp_pdu_pairing_write(out, sizeof out, code, &p, &w), w, data, size);
    } else {
        zero(&p, sizeof p);
    }
}

static void value(uint8_t code, const uint8_t *data, size_t size)
{
    uint8_t v[16];
    size_t w;
    if (pqpan_smp_pdu_value_parse(v, code, data, size) == PQPAN_OK) {
        same(pqpan_smp_pdu_value_write(out, sizeof out, code, v, &w), w, data, size);
    } else {
        zero(v, sizeof v);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t x[32], y[32], reason;
    struct pqpan_ll_enc e;
    size_t w;
    pairing(PQPAN_SMP_PAIRING_REQUEST, data, size);
    pairing(PQPAN_SMP_PAIRING_RESPONSE, data, size);
    value(PQPAN_SMP_PAIRING_CONFIRM, data, size);
    value(PQPAN_SMP_PAIRING_RANDOM, data, size);
    value(PQPAN_SMP_PAIRING_DHKEY_CHECK, data, size);
    if (pqpan_smp_pdu_public_key_parse(x, y, data, size) == PQPAN_OK) {
        same(pqpan_smp_pdu_public_key_write(out, sizeof out, x, y, &w), w, data, size);
    } else {
        zero(x, sizeof x);
        zero(y, sizeof y);
    }
    if (pqpan_smp_pdu_failed_parse(&reason, data, size) == PQPAN_OK) {
        same(pqpan_smp_pdu_failed_write(out, sizeof out, reason, &w), w, data, size);
    }
    if (pqpan_ll_pdu_enc_parse(&e, data, size) == PQPAN_OK) {
        same(pqpan_ll_pdu_enc_write(out, sizeof out, data[0], &e, &w), w, data, size);
    } else {
        zero(&e, sizeof e);
    }
    /* a value or public-key PDU of its exact length has nothing to reject */
    if (size == PQPAN_SMP_VALUE_BYTES && (data[0] == PQPAN_SMP_PAIRING_CONFIRM ||
                                          data[0] == PQPAN_SMP_PAIRING_RANDOM ||
                                          data[0] == PQPAN_SMP_PAIRING_DHKEY_CHECK)) {
        if (pqpan_smp_pdu_value_parse(x, data[0], data, size) != PQPAN_OK) {
            abort();
        }
    }
    if (size == PQPAN_SMP_PUBLIC_KEY_BYTES && data[0] == PQPAN_SMP_PAIRING_PUBLIC_KEY &&
        pqpan_smp_pdu_public_key_parse(x, y, data, size) != PQPAN_OK) {
        abort();
    }
    return 0;
}
