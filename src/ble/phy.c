/* BLE PHY air time of data-channel packets (Core v5.4 Vol 6 Part B §2.1, §2.2; symbol
 * rates and coding in Vol 6 Part A §3.2 and Part B §3.3). */
#include <string.h>

#include "pqpan/ble.h"

/* Vol 6 Part B §2.1.1: preamble 1 octet on LE 1M, 2 octets on LE 2M. */
static const uint32_t uncoded_preamble[2] = {1, 2};
/* ns per bit: LE 1M 1 Msym/s, LE 2M 2 Msym/s (Vol 6 Part A §3.2). */
static const uint32_t uncoded_ns_per_bit[2] = {1000, 500};

/* Vol 6 Part B §2.2: Coded PHY packet = preamble (80 symbols of 1 µs = 80 µs) + FEC
 * block 1 (access address 32 bits + CI 2 bits + TERM1 3 bits, always S=8) + FEC block 2
 * (PDU + CRC 24 bits + TERM2 3 bits, coded with S=2 or S=8). One coded bit lasts S µs. */
#define CODED_PREAMBLE_NS 80000u
#define CODED_FEC1_BITS (32u + 2u + 3u)
#define CODED_FEC1_NS (CODED_FEC1_BITS * 8u * 1000u)
#define CODED_CRC_TERM2_BITS (24u + 3u)

static uint32_t coded_s(enum pqpan_ble_phy phy)
{
    return phy == PQPAN_BLE_PHY_CODED_S8 ? 8u : 2u;
}

static int is_coded(enum pqpan_ble_phy phy)
{
    return phy == PQPAN_BLE_PHY_CODED_S2 || phy == PQPAN_BLE_PHY_CODED_S8;
}

/* LL PDU octets: header + payload + MIC (Vol 6 Part B §2.4: no MIC on an empty PDU). */
static uint32_t pdu_octets(uint32_t payload_len, int encrypted)
{
    uint32_t mic = (encrypted && payload_len > 0) ? PQPAN_BLE_MIC_BYTES : 0u;
    return PQPAN_LL_HDR_BYTES + payload_len + mic;
}

uint64_t pqpan_ble_packet_ns(enum pqpan_ble_phy phy, uint32_t payload_len, int encrypted)
{
    uint64_t pdu = pdu_octets(payload_len, encrypted);
    if (is_coded(phy)) {
        uint64_t fec2_bits = 8u * pdu + CODED_CRC_TERM2_BITS;
        return CODED_PREAMBLE_NS + CODED_FEC1_NS + fec2_bits * coded_s(phy) * 1000u;
    }
    return (uint64_t)(uncoded_preamble[phy] + PQPAN_LL_AA_BYTES + pdu + PQPAN_LL_CRC_BYTES) *
           8u * uncoded_ns_per_bit[phy];
}

/* Coded: the preamble plus the access address, which FEC block 1 codes at S=8 (§2.2). */
uint64_t pqpan_ble_sync_ns(enum pqpan_ble_phy phy)
{
    if (is_coded(phy)) {
        return CODED_PREAMBLE_NS + 32u * 8u * 1000u;
    }
    return (uint64_t)(uncoded_preamble[phy] + PQPAN_LL_AA_BYTES) * 8u * uncoded_ns_per_bit[phy];
}

uint32_t pqpan_ble_packet_octets(enum pqpan_ble_phy phy, uint32_t payload_len, int encrypted)
{
    uint32_t pre = is_coded(phy) ? 0u : uncoded_preamble[phy];
    return pre + PQPAN_LL_AA_BYTES + pdu_octets(payload_len, encrypted) + PQPAN_LL_CRC_BYTES;
}

/* Inverts pqpan_ble_packet_ns for the LL_LENGTH_REQ/RSP time limits (§4.5.10). */
uint32_t pqpan_ble_payload_for_time(enum pqpan_ble_phy phy, uint32_t max_time_us, int encrypted)
{
    uint64_t t = (uint64_t)max_time_us * 1000u;
    uint64_t overhead_octets = PQPAN_LL_HDR_BYTES + (encrypted ? PQPAN_BLE_MIC_BYTES : 0u);
    uint64_t pdu;
    if (is_coded(phy)) {
        uint64_t fixed = CODED_PREAMBLE_NS + CODED_FEC1_NS;
        uint64_t bits;
        if (t < fixed) {
            return PQPAN_LL_DATA_MIN_PAYLOAD;
        }
        bits = (t - fixed) / (coded_s(phy) * 1000u);
        if (bits < CODED_CRC_TERM2_BITS) {
            return PQPAN_LL_DATA_MIN_PAYLOAD;
        }
        pdu = (bits - CODED_CRC_TERM2_BITS) / 8u;
    } else {
        uint64_t octets = t / (8u * uncoded_ns_per_bit[phy]);
        uint64_t frame = uncoded_preamble[phy] + PQPAN_LL_AA_BYTES + PQPAN_LL_CRC_BYTES;
        pdu = octets > frame ? octets - frame : 0u;
    }
    if (pdu < overhead_octets + PQPAN_LL_DATA_MIN_PAYLOAD) {
        return PQPAN_LL_DATA_MIN_PAYLOAD;
    }
    if (pdu - overhead_octets > PQPAN_LL_DATA_MAX_PAYLOAD) {
        return PQPAN_LL_DATA_MAX_PAYLOAD;
    }
    return (uint32_t)(pdu - overhead_octets);
}

static const char *const phy_names[PQPAN_BLE_PHY_COUNT] = {"1M", "2M", "S2", "S8"};

const char *pqpan_ble_phy_name(enum pqpan_ble_phy phy)
{
    return (phy >= 0 && phy < PQPAN_BLE_PHY_COUNT) ? phy_names[phy] : "unknown";
}

int pqpan_ble_phy_parse(enum pqpan_ble_phy *out, const char *name)
{
    int i;
    for (i = 0; i < PQPAN_BLE_PHY_COUNT; i++) {
        if (strcmp(name, phy_names[i]) == 0) {
            *out = (enum pqpan_ble_phy)i;
            return PQPAN_OK;
        }
    }
    *out = PQPAN_BLE_PHY_1M;
    return PQPAN_ERR_INVALID_ARG;
}
