/* IEEE 802.15.4 MAC security: the auxiliary security header (IEEE 802.15.4-2015 §9.4),
 * the MIC length of each security level (Table 9-6) and the CCM* mode of operation with
 * AES-128 (IEEE 802.15.4-2015 Annex B; FIPS 197 for the block cipher) that secures a
 * frame.
 *
 * The AES here indexes a table with key- and data-dependent values: it is not constant
 * time. It secures the frames of a model (the simulator's pcap, with a published test
 * key), not a product's traffic. */
#include <string.h>

#include "pqpan/ieee802154.h"

#define BLOCK 16u
#define ROUNDS 10u /* AES-128, FIPS 197 §5 Figure 4 (Nr = 10) */
#define CCM_L 2u   /* length field of 2 octets (Annex B: L = 2) */

/* FIPS 197 §5.1.1 Figure 7: the S-box (multiplicative inverse in GF(2^8), then the affine
 * transformation), computed once by a script and written here. */
static const uint8_t sbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
};

/* The AES-128 key schedule: 11 round keys of 16 octets (FIPS 197 §5.2). */
struct aes128 {
    uint8_t rk[(ROUNDS + 1u) * BLOCK];
};

/* x · {02} in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS 197 §4.2.1, xtime). */
static uint8_t xtime(uint8_t x)
{
    return (uint8_t)(((unsigned)x << 1) ^ ((x & 0x80u) ? 0x1bu : 0u));
}

/* FIPS 197 §5.2 KeyExpansion, Nk = 4: w[i] = w[i-4] ^ SubWord(RotWord(w[i-1])) ^ Rcon
 * every fourth word, else w[i-4] ^ w[i-1]. */
static void aes128_expand(struct aes128 *a, const uint8_t key[PQPAN_802154_KEY_OCTETS])
{
    uint8_t rcon = 1;
    size_t i;
    memcpy(a->rk, key, BLOCK);
    for (i = BLOCK; i < sizeof a->rk; i += 4) {
        uint8_t t[4];
        memcpy(t, a->rk + i - 4, 4);
        if (i % BLOCK == 0) {
            uint8_t t0 = t[0];
            t[0] = (uint8_t)(sbox[t[1]] ^ rcon);
            t[1] = sbox[t[2]];
            t[2] = sbox[t[3]];
            t[3] = sbox[t0];
            rcon = xtime(rcon);
        }
        a->rk[i] = (uint8_t)(a->rk[i - BLOCK] ^ t[0]);
        a->rk[i + 1] = (uint8_t)(a->rk[i + 1 - BLOCK] ^ t[1]);
        a->rk[i + 2] = (uint8_t)(a->rk[i + 2 - BLOCK] ^ t[2]);
        a->rk[i + 3] = (uint8_t)(a->rk[i + 3 - BLOCK] ^ t[3]);
    }
}

static void add_round_key(uint8_t s[BLOCK], const uint8_t *rk)
{
    size_t i;
    for (i = 0; i < BLOCK; i++) {
        s[i] = (uint8_t)(s[i] ^ rk[i]);
    }
}

/* SubBytes and ShiftRows together (FIPS 197 §5.1.1, §5.1.2): the state is column-major,
 * s[r + 4c]; row r moves left by r columns. */
static void sub_shift(uint8_t s[BLOCK])
{
    uint8_t t[BLOCK];
    size_t r, c;
    for (c = 0; c < 4; c++) {
        for (r = 0; r < 4; r++) {
            t[r + 4 * c] = sbox[s[r + 4 * ((c + r) % 4)]];
        }
    }
    memcpy(s, t, BLOCK);
}

/* MixColumns (FIPS 197 §5.1.3): each column times {03}x^3 + {01}x^2 + {01}x + {02}. */
static void mix_columns(uint8_t s[BLOCK])
{
    size_t c;
    for (c = 0; c < 4; c++) {
        uint8_t *col = s + 4 * c;
        uint8_t all = (uint8_t)(col[0] ^ col[1] ^ col[2] ^ col[3]);
        uint8_t first = col[0];
        col[0] = (uint8_t)(col[0] ^ all ^ xtime((uint8_t)(col[0] ^ col[1])));
        col[1] = (uint8_t)(col[1] ^ all ^ xtime((uint8_t)(col[1] ^ col[2])));
        col[2] = (uint8_t)(col[2] ^ all ^ xtime((uint8_t)(col[2] ^ col[3])));
        col[3] = (uint8_t)(col[3] ^ all ^ xtime((uint8_t)(col[3] ^ first)));
    }
}

/* FIPS 197 §5.1 Cipher, Figure 5. */
static void aes128_encrypt(const struct aes128 *a, uint8_t out[BLOCK], const uint8_t in[BLOCK])
{
    size_t round;
    memcpy(out, in, BLOCK);
    add_round_key(out, a->rk);
    for (round = 1; round < ROUNDS; round++) {
        sub_shift(out);
        mix_columns(out);
        add_round_key(out, a->rk + round * BLOCK);
    }
    sub_shift(out);
    add_round_key(out, a->rk + ROUNDS * BLOCK);
}

