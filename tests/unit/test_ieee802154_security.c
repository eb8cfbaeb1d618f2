/* Tests for src/ieee802154/security.c and the secured frames of mac.c: AES-128 against
 * FIPS 197 Appendix C.1, CCM* against RFC 3610 packet vector #1 and the IEEE 802.15.4-2006
 * Annex C.2.1 / C.2.3 frames (published vectors, checked here as data), the auxiliary
 * security header and MIC sizes of IEEE 802.15.4-2015 §9.4 / Table 9-6 counted by hand,
 * the Data Request command frame assembled by hand from the Frame Control bit map, and
 * round trips of secured frames at every level with tampering caught. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

static void hex(uint8_t *out, const char *s)
{
    size_t i;
    for (i = 0; s[2 * i] != '\0'; i++) {
        unsigned v = 0;
        int k;
        for (k = 0; k < 2; k++) {
            char c = s[2 * i + (size_t)k];
            v = v * 16u + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        }
        out[i] = (uint8_t)v;
    }
}

static void test_aes128_fips197_c1(void **state)
{
    uint8_t key[16], in[16], out[16], want[16];
    (void)state;
    hex(key, "000102030405060708090a0b0c0d0e0f");
    hex(in, "00112233445566778899aabbccddeeff");
    hex(want, "69c4e0d86a7b0430d8cdb78070b4c55a");
    pqpan_802154_aes128_encrypt(out, key, in);
    assert_memory_equal(out, want, 16);
}

/* RFC 3610 §8 packet vector #1: M = 8, L = 2, 8 octets of header, 23 of payload. */
static void test_ccm_rfc3610_vector1(void **state)
{
    uint8_t key[16], nonce[13], a[8], m[23], mic[8], want[31];
    size_t i;
    (void)state;
    hex(key, "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf");
    hex(nonce, "00000003020100a0a1a2a3a4a5");
    hex(want, "588c979a61c663d2f066d0c2c0f989806d5f6b61dac38417e8d12cfdf926e0");
    for (i = 0; i < sizeof a; i++) {
        a[i] = (uint8_t)i;
    }
    for (i = 0; i < sizeof m; i++) {
        m[i] = (uint8_t)(8 + i);
    }
    assert_int_equal(pqpan_802154_ccm_star_encrypt(m, sizeof m, mic, sizeof mic, key, nonce, a, sizeof a),
                     PQPAN_OK);
    assert_memory_equal(m, want, 23);
    assert_memory_equal(mic, want + 23, 8);
    assert_int_equal(pqpan_802154_ccm_star_decrypt(m, sizeof m, mic, sizeof mic, key, nonce, a, sizeof a),
                     PQPAN_OK);
    assert_int_equal(m[0], 8);
    assert_int_equal(m[22], 30);
    a[3] ^= 1; /* tampered authentication data: refused, m given back encrypted */
    assert_int_equal(pqpan_802154_ccm_star_encrypt(m, sizeof m, mic, 5, key, nonce, a, sizeof a),
                     PQPAN_ERR_INVALID_ARG); /* odd MIC length: not a CCM* M */
    assert_int_equal(pqpan_802154_ccm_star_encrypt(m, sizeof m, mic, sizeof mic, key, nonce, a, sizeof a),
                     PQPAN_OK);
    a[3] ^= 1;
    memcpy(want, m, sizeof m);
    assert_int_equal(pqpan_802154_ccm_star_decrypt(m, sizeof m, mic, sizeof mic, key, nonce, a, sizeof a),
                     PQPAN_ERR_AUTH);
    assert_memory_equal(m, want, sizeof m);
}

/* IEEE 802.15.4-2006 Annex C.2.1: a beacon frame secured at MIC-64 (level 2): the whole
 * frame is authenticated, nothing encrypted; nonce = ACDE480000000001 | 00000005 | 02. */
static void test_ccm_annex_c21_beacon(void **state)
{
    uint8_t key[16], nonce[13], frame[26], mic[8], want[8];
    (void)state;
    hex(key, "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf");
    hex(frame, "08d0842143010000000048deac020500000055cf000051525354");
    hex(want, "223bc1ec841ab553");
    pqpan_802154_sec_nonce(nonce, 0xACDE480000000001ull, 5, PQPAN_802154_SEC_MIC_64);
    assert_int_equal(pqpan_802154_ccm_star_encrypt(NULL, 0, mic, sizeof mic, key, nonce, frame,
                                                   sizeof frame),
                     PQPAN_OK);
    assert_memory_equal(mic, want, 8);
}

