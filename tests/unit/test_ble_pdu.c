/* Tests for the BLE byte codecs: src/ble/crc24.c, ll_pdu.c, connect_ind.c, l2cap_pdu.c,
 * att_pdu.c, smp_pdu.c, and the LE encryption of ll_crypt.c (against the sample data of
 * Core v5.4 Vol 6 Part C §1). The CRC is checked against a bit-serial model written from the LFSR figure of
 * Core v5.4 Vol 6 Part B §3.1.1 (not from the table code); field layouts against octets
 * worked out by hand from the spec's figures. tshark checks the same codecs end to end in
 * tests/integration/ble_tshark.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "pqpan/ble_pdu.h"

/* Figure 3.4: positions 0..23 preset with crc_init (position 0 = LSB); each data bit, in
 * air order (LSB of each octet first), is XORed with position 23 and fed back into
 * positions 0, 1, 3, 4, 6, 9, 10 while the register shifts towards 23. Position 23 is sent
 * first; octets are captured LSB-first, so bit j of output octet k is position 23-8k-j. */
static void spec_crc(uint8_t out[3], uint32_t crc_init, const uint8_t *pdu, size_t len)
{
    uint8_t pos[24];
    size_t i;
    int b, k, j;
    for (k = 0; k < 24; k++) {
        pos[k] = (uint8_t)((crc_init >> k) & 1u);
    }
    for (i = 0; i < len; i++) {
        for (b = 0; b < 8; b++) {
            uint8_t fb = (uint8_t)(((pdu[i] >> b) & 1u) ^ pos[23]);
            for (k = 23; k > 0; k--) {
                pos[k] = pos[k - 1];
            }
            pos[0] = fb;
            pos[1] ^= fb;
            pos[3] ^= fb;
            pos[4] ^= fb;
            pos[6] ^= fb;
            pos[9] ^= fb;
            pos[10] ^= fb;
        }
    }
    for (k = 0; k < 3; k++) {
        out[k] = 0;
        for (j = 0; j < 8; j++) {
            out[k] = (uint8_t)(out[k] | (pos[23 - 8 * k - j] << j));
        }
    }
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void test_crc_matches_spec_lfsr(void **state)
{
    uint8_t pdu[PQPAN_LL_HDR_BYTES + PQPAN_LL_DATA_MAX_PAYLOAD + PQPAN_LL_CRC_BYTES];
    uint8_t want[3];
    uint32_t seed = 1, init;
    size_t len, i;
    int trial;
    (void)state;
    for (trial = 0; trial < 300; trial++) {
        len = lcg(&seed) % (PQPAN_LL_HDR_BYTES + PQPAN_LL_DATA_MAX_PAYLOAD + 1);
        init = lcg(&seed) & 0xFFFFFFu;
        for (i = 0; i < len; i++) {
            pdu[i] = (uint8_t)lcg(&seed);
        }
        spec_crc(want, init, pdu, len);
        pqpan_crc24_append(init, pdu, len);
        assert_memory_equal(pdu + len, want, 3);
        assert_int_equal(pqpan_crc24_check(init, pdu, len), 1);
        pdu[lcg(&seed) % (len + 3)] ^= (uint8_t)(1u << (lcg(&seed) % 8));
        assert_int_equal(pqpan_crc24_check(init, pdu, len), 0);
    }
}

/* A CRC without final inversion leaves the register at zero after the CRC octets are
 * shifted in behind the PDU; with preset 0 that is a check independent of the octet
 * order convention being guessed right in both models. */
static void test_crc_residue_zero(void **state)
{
    uint8_t pdu[8 + 3] = {0x0E, 0x06, 0x02, 0x01, 0x06, 0x02, 0x0A, 0x00};
    (void)state;
    pqpan_crc24_append(0, pdu, 8);
    assert_int_equal(pqpan_crc24_compute(0, pdu, 11), 0);
    assert_int_equal(pqpan_crc24_compute(0x555555u, pdu, 0), 0xAAAAAAu);
}

static void test_ll_header(void **state)
{
    struct pqpan_ll_hdr h = {PQPAN_LLID_START, 1, 0, 1, 27};
    struct pqpan_ll_hdr back;
    uint8_t b[2 + 27];
    (void)state;
    /* LLID 0b10, NESN bit 2, SN bit 3, MD bit 4: 0b00010110. */
    assert_int_equal(pqpan_ll_pdu_hdr_write(b, &h), PQPAN_OK);
    assert_int_equal(b[0], 0x16);
    assert_int_equal(b[1], 27);
    assert_int_equal(pqpan_ll_pdu_hdr_parse(&back, b, sizeof b), PQPAN_OK);
    assert_memory_equal(&back, &h, sizeof h);
    assert_int_equal(pqpan_ll_pdu_hdr_parse(&back, b, sizeof b - 1), PQPAN_ERR_BAD_LENGTH);
    b[0] = 0x1C; /* LLID 0 is reserved */
    assert_int_equal(pqpan_ll_pdu_hdr_parse(&back, b, sizeof b), PQPAN_ERR_MALFORMED);
    h.length = 252;
    assert_int_equal(pqpan_ll_pdu_hdr_write(b, &h), PQPAN_ERR_INVALID_ARG);
    h.length = 0;
    h.sn = 2;
    assert_int_equal(pqpan_ll_pdu_hdr_write(b, &h), PQPAN_ERR_INVALID_ARG);
}

static void test_ll_control(void **state)
{
    static const uint8_t want_len[9] = {0x14, 0xFB, 0x00, 0x48, 0x08, 0xFB, 0x00, 0x48, 0x08};
    static const uint8_t want_phy[5] = {0x18, 0x02, 0x02, 0x07, 0x00};
    struct pqpan_ll_length l = {251, 2120, 251, 2120}, lb;
    struct pqpan_ll_phy_update u = {PQPAN_LL_PHY_2M, PQPAN_LL_PHY_2M, 7}, ub;
    uint8_t b[16];
    size_t n;
    (void)state;
    assert_int_equal(pqpan_ll_pdu_length_write(b, sizeof b, PQPAN_LL_LENGTH_REQ, &l, &n), 0);
    assert_int_equal(n, 9);
    assert_memory_equal(b, want_len, 9);
    assert_int_equal(pqpan_ll_pdu_length_parse(&lb, b, n), 0);
    assert_memory_equal(&lb, &l, sizeof l);
    b[1] = 26; /* MaxRxOctets below 27 */
    assert_int_equal(pqpan_ll_pdu_length_parse(&lb, b, n), PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_ll_pdu_phy_update_write(b, sizeof b, &u, &n), 0);
    assert_memory_equal(b, want_phy, 5);
    assert_int_equal(pqpan_ll_pdu_phy_update_parse(&ub, b, n), 0);
    assert_memory_equal(&ub, &u, sizeof u);
    b[1] = 3; /* two PHYs in one direction */
    assert_int_equal(pqpan_ll_pdu_phy_update_parse(&ub, b, n), PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_ll_pdu_phy_req_write(b, 2, PQPAN_LL_PHY_REQ, 2, 2, &n),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(pqpan_ll_pdu_phy_req_write(b, 3, PQPAN_LL_PHY_REQ, 2, 2, &n), 0);
    assert_int_equal(b[0], 0x16);
}

static void test_connect_ind(void **state)
{
    struct pqpan_connect_ind c, back;
    uint8_t b[PQPAN_CONNECT_IND_PDU];
    (void)state;
    memset(&c, 0, sizeof c);
    memcpy(c.init_addr, "\x01\x02\x03\x04\x05\xC6", 6);
    memcpy(c.adv_addr, "\x11\x12\x13\x14\x15\xD6", 6);
    c.tx_add_random = 1;
    c.rx_add_random = 1;
    c.access_address = 0x50654A7Bu;
    c.crc_init = 0x123456u;
    c.win_size = 2;
    c.win_offset = 0;
    c.interval = 40;
    c.latency = 0;
    c.timeout = 400;
    memcpy(c.chm, "\xFF\xFF\xFF\xFF\x1F", 5);
    c.hop = 7;
    c.sca = 5;
    assert_int_equal(pqpan_connect_ind_write(b, &c), PQPAN_OK);
    /* PDU type 0b0101 | TxAdd 0x40 | RxAdd 0x80; Length 34. */
    assert_int_equal(b[0], 0xC5);
    assert_int_equal(b[1], 34);
    assert_memory_equal(b + 14, "\x7B\x4A\x65\x50\x56\x34\x12\x02\x00\x00\x28\x00\x00\x00\x90\x01", 16);
    assert_int_equal(b[35], 7 | (5 << 5));
    assert_int_equal(pqpan_connect_ind_parse(&back, b, sizeof b), PQPAN_OK);
    assert_memory_equal(&back, &c, sizeof c);
    b[34] = 0x3F; /* reserved channel-map bit 37 */
    assert_int_equal(pqpan_connect_ind_parse(&back, b, sizeof b), PQPAN_ERR_MALFORMED);
    c.hop = 4;
    assert_int_equal(pqpan_connect_ind_write(b, &c), PQPAN_ERR_INVALID_ARG);
}

static void test_l2cap(void **state)
{
    struct pqpan_l2cap_hdr h = {1024, 0x0040}, hb;
    struct pqpan_l2cap_le_conn c = {0x0080, 0x0040, 2048, 247, 10, 0}, cb;
    struct pqpan_l2cap_sig s;
    uint8_t b[32];
    size_t n;
    (void)state;
    assert_int_equal(pqpan_l2cap_pdu_hdr_write(b, &h), 0);
    assert_memory_equal(b, "\x00\x04\x40\x00", 4);
    assert_int_equal(pqpan_l2cap_pdu_hdr_parse(&hb, b, 4), 0);
    assert_int_equal(hb.length, 1024);
    assert_int_equal(pqpan_l2cap_pdu_hdr_parse(&hb, b, 3), PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(pqpan_l2cap_pdu_le_conn_write(b, sizeof b, PQPAN_L2CAP_LE_CREDIT_CONN_REQ, 1, &c, &n), 0);
    assert_int_equal(n, 14);
    assert_memory_equal(b, "\x14\x01\x0A\x00\x80\x00\x40\x00\x00\x08\xF7\x00\x0A\x00", 14);
    assert_int_equal(pqpan_l2cap_pdu_sig_parse(&s, &cb, b, n), 0);
    assert_int_equal(s.code, PQPAN_L2CAP_LE_CREDIT_CONN_REQ);
    assert_memory_equal(&cb, &c, sizeof c);
    assert_int_equal(pqpan_l2cap_pdu_sig_parse(&s, &cb, b, n - 1), PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(pqpan_l2cap_pdu_credit_write(b, sizeof b, 2, 0x0040, 5, &n), 0);
    assert_memory_equal(b, "\x16\x02\x04\x00\x40\x00\x05\x00", 8);
    assert_int_equal(pqpan_l2cap_pdu_sig_parse(&s, &cb, b, n), 0);
    assert_int_equal(cb.credits, 5);
    b[0] = 0x01; /* Command Reject: not one of ours */
    assert_int_equal(pqpan_l2cap_pdu_sig_parse(&s, &cb, b, n), PQPAN_ERR_UNSUPPORTED);
}

static void test_att(void **state)
{
    static const uint8_t val[4] = {0xDE, 0xAD, 0xBE, 0xEF};
    static const uint8_t big[PQPAN_ATT_MAX_MTU + 1] = {PQPAN_ATT_HANDLE_VALUE_NTF, 0x12, 0x00};
    struct pqpan_att_pdu p, back;
    uint8_t b[16];
    size_t n;
    (void)state;
    memset(&p, 0, sizeof p);
    p.opcode = PQPAN_ATT_PREPARE_WRITE_REQ;
    p.handle = 0x0012;
    p.offset = 0x0120;
    p.value = val;
    p.value_len = 4;
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), 0);
    assert_int_equal(n, 9);
    assert_memory_equal(b, "\x16\x12\x00\x20\x01\xDE\xAD\xBE\xEF", 9);
    assert_int_equal(pqpan_att_pdu_parse(&back, b, n), 0);
    assert_int_equal(back.offset, 0x0120);
    assert_int_equal(back.value_len, 4);
    assert_ptr_equal(back.value, b + 5);
    assert_int_equal(pqpan_att_pdu_write(b, 8, &p, &n), PQPAN_ERR_BUFFER_TOO_SMALL);
    memset(&p, 0, sizeof p);
    p.opcode = PQPAN_ATT_EXCHANGE_MTU_REQ;
    p.mtu = 247;
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), 0);
    assert_memory_equal(b, "\x02\xF7\x00", 3);
    assert_int_equal(pqpan_att_pdu_parse(&back, b, 4), PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(pqpan_att_pdu_parse(&back, b, 2), PQPAN_ERR_BAD_LENGTH);
    b[0] = 0x1E;
    assert_int_equal(pqpan_att_pdu_parse(&back, b, 1), 0);
    assert_int_equal(back.opcode, PQPAN_ATT_HANDLE_VALUE_CFM);
    b[0] = 0x0A; /* Read Request: not used by the simulator */
    assert_int_equal(pqpan_att_pdu_parse(&back, b, 3), PQPAN_ERR_UNSUPPORTED);
    /* a notification longer than the largest ATT_MTU (Part F §3.2.8) */
    assert_int_equal(pqpan_att_pdu_parse(&back, big, PQPAN_ATT_MAX_MTU + 1), PQPAN_ERR_BAD_LENGTH);
}

/* The set-up's LL control PDUs, octets from the CtrData figures of Vol 6 Part B §2.4.2:
 *   LL_FEATURE_REQ (§2.4.2.9): 08 | FeatureSet 8 octets (bit n = bit n%8 of octet n/8);
 *   LL_VERSION_IND (§2.4.2.13): 0C | VersNr 0D | CompId FFFF | SubVersNr 0000;
 *   LL_CONNECTION_PARAM_REQ (§2.4.2.16): 0F | Interval_Min 0028 (50 ms) | Interval_Max
 *     0028 | Latency 0000 | Timeout 0190 (4 s) | PreferredPeriodicity 00 |
 *     ReferenceConnEventCount 0000 | Offset0..5 FFFF (24 octets);
 *   LL_CONNECTION_UPDATE_IND (§2.4.2.1): 00 | WinSize 01 | WinOffset 0000 | Interval 0028
 *     | Latency 0000 | Timeout 0190 | Instant 000C (12 octets). */
static void test_ll_setup_control(void **state)
{
    static const uint8_t feat[8] = {0x2F, 0x09, 0, 0, 0, 0, 0, 0};
    static const uint8_t want_feat[9] = {0x08, 0x2F, 0x09, 0, 0, 0, 0, 0, 0};
    static const uint8_t want_ver[6] = {0x0C, 0x0D, 0xFF, 0xFF, 0x00, 0x00};
    static const uint8_t want_param[24] = {0x0F, 0x28, 0x00, 0x28, 0x00, 0x00, 0x00, 0x90,
                                           0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF,
                                           0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    static const uint8_t want_upd[12] = {0x00, 0x01, 0x00, 0x00, 0x28, 0x00,
                                         0x00, 0x00, 0x90, 0x01, 0x0C, 0x00};
    struct pqpan_ll_version v = {0x0D, 0xFFFF, 0}, vb;
    struct pqpan_ll_conn_param cp, cpb;
    struct pqpan_ll_conn_update u = {1, 0, 40, 0, 400, 12}, ub;
    uint8_t b[32], fb[8];
    size_t n;
    int i;
    (void)state;
    assert_int_equal(pqpan_ll_pdu_feature_write(b, sizeof b, PQPAN_LL_FEATURE_REQ, feat, &n), 0);
    assert_int_equal(n, PQPAN_LL_FEATURE_CTR_BYTES);
    assert_memory_equal(b, want_feat, 9);
    assert_int_equal(pqpan_ll_pdu_feature_parse(fb, b, n), 0);
    assert_memory_equal(fb, feat, 8);
    assert_int_equal(pqpan_ll_pdu_feature_parse(fb, b, n - 1), PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(pqpan_ll_pdu_feature_write(b, sizeof b, PQPAN_LL_VERSION_IND, feat, &n),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_ll_pdu_version_write(b, sizeof b, &v, &n), 0);
    assert_int_equal(n, PQPAN_LL_VERSION_CTR_BYTES);
    assert_memory_equal(b, want_ver, 6);
    assert_int_equal(pqpan_ll_pdu_version_parse(&vb, b, n), 0);
    assert_int_equal(vb.vers_nr, v.vers_nr);
    assert_int_equal(vb.comp_id, v.comp_id);
    assert_int_equal(vb.sub_vers_nr, v.sub_vers_nr);
    memset(&cp, 0, sizeof cp);
    cp.interval_min = 40;
    cp.interval_max = 40;
    cp.timeout = 400;
    for (i = 0; i < PQPAN_LL_CONN_PARAM_OFFSETS; i++) {
        cp.offset[i] = 0xFFFF;
    }
    assert_int_equal(pqpan_ll_pdu_conn_param_write(b, sizeof b, PQPAN_LL_CONNECTION_PARAM_REQ, &cp,
                                                   &n),
                     0);
    assert_int_equal(n, PQPAN_LL_CONN_PARAM_CTR_BYTES);
    assert_memory_equal(b, want_param, 24);
    assert_int_equal(pqpan_ll_pdu_conn_param_parse(&cpb, b, n), 0);
    assert_int_equal(cpb.interval_max, 40);
    assert_int_equal(cpb.timeout, 400);
    assert_int_equal(cpb.offset[5], 0xFFFF);
    b[1] = 5; /* Interval_Min below 6 (7.5 ms) */
    assert_int_equal(pqpan_ll_pdu_conn_param_parse(&cpb, b, n), PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_ll_pdu_conn_update_write(b, sizeof b, &u, &n), 0);
    assert_int_equal(n, PQPAN_LL_CONN_UPDATE_CTR_BYTES);
    assert_memory_equal(b, want_upd, 12);
    assert_int_equal(pqpan_ll_pdu_conn_update_parse(&ub, b, n), 0);
    assert_int_equal(ub.interval, 40);
    assert_int_equal(ub.instant, 12);
    assert_int_equal(ub.win_size, 1);
    b[1] = 0; /* transmitWindowSize 0: below 1.25 ms (§5.1.1) */
    assert_int_equal(pqpan_ll_pdu_conn_update_parse(&ub, b, n), PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_ll_pdu_conn_update_write(b, 11, &u, &n), PQPAN_ERR_BUFFER_TOO_SMALL);
}

/* ADV_IND (Vol 6 Part B §2.3.1.1): header PDU type 0b0000 | TxAdd 0x40, Length 6 + 21;
 * AdvA; AdvData: Flags (02 01 06) and the Complete List of 128-bit Service UUIDs (11 07
 * UUID) (Vol 3 Part C §11). An AD structure running past the data is malformed. */
static void test_adv_ind(void **state)
{
    struct pqpan_adv_ind a, back;
    uint8_t b[PQPAN_ADV_IND_PDU_MAX];
    size_t n;
    int i;
    (void)state;
    memset(&a, 0, sizeof a);
    memcpy(a.adv_addr, "\x02\x00\x00\x00\x00\xC0", 6);
    a.tx_add_random = 1;
    memcpy(a.data, "\x02\x01\x06\x11\x07", 5);
    for (i = 0; i < 16; i++) {
        a.data[5 + i] = (uint8_t)i;
    }
    a.data_len = 21;
    assert_int_equal(pqpan_adv_ind_write(b, sizeof b, &a, &n), PQPAN_OK);
    assert_int_equal(n, 2 + 27);
    assert_int_equal(b[0], 0x40);
    assert_int_equal(b[1], 27);
    assert_memory_equal(b + 2, "\x02\x00\x00\x00\x00\xC0\x02\x01\x06\x11\x07", 11);
    assert_int_equal(pqpan_adv_ind_parse(&back, b, n), PQPAN_OK);
    assert_memory_equal(&back, &a, sizeof a);
    b[11] = 0x12; /* the UUID list claims 18 octets, 17 remain */
    assert_int_equal(pqpan_adv_ind_parse(&back, b, n), PQPAN_ERR_MALFORMED);
    b[0] = 0x45; /* a CONNECT_IND header */
    assert_int_equal(pqpan_adv_ind_parse(&back, b, n), PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_adv_ind_parse(&back, b, n - 1), PQPAN_ERR_BAD_LENGTH);
    a.data_len = 32;
    assert_int_equal(pqpan_adv_ind_write(b, sizeof b, &a, &n), PQPAN_ERR_INVALID_ARG);
}

/* The GATT discovery's ATT PDUs (Vol 3 Part F §3.4), octets by hand:
 *   Error Response (§3.4.1.1): 01 | request 06 | handle 0014 | Attribute Not Found 0A;
 *   Find By Type Value Request (§3.4.3.3): 06 | 0001 | FFFF | «Primary Service» 2800 |
 *     the 16-octet UUID: 23 octets;
 *   Find By Type Value Response (§3.4.3.4): 07 | found 0010 | group end 0013;
 *   Read By Type Request (§3.4.4.1): 08 | 0010 | 0013 | «Characteristic» 2803;
 *   Read By Type Response (§3.4.4.2): 09 | length 15 (21) | 0011 | 28 0012 UUID16;
 *   Find Information Request (§3.4.3.1): 04 | 0013 | 0013;
 *   Find Information Response (§3.4.3.2): 05 | format 01 | 0013 | «CCCD» 2902. */
static void test_att_discovery(void **state)
{
    static const uint8_t uuid[16] = {0x61, 0x6b, 0xa8, 0x75, 0x8d, 0xa7, 0x14, 0xaf,
                                     0xc4, 0x4a, 0x4a, 0xe8, 0x9d, 0x45, 0x53, 0x42};
    uint8_t b[32], list[32];
    struct pqpan_att_pdu p, back;
    size_t n;
    (void)state;
    memset(&p, 0, sizeof p);
    p.opcode = PQPAN_ATT_ERROR_RSP;
    p.req_opcode = PQPAN_ATT_FIND_BY_TYPE_VALUE_REQ;
    p.handle = 0x0014;
    p.error_code = PQPAN_ATT_ERR_ATTRIBUTE_NOT_FOUND;
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), 0);
    assert_int_equal(n, 5);
    assert_memory_equal(b, "\x01\x06\x14\x00\x0A", 5);
    assert_int_equal(pqpan_att_pdu_parse(&back, b, n), 0);
    assert_int_equal(back.error_code, 0x0A);
    memset(&p, 0, sizeof p);
    p.opcode = PQPAN_ATT_FIND_BY_TYPE_VALUE_REQ;
    p.handle = 0x0001;
    p.end_handle = 0xFFFF;
    p.type16 = 0x2800;
    p.value = uuid;
    p.value_len = 16;
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), 0);
    assert_int_equal(n, 23);
    assert_memory_equal(b, "\x06\x01\x00\xFF\xFF\x00\x28", 7);
    assert_int_equal(pqpan_att_pdu_parse(&back, b, n), 0);
    assert_int_equal(back.end_handle, 0xFFFF);
    assert_int_equal(back.type16, 0x2800);
    assert_memory_equal(back.value, uuid, 16);
    memcpy(list, "\x10\x00\x13\x00", 4);
    memset(&p, 0, sizeof p);
    p.opcode = PQPAN_ATT_FIND_BY_TYPE_VALUE_RSP;
    p.value = list;
    p.value_len = 4;
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), 0);
    assert_memory_equal(b, "\x07\x10\x00\x13\x00", 5);
    assert_int_equal(pqpan_att_pdu_parse(&back, b, 4), PQPAN_ERR_MALFORMED); /* 3-octet list */
    memset(&p, 0, sizeof p);
    p.opcode = PQPAN_ATT_READ_BY_TYPE_REQ;
    p.handle = 0x0010;
    p.end_handle = 0x0013;
    p.value = (const uint8_t *)"\x03\x28";
    p.value_len = 2;
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), 0);
    assert_int_equal(n, 7);
    assert_memory_equal(b, "\x08\x10\x00\x13\x00\x03\x28", 7);
    assert_int_equal(pqpan_att_pdu_parse(&back, b, 6), PQPAN_ERR_MALFORMED); /* a 1-octet UUID */
    memcpy(list, "\x11\x00\x28\x12\x00", 5);
    memcpy(list + 5, uuid, 16);
    memset(&p, 0, sizeof p);
    p.opcode = PQPAN_ATT_READ_BY_TYPE_RSP;
    p.format = 21;
    p.value = list;
    p.value_len = 21;
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), 0);
    assert_int_equal(n, 23);
    assert_memory_equal(b, "\x09\x15\x11\x00\x28\x12\x00", 7);
    b[1] = 20; /* a length that does not divide the list */
    assert_int_equal(pqpan_att_pdu_parse(&back, b, n), PQPAN_ERR_MALFORMED);
    memset(&p, 0, sizeof p);
    p.opcode = PQPAN_ATT_FIND_INFORMATION_REQ;
    p.handle = 0x0013;
    p.end_handle = 0x0013;
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), 0);
    assert_memory_equal(b, "\x04\x13\x00\x13\x00", 5);
    memset(&p, 0, sizeof p);
    p.opcode = PQPAN_ATT_FIND_INFORMATION_RSP;
    p.format = PQPAN_ATT_FORMAT_UUID16;
    p.value = (const uint8_t *)"\x13\x00\x02\x29";
    p.value_len = 4;
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), 0);
    assert_int_equal(n, 6);
    assert_memory_equal(b, "\x05\x01\x13\x00\x02\x29", 6);
    b[1] = 3; /* no such format */
    assert_int_equal(pqpan_att_pdu_parse(&back, b, n), PQPAN_ERR_MALFORMED);
    p.format = PQPAN_ATT_FORMAT_UUID128; /* 4 octets are not one 18-octet item */
    assert_int_equal(pqpan_att_pdu_write(b, sizeof b, &p, &n), PQPAN_ERR_INVALID_ARG);
}

