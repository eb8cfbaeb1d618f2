/* IEEE 802.15.4 MAC data, MAC command and Imm-Ack frames (IEEE 802.15.4-2020 §7.2, §7.3;
 * Frame Version 1 rules of IEEE 802.15.4-2006 §7.2.1), secured per IEEE 802.15.4-2015 §9
 * (auxiliary security header §9.4) with the Frame Version 1 CCM* inputs of 2006 §7.6.3. */
#include <string.h>

#include "pqpan/ieee802154.h"

/* Frame Control bit positions, §7.2 (Frame Control field), Figure 7-2. */
#define FCF_TYPE_MASK 0x0007u
#define FCF_SECURITY (1u << 3)
#define FCF_PENDING (1u << 4)
#define FCF_AR (1u << 5)
#define FCF_PANID_COMP (1u << 6)
#define FCF_DST_MODE_SHIFT 10
#define FCF_VERSION_SHIFT 12
#define FCF_SRC_MODE_SHIFT 14
#define FCF_OCTETS 2u
#define SEQ_OCTETS 1u
#define PAN_OCTETS 2u
/* Security Control field, §9.4.2: Security Level bits 0-2, Key Identifier Mode bits 3-4,
 * Frame Counter Suppression bit 5 and ASN in Nonce bit 6 (Frame Version 2 only). */
#define SEC_LEVEL_MASK 0x07u
#define SEC_KIM_SHIFT 3
#define SEC_V2_ONLY 0x60u
#define FRAME_COUNTER_OCTETS 4u

static void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)(v >> 8);
}

static uint16_t get_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

/* CRC-16/KERMIT: reflected ITU-T polynomial 0x1021 (0x8408 reflected), init 0. */
uint16_t pqpan_802154_mac_fcs(const uint8_t *data, size_t len)
{
    uint16_t crc = 0;
    size_t i;
    int bit;
    for (i = 0; i < len; i++) {
        crc = (uint16_t)(crc ^ data[i]);
        for (bit = 0; bit < 8; bit++) {
            crc = (uint16_t)((crc & 1u) ? (crc >> 1) ^ 0x8408u : crc >> 1);
        }
    }
    return crc;
}

static size_t addr_octets(uint8_t mode)
{
    switch (mode) {
    case PQPAN_802154_ADDR_SHORT:
        return 2;
    case PQPAN_802154_ADDR_EXT:
        return 8;
    default:
        return 0;
    }
}

static int mode_valid(uint8_t mode)
{
    return mode == PQPAN_802154_ADDR_NONE || mode == PQPAN_802154_ADDR_SHORT ||
           mode == PQPAN_802154_ADDR_EXT;
}

/* Which PAN ID fields are present, 2006 §7.2.1.1.5: each address comes with its PAN ID,
 * except that PAN ID Compression (only with both addresses) drops the source PAN ID. */
static void pan_fields(const struct pqpan_802154_mhr *h, int *dst_pan, int *src_pan)
{
    *dst_pan = h->dst.mode != PQPAN_802154_ADDR_NONE;
    *src_pan = h->src.mode != PQPAN_802154_ADDR_NONE && !h->pan_id_compression;
}

static int security_valid(const struct pqpan_802154_mhr *h)
{
    if (h->security == 0) {
        return 1;
    }
    return h->security == 1 && h->frame_version == 1 &&
           pqpan_802154_sec_aux_len(h->aux.level, h->aux.key_id_mode) != 0;
}

static int mhr_valid(const struct pqpan_802154_mhr *h)
{
    int both = h->dst.mode != PQPAN_802154_ADDR_NONE && h->src.mode != PQPAN_802154_ADDR_NONE;
    if ((h->frame_type != PQPAN_802154_FRAME_DATA && h->frame_type != PQPAN_802154_FRAME_CMD) ||
        h->frame_version > 1 || !security_valid(h)) {
        return 0;
    }
    if (!mode_valid(h->dst.mode) || !mode_valid(h->src.mode)) {
        return 0;
    }
    if (h->dst.mode == PQPAN_802154_ADDR_NONE && h->src.mode == PQPAN_802154_ADDR_NONE) {
        return 0;
    }
    if (h->pan_id_compression > 1 || (h->pan_id_compression && !both)) {
        return 0;
    }
    return h->frame_pending <= 1 && h->ack_request <= 1;
}

