/* What the two reassemblies (RFC 4944 §5.3 in sixlowpan.c, RFC 8200 §4.5 in ipv6frag.c)
 * share: a bitmap of the 8-octet units of a datagram received so far. */
#include "ieee802154/internal.h"

#define UNIT 8u /* both count offsets in 8-octet units */

int pqpan_802154_reasm_mark(uint8_t *have, size_t off, size_t len)
{
    size_t u, first = off / UNIT, last = (off + len - 1) / UNIT, seen = 0;
    for (u = first; u <= last; u++) {
        seen += (size_t)((have[u / 8] >> (u % 8)) & 1);
    }
    if (seen == last - first + 1) {
        return 0;
    }
    if (seen != 0) {
        return -1;
    }
    for (u = first; u <= last; u++) {
        have[u / 8] = (uint8_t)(have[u / 8] | (1u << (u % 8)));
    }
    return 1;
}