void pqpan_802154_aes128_encrypt(uint8_t out[16], const uint8_t key[PQPAN_802154_KEY_OCTETS],
                                 const uint8_t in[16])
{
    struct aes128 a;
    aes128_expand(&a, key);
    aes128_encrypt(&a, out, in);
}

/* ---- CCM* (IEEE 802.15.4-2015 Annex B.4) ---- */

static int mic_len_valid(size_t m)
{
    /* B.3.2: M in {0, 4, 6, 8, 10, 12, 14, 16}. */
    return m == 0 || (m >= 4 && m <= BLOCK && m % 2 == 0);
}

/* CBC-MAC over block-aligned pieces: x = E(x ^ block) for each 16 octets of data, the
 * last block padded with zeros (B.4.1.1: AddAuthData and PlaintextData padding). */
static void cbc_absorb(const struct aes128 *a, uint8_t x[BLOCK], const uint8_t *data, size_t len,
                       size_t *fill)
{
    size_t i;
    for (i = 0; i < len; i++) {
        x[*fill] = (uint8_t)(x[*fill] ^ data[i]);
        if (++*fill == BLOCK) {
            aes128_encrypt(a, x, x);
            *fill = 0;
        }
    }
}

static void cbc_pad(const struct aes128 *a, uint8_t x[BLOCK], size_t *fill)
{
    if (*fill != 0) {
        aes128_encrypt(a, x, x);
        *fill = 0;
    }
}

/* B.4.1.2: the authentication tag T of (a, m): B0 = Flags || N || l(m), Flags =
 * Adata·64 + M'·8 + L' with M' = (M - 2)/2 and L' = L - 1; then l(a) in 2 octets and a,
 * padded; then m, padded. T = the first M octets of the last CBC-MAC block. */
static void ccm_tag(const struct aes128 *a, uint8_t t[BLOCK], size_t mic_len,
                    const uint8_t nonce[PQPAN_802154_NONCE_OCTETS], const uint8_t *adata,
                    size_t a_len, const uint8_t *m, size_t m_len)
{
    uint8_t b0[BLOCK], la[2];
    size_t fill = 0;
    b0[0] = (uint8_t)((a_len > 0 ? 0x40u : 0u) | (((mic_len - 2u) / 2u) << 3) | (CCM_L - 1u));
    memcpy(b0 + 1, nonce, PQPAN_802154_NONCE_OCTETS);
    b0[14] = (uint8_t)(m_len >> 8);
    b0[15] = (uint8_t)m_len;
    aes128_encrypt(a, t, b0);
    if (a_len > 0) {
        la[0] = (uint8_t)(a_len >> 8);
        la[1] = (uint8_t)a_len;
        cbc_absorb(a, t, la, sizeof la, &fill);
        cbc_absorb(a, t, adata, a_len, &fill);
        cbc_pad(a, t, &fill);
    }
    cbc_absorb(a, t, m, m_len, &fill);
    cbc_pad(a, t, &fill);
}

/* B.4.1.3: the key stream block S_i = E(K, A_i), A_i = Flags || N || i (Flags = L'). */
static void ccm_stream(const struct aes128 *a, uint8_t s[BLOCK],
                       const uint8_t nonce[PQPAN_802154_NONCE_OCTETS], uint16_t i)
{
    uint8_t ai[BLOCK];
    ai[0] = (uint8_t)(CCM_L - 1u);
    memcpy(ai + 1, nonce, PQPAN_802154_NONCE_OCTETS);
    ai[14] = (uint8_t)(i >> 8);
    ai[15] = (uint8_t)i;
    aes128_encrypt(a, s, ai);
}

/* m ^= S_1 || S_2 || ... (counter mode, B.4.1.3); the same call decrypts. */
static void ccm_ctr(const struct aes128 *a, uint8_t *m, size_t m_len,
                    const uint8_t nonce[PQPAN_802154_NONCE_OCTETS])
{
    uint8_t s[BLOCK];
    size_t off, i;
    for (off = 0; off < m_len; off += BLOCK) {
        ccm_stream(a, s, nonce, (uint16_t)(off / BLOCK + 1u));
        for (i = 0; i < BLOCK && off + i < m_len; i++) {
            m[off + i] = (uint8_t)(m[off + i] ^ s[i]);
        }
    }
}

/* U = T ^ first M octets of S_0 (B.4.1.3). */
static void ccm_mic(const struct aes128 *a, uint8_t *mic, size_t mic_len, const uint8_t t[BLOCK],
                    const uint8_t nonce[PQPAN_802154_NONCE_OCTETS])
{
    uint8_t s0[BLOCK];
    size_t i;
    ccm_stream(a, s0, nonce, 0);
    for (i = 0; i < mic_len; i++) {
        mic[i] = (uint8_t)(t[i] ^ s0[i]);
    }
}

