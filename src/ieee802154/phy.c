/* IEEE 802.15.4-2020 §12: O-QPSK PHY timing in the 2450 MHz band. */
#include "pqpan/ieee802154.h"

uint64_t pqpan_802154_phy_symbols_ns(uint32_t symbols)
{
    return (uint64_t)symbols * PQPAN_802154_SYMBOL_NS;
}

/* §12.1: PPDU = SHR (preamble + SFD) + PHR + PSDU, every octet 2 symbols. */
uint64_t pqpan_802154_phy_ppdu_ns(size_t psdu_octets)
{
    uint64_t octets = (uint64_t)PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + psdu_octets;
    return octets * PQPAN_802154_OCTET_NS;
}