static size_t aux_len(const struct pqpan_802154_mhr *h)
{
    return h->security ? pqpan_802154_sec_aux_len(h->aux.level, h->aux.key_id_mode) : 0u;
}

static size_t mic_len(const struct pqpan_802154_mhr *h)
{
    return h->security ? pqpan_802154_sec_mic_len(h->aux.level) : 0u;
}

size_t pqpan_802154_mac_mhr_len(const struct pqpan_802154_mhr *h)
{
    int dst_pan, src_pan;
    if (h == 0 || !mhr_valid(h)) {
        return 0;
    }
    pan_fields(h, &dst_pan, &src_pan);
    return FCF_OCTETS + SEQ_OCTETS + (dst_pan ? PAN_OCTETS : 0) + addr_octets(h->dst.mode) +
           (src_pan ? PAN_OCTETS : 0) + addr_octets(h->src.mode) + aux_len(h);
}

size_t pqpan_802154_mac_max_payload(const struct pqpan_802154_mhr *h)
{
    size_t mhr = pqpan_802154_mac_mhr_len(h);
    if (mhr == 0) {
        return 0;
    }
    return PQPAN_802154_MAX_PSDU - mhr - mic_len(h) - PQPAN_802154_FCS_OCTETS;
}

static uint16_t fcf_encode(const struct pqpan_802154_mhr *h)
{
    unsigned v = h->frame_type;
    v |= h->security ? FCF_SECURITY : 0u;
    v |= h->frame_pending ? FCF_PENDING : 0u;
    v |= h->ack_request ? FCF_AR : 0u;
    v |= h->pan_id_compression ? FCF_PANID_COMP : 0u;
    v |= (unsigned)h->dst.mode << FCF_DST_MODE_SHIFT;
    v |= (unsigned)h->frame_version << FCF_VERSION_SHIFT;
    v |= (unsigned)h->src.mode << FCF_SRC_MODE_SHIFT;
    return (uint16_t)v;
}

/* §4.5: multi-octet fields are sent least significant octet first. */
static size_t put_addr(uint8_t *p, const struct pqpan_802154_addr *a)
{
    int i;
    if (a->mode == PQPAN_802154_ADDR_SHORT) {
        put_le16(p, a->short_addr);
        return 2;
    }
    if (a->mode == PQPAN_802154_ADDR_EXT) {
        for (i = 0; i < 8; i++) {
            p[i] = (uint8_t)(a->ext_addr >> (8 * i));
        }
        return 8;
    }
    return 0;
}

static size_t get_addr(struct pqpan_802154_addr *a, uint8_t mode, const uint8_t *p)
{
    int i;
    a->mode = mode;
    a->short_addr = 0;
    a->ext_addr = 0;
    if (mode == PQPAN_802154_ADDR_SHORT) {
        a->short_addr = get_le16(p);
        return 2;
    }
    if (mode == PQPAN_802154_ADDR_EXT) {
        for (i = 0; i < 8; i++) {
            a->ext_addr |= (uint64_t)p[i] << (8 * i);
        }
        return 8;
    }
    return 0;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    put_le16(p, (uint16_t)(v & 0xFFFFu));
    put_le16(p + 2, (uint16_t)(v >> 16));
}

static uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)get_le16(p) | ((uint32_t)get_le16(p + 2) << 16);
}

/* §9.4: Security Control | Frame Counter | Key Source (mode 2: 4, mode 3: 8 octets) |
 * Key Index (modes 1..3), little-endian like every field (§4.5). */
static size_t put_aux(uint8_t *p, const struct pqpan_802154_aux *a)
{
    size_t off = 1, src = a->key_id_mode == 2 ? 4u : a->key_id_mode == 3 ? 8u : 0u, i;
    p[0] = (uint8_t)(a->level | (a->key_id_mode << SEC_KIM_SHIFT));
    put_le32(p + off, a->frame_counter);
    off += FRAME_COUNTER_OCTETS;
    for (i = 0; i < src; i++) {
        p[off++] = (uint8_t)(a->key_source >> (8 * i));
    }
    if (a->key_id_mode != 0) {
        p[off++] = a->key_index;
    }
    return off;
}