/* IEEE 802.15.4-2006 Annex C.2.3: an Association Request command secured at ENC-MIC-64
 * (level 6, key identifier mode 0): built by pqpan_802154_mac_build from its fields, the
 * frame must equal the published one (Command ID 0x01 open, payload 0xCE encrypted). */
static void test_build_annex_c23_command(void **state)
{
    struct pqpan_802154_mhr h;
    struct pqpan_802154_keying k;
    struct pqpan_802154_frame f;
    uint8_t want[38], psdu[127];
    const uint8_t payload[2] = {0x01, 0xCE};
    size_t len = 0;
    (void)state;
    hex(want, "2bdc842143020000000048deacffff010000000048deac060500000001d84fde529061f9c6f1");
    memset(&h, 0, sizeof h);
    h.frame_type = PQPAN_802154_FRAME_CMD;
    h.frame_version = 1;
    h.security = 1;
    h.aux.level = PQPAN_802154_SEC_ENC_MIC_64;
    h.aux.frame_counter = 5;
    h.ack_request = 1;
    h.seq = 0x84;
    h.dst_pan = 0x4321;
    h.dst.mode = PQPAN_802154_ADDR_EXT;
    h.dst.ext_addr = 0xACDE480000000002ull;
    h.src_pan = 0xFFFF;
    h.src.mode = PQPAN_802154_ADDR_EXT;
    h.src.ext_addr = 0xACDE480000000001ull;
    hex(k.key, "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf");
    k.src_ext = h.src.ext_addr;
    assert_int_equal(pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, payload, 2, &k), PQPAN_OK);
    assert_int_equal(len, sizeof want + 2);
    assert_memory_equal(psdu, want, sizeof want);
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, len), PQPAN_OK);
    assert_int_equal(f.mhr_len, 28); /* 23 + aux 5 */
    assert_int_equal(f.payload_len, 2);
    assert_int_equal(f.mic_len, 8);
    assert_int_equal(f.mhr.aux.frame_counter, 5);
    assert_int_equal(pqpan_802154_mac_unsecure(psdu, len, &f, &k), PQPAN_OK);
    assert_memory_equal(psdu + f.payload_off, payload, 2);
}

/* §9.4.1 / §9.4.4: Security Control 1 + Frame Counter 4 + Key Identifier 0/1/5/9;
 * Table 9-6: MIC 0, 4, 8, 16 octets. */
static void test_aux_and_mic_sizes(void **state)
{
    static const size_t mic[8] = {0, 4, 8, 16, 0, 4, 8, 16};
    uint8_t level;
    (void)state;
    for (level = 0; level < 8; level++) {
        assert_int_equal(pqpan_802154_sec_mic_len(level), mic[level]);
        assert_int_equal(pqpan_802154_sec_encrypts(level), level >= 4);
    }
    assert_int_equal(pqpan_802154_sec_aux_len(PQPAN_802154_SEC_ENC_MIC_32, 0), 5);
    assert_int_equal(pqpan_802154_sec_aux_len(PQPAN_802154_SEC_ENC_MIC_32, 1), 6);
    assert_int_equal(pqpan_802154_sec_aux_len(PQPAN_802154_SEC_ENC_MIC_32, 2), 10);
    assert_int_equal(pqpan_802154_sec_aux_len(PQPAN_802154_SEC_ENC_MIC_32, 3), 14);
    assert_int_equal(pqpan_802154_sec_aux_len(PQPAN_802154_SEC_NONE, 1), 0);
    assert_int_equal(pqpan_802154_sec_aux_len(8, 1), 0);
    assert_int_equal(pqpan_802154_sec_aux_len(1, 4), 0);
}

static struct pqpan_802154_mhr poll_mhr(int secured)
{
    struct pqpan_802154_mhr h;
    memset(&h, 0, sizeof h);
    h.frame_version = 1;
    h.ack_request = 1;
    h.pan_id_compression = 1;
    h.seq = 0x10;
    h.dst_pan = 0xABCD;
    h.dst.mode = PQPAN_802154_ADDR_SHORT;
    h.dst.short_addr = 0x0400;
    h.src.mode = PQPAN_802154_ADDR_EXT;
    h.src.ext_addr = 0x00124B0001020304ull;
    if (secured) {
        h.security = 1;
        h.aux.level = PQPAN_802154_SEC_ENC_MIC_32;
        h.aux.key_id_mode = 1;
        h.aux.key_index = 1;
        h.aux.frame_counter = 0x01020304;
    }
    return h;
}