/* LINKTYPE 256 pseudo-header: channel, signal, noise, AA offenses, reference AA (LE),
 * flags (LE) = dewhitened 0x1 | ref AA valid 0x10 | PDU type 3 << 7 | CRC checked 0x400
 * | CRC valid 0x800 | PHY 1 << 14 = 0x4D91; then AA and the PDU with its CRC. */
static void test_pcap_ble_record(void **state)
{
    static const uint8_t pdu[5] = {0x01, 0x00, 0xAA, 0xBB, 0xCC};
    static const uint8_t want[19] = {7, 0, 0, 0, 0x7B, 0x4A, 0x65, 0x50, 0x91, 0x4D,
                                     0x7B, 0x4A, 0x65, 0x50, 0x01, 0x00, 0xAA, 0xBB, 0xCC};
    struct pqpan_pcap_ble_info i;
    uint8_t b[PQPAN_PCAP_BLE_RECORD_MAX];
    size_t n;
    (void)state;
    memset(&i, 0, sizeof i);
    i.rf_channel = 7;
    i.pdu_type = PQPAN_PCAP_BLE_DATA_P_TO_C;
    i.phy = 1;
    i.crc_valid = 1;
    i.access_address = 0x50654A7Bu;
    assert_int_equal(pqpan_pcap_ble_record(b, sizeof b, &i, pdu, sizeof pdu, &n), 0);
    assert_int_equal(n, sizeof want);
    assert_memory_equal(b, want, sizeof want);
    assert_int_equal(pqpan_pcap_ble_record(b, 18, &i, pdu, sizeof pdu, &n), PQPAN_ERR_BUFFER_TOO_SMALL);
    i.phy = 2; /* LE Coded: a coding-indicator octet follows the AA */
    assert_int_equal(pqpan_pcap_ble_record(b, sizeof b, &i, pdu, sizeof pdu, &n), 0);
    assert_int_equal(n, sizeof want + 1);
    assert_int_equal(b[14], 0);
    i.rf_channel = 40;
    assert_int_equal(pqpan_pcap_ble_record(b, sizeof b, &i, pdu, sizeof pdu, &n), PQPAN_ERR_INVALID_ARG);
}

