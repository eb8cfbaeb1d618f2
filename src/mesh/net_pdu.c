/* The network layer's security (MshPRT v1.1 §3.9.2.6 k2, §3.9.5.1 network nonce, §3.9.7.2
 * encryption, §3.9.7.3 obfuscation; Mesh Profile v1.0 §3.8.x): a Network PDU built and
 * taken apart byte by byte
 * (mesh_net.h), checked against the specification's sample data (§8.3,
 * tests/unit/test_mesh_net.c). */
#include <string.h>

#include "pqpan/aes.h"
#include "pqpan/ieee802154.h"
#include "pqpan/mesh_net.h"
#include "pqpan/mesh_sim.h"

#define NONCE_BYTES 13u
#define OBFUSCATED_BYTES 6u /* CTL/TTL 1 + SEQ 3 + SRC 2 */
#define PRIVACY_RANDOM_BYTES 7u
#define K2_P_MAX 16u

void pqpan_mesh_k2(struct pqpan_mesh_net_keys *k, const uint8_t net_key[16], const uint8_t *p,
                   size_t p_len)
{
    static const uint8_t smk2[4] = {'s', 'm', 'k', '2'};
    uint8_t salt[16], t[16], t1[16], buf[16 + K2_P_MAX + 1];
    size_t n = p_len < K2_P_MAX ? p_len : K2_P_MAX;
    pqpan_mesh_s1(salt, smk2, sizeof smk2);
    pqpan_aes_cmac(t, salt, net_key, 16);
    memcpy(buf, p, n);
    buf[n] = 0x01;
    pqpan_aes_cmac(t1, t, buf, n + 1u);
    memcpy(buf, t1, 16);
    memcpy(buf + 16, p, n);
    buf[16 + n] = 0x02;
    pqpan_aes_cmac(k->encryption_key, t, buf, 16 + n + 1u);
    memcpy(buf, k->encryption_key, 16);
    buf[16 + n] = 0x03;
    pqpan_aes_cmac(k->privacy_key, t, buf, 16 + n + 1u);
    k->nid = (uint8_t)(t1[15] & 0x7Fu);
}

static uint32_t mic_len(uint8_t ctl)
{
    return ctl ? PQPAN_MESH_NET_NETMIC_CONTROL : PQPAN_MESH_NET_NETMIC_ACCESS;
}

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* CTL/TTL, SEQ, SRC: the six octets obfuscation covers (§3.4.4). */
static void put_clear(uint8_t out[OBFUSCATED_BYTES], const struct pqpan_mesh_net_hdr *h)
{
    out[0] = (uint8_t)((h->ctl ? 0x80u : 0u) | (h->ttl & 0x7Fu));
    out[1] = (uint8_t)(h->seq >> 16);
    out[2] = (uint8_t)(h->seq >> 8);
    out[3] = (uint8_t)h->seq;
    out[4] = (uint8_t)(h->src >> 8);
    out[5] = (uint8_t)h->src;
}

/* §3.9.5.1: type 0x00, CTL/TTL, SEQ, SRC, pad 0x0000, IV Index. */
static void network_nonce(uint8_t nonce[NONCE_BYTES], const uint8_t clear[OBFUSCATED_BYTES],
                          uint32_t iv_index)
{
    nonce[0] = 0x00;
    memcpy(nonce + 1, clear, OBFUSCATED_BYTES);
    nonce[7] = 0x00;
    nonce[8] = 0x00;
    put_be32(nonce + 9, iv_index);
}

/* §3.9.7.3: PECB from the Privacy Random (the first 7 octets after the obfuscated ones). */
static void pecb(uint8_t out[16], const struct pqpan_mesh_net_keys *k, uint32_t iv_index,
                 const uint8_t random[PRIVACY_RANDOM_BYTES])
{
    struct pqpan_aes128 ctx;
    uint8_t in[16] = {0};
    put_be32(in + 5, iv_index);
    memcpy(in + 9, random, PRIVACY_RANDOM_BYTES);
    pqpan_aes128_init(&ctx, k->privacy_key);
    pqpan_aes128_encrypt(&ctx, out, in);
}

