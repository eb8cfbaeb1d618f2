/* Umbrella header: includes every public module header. */
#ifndef PQPAN_PQPAN_H
#define PQPAN_PQPAN_H

#include "pqpan/advise.h"
#include "pqpan/aes.h"
#include "pqpan/ble.h"
#include "pqpan/ble_pdu.h"
#include "pqpan/calibrate.h"
#include "pqpan/common.h"
#include "pqpan/defaults.h"
#include "pqpan/ecdh.h"
#include "pqpan/energy.h"
#include "pqpan/error.h"
#include "pqpan/ieee802154.h"
#include "pqpan/multihop154.h"
#include "pqpan/sim154.h"
#include "pqpan/kem.h"
#include "pqpan/kmac.h"
#include "pqpan/ledger.h"
#include "pqpan/lesc.h"
#include "pqpan/mesh_net.h"
#include "pqpan/mesh_prov.h"
#include "pqpan/pcap.h"
#include "pqpan/pqke.h"
#include "pqpan/sha256.h"
#include "pqpan/sha3.h"
#include "pqpan/sig.h"
#include "pqpan/trace.h"

#endif