/* SMP PDUs (Vol 3 Part H §3.5): octets by hand from the parameter tables; values go on the
 * air least significant octet first, so an MSB-first value comes out reversed. */
static void test_smp(void **state)
{
    static const uint8_t want_req[7] = {0x01, 0x03, 0x00, 0x08, 0x10, 0x00, 0x00};
    struct pqpan_smp_pairing p = {PQPAN_SMP_IO_NO_INPUT_NO_OUTPUT, 0, PQPAN_SMP_AUTH_SC, 16, 0, 0};
    struct pqpan_smp_pairing back;
    uint8_t b[PQPAN_SMP_PUBLIC_KEY_BYTES], v[16], x[32], y[32], xb[32], yb[32], reason;
    size_t n, i;
    (void)state;
    assert_int_equal(pqpan_smp_pdu_pairing_write(b, sizeof b, PQPAN_SMP_PAIRING_REQUEST, &p, &n), 0);
    assert_int_equal(n, 7);
    assert_memory_equal(b, want_req, 7);
    assert_int_equal(pqpan_smp_pdu_pairing_parse(&back, PQPAN_SMP_PAIRING_REQUEST, b, n), 0);
    assert_memory_equal(&back, &p, sizeof p);
    assert_int_equal(pqpan_smp_pdu_pairing_parse(&back, PQPAN_SMP_PAIRING_RESPONSE, b, n),
                     PQPAN_ERR_MALFORMED); /* a request is not a response */
    assert_int_equal(pqpan_smp_pdu_pairing_parse(&back, PQPAN_SMP_PAIRING_REQUEST, b, 6),
                     PQPAN_ERR_BAD_LENGTH);
    b[4] = 6; /* key size below 7 */
    assert_int_equal(pqpan_smp_pdu_pairing_parse(&back, PQPAN_SMP_PAIRING_REQUEST, b, n),
                     PQPAN_ERR_MALFORMED);
    for (i = 0; i < 16; i++) {
        v[i] = (uint8_t)i;
    }
    assert_int_equal(pqpan_smp_pdu_value_write(b, sizeof b, PQPAN_SMP_PAIRING_CONFIRM, v, &n), 0);
    assert_int_equal(n, 17);
    assert_int_equal(b[0], 0x03);
    assert_int_equal(b[1], 15); /* least significant octet first */
    assert_int_equal(b[16], 0);
    assert_int_equal(pqpan_smp_pdu_value_parse(x, PQPAN_SMP_PAIRING_CONFIRM, b, n), 0);
    assert_memory_equal(x, v, 16);
    assert_int_equal(pqpan_smp_pdu_value_parse(x, PQPAN_SMP_PAIRING_RANDOM, b, n), PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_smp_pdu_value_write(b, 16, PQPAN_SMP_PAIRING_RANDOM, v, &n),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(pqpan_smp_pdu_value_write(b, sizeof b, PQPAN_SMP_PAIRING_FAILED, v, &n),
                     PQPAN_ERR_INVALID_ARG);
    for (i = 0; i < 32; i++) {
        x[i] = (uint8_t)i;
        y[i] = (uint8_t)(0x80 + i);
    }
    assert_int_equal(pqpan_smp_pdu_public_key_write(b, sizeof b, x, y, &n), 0);
    assert_int_equal(n, 65);
    assert_int_equal(b[0], 0x0C);
    assert_int_equal(b[1], 31);
    assert_int_equal(b[33], 0x80 + 31);
    assert_int_equal(pqpan_smp_pdu_public_key_parse(xb, yb, b, n), 0);
    assert_memory_equal(xb, x, 32);
    assert_memory_equal(yb, y, 32);
    assert_int_equal(pqpan_smp_pdu_public_key_parse(xb, yb, b, 64), PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(pqpan_smp_pdu_failed_write(b, sizeof b, 0x0B, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(pqpan_smp_pdu_failed_parse(&reason, b, n), 0);
    assert_int_equal(reason, 0x0B);
    assert_int_equal(pqpan_smp_pdu_failed_write(b, sizeof b, 0, &n), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_smp_pdu_len(0x0D), 17);
    assert_int_equal(pqpan_smp_pdu_len(0x0A), 0); /* Identity Address Information: not used */
}

/* The LL encryption PDUs (Vol 6 Part B §2.4.2.4, §2.4.2.5), octet layout by hand. */
static void test_ll_enc_pdus(void **state)
{
    struct pqpan_ll_enc e, back;
    uint8_t b[PQPAN_LL_ENC_REQ_CTR_BYTES];
    size_t n, i;
    (void)state;
    for (i = 0; i < 8; i++) {
        e.rand[i] = (uint8_t)(0x10 + i);
        e.skd[i] = (uint8_t)(0x20 + i);
    }
    e.ediv = 0x1234;
    memcpy(e.iv, "\x30\x31\x32\x33", 4);
    assert_int_equal(pqpan_ll_pdu_enc_write(b, sizeof b, PQPAN_LL_ENC_REQ, &e, &n), 0);
    assert_int_equal(n, 23);
    assert_int_equal(b[0], 0x03);
    assert_int_equal(b[1], 0x10);
    assert_int_equal(b[9], 0x34); /* EDIV little-endian */
    assert_int_equal(b[10], 0x12);
    assert_int_equal(b[11], 0x20);
    assert_int_equal(b[19], 0x30);
    assert_int_equal(pqpan_ll_pdu_enc_parse(&back, b, n), 0);
    assert_memory_equal(&back, &e, sizeof e);
    assert_int_equal(pqpan_ll_pdu_enc_write(b, sizeof b, PQPAN_LL_ENC_RSP, &e, &n), 0);
    assert_int_equal(n, 13);
    assert_int_equal(b[0], 0x04);
    assert_int_equal(b[1], 0x20);
    assert_int_equal(b[9], 0x30);
    assert_int_equal(pqpan_ll_pdu_enc_parse(&back, b, n), 0);
    assert_memory_equal(back.skd, e.skd, 8);
    assert_int_equal(pqpan_ll_pdu_enc_parse(&back, b, 12), PQPAN_ERR_BAD_LENGTH);
    b[0] = 0x05;
    assert_int_equal(pqpan_ll_pdu_enc_parse(&back, b, 13), PQPAN_ERR_MALFORMED);
}

/* Core v5.4 Vol 6 Part C §1 (encryption sample data): LTK 0x4C68384139F574D836BCF34E9DFB01BF,
 * SKDm 0xACBDCEDFE0F10213, SKDs 0x0213243546576879, IVm 0xBADCAB24, IVs 0xDEAFBABE give
 * SK 0x99AD1B5226A37E3E058E3B8E27C2C666 (§1.1); the first and second packets each way
 * (§1.2): LL_START_ENC_RSP1/2 and LL_DATA1/2 as sent on the air, header and MIC included. */
struct ll_sample {
    int sender;
    uint8_t header;
    const char *clear, *air;
};

static void hex_bytes(uint8_t *out, size_t n, const char *hex)
{
    assert_int_equal(strlen(hex), 2 * n);
    assert_int_equal(cli_hex_decode(out, n, hex), 0);
}

static void test_ll_encryption_sample(void **state)
{
    static const struct ll_sample packets[4] = {
        {0, 0x0f, "06", "9fcda7f448"},
        {1, 0x07, "06", "a34c13a415"},
        {0, 0x0e, "1700636465666768696a6b6c6d6e6f707131323334353637383930",
         "7a70d66415226df26b17839a060405596bd6564f796b5b9ce6ff32f75a6d33"},
        {1, 0x06, "170037363534333231304142434445464748494a4b4c4d4e4f5051",
         "f38881e7bd94c9c369b9a66846dd4786aa8c39ce540d0dae3adcdf89b96088"},
    };
    struct pqpan_ll_enc central, peripheral;
    struct pqpan_ll_crypt tx, rx;
    uint8_t ltk[16], sk[16], pdu[2 + 27 + 4], air[27 + 4];
    size_t i, ran = 0;
    (void)state;
    hex_bytes(ltk, 16, "4c68384139f574d836bcf34e9dfb01bf");
    memset(&central, 0, sizeof central);
    memset(&peripheral, 0, sizeof peripheral);
    hex_bytes(central.skd, 8, "1302f1e0dfcebdac");    /* SKDm, on the air */
    hex_bytes(peripheral.skd, 8, "7968574635241302"); /* SKDs */
    hex_bytes(central.iv, 4, "24abdcba");             /* IVm */
    hex_bytes(peripheral.iv, 4, "bebaafde");          /* IVs */
    pqpan_ll_crypt_init(&tx, ltk, &central, &peripheral);
    rx = tx;
    hex_bytes(sk, 16, "99ad1b5226a37e3e058e3b8e27c2c666");
    assert_memory_equal(tx.sk, sk, 16);
    for (i = 0; i < 4; i++) {
        const struct ll_sample *p = &packets[i];
        size_t clear_len = strlen(p->clear) / 2;
        pdu[0] = p->header;
        pdu[1] = (uint8_t)clear_len;
        hex_bytes(pdu + 2, clear_len, p->clear);
        assert_int_equal(pqpan_ll_crypt_encrypt(&tx, p->sender, pdu, sizeof pdu), 0);
        assert_int_equal(pdu[1], clear_len + 4);
        hex_bytes(air, clear_len + 4, p->air);
        assert_memory_equal(pdu + 2, air, clear_len + 4);
        pdu[0] = (uint8_t)(pdu[0] ^ 0x1c); /* NESN, SN, MD are not authenticated */
        assert_int_equal(pqpan_ll_crypt_decrypt(&rx, p->sender, pdu, sizeof pdu), 0);
        assert_int_equal(pdu[1], clear_len);
        ran++;
    }
    assert_int_equal(ran, 4);
    /* a flipped MIC bit fails and leaves the counter where it was */
    pdu[0] = 0x0f;
    pdu[1] = 1;
    pdu[2] = 0x06;
    assert_int_equal(pqpan_ll_crypt_encrypt(&tx, 0, pdu, sizeof pdu), 0);
    pdu[6] ^= 1;
    assert_int_equal(pqpan_ll_crypt_decrypt(&rx, 0, pdu, sizeof pdu), PQPAN_ERR_AUTH);
    assert_int_equal(rx.counter[0], 2);
    pdu[1] = 0; /* empty PDUs are never encrypted */
    assert_int_equal(pqpan_ll_crypt_encrypt(&tx, 0, pdu, sizeof pdu), 0);
    assert_int_equal(pdu[1], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc_matches_spec_lfsr),
        cmocka_unit_test(test_crc_residue_zero),
        cmocka_unit_test(test_ll_header),
        cmocka_unit_test(test_ll_control),
        cmocka_unit_test(test_ll_setup_control),
        cmocka_unit_test(test_adv_ind),
        cmocka_unit_test(test_att_discovery),
        cmocka_unit_test(test_connect_ind),
        cmocka_unit_test(test_l2cap),
        cmocka_unit_test(test_att),
        cmocka_unit_test(test_pcap_ble_record),
        cmocka_unit_test(test_smp),
        cmocka_unit_test(test_ll_enc_pdus),
        cmocka_unit_test(test_ll_encryption_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