/* The addressing fields and the auxiliary security header after the sequence number. */
static size_t put_header(uint8_t *psdu, const struct pqpan_802154_mhr *h)
{
    size_t off = FCF_OCTETS + SEQ_OCTETS;
    int dst_pan, src_pan;
    pan_fields(h, &dst_pan, &src_pan);
    put_le16(psdu, fcf_encode(h));
    psdu[2] = h->seq;
    if (dst_pan) {
        put_le16(psdu + off, h->dst_pan);
        off += PAN_OCTETS;
    }
    off += put_addr(psdu + off, &h->dst);
    if (src_pan) {
        put_le16(psdu + off, h->src_pan);
        off += PAN_OCTETS;
    }
    off += put_addr(psdu + off, &h->src);
    if (h->security) {
        off += put_aux(psdu + off, &h->aux);
    }
    return off;
}

/* Where the private payload begins (2006 §7.6.3.4, Frame Version 1): after the MHR of a
 * data frame, after the Command ID of a command frame. */
static size_t private_off(uint8_t frame_type, size_t mhr)
{
    return frame_type == PQPAN_802154_FRAME_CMD ? mhr + PQPAN_802154_CMD_ID_OCTETS : mhr;
}

/* CCM* on frame[0..end), end = MHR + payload (2006 §7.6.3.4): levels 4..7 authenticate
 * the open part and encrypt the private part, levels 1..3 authenticate it all; the MIC
 * goes at frame + end. */
static int secure(uint8_t *frame, size_t priv, size_t end, const struct pqpan_802154_aux *a,
                  const struct pqpan_802154_keying *k)
{
    uint8_t nonce[PQPAN_802154_NONCE_OCTETS];
    size_t open = pqpan_802154_sec_encrypts(a->level) ? priv : end;
    pqpan_802154_sec_nonce(nonce, k->src_ext, a->frame_counter, a->level);
    return pqpan_802154_ccm_star_encrypt(frame + open, end - open, frame + end,
                                         pqpan_802154_sec_mic_len(a->level), k->key, nonce,
                                         frame, open);
}

