/* Security Manager Protocol PDU codecs for LE Secure Connections pairing (Core v5.4 Vol 3
 * Part H §3.3 packet format, §3.5 pairing methods). Every value field travels least
 * significant octet first (§1.2.1); the API takes and gives them most significant first. */
#include "pqpan/ble_pdu.h"

#include <string.h>

#define VALUE 16u
#define COORD 32u
#define KEY_SIZE_MIN 7u  /* §3.5.1: Maximum Encryption Key Size 7..16 octets */
#define KEY_SIZE_MAX 16u
#define IO_CAPABILITY_MAX 0x04u /* Table 3.4: 0x05..0xFF reserved */
#define FAILED_REASON_MAX 0x0Fu /* Table 3.7: 0x10..0xFF reserved */

size_t pqpan_smp_pdu_len(uint8_t code)
{
    switch (code) {
    case PQPAN_SMP_PAIRING_REQUEST:
    case PQPAN_SMP_PAIRING_RESPONSE:
        return PQPAN_SMP_PAIRING_BYTES;
    case PQPAN_SMP_PAIRING_CONFIRM:
    case PQPAN_SMP_PAIRING_RANDOM:
    case PQPAN_SMP_PAIRING_DHKEY_CHECK:
        return PQPAN_SMP_VALUE_BYTES;
    case PQPAN_SMP_PAIRING_PUBLIC_KEY:
        return PQPAN_SMP_PUBLIC_KEY_BYTES;
    case PQPAN_SMP_PAIRING_FAILED:
        return PQPAN_SMP_FAILED_BYTES;
    default:
        return 0;
    }
}

/* out[0..n) = in[n-1], ..., in[0]: MSB-first values to the air's LSB-first and back. */
static void reverse(uint8_t *out, const uint8_t *in, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        out[i] = in[n - 1 - i];
    }
}

/* Common checks of a writer: the code's PDU fits in cap. */
static int start_write(uint8_t *out, size_t cap, uint8_t code, size_t *written)
{
    *written = 0;
    if (cap < pqpan_smp_pdu_len(code)) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = code;
    *written = pqpan_smp_pdu_len(code);
    return PQPAN_OK;
}

/* Common checks of a parser: exactly the code's length, and that code. */
static int start_parse(uint8_t code, const uint8_t *in, size_t len)
{
    if (len != pqpan_smp_pdu_len(code)) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    return in[0] == code ? PQPAN_OK : PQPAN_ERR_MALFORMED;
}

/* §3.5.1 / §3.5.2: IO Capability, OOB data flag, AuthReq, Maximum Encryption Key Size,
 * Initiator Key Distribution, Responder Key Distribution. */
int pqpan_smp_pdu_pairing_write(uint8_t *out, size_t cap, uint8_t code,
                                const struct pqpan_smp_pairing *p, size_t *written)
{
    int rc;
    if (code != PQPAN_SMP_PAIRING_REQUEST && code != PQPAN_SMP_PAIRING_RESPONSE) {
        *written = 0;
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_write(out, cap, code, written);
    if (rc == PQPAN_OK) {
        out[1] = p->io_capability;
        out[2] = p->oob_data_flag;
        out[3] = p->auth_req;
        out[4] = p->max_key_size;
        out[5] = p->initiator_key_dist;
        out[6] = p->responder_key_dist;
    }
    return rc;
}

int pqpan_smp_pdu_pairing_parse(struct pqpan_smp_pairing *p, uint8_t code, const uint8_t *in,
                                size_t len)
{
    int rc;
    memset(p, 0, sizeof *p);
    if (code != PQPAN_SMP_PAIRING_REQUEST && code != PQPAN_SMP_PAIRING_RESPONSE) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_parse(code, in, len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (in[1] > IO_CAPABILITY_MAX || in[2] > 1u || in[4] < KEY_SIZE_MIN || in[4] > KEY_SIZE_MAX) {
        return PQPAN_ERR_MALFORMED;
    }
    p->io_capability = in[1];
    p->oob_data_flag = in[2];
    p->auth_req = in[3];
    p->max_key_size = in[4];
    p->initiator_key_dist = in[5];
    p->responder_key_dist = in[6];
    return PQPAN_OK;
}

static int is_value_code(uint8_t code)
{
    return code == PQPAN_SMP_PAIRING_CONFIRM || code == PQPAN_SMP_PAIRING_RANDOM ||
           code == PQPAN_SMP_PAIRING_DHKEY_CHECK;
}

int pqpan_smp_pdu_value_write(uint8_t *out, size_t cap, uint8_t code, const uint8_t value[16],
                              size_t *written)
{
    int rc;
    if (!is_value_code(code)) {
        *written = 0;
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_write(out, cap, code, written);
    if (rc == PQPAN_OK) {
        reverse(out + 1, value, VALUE);
    }
    return rc;
}

int pqpan_smp_pdu_value_parse(uint8_t value[16], uint8_t code, const uint8_t *in, size_t len)
{
    int rc;
    memset(value, 0, VALUE);
    if (!is_value_code(code)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_parse(code, in, len);
    if (rc == PQPAN_OK) {
        reverse(value, in + 1, VALUE);
    }
    return rc;
}

/* §3.5.6: Public Key X, then Public Key Y. */
int pqpan_smp_pdu_public_key_write(uint8_t *out, size_t cap, const uint8_t x[32],
                                   const uint8_t y[32], size_t *written)
{
    int rc = start_write(out, cap, PQPAN_SMP_PAIRING_PUBLIC_KEY, written);
    if (rc == PQPAN_OK) {
        reverse(out + 1, x, COORD);
        reverse(out + 1 + COORD, y, COORD);
    }
    return rc;
}

int pqpan_smp_pdu_public_key_parse(uint8_t x[32], uint8_t y[32], const uint8_t *in, size_t len)
{
    int rc;
    memset(x, 0, COORD);
    memset(y, 0, COORD);
    rc = start_parse(PQPAN_SMP_PAIRING_PUBLIC_KEY, in, len);
    if (rc == PQPAN_OK) {
        reverse(x, in + 1, COORD);
        reverse(y, in + 1 + COORD, COORD);
    }
    return rc;
}

int pqpan_smp_pdu_failed_write(uint8_t *out, size_t cap, uint8_t reason, size_t *written)
{
    if (reason == 0 || reason > FAILED_REASON_MAX) {
        *written = 0;
        return PQPAN_ERR_INVALID_ARG;
    }
    if (start_write(out, cap, PQPAN_SMP_PAIRING_FAILED, written) != PQPAN_OK) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[1] = reason;
    return PQPAN_OK;
}

int pqpan_smp_pdu_failed_parse(uint8_t *reason, const uint8_t *in, size_t len)
{
    int rc = start_parse(PQPAN_SMP_PAIRING_FAILED, in, len);
    *reason = 0;
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (in[1] == 0 || in[1] > FAILED_REASON_MAX) {
        return PQPAN_ERR_MALFORMED;
    }
    *reason = in[1];
    return PQPAN_OK;
}