static int ccm_args_valid(const uint8_t *m, size_t m_len, const uint8_t *mic, size_t mic_len,
                          const uint8_t *key, const uint8_t *nonce, const uint8_t *adata,
                          size_t a_len)
{
    /* l(a) < 2^16 - 2^8 takes the 2-octet encoding of B.4.1.2; l(m) < 2^16 fits L = 2. */
    return key != NULL && nonce != NULL && (m != NULL || m_len == 0) &&
           (mic != NULL || mic_len == 0) && (adata != NULL || a_len == 0) &&
           mic_len_valid(mic_len) && a_len < 0xFF00u && m_len <= 0xFFFFu;
}

int pqpan_802154_ccm_star_encrypt(uint8_t *m, size_t m_len, uint8_t *mic, size_t mic_len,
                                  const uint8_t key[PQPAN_802154_KEY_OCTETS],
                                  const uint8_t nonce[PQPAN_802154_NONCE_OCTETS],
                                  const uint8_t *adata, size_t a_len)
{
    struct aes128 a;
    uint8_t t[BLOCK];
    if (!ccm_args_valid(m, m_len, mic, mic_len, key, nonce, adata, a_len)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    aes128_expand(&a, key);
    if (mic_len > 0) {
        ccm_tag(&a, t, mic_len, nonce, adata, a_len, m, m_len);
        ccm_mic(&a, mic, mic_len, t, nonce);
    }
    ccm_ctr(&a, m, m_len, nonce);
    return PQPAN_OK;
}

int pqpan_802154_ccm_star_decrypt(uint8_t *m, size_t m_len, const uint8_t *mic, size_t mic_len,
                                  const uint8_t key[PQPAN_802154_KEY_OCTETS],
                                  const uint8_t nonce[PQPAN_802154_NONCE_OCTETS],
                                  const uint8_t *adata, size_t a_len)
{
    struct aes128 a;
    uint8_t t[BLOCK], want[BLOCK];
    unsigned diff = 0;
    size_t i;
    if (!ccm_args_valid(m, m_len, mic, mic_len, key, nonce, adata, a_len)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    aes128_expand(&a, key);
    ccm_ctr(&a, m, m_len, nonce);
    if (mic_len == 0) {
        return PQPAN_OK;
    }
    ccm_tag(&a, t, mic_len, nonce, adata, a_len, m, m_len);
    ccm_mic(&a, want, mic_len, t, nonce);
    for (i = 0; i < mic_len; i++) {
        diff |= (unsigned)(want[i] ^ mic[i]);
    }
    if (diff != 0) {
        ccm_ctr(&a, m, m_len, nonce); /* give the caller its ciphertext back */
        return PQPAN_ERR_AUTH;
    }
    return PQPAN_OK;
}

/* ---- the auxiliary security header ---- */

size_t pqpan_802154_sec_mic_len(uint8_t level)
{
    /* Table 9-6: levels 1/5 MIC-32, 2/6 MIC-64, 3/7 MIC-128; 0 and 4 no MIC. */
    static const uint8_t mic[8] = {0, 4, 8, 16, 0, 4, 8, 16};
    return level < 8u ? mic[level] : 0u;
}

int pqpan_802154_sec_encrypts(uint8_t level)
{
    /* Table 9-6: levels 4..7 give data confidentiality. */
    return level >= PQPAN_802154_SEC_ENC && level <= PQPAN_802154_SEC_ENC_MIC_128;
}

size_t pqpan_802154_sec_aux_len(uint8_t level, uint8_t key_id_mode)
{
    /* §9.4.1: Security Control 1 + Frame Counter 4 + Key Identifier; §9.4.4: Key
     * Identifier = Key Source (0, 4 or 8 octets) + Key Index 1, absent in mode 0. */
    static const uint8_t key_id[4] = {0, 1, 5, 9};
    if (level == PQPAN_802154_SEC_NONE || level > PQPAN_802154_SEC_ENC_MIC_128 ||
        key_id_mode > 3u) {
        return 0;
    }
    return 1u + 4u + key_id[key_id_mode];
}

void pqpan_802154_sec_nonce(uint8_t nonce[PQPAN_802154_NONCE_OCTETS], uint64_t src_ext,
                            uint32_t frame_counter, uint8_t level)
{
    int i;
    for (i = 0; i < 8; i++) {
        nonce[i] = (uint8_t)(src_ext >> (56 - 8 * i));
    }
    for (i = 0; i < 4; i++) {
        nonce[8 + i] = (uint8_t)(frame_counter >> (24 - 8 * i));
    }
    nonce[12] = level;
}
