/* Capture records of LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR (256): the BLE pseudo-header in
 * front of the packet; the pcap framing around it is pcap.c's. */
#include "pqpan/ble_pdu.h"

#include <string.h>

#include "ble/le_bytes.h"

#define PHY_CODED 2u

int pqpan_pcap_ble_record(uint8_t *out, size_t cap, const struct pqpan_pcap_ble_info *info,
                          const uint8_t *pdu, size_t len, size_t *written)
{
    size_t ci = info->phy == PHY_CODED ? 1u : 0u;
    size_t need = PQPAN_PCAP_BLE_PHDR_BYTES + PQPAN_LL_AA_BYTES + ci + len;
    uint16_t flags;
    *written = 0;
    if (info->rf_channel > 39u || info->phy > PHY_CODED || info->pdu_type > 7u ||
        len < PQPAN_LL_HDR_BYTES + PQPAN_LL_CRC_BYTES) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < need) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    /* The packet is de-whitened, captured by matching the reference access address, and
     * its CRC was checked by the (simulated) receiver. */
    flags = (uint16_t)(PQPAN_PCAP_BLE_DEWHITENED | PQPAN_PCAP_BLE_REF_AA_VALID |
                       PQPAN_PCAP_BLE_CRC_CHECKED | (info->crc_valid ? PQPAN_PCAP_BLE_CRC_VALID : 0u) |
                       ((unsigned)info->pdu_type << PQPAN_PCAP_BLE_PDU_TYPE_SHIFT) |
                       ((unsigned)info->phy << PQPAN_PCAP_BLE_PHY_SHIFT));
    if (info->decrypted) {
        flags = (uint16_t)(flags | PQPAN_PCAP_BLE_DECRYPTED | PQPAN_PCAP_BLE_MIC_CHECKED |
                           PQPAN_PCAP_BLE_MIC_VALID);
    }
    out[0] = info->rf_channel;
    out[1] = 0; /* signal power: not valid (flag clear) */
    out[2] = 0; /* noise power: not valid */
    out[3] = 0; /* access address offenses: not valid */
    put_le32(out + 4, info->access_address);
    put_le16(out + 8, flags);
    put_le32(out + PQPAN_PCAP_BLE_PHDR_BYTES, info->access_address);
    if (ci) {
        /* Vol 6 Part B §2.2.3: CI 0b00 = FEC block 2 coded with S=8, 0b01 = S=2. */
        out[PQPAN_PCAP_BLE_PHDR_BYTES + PQPAN_LL_AA_BYTES] = info->coding_s2 ? 1u : 0u;
    }
    memcpy(out + PQPAN_PCAP_BLE_PHDR_BYTES + PQPAN_LL_AA_BYTES + ci, pdu, len);
    *written = need;
    return PQPAN_OK;
}
