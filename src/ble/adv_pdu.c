/* ADV_IND, the connectable and scannable undirected advertising PDU (Core v5.4 Vol 6
 * Part B §2.3.1.1), and the advertising data it carries (Vol 3 Part C §11: AD structures
 * of Length, AD Type, AD Data). */
#include "pqpan/ble_pdu.h"

#include <string.h>

#define PDU_TYPE_ADV_IND 0x0u /* §2.3, Table 2.3: 0b0000 */
#define HDR_TX_ADD 0x40u      /* §2.3, Figure 2.5: TxAdd bit 6 (RxAdd, ChSel 0 here) */

int pqpan_adv_ind_write(uint8_t *out, size_t cap, const struct pqpan_adv_ind *a, size_t *written)
{
    size_t len = PQPAN_LL_HDR_BYTES + PQPAN_BD_ADDR_BYTES + (size_t)a->data_len;
    *written = 0;
    if (a->data_len > PQPAN_ADV_DATA_MAX) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < len) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = (uint8_t)(PDU_TYPE_ADV_IND | (a->tx_add_random ? HDR_TX_ADD : 0u));
    out[1] = (uint8_t)(PQPAN_BD_ADDR_BYTES + a->data_len);
    memcpy(out + 2, a->adv_addr, PQPAN_BD_ADDR_BYTES);
    memcpy(out + 2 + PQPAN_BD_ADDR_BYTES, a->data, a->data_len);
    *written = len;
    return PQPAN_OK;
}

/* Checks that the AdvData is a sequence of AD structures, each a non-zero Length octet
 * covering an AD Type and its data, ending exactly at the end (Vol 3 Part C §11; a zero
 * Length ends the significant part, the rest being zero padding). */
static int ad_structures_valid(const uint8_t *d, size_t len)
{
    size_t i = 0;
    while (i < len) {
        if (d[i] == 0u) {
            for (; i < len; i++) {
                if (d[i] != 0u) {
                    return 0;
                }
            }
            return 1;
        }
        if ((size_t)d[i] > len - i - 1u) {
            return 0;
        }
        i += 1u + d[i];
    }
    return 1;
}

int pqpan_adv_ind_parse(struct pqpan_adv_ind *a, const uint8_t *in, size_t len)
{
    size_t payload;
    memset(a, 0, sizeof *a);
    if (len < PQPAN_LL_HDR_BYTES + PQPAN_BD_ADDR_BYTES || in[1] < PQPAN_BD_ADDR_BYTES ||
        (size_t)in[1] != len - PQPAN_LL_HDR_BYTES ||
        in[1] > PQPAN_BD_ADDR_BYTES + PQPAN_ADV_DATA_MAX) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    payload = in[1];
    if ((in[0] & 0x0Fu) != PDU_TYPE_ADV_IND ||
        !ad_structures_valid(in + 2 + PQPAN_BD_ADDR_BYTES, payload - PQPAN_BD_ADDR_BYTES)) {
        return PQPAN_ERR_MALFORMED;
    }
    a->tx_add_random = (in[0] & HDR_TX_ADD) != 0;
    memcpy(a->adv_addr, in + 2, PQPAN_BD_ADDR_BYTES);
    a->data_len = (uint8_t)(payload - PQPAN_BD_ADDR_BYTES);
    memcpy(a->data, in + 2 + PQPAN_BD_ADDR_BYTES, a->data_len);
    return PQPAN_OK;
}
