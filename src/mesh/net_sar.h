/* The lower transport's segmentation and reassembly under loss (MshPRT v1.1 §3.5.3.3 SAR
 * transmitter, §3.5.3.4 SAR receiver; the SAR Transmitter / Receiver states §4.2.48,
 * §4.2.49), on the mesh network's clock (net_clock.h): rounds of the segments the sender
 * holds unacknowledged, the receiver's Segment Acknowledgment, the retransmission timer,
 * the counters that give a message up (docs/MODEL.md "Loss on the mesh network"). Internal
 * to src/mesh. */
#ifndef PQPAN_MESH_NET_SAR_H
#define PQPAN_MESH_NET_SAR_H

#include "net_clock.h"

/* One segmented message (a part) of segs segments from the endpoint at from, from at: the
 * first round sends every segment SAR Segment Interval apart; the receiver acknowledges at
 * once when it has them all, or, missing some, an acknowledgment delay after the last new
 * segment of a round; the sender sends the segments still unacknowledged again at once
 * when an acknowledgment brought progress, else when its retransmissions timer (from the
 * end of its round) expires; it gives the message up before a round the SAR Unicast
 * Retransmissions Count (+ 1 rounds in all) or the Without Progress Count (+ 1 rounds
 * since the last progress) does not allow, and the receiver discards it when a new segment
 * comes later than the SAR Discard Timeout after the last. Without loss
 * (pqpan_mesh_net_clock_lossy): pqpan_mesh_net_clock_part. PQPAN_OK with *rx (the receiver has it all) and *acked (the
 * sender has the acknowledgment); PQPAN_ERR_TIMEOUT when given up (c->out->abandoned set,
 * *acked the time). */
int pqpan_mesh_net_sar_part(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                            const uint32_t *pdu, uint32_t segs, uint32_t ack_pdu,
                            enum pqpan_phase phase, uint64_t *rx, uint64_t *acked);

/* The estimate under loss: what cfg->per adds in expectation to one part that
 * pqpan_mesh_net_clock_part timed at zero loss (*rx, *acked its times, moved later): each
 * Network PDU's flooding (the relays of a stage that hold it, a binomial chain; the
 * destination's chance to have it; how many events late each stage starts), then the SAR
 * rounds geometric in the segments' loss, the segments and acknowledgments sent again
 * booked (fractions) on the senders', relays' and receivers' ledgers. Nothing at per 0.
 * Nothing either, c->beyond set, when the expectation exceeds what a part may add (its
 * events or its time: net_sar_expected.c EXPECT_PART_*_MAX). */
void pqpan_mesh_net_sar_expected(struct mesh_net_clock *c, uint32_t from, const uint32_t *pdu,
                                 uint32_t segs, uint32_t ack_pdu, enum pqpan_phase phase,
                                 uint64_t *rx, uint64_t *acked);

#endif
