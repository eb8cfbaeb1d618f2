/* Umbrella header: includes every public module header. */
#ifndef PQPAN_PQPAN_H
#define PQPAN_PQPAN_H

#include "pqpan/common.h"
#include "pqpan/error.h"
#include "pqpan/ieee802154.h"
#include "pqpan/pcap.h"

#endif