/* §7.5.5 Data Request from an end device (extended address) to its parent (short
 * address), AR, PAN ID Compression, Frame Version 1:
 * FCF = type 3 | AR (bit 5) | PAN ID comp (bit 6) | dst mode 2 (bits 10-11) | version 1
 * (bits 12-13) | src mode 3 (bits 14-15) = 0xD863; MHR 2 + 1 + 2 + 2 + 8 = 15, Command ID
 * 0x04, FCS 2: 18 octets. Secured ENC-MIC-32, key identifier mode 1 (Thread): + Security
 * Enabled (bit 3) = 0xD86B, aux 6 (0x0D, frame counter LE, key index), MIC 4: 28 octets. */
static void test_data_request_bytes(void **state)
{
    const uint8_t plain[16] = {0x63, 0xD8, 0x10, 0xCD, 0xAB, 0x00, 0x04, 0x04, 0x03,
                               0x02, 0x01, 0x00, 0x4B, 0x12, 0x00, 0x04};
    const uint8_t secured_hdr[21] = {0x6B, 0xD8, 0x10, 0xCD, 0xAB, 0x00, 0x04, 0x04, 0x03, 0x02, 0x01,
                                     0x00, 0x4B, 0x12, 0x00, 0x0D, 0x04, 0x03, 0x02, 0x01, 0x01};
    struct pqpan_802154_mhr h = poll_mhr(0);
    struct pqpan_802154_keying k;
    struct pqpan_802154_frame f;
    uint8_t psdu[127];
    size_t len = 0;
    (void)state;
    memset(&k, 0x5A, sizeof k);
    k.src_ext = h.src.ext_addr;
    assert_int_equal(pqpan_802154_mac_build_data_request(psdu, sizeof psdu, &len, &h, NULL), PQPAN_OK);
    assert_int_equal(len, 18);
    assert_memory_equal(psdu, plain, sizeof plain);
    h = poll_mhr(1);
    assert_int_equal(pqpan_802154_mac_build_data_request(psdu, sizeof psdu, &len, &h, NULL),
                     PQPAN_ERR_INVALID_ARG); /* a secured frame needs its keying */
    assert_int_equal(pqpan_802154_mac_build_data_request(psdu, sizeof psdu, &len, &h, &k), PQPAN_OK);
    assert_int_equal(len, 28);
    assert_memory_equal(psdu, secured_hdr, sizeof secured_hdr);
    assert_int_equal(psdu[21], PQPAN_802154_CMD_DATA_REQUEST); /* open: the Command ID */
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, len), PQPAN_OK);
    assert_int_equal(f.mhr.frame_type, PQPAN_802154_FRAME_CMD);
    assert_int_equal(f.mhr.aux.key_index, 1);
    assert_int_equal(f.mic_len, 4);
    assert_int_equal(pqpan_802154_mac_unsecure(psdu, len, &f, &k), PQPAN_OK);
    psdu[21] = 0x05; /* the Command ID is authenticated: another one fails the MIC */
    assert_int_equal(pqpan_802154_mac_unsecure(psdu, len, &f, &k), PQPAN_ERR_AUTH);
}

/* Extended addresses, PAN ID compression: MHR 21 + aux (6 with mode 1) + MIC + FCS 2. */
static void test_secured_header_and_payload_sizes(void **state)
{
    struct pqpan_802154_mhr h = poll_mhr(1);
    (void)state;
    h.frame_type = PQPAN_802154_FRAME_DATA;
    h.dst.mode = PQPAN_802154_ADDR_EXT;
    assert_int_equal(pqpan_802154_mac_mhr_len(&h), 27);
    assert_int_equal(pqpan_802154_mac_max_payload(&h), 127 - 27 - 4 - 2);
    h.aux.level = PQPAN_802154_SEC_MIC_128;
    h.aux.key_id_mode = 3;
    assert_int_equal(pqpan_802154_mac_mhr_len(&h), 21 + 14);
    assert_int_equal(pqpan_802154_mac_max_payload(&h), 127 - 35 - 16 - 2);
    h.frame_version = 0; /* 2003 security is another format */
    assert_int_equal(pqpan_802154_mac_mhr_len(&h), 0);
    h.frame_version = 1;
    h.aux.level = 0;
    assert_int_equal(pqpan_802154_mac_mhr_len(&h), 0);
}

/* Every level and key identifier mode: build, parse, open; any flipped octet of the
 * authenticated part fails the MIC (levels with a MIC); the payload comes back. */
