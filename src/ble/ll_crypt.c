/* LE link-layer encryption (Core v5.4 Vol 6 Part E): the session key (§1, with the
 * security function e of Vol 3 Part H §2.2.1: AES-128, most significant octet first) and
 * AES-CCM on each data PDU (§2: M = 4 octets of MIC, L = 2, a 13-octet nonce). CCM here is
 * the CCM* of src/ieee802154/security.c with a 4-octet MIC, which is CCM (IEEE 802.15.4
 * Annex B.4 is RFC 3610's construction with L = 2). Checked with the sample data of Vol 6
 * Part C §1 in tests/unit/test_ble_pdu.c. */
#include <string.h>

#include "pqpan/aes.h"
#include "pqpan/ble_pdu.h"
#include "pqpan/common.h"
#include "pqpan/ieee802154.h"

#define NONCE_BYTES 13u
/* §2.4 (the CCM additional data): the first header octet with NESN, SN and MD (bits 2-4)
 * set to 0. */
#define AAD_HEADER_MASK 0xE3u
#define COUNTER_MASK 0x7FFFFFFFFFull /* 39 bits (§2.1) */

void pqpan_ll_crypt_init(struct pqpan_ll_crypt *c, const uint8_t ltk[PQPAN_LL_KEY_BYTES],
                         const struct pqpan_ll_enc *central, const struct pqpan_ll_enc *peripheral)
{
    struct pqpan_aes128 aes;
    uint8_t skd[PQPAN_LL_KEY_BYTES];
    unsigned i;
    /* SKD = SKD_P || SKD_C with SKD_C the least significant half; on the air each half
     * comes least significant octet first, so the big-endian SKD reverses both. */
    for (i = 0; i < PQPAN_LL_SKD_BYTES; i++) {
        skd[i] = peripheral->skd[PQPAN_LL_SKD_BYTES - 1 - i];
        skd[PQPAN_LL_SKD_BYTES + i] = central->skd[PQPAN_LL_SKD_BYTES - 1 - i];
    }
    memset(c, 0, sizeof *c);
    pqpan_aes128_init(&aes, ltk);
    pqpan_aes128_encrypt(&aes, c->sk, skd);
    /* IV = IV_C || IV_P in nonce order (IV_C first, each least significant octet first) */
    memcpy(c->iv, central->iv, PQPAN_LL_IV_BYTES);
    memcpy(c->iv + PQPAN_LL_IV_BYTES, peripheral->iv, PQPAN_LL_IV_BYTES);
    pqpan_wipe(&aes, sizeof aes);
}

/* §2.1: packetCounter (39 bits, least significant octet first), directionBit (bit 7 of
 * octet 4: 1 from the central to the peripheral), then the IV. */
static void make_nonce(uint8_t nonce[NONCE_BYTES], const struct pqpan_ll_crypt *c, int sender)
{
    uint64_t ctr = c->counter[sender] & COUNTER_MASK;
    unsigned i;
    for (i = 0; i < 5; i++) {
        nonce[i] = (uint8_t)(ctr >> (8 * i));
    }
    nonce[4] = (uint8_t)(nonce[4] | (sender == 0 ? 0x80u : 0u));
    memcpy(nonce + 5, c->iv, sizeof c->iv);
}

int pqpan_ll_crypt_encrypt(struct pqpan_ll_crypt *c, int sender, uint8_t *pdu, size_t cap)
{
    uint8_t nonce[NONCE_BYTES], aad;
    size_t len;
    int rc;
    if (c == NULL || pdu == NULL || (sender != 0 && sender != 1) || cap < PQPAN_LL_HDR_BYTES) {
        return PQPAN_ERR_INVALID_ARG;
    }
    len = pdu[1];
    if (len == 0) {
        return PQPAN_OK;
    }
    if (len > PQPAN_LL_DATA_MAX_PAYLOAD || PQPAN_LL_HDR_BYTES + len + PQPAN_LL_MIC_BYTES > cap) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    make_nonce(nonce, c, sender);
    aad = (uint8_t)(pdu[0] & AAD_HEADER_MASK);
    rc = pqpan_802154_ccm_star_encrypt(pdu + PQPAN_LL_HDR_BYTES, len,
                                       pdu + PQPAN_LL_HDR_BYTES + len, PQPAN_LL_MIC_BYTES, c->sk,
                                       nonce, &aad, 1);
    if (rc == PQPAN_OK) {
        pdu[1] = (uint8_t)(len + PQPAN_LL_MIC_BYTES);
        c->counter[sender]++;
    }
    return rc;
}

int pqpan_ll_crypt_decrypt(struct pqpan_ll_crypt *c, int sender, uint8_t *pdu, size_t len)
{
    uint8_t nonce[NONCE_BYTES], aad;
    size_t plain;
    int rc;
    if (c == NULL || pdu == NULL || (sender != 0 && sender != 1) || len < PQPAN_LL_HDR_BYTES ||
        (size_t)pdu[1] + PQPAN_LL_HDR_BYTES > len) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (pdu[1] == 0) {
        return PQPAN_OK;
    }
    if (pdu[1] <= PQPAN_LL_MIC_BYTES) {
        return PQPAN_ERR_MALFORMED;
    }
    plain = (size_t)pdu[1] - PQPAN_LL_MIC_BYTES;
    make_nonce(nonce, c, sender);
    aad = (uint8_t)(pdu[0] & AAD_HEADER_MASK);
    rc = pqpan_802154_ccm_star_decrypt(pdu + PQPAN_LL_HDR_BYTES, plain,
                                       pdu + PQPAN_LL_HDR_BYTES + plain, PQPAN_LL_MIC_BYTES, c->sk,
                                       nonce, &aad, 1);
    if (rc == PQPAN_OK) {
        pdu[1] = (uint8_t)plain;
        c->counter[sender]++;
    }
    return rc;
}
