/* IEEE 802.15.4 MAC data and Imm-Ack frames (IEEE 802.15.4-2020 §7.2, §7.3; Frame
 * Version 1 rules of IEEE 802.15.4-2006 §7.2.1). */
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

static int mhr_valid(const struct pqpan_802154_mhr *h)
{
    int both = h->dst.mode != PQPAN_802154_ADDR_NONE && h->src.mode != PQPAN_802154_ADDR_NONE;
    if (h->frame_type != PQPAN_802154_FRAME_DATA || h->frame_version > 1 || h->security != 0) {
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

size_t pqpan_802154_mac_mhr_len(const struct pqpan_802154_mhr *h)
{
    int dst_pan, src_pan;
    if (h == 0 || !mhr_valid(h)) {
        return 0;
    }
    pan_fields(h, &dst_pan, &src_pan);
    return FCF_OCTETS + SEQ_OCTETS + (dst_pan ? PAN_OCTETS : 0) + addr_octets(h->dst.mode) +
           (src_pan ? PAN_OCTETS : 0) + addr_octets(h->src.mode);
}

size_t pqpan_802154_mac_max_payload(const struct pqpan_802154_mhr *h)
{
    size_t mhr = pqpan_802154_mac_mhr_len(h);
    if (mhr == 0) {
        return 0;
    }
    return PQPAN_802154_MAX_PSDU - mhr - PQPAN_802154_FCS_OCTETS;
}

static uint16_t fcf_encode(const struct pqpan_802154_mhr *h)
{
    unsigned v = h->frame_type;
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

/* §7.2: MHR | payload | FCS, FCS over MHR and payload. */
int pqpan_802154_mac_build_data(uint8_t *psdu, size_t cap, size_t *psdu_len,
                                const struct pqpan_802154_mhr *h, const uint8_t *payload,
                                size_t payload_len)
{
    size_t mhr, total, off;
    int dst_pan, src_pan;
    if (psdu_len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *psdu_len = 0;
    if (psdu == 0 || h == 0 || (payload == 0 && payload_len != 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    mhr = pqpan_802154_mac_mhr_len(h);
    if (mhr == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    total = mhr + payload_len + PQPAN_802154_FCS_OCTETS;
    if (total > PQPAN_802154_MAX_PSDU) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (cap < total) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    pan_fields(h, &dst_pan, &src_pan);
    put_le16(psdu, fcf_encode(h));
    psdu[2] = h->seq;
    off = FCF_OCTETS + SEQ_OCTETS;
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
    if (payload_len != 0) {
        memcpy(psdu + off, payload, payload_len);
    }
    off += payload_len;
    put_le16(psdu + off, pqpan_802154_mac_fcs(psdu, off));
    *psdu_len = total;
    return PQPAN_OK;
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

static int parse_data(struct pqpan_802154_frame *f, const uint8_t *psdu, size_t len)
{
    struct pqpan_802154_mhr *h = &f->mhr;
    size_t mhr, off;
    int dst_pan, src_pan;
    uint8_t dst_mode = h->dst.mode, src_mode = h->src.mode;
    if (dst_mode == 1 || src_mode == 1) {
        return PQPAN_ERR_MALFORMED; /* reserved addressing mode, Table 7-3 */
    }
    mhr = pqpan_802154_mac_mhr_len(h);
    if (mhr == 0) {
        return PQPAN_ERR_MALFORMED;
    }
    if (len < mhr + PQPAN_802154_FCS_OCTETS) {
        return PQPAN_ERR_MALFORMED;
    }
    pan_fields(h, &dst_pan, &src_pan);
    off = FCF_OCTETS + SEQ_OCTETS;
    if (dst_pan) {
        h->dst_pan = get_le16(psdu + off);
        off += PAN_OCTETS;
    }
    off += get_addr(&h->dst, dst_mode, psdu + off);
    if (src_pan) {
        h->src_pan = get_le16(psdu + off);
        off += PAN_OCTETS;
    } else if (h->pan_id_compression) {
        h->src_pan = h->dst_pan;
    }
    off += get_addr(&h->src, src_mode, psdu + off);
    f->mhr_len = off;
    f->payload_off = off;
    f->payload_len = len - off - PQPAN_802154_FCS_OCTETS;
    return PQPAN_OK;
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
    if (f->mhr.frame_version > 1 || f->mhr.security) {
        rc = PQPAN_ERR_UNSUPPORTED;
    } else if (f->mhr.frame_type == PQPAN_802154_FRAME_ACK) {
        rc = parse_ack(f, len);
    } else if (f->mhr.frame_type == PQPAN_802154_FRAME_DATA) {
        rc = parse_data(f, psdu, len);
    } else {
        rc = PQPAN_ERR_UNSUPPORTED;
    }
    if (rc != PQPAN_OK) {
        memset(f, 0, sizeof *f);
    }
    return rc;
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