static void test_secured_roundtrips(void **state)
{
    struct pqpan_802154_mhr h = poll_mhr(1);
    struct pqpan_802154_keying k;
    struct pqpan_802154_frame f;
    uint8_t payload[40], psdu[127], sent[127];
    size_t len = 0, i;
    uint8_t level, mode;
    (void)state;
    h.frame_type = PQPAN_802154_FRAME_DATA;
    for (i = 0; i < sizeof payload; i++) {
        payload[i] = (uint8_t)(3 * i + 1);
    }
    for (i = 0; i < sizeof k.key; i++) {
        k.key[i] = (uint8_t)(0x70 + i);
    }
    k.src_ext = h.src.ext_addr;
    for (level = 1; level < 8; level++) {
        for (mode = 0; mode < 4; mode++) {
            h.aux.level = level;
            h.aux.key_id_mode = mode;
            h.aux.key_source = 0x1122334455667788ull >> (mode == 2 ? 32 : 0);
            assert_int_equal(pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, payload, sizeof payload, &k),
                             PQPAN_OK);
            assert_int_equal(len, pqpan_802154_mac_mhr_len(&h) + sizeof payload +
                                      pqpan_802154_sec_mic_len(level) + 2);
            assert_int_equal(memcmp(psdu + pqpan_802154_mac_mhr_len(&h), payload, sizeof payload) != 0,
                             pqpan_802154_sec_encrypts(level));
            memcpy(sent, psdu, len);
            assert_int_equal(pqpan_802154_mac_parse(&f, psdu, len), PQPAN_OK);
            assert_int_equal(f.mhr.aux.level, level);
            assert_int_equal(f.mhr.aux.key_id_mode, mode);
            assert_true(f.mhr.aux.key_source == (mode >= 2 ? h.aux.key_source : 0));
            assert_int_equal(f.payload_len, sizeof payload);
            if (pqpan_802154_sec_mic_len(level) != 0) {
                psdu[f.payload_off + 7] ^= 0x20;
                assert_int_equal(pqpan_802154_mac_unsecure(psdu, len, &f, &k), PQPAN_ERR_AUTH);
                psdu[f.payload_off + 7] ^= 0x20;
                assert_memory_equal(psdu, sent, len);
            }
            assert_int_equal(pqpan_802154_mac_unsecure(psdu, len, &f, &k), PQPAN_OK);
            assert_memory_equal(psdu + f.payload_off, payload, sizeof payload);
        }
    }
}

static void fix_fcs(uint8_t *psdu, size_t len)
{
    uint16_t fcs = pqpan_802154_mac_fcs(psdu, len - 2);
    psdu[len - 2] = (uint8_t)fcs;
    psdu[len - 1] = (uint8_t)(fcs >> 8);
}

static void test_secured_parse_rejects(void **state)
{
    struct pqpan_802154_mhr h = poll_mhr(1);
    struct pqpan_802154_keying k;
    struct pqpan_802154_frame f;
    uint8_t psdu[127];
    size_t len = 0;
    (void)state;
    memset(&k, 1, sizeof k);
    assert_int_equal(pqpan_802154_mac_build_data_request(psdu, sizeof psdu, &len, &h, &k), PQPAN_OK);
    psdu[15] |= 0x20; /* Frame Counter Suppression: Frame Version 2 only */
    fix_fcs(psdu, len);
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, len), PQPAN_ERR_MALFORMED);
    psdu[15] = 0x08; /* level 0 in a secured frame */
    fix_fcs(psdu, len);
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, len), PQPAN_ERR_MALFORMED);
    psdu[15] = 0x0D;
    psdu[1] &= 0xCF; /* Frame Version 0: 2003 security */
    fix_fcs(psdu, len);
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, len), PQPAN_ERR_UNSUPPORTED);
    psdu[1] |= 0x10;
    fix_fcs(psdu, 20); /* cut inside the aux header */
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, 20), PQPAN_ERR_MALFORMED);
    fix_fcs(psdu, 24); /* aux whole, no room for Command ID + MIC */
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, 24), PQPAN_ERR_MALFORMED);
    pqpan_802154_mac_build_ack(psdu, 1, 0);
    psdu[0] |= 0x08; /* a secured Imm-Ack */
    fix_fcs(psdu, 5);
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, 5), PQPAN_ERR_UNSUPPORTED);
    assert_int_equal(pqpan_802154_mac_unsecure(psdu, 5, &f, &k), PQPAN_ERR_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aes128_fips197_c1),
        cmocka_unit_test(test_ccm_rfc3610_vector1),
        cmocka_unit_test(test_ccm_annex_c21_beacon),
        cmocka_unit_test(test_build_annex_c23_command),
        cmocka_unit_test(test_aux_and_mic_sizes),
        cmocka_unit_test(test_data_request_bytes),
        cmocka_unit_test(test_secured_header_and_payload_sizes),
        cmocka_unit_test(test_secured_roundtrips),
        cmocka_unit_test(test_secured_parse_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