/* §7.2: MHR | payload | MIC | FCS, FCS over all before it. */
int pqpan_802154_mac_build(uint8_t *psdu, size_t cap, size_t *psdu_len,
                           const struct pqpan_802154_mhr *h, const uint8_t *payload,
                           size_t payload_len, const struct pqpan_802154_keying *k)
{
    size_t mhr, total, off;
    int rc = PQPAN_OK;
    if (psdu_len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *psdu_len = 0;
    if (psdu == 0 || h == 0 || (payload == 0 && payload_len != 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    mhr = pqpan_802154_mac_mhr_len(h);
    if (mhr == 0 || (h->security && k == 0) ||
        (h->frame_type == PQPAN_802154_FRAME_CMD && payload_len < PQPAN_802154_CMD_ID_OCTETS)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    total = mhr + payload_len + mic_len(h) + PQPAN_802154_FCS_OCTETS;
    if (total > PQPAN_802154_MAX_PSDU) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (cap < total) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    off = put_header(psdu, h);
    if (payload_len != 0) {
        memcpy(psdu + off, payload, payload_len);
    }
    off += payload_len;
    if (h->security) {
        rc = secure(psdu, private_off(h->frame_type, mhr), off, &h->aux, k);
        off += mic_len(h);
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    put_le16(psdu + off, pqpan_802154_mac_fcs(psdu, off));
    *psdu_len = total;
    return PQPAN_OK;
}

int pqpan_802154_mac_build_data_request(uint8_t *psdu, size_t cap, size_t *psdu_len,
                                        const struct pqpan_802154_mhr *h,
                                        const struct pqpan_802154_keying *k)
{
    static const uint8_t cmd = PQPAN_802154_CMD_DATA_REQUEST;
    struct pqpan_802154_mhr c;
    if (h == 0) {
        return pqpan_802154_mac_build(psdu, cap, psdu_len, h, &cmd, sizeof cmd, k);
    }
    c = *h;
    c.frame_type = PQPAN_802154_FRAME_CMD;
    return pqpan_802154_mac_build(psdu, cap, psdu_len, &c, &cmd, sizeof cmd, k);
}

/* §7.3.3: Imm-Ack = Frame Control (type ack, no addresses) | Sequence Number | FCS. */
void pqpan_802154_mac_build_ack(uint8_t psdu[PQPAN_802154_ACK_PSDU], uint8_t seq,
                                uint8_t frame_pending)
{
    uint16_t fcf = (uint16_t)(PQPAN_802154_FRAME_ACK | (frame_pending ? FCF_PENDING : 0u));
    put_le16(psdu, fcf);
    psdu[2] = seq;
    put_le16(psdu + 3, pqpan_802154_mac_fcs(psdu, 3));
}

static void fcf_decode(struct pqpan_802154_mhr *h, uint16_t fcf)
{
    h->frame_type = (uint8_t)(fcf & FCF_TYPE_MASK);
    h->security = (fcf & FCF_SECURITY) ? 1 : 0;
    h->frame_pending = (fcf & FCF_PENDING) ? 1 : 0;
    h->ack_request = (fcf & FCF_AR) ? 1 : 0;
    h->pan_id_compression = (fcf & FCF_PANID_COMP) ? 1 : 0;
    h->dst.mode = (uint8_t)((fcf >> FCF_DST_MODE_SHIFT) & 3u);
    h->frame_version = (uint8_t)((fcf >> FCF_VERSION_SHIFT) & 3u);
    h->src.mode = (uint8_t)((fcf >> FCF_SRC_MODE_SHIFT) & 3u);
}

static int parse_ack(struct pqpan_802154_frame *f, size_t len)
{
    if (len != PQPAN_802154_ACK_PSDU || f->mhr.dst.mode != 0 || f->mhr.src.mode != 0 ||
        f->mhr.pan_id_compression) {
        return PQPAN_ERR_MALFORMED;
    }
    f->mhr_len = FCF_OCTETS + SEQ_OCTETS;
    f->payload_off = f->mhr_len;
    f->payload_len = 0;
    return PQPAN_OK;
}

/* The auxiliary security header at p (avail octets left before the FCS) into h->aux:
 * its length, 0 if it does not fit or is not a Frame Version 1 header. */
static size_t get_aux(struct pqpan_802154_mhr *h, const uint8_t *p, size_t avail)
{
    struct pqpan_802154_aux *a = &h->aux;
    size_t len, off = 1 + FRAME_COUNTER_OCTETS, src, i;
    if (avail < 1 || (p[0] & SEC_V2_ONLY) != 0) {
        return 0;
    }
    a->level = (uint8_t)(p[0] & SEC_LEVEL_MASK);
    a->key_id_mode = (uint8_t)((p[0] >> SEC_KIM_SHIFT) & 3u);
    len = pqpan_802154_sec_aux_len(a->level, a->key_id_mode);
    if (len == 0 || len > avail) {
        return 0;
    }
    a->frame_counter = get_le32(p + 1);
    src = a->key_id_mode == 2 ? 4u : a->key_id_mode == 3 ? 8u : 0u;
    for (i = 0; i < src; i++) {
        a->key_source |= (uint64_t)p[off++] << (8 * i);
    }
    if (a->key_id_mode != 0) {
        a->key_index = p[off];
    }
    return len;
}

/* The addressing fields (and the auxiliary security header) of a data or command frame:
 * the MHR length, or 0 if the frame is too short for them. */
static size_t get_header(struct pqpan_802154_mhr *h, const uint8_t *psdu, size_t len)
{
    size_t off = FCF_OCTETS + SEQ_OCTETS, need, aux = 0;
    int dst_pan, src_pan;
    pan_fields(h, &dst_pan, &src_pan);
    need = off + (dst_pan ? PAN_OCTETS : 0) + addr_octets(h->dst.mode) +
           (src_pan ? PAN_OCTETS : 0) + addr_octets(h->src.mode);
    if (len < need + PQPAN_802154_FCS_OCTETS) {
        return 0;
    }
    if (dst_pan) {
        h->dst_pan = get_le16(psdu + off);
        off += PAN_OCTETS;
    }
    off += get_addr(&h->dst, h->dst.mode, psdu + off);
    if (src_pan) {
        h->src_pan = get_le16(psdu + off);
        off += PAN_OCTETS;
    } else if (h->pan_id_compression) {
        h->src_pan = h->dst_pan;
    }
    off += get_addr(&h->src, h->src.mode, psdu + off);
    if (h->security) {
        aux = get_aux(h, psdu + off, len - PQPAN_802154_FCS_OCTETS - off);
        if (aux == 0) {
            return 0;
        }
    }
    return off + aux;
}

static int parse_frame(struct pqpan_802154_frame *f, const uint8_t *psdu, size_t len)
{
    struct pqpan_802154_mhr *h = &f->mhr;
    size_t mhr, min_payload = h->frame_type == PQPAN_802154_FRAME_CMD ? 1u : 0u;
    if (h->dst.mode == 1 || h->src.mode == 1) {
        return PQPAN_ERR_MALFORMED; /* reserved addressing mode, Table 7-3 */
    }
    mhr = get_header(h, psdu, len);
    if (mhr == 0 || pqpan_802154_mac_mhr_len(h) != mhr) {
        return PQPAN_ERR_MALFORMED;
    }
    f->mic_len = mic_len(h);
    if (len < mhr + min_payload + f->mic_len + PQPAN_802154_FCS_OCTETS) {
        return PQPAN_ERR_MALFORMED;
    }
    f->mhr_len = mhr;
    f->payload_off = mhr;
    f->payload_len = len - mhr - f->mic_len - PQPAN_802154_FCS_OCTETS;
    return PQPAN_OK;
}

/* What the parser does with a frame of this type, version and security bit. */
static int supported(const struct pqpan_802154_mhr *h)
{
    if (h->frame_version > 1 || (h->security && h->frame_version == 0)) {
        return 0; /* 2015 rules, or 2003 security */
    }
    if (h->frame_type == PQPAN_802154_FRAME_ACK) {
        return !h->security;
    }
    return h->frame_type == PQPAN_802154_FRAME_DATA || h->frame_type == PQPAN_802154_FRAME_CMD;
}

int pqpan_802154_mac_parse(struct pqpan_802154_frame *f, const uint8_t *psdu, size_t len)
{
    int rc;
    if (f == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(f, 0, sizeof *f);
    if (psdu == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (len < PQPAN_802154_ACK_PSDU || len > PQPAN_802154_MAX_PSDU) {
        return PQPAN_ERR_MALFORMED;
    }
    if (pqpan_802154_mac_fcs(psdu, len - PQPAN_802154_FCS_OCTETS) !=
        get_le16(psdu + len - PQPAN_802154_FCS_OCTETS)) {
        return PQPAN_ERR_MALFORMED;
    }
    fcf_decode(&f->mhr, get_le16(psdu));
    f->mhr.seq = psdu[2];
    if (!supported(&f->mhr)) {
        rc = PQPAN_ERR_UNSUPPORTED;
    } else if (f->mhr.frame_type == PQPAN_802154_FRAME_ACK) {
        rc = parse_ack(f, len);
    } else {
        rc = parse_frame(f, psdu, len);
    }
    if (rc != PQPAN_OK) {
        memset(f, 0, sizeof *f);
    }
    return rc;
}

int pqpan_802154_mac_unsecure(uint8_t *psdu, size_t len, const struct pqpan_802154_frame *f,
                              const struct pqpan_802154_keying *k)
{
    const struct pqpan_802154_aux *a;
    uint8_t nonce[PQPAN_802154_NONCE_OCTETS];
    size_t end, open;
    if (psdu == 0 || f == 0 || k == 0 || !f->mhr.security) {
        return PQPAN_ERR_INVALID_ARG;
    }
    end = f->payload_off + f->payload_len;
    if (end + f->mic_len + PQPAN_802154_FCS_OCTETS != len) {
        return PQPAN_ERR_INVALID_ARG;
    }
    a = &f->mhr.aux;
    open = pqpan_802154_sec_encrypts(a->level) ? private_off(f->mhr.frame_type, f->mhr_len) : end;
    pqpan_802154_sec_nonce(nonce, k->src_ext, a->frame_counter, a->level);
    return pqpan_802154_ccm_star_decrypt(psdu + open, end - open, psdu + end, f->mic_len, k->key,
                                         nonce, psdu, open);
}

uint64_t pqpan_802154_mac_ack_wait_ns(void)
{
    return pqpan_802154_phy_symbols_ns(PQPAN_802154_ACK_WAIT_SYMBOLS);
}

/* §6.2.4: short frames are followed by SIFS, longer ones by LIFS. */
uint64_t pqpan_802154_mac_ifs_ns(size_t psdu_octets)
{
    return pqpan_802154_phy_symbols_ns(psdu_octets <= PQPAN_802154_MAX_SIFS_FRAME
                                           ? PQPAN_802154_SIFS_SYMBOLS
                                           : PQPAN_802154_LIFS_SYMBOLS);
}