int pqpan_mesh_net_pdu_encode(uint8_t out[PQPAN_MESH_NET_PDU_MAX], size_t *out_len,
                              const struct pqpan_mesh_net_keys *k, uint32_t iv_index,
                              const struct pqpan_mesh_net_hdr *h, const uint8_t *tpdu,
                              size_t t_len)
{
    uint8_t clear[OBFUSCATED_BYTES], nonce[NONCE_BYTES], mask[16];
    uint32_t mic = h != NULL ? mic_len(h->ctl) : 0u, i;
    size_t body;
    if (out == NULL || out_len == NULL || k == NULL || h == NULL || tpdu == NULL || t_len == 0u ||
        h->ttl > PQPAN_MESH_NET_TTL_MAX || h->seq > 0xFFFFFFu ||
        1u + OBFUSCATED_BYTES + 2u + t_len + mic > PQPAN_MESH_NET_PDU_MAX) {
        return PQPAN_ERR_INVALID_ARG;
    }
    put_clear(clear, h);
    network_nonce(nonce, clear, iv_index);
    out[0] = (uint8_t)(((iv_index & 1u) << 7) | k->nid);
    body = 1u + OBFUSCATED_BYTES;
    out[body] = (uint8_t)(h->dst >> 8);
    out[body + 1] = (uint8_t)h->dst;
    memcpy(out + body + 2, tpdu, t_len);
    if (pqpan_802154_ccm_star_encrypt(out + body, 2u + t_len, out + body + 2 + t_len, mic,
                                      k->encryption_key, nonce, NULL, 0) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    pecb(mask, k, iv_index, out + body);
    for (i = 0; i < OBFUSCATED_BYTES; i++) {
        out[1 + i] = (uint8_t)(clear[i] ^ mask[i]);
    }
    *out_len = body + 2u + t_len + mic;
    return PQPAN_OK;
}

int pqpan_mesh_net_pdu_decode(struct pqpan_mesh_net_hdr *h, uint8_t tpdu[16], size_t *t_len,
                              const struct pqpan_mesh_net_keys *k, uint32_t iv_index,
                              const uint8_t *pdu, size_t len)
{
    uint8_t clear[OBFUSCATED_BYTES], nonce[NONCE_BYTES], mask[16], body[PQPAN_MESH_NET_PDU_MAX];
    size_t i, n;
    uint32_t mic;
    if (pdu == NULL || len < 1u + OBFUSCATED_BYTES + PRIVACY_RANDOM_BYTES ||
        len > PQPAN_MESH_NET_PDU_MAX) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if ((pdu[0] & 0x7Fu) != k->nid || (pdu[0] >> 7) != (iv_index & 1u)) {
        return PQPAN_ERR_AUTH;
    }
    pecb(mask, k, iv_index, pdu + 1 + OBFUSCATED_BYTES);
    for (i = 0; i < OBFUSCATED_BYTES; i++) {
        clear[i] = (uint8_t)(pdu[1 + i] ^ mask[i]);
    }
    mic = mic_len(clear[0] >> 7);
    if (len < 1u + OBFUSCATED_BYTES + 2u + 1u + mic) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    n = len - 1u - OBFUSCATED_BYTES - mic;
    memcpy(body, pdu + 1 + OBFUSCATED_BYTES, n);
    network_nonce(nonce, clear, iv_index);
    if (pqpan_802154_ccm_star_decrypt(body, n, pdu + len - mic, mic, k->encryption_key, nonce,
                                      NULL, 0) != PQPAN_OK) {
        return PQPAN_ERR_AUTH;
    }
    h->ctl = (uint8_t)(clear[0] >> 7);
    h->ttl = (uint8_t)(clear[0] & 0x7Fu);
    h->seq = ((uint32_t)clear[1] << 16) | ((uint32_t)clear[2] << 8) | clear[3];
    h->src = (uint16_t)((clear[4] << 8) | clear[5]);
    h->dst = (uint16_t)((body[0] << 8) | body[1]);
    memcpy(tpdu, body + 2, n - 2u);
    *t_len = n - 2u;
    return PQPAN_OK;
}

/* §3.9.5.2 application nonce / §3.9.5.3 device nonce. */
static void upper_nonce(uint8_t nonce[NONCE_BYTES], const struct pqpan_mesh_upper_nonce *n)
{
    nonce[0] = n->type;
    nonce[1] = (uint8_t)(n->aszmic ? 0x80u : 0u);
    nonce[2] = (uint8_t)(n->seq >> 16);
    nonce[3] = (uint8_t)(n->seq >> 8);
    nonce[4] = (uint8_t)n->seq;
    nonce[5] = (uint8_t)(n->src >> 8);
    nonce[6] = (uint8_t)n->src;
    nonce[7] = (uint8_t)(n->dst >> 8);
    nonce[8] = (uint8_t)n->dst;
    put_be32(nonce + 9, n->iv_index);
}

/* A nonce given and a TransMIC of 4 or 8 octets (§3.6.2): the nonce built into nonce. */
static int upper_args(uint8_t nonce[NONCE_BYTES], const struct pqpan_mesh_upper_nonce *n,
                      size_t mic_len)
{
    if (n == NULL || (mic_len != PQPAN_MESH_NET_TRANSMIC_SMALL &&
                      mic_len != PQPAN_MESH_NET_TRANSMIC_LARGE)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    upper_nonce(nonce, n);
    return PQPAN_OK;
}

int pqpan_mesh_upper_encrypt(uint8_t *msg, size_t len, uint8_t *mic, size_t mic_len,
                             const uint8_t key[16], const struct pqpan_mesh_upper_nonce *n)
{
    uint8_t nonce[NONCE_BYTES];
    int rc = upper_args(nonce, n, mic_len);
    return rc != PQPAN_OK ? rc
                          : pqpan_802154_ccm_star_encrypt(msg, len, mic, mic_len, key, nonce, NULL, 0);
}

int pqpan_mesh_upper_decrypt(uint8_t *msg, size_t len, const uint8_t *mic, size_t mic_len,
                             const uint8_t key[16], const struct pqpan_mesh_upper_nonce *n)
{
    uint8_t nonce[NONCE_BYTES];
    if (upper_args(nonce, n, mic_len) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return pqpan_802154_ccm_star_decrypt(msg, len, mic, mic_len, key, nonce, NULL, 0) == PQPAN_OK
               ? PQPAN_OK
               : PQPAN_ERR_AUTH;
}

int pqpan_mesh_net_friend_forward(const struct pqpan_mesh_net_keys *master,
                                  const struct pqpan_mesh_net_keys *friend_keys, uint32_t iv_index,
                                  uint8_t pdu[PQPAN_MESH_NET_PDU_MAX], size_t *len)
{
    struct pqpan_mesh_net_hdr h;
    uint8_t tpdu[16];
    size_t t_len = 0;
    int rc = pqpan_mesh_net_pdu_decode(&h, tpdu, &t_len, master, iv_index, pdu, *len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    return pqpan_mesh_net_pdu_encode(pdu, len, friend_keys, iv_index, &h, tpdu, t_len);
}

/* The control payload of a Friend Poll (FSN) or Friend Update (Flags, IV Index, MD):
 * §3.6.5.1 / §3.6.5.2 in v1.0's numbering. Returns its length. */
static size_t friend_payload(uint8_t tpdu[7], uint32_t iv_index, uint8_t op, uint8_t param)
{
    tpdu[0] = op;
    if (op == PQPAN_MESH_NET_FRIEND_POLL_OP) {
        tpdu[1] = param;
        return 2u;
    }
    tpdu[1] = 0x00; /* Flags: no Key Refresh, no IV Update */
    put_be32(tpdu + 2, iv_index);
    tpdu[6] = param; /* MD */
    return 7u;
}

/* One unsegmented control message, TTL 0. */
int pqpan_mesh_net_friend_build(uint8_t pdu[PQPAN_MESH_NET_PDU_MAX], size_t *len,
                                const struct pqpan_mesh_net_keys *k, uint32_t iv_index,
                                uint16_t src, uint16_t dst, uint8_t op, uint8_t param, uint32_t seq)
{
    const struct pqpan_mesh_net_hdr h = {1u, 0u, seq, src, dst};
    uint8_t tpdu[7];
    size_t t_len = friend_payload(tpdu, iv_index, op, param);
    int rc = pqpan_mesh_net_pdu_encode(pdu, len, k, iv_index, &h, tpdu, t_len);
    if (rc == PQPAN_OK && *len != (op == PQPAN_MESH_NET_FRIEND_POLL_OP
                                       ? PQPAN_MESH_NET_FRIEND_POLL_PDU
                                       : PQPAN_MESH_NET_FRIEND_UPDATE_PDU)) {
        rc = PQPAN_ERR_MALFORMED;
    }
    return rc;
}

int pqpan_mesh_net_friend_check(const struct pqpan_mesh_net_keys *k, uint32_t iv_index,
                                uint16_t src, uint16_t dst, uint8_t op, uint8_t param,
                                uint32_t seq)
{
    struct pqpan_mesh_net_hdr back;
    uint8_t tpdu[7], got[16], pdu[PQPAN_MESH_NET_PDU_MAX];
    size_t t_len = friend_payload(tpdu, iv_index, op, param), len = 0, got_len = 0;
    if (pqpan_mesh_net_friend_build(pdu, &len, k, iv_index, src, dst, op, param, seq) !=
            PQPAN_OK ||
        pqpan_mesh_net_pdu_decode(&back, got, &got_len, k, iv_index, pdu, len) != PQPAN_OK ||
        got_len != t_len || memcmp(got, tpdu, t_len) != 0 || back.src != src || back.dst != dst ||
        !back.ctl || back.seq != seq) {
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}
