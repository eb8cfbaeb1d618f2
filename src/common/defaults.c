/* The one table of defaults (include/pqpan/defaults.h; docs/CLI.md "Defaults"). Each
 * row's why says where its value comes from. */
#include <stddef.h>
#include <string.h>

#include "pqpan/defaults.h"

#define VALUE(opt, v, why) {opt, v, NULL, why}
#define NOTE(opt, note, why) {opt, NULL, note, why}

#define STUDY "the study's set-up (SenSys '26, arXiv 2602.18708: nRF52840, LE 1M, 0 dBm)"
#define NO_LOSS "a perfect channel, the estimator's"
#define FROM_OS "from the OS, getrandom"

static const struct pqpan_default rows[PQPAN_DEFAULT_COUNT] = {
    [PQPAN_DEFAULT_PROTOCOL] = VALUE(
        "--protocol", "pqpan",
        "pqpan's INIT / RESP / FIN with key schedule and key confirmation is what a device "
        "would run; the study's prototype (raw ek and ct, no KDF, no confirmation) is "
        "--protocol study, and `pqpan reproduce` runs it for the study's figures"),
    [PQPAN_DEFAULT_KEM] = VALUE("--kem", "ML-KEM-768",
                                "FIPS 203 §8: NIST recommends ML-KEM-768 as the default parameter "
                                "set"),
    [PQPAN_DEFAULT_AUTH] = VALUE("--auth", "none",
                                 "the study's exchange is not authenticated; the other modes "
                                 "add to it (docs/PROTOCOL.md)"),
    [PQPAN_DEFAULT_SIG] = NOTE("--sig",
                               "the smallest of at least the KEM's NIST category: 512 -> 44, "
                               "768 -> 65, 1024 -> 87",
                               "FIPS 204 Table 1 categories matched to FIPS 203 Table 2's"),
    [PQPAN_DEFAULT_HYBRID] = VALUE("--hybrid", "none", "ML-KEM alone, as the study"),
    [PQPAN_DEFAULT_LINK] = VALUE("--link", "ble", "the study's link"),
    [PQPAN_DEFAULT_PHY] = VALUE("--phy", "1M", STUDY),
    [PQPAN_DEFAULT_ATT_MTU] = VALUE("--att-mtu", "403",
                                    "the study's prototype: ek as indications of <= 400 B "
                                    "(ATT_MTU 403)"),
    [PQPAN_DEFAULT_LL_OCTETS] = VALUE("--ll-octets", "27",
                                      "the study's small-packet case: no DLE, the LL minimum "
                                      "(Core v5.4 Vol 6 Part B §4.5.10)"),
    [PQPAN_DEFAULT_MAX_TX_TIME_US] = NOTE("--max-tx-time-us", "none",
                                          "no limit beyond what --ll-octets needs on the PHY"),
    [PQPAN_DEFAULT_TRANSFER] = VALUE("--transfer", "study",
                                     "the study's prototype: ek as indications, ct as Write "
                                     "Requests"),
    [PQPAN_DEFAULT_CI_MS] = VALUE("--ci-ms", "50", "the study's connection interval"),
    [PQPAN_DEFAULT_EVENT_LEN_MS] = NOTE("--event-len-ms", "the interval minus T_IFS",
                                        "events as long as the interval allows (Core v5.4 Vol "
                                        "6 Part B §4.5.1)"),
    [PQPAN_DEFAULT_MAX_PDUS_PER_EVENT] = VALUE("--max-pdus-per-event", "0",
                                               "no cap: the event length limits the PDUs"),
    [PQPAN_DEFAULT_REPLY] = VALUE("--reply", "next-event",
                                  "a host that answers in the event after the request: the "
                                  "slower, safe case"),
    [PQPAN_DEFAULT_KEYGEN_SIDE] = VALUE("--keygen-side", "peripheral",
                                        "the study's prototype: the peripheral runs KeyGen and "
                                        "Decaps"),
    [PQPAN_DEFAULT_GATT_SERVER] = VALUE("--gatt-server", "peripheral",
                                        "the study's prototype: the peripheral holds the "
                                        "key-exchange service (the GATT server, Core v5.4 Vol 3 "
                                        "Part G §2.2) and indicates ek, the central writes ct"),
    [PQPAN_DEFAULT_BITS_IFS] = VALUE("--bits-ifs", "each",
                                     "every T_IFS of an event on both sides (2 per PDU pair, "
                                     "none after the last PDU), as the events accounting books "
                                     "them: the study's text says inter-frame spacing is "
                                     "included, not how many (docs/MODEL.md \"Reproducing the "
                                     "study\")"),
    [PQPAN_DEFAULT_ADV_INTERVAL_MS] = VALUE("--adv-interval-ms", "100",
                                            "TGAP(adv_fast_interval2)'s lower end (Core v5.4 "
                                            "Vol 3 Part C Appendix A: 100..150 ms)"),
    [PQPAN_DEFAULT_FEATURES] = VALUE("--features", "on",
                                     "the set-up a connection runs before the exchange: "
                                     "feature and version exchange (Core v5.4 Vol 6 Part B "
                                     "§5.1.4.1, §5.1.5; docs/MODEL.md \"Set-up\")"),
    [PQPAN_DEFAULT_CONN_UPDATE] = VALUE("--conn-update", "on",
                                        "the connection opens at --initial-ci-ms and the "
                                        "Connection Parameters Request procedure moves it to "
                                        "--ci-ms (Core v5.4 Vol 6 Part B §5.1.7)"),
    [PQPAN_DEFAULT_INITIAL_CI_MS] = VALUE("--initial-ci-ms", "30",
                                          "TGAP(initial_conn_interval)'s lower end (Core v5.4 "
                                          "Vol 3 Part C §9.3.12.2, Appendix A: 30..50 ms)"),
    [PQPAN_DEFAULT_DISCOVERY] = VALUE("--discovery", "on",
                                      "a central that has not bonded discovers the "
                                      "service and writes its CCCD before the exchange (Core "
                                      "v5.4 Vol 3 Part G §4.4.2, §3.3.3.3)"),
    [PQPAN_DEFAULT_IDLE_PHY] = VALUE("--idle-phy", "1M",
                                     "LE 1M, the PHY every LE device supports: LE 2M and "
                                     "LE Coded are optional features (Core v5.4 Vol 6 Part B "
                                     "§4.6)"),
    [PQPAN_DEFAULT_IDLE_CI_MS] = VALUE("--idle-ci-ms", "1000",
                                       "assumption: a connection kept open between exchanges "
                                       "at 1 s, inside Apple's acceptance rule Interval Max x "
                                       "(Peripheral Latency + 1) <= 2 s (Accessory Design "
                                       "Guidelines for Apple Devices, Connection Parameters)"),
    [PQPAN_DEFAULT_IDLE_LATENCY] = VALUE("--idle-latency", "0",
                                         "no skipped events: the peripheral answers every "
                                         "anchor, as the study's link"),
    [PQPAN_DEFAULT_IDLE_LL_OCTETS] = VALUE("--idle-ll-octets", "27",
                                           "no DLE on the idle link, as the study's"),
    [PQPAN_DEFAULT_POLL_MS] = NOTE("--poll-ms", "the idle link's interval, --idle-ci-ms (1000 ms)",
                                   "an 802.15.4 sleepy end device polls as often as a BLE "
                                   "device's idle link has events, so the links are compared "
                                   "at one rhythm"),
    [PQPAN_DEFAULT_ROLE] = VALUE("--role", "peripheral",
                                 "the battery-powered side of the study's set-up"),
    [PQPAN_DEFAULT_CSMA] = VALUE("--csma", "ieee",
                                 "IEEE 802.15.4-2020 Table 8-94 PIB defaults (macMinBe 3, "
                                 "macMaxBe 5, macMaxCsmaBackoffs 4)"),
    [PQPAN_DEFAULT_ADDR] = VALUE("--addr", "extended",
                                 "a node's 64-bit address, which it has before any short "
                                 "address is assigned (RFC 4944 §3)"),
    [PQPAN_DEFAULT_BACKOFF] = NOTE("--backoff", "the profile's ieee802154.backoff",
                                   "what the device's radio driver does, cited in the profile"),
    [PQPAN_DEFAULT_IDLE_RADIO] = NOTE("--idle", "the profile's ieee802154.idle",
                                      "what the device's MAC does between frames, cited in the "
                                      "profile (the built-in ones: a non-duty-cycled node "
                                      "listens)"),
    [PQPAN_DEFAULT_SED_IDLE] = VALUE("--sed-idle", "auto",
                                     "sleep at one hop: a sleepy end device keeps its receiver "
                                     "off between the frames it sends and receives (a Thread "
                                     "SED: rx-off-when-idle); listen across a chain (--hops > "
                                     "1), whose model has every node listen during an exchange"),
    [PQPAN_DEFAULT_MAC_SECURITY] = VALUE("--mac-security", "none",
                                         "the link is not yet keyed: the exchange makes the "
                                         "key"),
    [PQPAN_DEFAULT_KEY_ID_MODE] = VALUE("--key-id-mode", "1",
                                        "a key index with the default key source, the "
                                        "shortest header that names a key (IEEE 802.15.4-2020 "
                                        "§9.4.4)"),
    [PQPAN_DEFAULT_BUSY] = VALUE("--busy", "0", "an idle channel"),
    [PQPAN_DEFAULT_HOPS] = VALUE("--hops", "1", "one link, the study's set-up"),
    [PQPAN_DEFAULT_FORWARDING] = VALUE("--forwarding", "reassemble",
                                       "what RFC 4944 route-over stacks do (Contiki-NG, "
                                       "Zephyr); fragment forwarding (RFC 8930) is an option"),
    [PQPAN_DEFAULT_BEARER] = VALUE("--bearer", "pb-adv",
                                   "MshPRT v1.1 §5.2: a Provisioner should support PB-ADV "
                                   "(strongly recommended), the bearer that needs no GATT "
                                   "connection"),
    [PQPAN_DEFAULT_PROV_ALG] = VALUE("--prov-alg", "hmac",
                                     "BTM_ECDH_P256_HMAC_SHA256_AES_CCM, the algorithm MshPRT "
                                     "v1.1 added (§5.4.1 Start, §5.4.2.3: 32-octet Confirmation "
                                     "and Random values); cmac is v1.0's"),
    [PQPAN_DEFAULT_PBADV_INTERVAL_MS] = VALUE("--pbadv-interval-ms", "20",
                                              "Zephyr subsys/bluetooth/mesh/pb_adv.c: every "
                                              "PB-ADV buffer is created with "
                                              "BT_MESH_TRANSMIT(count, 20), a 20 ms interval, "
                                              "the legacy minimum (Core v5.4 Vol 6 Part B "
                                              "§4.4.2.2.1)"),
    [PQPAN_DEFAULT_PBGATT_SETUP] = VALUE("--setup", "full",
                                         "PB-GATT needs a connection (MshPRT v1.1 §5.2.2): the "
                                         "device advertises the Mesh Provisioning Service "
                                         "(§7.1.2.2.1) until the provisioner connects, which "
                                         "then discovers the service and enables Data Out "
                                         "notifications; none prices an open connection"),
    [PQPAN_DEFAULT_PBGATT_ADV_INTERVAL_MS] = VALUE(
        "--pbgatt-adv-interval-ms", "100",
        "Zephyr subsys/bluetooth/mesh/pb_gatt_srv.c: the first 60 s of PB-GATT advertising "
        "use ADV_FAST_INT, BT_GAP_ADV_FAST_INT_MIN_2..MAX_2 = TGAP(adv_fast_interval2), "
        "100..150 ms (Core v5.4 Vol 3 Part C Appendix A); its lower end"),
    [PQPAN_DEFAULT_PBADV_PDU_TRANSMISSIONS] = VALUE("--pdu-transmissions", "1",
                                                    "Zephyr Kconfig "
                                                    "BT_MESH_PB_ADV_TRANS_PDU_RETRANSMIT_COUNT 0: "
                                                    "one transmission per segment, the "
                                                    "transaction resent by its timer (MshPRT "
                                                    "v1.1 §5.3.2)"),
    [PQPAN_DEFAULT_PBADV_ACK_TRANSMISSIONS] = VALUE("--ack-transmissions", "3",
                                                    "Zephyr Kconfig "
                                                    "BT_MESH_PB_ADV_TRANS_ACK_RETRANSMIT_COUNT 2: "
                                                    "three transmissions of a Transaction Ack or "
                                                    "Link Ack"),
    [PQPAN_DEFAULT_PBADV_CLOSE_TRANSMISSIONS] = VALUE("--close-transmissions", "3",
                                                      "Zephyr Kconfig "
                                                      "BT_MESH_PB_ADV_LINK_CLOSE_RETRANSMIT_COUNT "
                                                      "2: three transmissions of Link Close"),
    [PQPAN_DEFAULT_SCAN_WINDOW_MS] = VALUE("--scan-window-ms", "30",
                                           "Zephyr subsys/bluetooth/mesh/adv.h "
                                           "BT_MESH_SCAN_WINDOW_MS 30 = the interval: continuous "
                                           "scanning, as MshPRT v1.1 §5.2.1 recommends"),
    [PQPAN_DEFAULT_SCAN_INTERVAL_MS] = VALUE("--scan-interval-ms", "30",
                                             "Zephyr subsys/bluetooth/mesh/adv.h "
                                             "BT_MESH_SCAN_INTERVAL_MS 30"),
    [PQPAN_DEFAULT_MESH_RUNS] = VALUE("--runs", "1",
                                      "one run, the rows of which equal the estimate's at "
                                      "--per 0 (a provisioning run without loss is the same "
                                      "for every seed but for its keys)"),
    [PQPAN_DEFAULT_MESH_RELAYS] = VALUE("--relays", "1",
                                        "the sparsest managed flooding: one relay node in "
                                        "range of each hop"),
    [PQPAN_DEFAULT_MESH_TTL] = VALUE("--ttl", "7",
                                     "Zephyr Kconfig BT_MESH_DEFAULT_TTL 7 (MshPRT v1.1 "
                                     "§4.2.7 Default TTL)"),
    [PQPAN_DEFAULT_MESH_NET_TRANSMIT_COUNT] = VALUE("--net-transmit-count", "2",
                                                    "Zephyr Kconfig "
                                                    "BT_MESH_NETWORK_TRANSMIT_COUNT 2: three "
                                                    "transmissions of each Network PDU (MshPRT "
                                                    "v1.1 §4.2.19)"),
    [PQPAN_DEFAULT_MESH_NET_TRANSMIT_INTERVAL_MS] = VALUE("--net-transmit-interval-ms", "20",
                                                          "Zephyr Kconfig "
                                                          "BT_MESH_NETWORK_TRANSMIT_INTERVAL "
                                                          "20 (MshPRT v1.1 §4.2.19: (steps + "
                                                          "1) x 10 ms)"),
    [PQPAN_DEFAULT_MESH_RELAY_RETRANSMIT_COUNT] = VALUE("--relay-retransmit-count", "2",
                                                        "Zephyr Kconfig "
                                                        "BT_MESH_RELAY_RETRANSMIT_COUNT 2: "
                                                        "three transmissions of each relayed "
                                                        "PDU (MshPRT v1.1 §4.2.20)"),
    [PQPAN_DEFAULT_MESH_RELAY_RETRANSMIT_INTERVAL_MS] = VALUE("--relay-retransmit-interval-ms",
                                                              "20",
                                                              "Zephyr Kconfig "
                                                              "BT_MESH_RELAY_RETRANSMIT_INTERVAL "
                                                              "20 (MshPRT v1.1 §4.2.20)"),
    [PQPAN_DEFAULT_MESH_SEG_INTERVAL_MS] = VALUE("--seg-interval-ms", "60",
                                                 "MshPRT v1.1 §4.2.48.1 SAR Segment Interval "
                                                 "Step default 0b0101: (5 + 1) x 10 ms (Zephyr "
                                                 "CONFIG_BT_MESH_SAR_TX_SEG_INT_STEP 0x05)"),
    [PQPAN_DEFAULT_MESH_TRANSMIC] = VALUE("--transmic", "32",
                                          "MshPRT v1.1 §3.5.2.2 SZMIC 0, a 32-bit TransMIC: "
                                          "the most PQKE octets per segmented message (an "
                                          "unsegmented access message always has it)"),
    [PQPAN_DEFAULT_LPN] = VALUE("--lpn", "none",
                                "both endpoints scan (a mains-powered or always-listening "
                                "node); --lpn prices a battery endpoint as a Low Power Node "
                                "polling its Friend (MshPRT §3.6.6)"),
    [PQPAN_DEFAULT_FRIEND_QUEUE] = VALUE("--friend-queue", "255",
                                         "the largest QueueSize a Friend Offer can announce (one "
                                         "octet, MshPRT §3.6.6; Zephyr "
                                         "CONFIG_BT_MESH_FRIEND_QUEUE_SIZE): at one hop the "
                                         "Friend holds a whole PQKE message; Zephyr's default 16 "
                                         "discards PQKE parts (docs/MODEL.md)"),
    [PQPAN_DEFAULT_LPN_RECV_DELAY_MS] = VALUE("--lpn-recv-delay-ms", "100",
                                              "Zephyr Kconfig BT_MESH_LPN_RECV_DELAY default 100 "
                                              "(ReceiveDelay of the Friend Request, 10..255 ms)"),
    [PQPAN_DEFAULT_FRIEND_RECV_WIN_MS] = VALUE("--friend-recv-win-ms", "255",
                                               "Zephyr Kconfig BT_MESH_FRIEND_RECV_WIN default "
                                               "255 (ReceiveWindow of the Friend Offer, 1..255 "
                                               "ms)"),
    [PQPAN_DEFAULT_LPN_POLL_MS] = VALUE("--lpn-poll-ms", "1000",
                                        "Zephyr lpn.c poll_timeout(): an LPN with a transfer in "
                                        "progress polls every min(PollTimeout, 1 s); pqpan takes "
                                        "that pace for the whole exchange (an idle Zephyr LPN "
                                        "doubles its period up to PollTimeout)"),
    /* The SAR Transmitter / Receiver states (MshPRT v1.1 §4.2.48, §4.2.49) at the defaults
     * the specification gives them, which Zephyr's Kconfig BT_MESH_SAR_* repeat; Zephyr
     * subsys/bluetooth/mesh/sar_cfg_internal.h turns each state into its time. */
    [PQPAN_DEFAULT_MESH_SAR_RETRANS_COUNT] = VALUE(
        "--sar-retrans-count", "2",
        "MshPRT v1.1 §4.2.48.2 SAR Unicast Retransmissions Count default 0b0010 (Zephyr "
        "CONFIG_BT_MESH_SAR_TX_UNICAST_RETRANS_COUNT 0x02): 2 rounds after the first"),
    [PQPAN_DEFAULT_MESH_SAR_RETRANS_NO_PROGRESS] = VALUE(
        "--sar-retrans-no-progress", "2",
        "MshPRT v1.1 §4.2.48.3 SAR Unicast Retransmissions Without Progress Count default "
        "0b0010 (Zephyr CONFIG_BT_MESH_SAR_TX_UNICAST_RETRANS_WITHOUT_PROG_COUNT 0x02)"),
    [PQPAN_DEFAULT_MESH_SAR_RETRANS_INTERVAL_MS] = VALUE(
        "--sar-retrans-interval-ms", "200",
        "MshPRT v1.1 §4.2.48.4 SAR Unicast Retransmissions Interval Step default 0b0111: "
        "(7 + 1) x 25 ms (Zephyr CONFIG_BT_MESH_SAR_TX_UNICAST_RETRANS_INT_STEP 0x07)"),
    [PQPAN_DEFAULT_MESH_SAR_RETRANS_INCREMENT_MS] = VALUE(
        "--sar-retrans-increment-ms", "50",
        "MshPRT v1.1 §4.2.48.5 SAR Unicast Retransmissions Interval Increment default "
        "0b0001: (1 + 1) x 25 ms per TTL step above 1 (Zephyr "
        "CONFIG_BT_MESH_SAR_TX_UNICAST_RETRANS_INT_INC 0x01)"),
    [PQPAN_DEFAULT_MESH_SAR_ACK_DELAY_INC] = VALUE(
        "--sar-ack-delay-inc", "1",
        "MshPRT v1.1 §4.2.49.2 SAR Acknowledgment Delay Increment default 0b001: 1 + 1.5 = "
        "2.5 segment reception intervals (Zephyr CONFIG_BT_MESH_SAR_RX_ACK_DELAY_INC 0x01)"),
    [PQPAN_DEFAULT_MESH_SAR_RX_SEG_INTERVAL_MS] = VALUE(
        "--sar-rx-seg-interval-ms", "60",
        "MshPRT v1.1 §4.2.49.5 SAR Receiver Segment Interval Step default 0b0101: (5 + 1) x "
        "10 ms (Zephyr CONFIG_BT_MESH_SAR_RX_SEG_INT_STEP 0x05)"),
    [PQPAN_DEFAULT_MESH_SAR_DISCARD_S] = VALUE(
        "--sar-discard-timeout-s", "10",
        "MshPRT v1.1 §4.2.49.4 SAR Discard Timeout default 0b0001: (1 + 1) x 5 s (Zephyr "
        "CONFIG_BT_MESH_SAR_RX_DISCARD_TIMEOUT 0x01)"),
    [PQPAN_DEFAULT_MESH_RELAY_COLLISIONS] = VALUE(
        "--relay-collisions", "off",
        "the zero-loss model's: the relays of a stage relay together and never collide; on "
        "draws each relay's advDelay (Core v5.4 Vol 6 Part B §4.4.2.2.1) and loses the "
        "copies that overlap"),
    [PQPAN_DEFAULT_TRANSPORT] = VALUE("--transport", "gatt", "the study's GATT service"),
    [PQPAN_DEFAULT_PER] = VALUE("--per", "0", NO_LOSS),
    [PQPAN_DEFAULT_BER] = VALUE("--ber", "0", NO_LOSS),
    [PQPAN_DEFAULT_SEED] = VALUE("--seed", "1", "a fixed seed: the same outputs every run"),
    [PQPAN_DEFAULT_SUPERVISION_TIMEOUT_MS] = VALUE("--supervision-timeout-ms", "4000",
                                                   "assumption: 4 s, inside connSupervisionTimeout's "
                                                   "100 ms .. 32 s (Core v5.4 Vol 6 Part B "
                                                   "§4.5.2)"),
    [PQPAN_DEFAULT_TRACE_SIDE] = VALUE("--trace-side", "peripheral",
                                       "the battery-powered side of the study's set-up"),
    [PQPAN_DEFAULT_ADV_CASE] = VALUE("--adv-case", "drawn",
                                     "a simulation draws its advertising phase from its seed"),
    [PQPAN_DEFAULT_NODES] = VALUE("--nodes", "2", "the two sides of the exchange only"),
    [PQPAN_DEFAULT_LOAD] = VALUE("--load", "0", "no background traffic"),
    [PQPAN_DEFAULT_FRAME_BYTES] = VALUE("--frame-bytes", "60",
                                        "assumption: a small sensor-report frame"),
    [PQPAN_DEFAULT_HIDDEN] = VALUE("--hidden", "0", "every node hears every other"),
    [PQPAN_DEFAULT_CAPTURE] = VALUE("--capture", "none",
                                    "an overlapped frame is lost, the cautious case"),
    [PQPAN_DEFAULT_REASM_TIMEOUT] = VALUE("--reasm-timeout", "8000",
                                          "Contiki-NG's SICSLOWPAN_REASS_MAXAGE (8 s), inside "
                                          "RFC 4944 §5.3's 60 s"),
    [PQPAN_DEFAULT_DGRAM_RETRIES] = VALUE("--dgram-retries", "4",
                                          "CoAP's MAX_RETRANSMIT (RFC 7252 §4.8)"),
    [PQPAN_DEFAULT_RUNS] = VALUE("--runs", "100",
                                 "Monte Carlo runs: a percentile to about 1 % of the runs"),
    [PQPAN_DEFAULT_PROFILE] = VALUE("--profile", "nrf52840", "the study's board"),
    [PQPAN_DEFAULT_CURRENTS] = VALUE("--currents", "system",
                                     "whole-chip currents (HFXO included), what a supply "
                                     "measurement such as the study's PPK2 sees"),
    [PQPAN_DEFAULT_TX_DBM] = VALUE("--tx-dbm", "0", STUDY),
    [PQPAN_DEFAULT_SUPPLY_V] = NOTE("--supply-v", "the profile's supply_v",
                                    "the voltage the datasheet's current figures were measured "
                                    "at (nRF52840: 3 V), so its currents apply unscaled"),
    [PQPAN_DEFAULT_RAM_RETAINED_KB] = NOTE("--ram-retained-kb", "the profile's sleep_ua",
                                           "the datasheet's sleep figure the profile cites "
                                           "(nRF52840: full 256 kB RAM retention)"),
    [PQPAN_DEFAULT_RAMP] = VALUE("--ramp", "fast",
                                 "the radio's fast ramp-up mode (the profile's "
                                 "ramp_fast_us: nRF52840 PS v1.7 §6.20, MODECNF0.RU = Fast)"),
    [PQPAN_DEFAULT_CRYPTO_IMPL] = VALUE("--crypto-impl", "clean",
                                        "the study ran PQClean's clean ML-KEM"),
    [PQPAN_DEFAULT_P256_IMPL] = VALUE("--p256-impl", "emill-asm",
                                      "the cycle row measured on the nRF52840 itself "
                                      "(Emill/P256-Cortex-M4 README), the study's board; the "
                                      "stacks' own P-256 are rows of "
                                      "data/cycles/p256_impl_cortex_m4.csv"),
    [PQPAN_DEFAULT_LESC_KEYPAIR] = VALUE("--lesc-keypair", "reused",
                                         "what stacks do: NimBLE (ble_sm_sc.c) and Zephyr "
                                         "generate the LE SC key pair once and reuse it, as "
                                         "Core Vol 3 Part H §2.3.6 allows (change it at least "
                                         "after 10 successful pairings)"),
    [PQPAN_DEFAULT_CALIBRATION] = NOTE("--calibration", "built-in defaults",
                                       "no measurement given: the γ defaults below"),
    [PQPAN_DEFAULT_GAMMA_COMM] = NOTE("--gamma-comm", "1.15; study: 1.10-1.20",
                                      "inside the study's measured range (docs/MODEL.md "
                                      "\"gamma defaults\")"),
    [PQPAN_DEFAULT_PEER_PROFILE] = NOTE("--peer-profile", "the same as --profile",
                                        "two devices of one kind, as the study's two boards"),
    [PQPAN_DEFAULT_BATTERY_SIDE] = VALUE("--battery-side", "peripheral",
                                         "the battery-powered side of the study's set-up"),
    [PQPAN_DEFAULT_BATTERY_MAH] = VALUE("--battery-mah", "235",
                                        "a CR2032: Energizer CR2032 datasheet "
                                        "(data.energizer.com/pdfs/cr2032.pdf), typical capacity "
                                        "235 mAh to 2.0 V at 15 kohm, 21 C"),
    [PQPAN_DEFAULT_APP_UA] = VALUE("--app-ua", "0",
                                   "unknown to pqpan: the device's own load is the user's to "
                                   "give; the battery life says it is left out"),
    [PQPAN_DEFAULT_SELF_DISCHARGE_PCT_YEAR] = VALUE(
        "--self-discharge-pct-year", "0",
        "left out unless given (a lithium coin cell loses about 1 %/year: see its datasheet); "
        "the battery life says it is left out"),
    [PQPAN_DEFAULT_BATTERY_DERATE] = VALUE(
        "--battery-derate", "1",
        "the rated capacity; a coin cell gives less under pulse currents (its datasheet's "
        "pulse curves at the peak current advise prints); the battery life says so"),
    [PQPAN_DEFAULT_REKEY_EVERY] = VALUE("--rekey-every", "1d", "assumption: one new key a day"),
    [PQPAN_DEFAULT_MIN_LEVEL] = VALUE("--min-level", "1",
                                      "every ML-KEM set is a candidate (FIPS 203 Table 2)"),
    [PQPAN_DEFAULT_MAX_LATENCY_MS] = NOTE("--max-latency-ms", "none", "no latency constraint"),
    [PQPAN_DEFAULT_ADVISE_AUTH] = VALUE(
        "--auth", "mutual",
        "advise's list of allowed modes: both devices authenticated by keys each can hold "
        "(psk, kem-auth-mutual, sig-mutual; docs/PROTOCOL.md §5), since mode none hands a man "
        "in the middle both keys; a different option from estimate's --auth, which names one "
        "mode"),
    [PQPAN_DEFAULT_ADVISE_HYBRID] = VALUE("--hybrid", "none",
                                          "advise's list: ML-KEM alone; p256 adds a classical "
                                          "share when asked"),
    [PQPAN_DEFAULT_PEER_PHYS] = VALUE("--peer-phys", "1M,2M,S2,S8",
                                      "a peer that supports every LE PHY"),
    [PQPAN_DEFAULT_PEER_MAX_LL_OCTETS] = VALUE("--peer-max-ll-octets", "251",
                                               "a peer with DLE up to the LL maximum (Core v5.4 "
                                               "Vol 6 Part B §4.5.10)"),
    [PQPAN_DEFAULT_PEER_MAX_MTU] = VALUE("--peer-max-mtu", "517",
                                         "a peer that takes the largest ATT_MTU (Core v5.4 "
                                         "Vol 3 Part F §3.2.9)"),
    [PQPAN_DEFAULT_TOP] = VALUE("--top", "5", "a short list"),
    [PQPAN_DEFAULT_FORMAT] = VALUE("--format", "table", "a table for people; csv and json for "
                                                        "programs"),
    [PQPAN_DEFAULT_SWEEP_FORMAT] = VALUE("--format", "csv",
                                         "sweep's rows have no table form: CSV with a header "
                                         "line"),
    [PQPAN_DEFAULT_OUT] = NOTE("--out", "stdout only",
                               "data on stdout, so a pipe takes it"),
    [PQPAN_DEFAULT_JOBS] = VALUE("--jobs", "1", "one thread unless asked"),
    [PQPAN_DEFAULT_SHARD] = VALUE("--shard", "1/1", "the whole grid"),
    [PQPAN_DEFAULT_SIDE] = VALUE("--side", "peripheral",
                                 "the study measured the peripheral, the battery-powered side"),
    [PQPAN_DEFAULT_CALIBRATE_VOLTAGE] = NOTE("--voltage", "the profile's supply voltage",
                                             "the traces were recorded at the device's supply"),
    [PQPAN_DEFAULT_CALIBRATE_BASELINE_UA] = VALUE("--baseline-ua", "0",
                                                  "no subtraction: the traces are compared "
                                                  "with every state the model books"),
    [PQPAN_DEFAULT_CALIBRATE_PHASES] = VALUE("--phases", "d0=crypto,d1=radio,d2=advertise",
                                             "the channels `pqpan simulate --trace` writes: D0 "
                                             "crypto, D1 radio, D2 the advertising segment"),
    [PQPAN_DEFAULT_OPS] = NOTE("--ops", "by side and protocol, above",
                               "the operations the side runs in the protocol's order"),
    [PQPAN_DEFAULT_COMM_MODEL] = VALUE("--comm-model", "bits", "the study's accounting"),
    [PQPAN_DEFAULT_OVERLAP] = VALUE("--overlap", "preempt",
                                    "the link layer suspends the CPU's work for its events"),
    [PQPAN_DEFAULT_TRACE_VOLTAGE] = VALUE("--voltage", "3",
                                          "the supply of the study's boards (nrf52840 "
                                          "profile)"),
    [PQPAN_DEFAULT_TRACE_PHASES] = NOTE("--phases", "none", "the whole trace as one phase"),
    [PQPAN_DEFAULT_TRACE_BASELINE_UA] = NOTE("--baseline-ua", "no subtraction",
                                             "a trace's energy as measured"),
    [PQPAN_DEFAULT_BASELINE_PERCENTILE] = VALUE("--baseline-percentile", "5",
                                                "a low percentile: the sleep floor without its "
                                                "outliers"),
    [PQPAN_DEFAULT_READING] = VALUE("--reading", "all",
                                    "every reading of the study's figures side by side, the "
                                    "shipped stack's LE SC beside the study's"),
    [PQPAN_DEFAULT_KEM_PARAM] = VALUE("--param", "ML-KEM-768",
                                      "FIPS 203 §8: NIST recommends ML-KEM-768 as the default "
                                      "parameter set"),
    [PQPAN_DEFAULT_KEM_D] = NOTE("--d", FROM_OS, "FIPS 203 Alg. 19 draws d at random"),
    [PQPAN_DEFAULT_KEM_Z] = NOTE("--z", FROM_OS, "FIPS 203 Alg. 19 draws z at random"),
    [PQPAN_DEFAULT_KEM_M] = NOTE("--m", FROM_OS, "FIPS 203 Alg. 20 draws m at random"),
    [PQPAN_DEFAULT_SIG_PARAM] = VALUE("--param", "ML-DSA-65",
                                      "NIST category 3, as the default ML-KEM-768 (FIPS 204 "
                                      "Table 1)"),
    [PQPAN_DEFAULT_SIG_SEED] = NOTE("--seed", FROM_OS " (KeyGen, Alg. 1)",
                                    "FIPS 204 Alg. 1 draws xi at random"),
    [PQPAN_DEFAULT_SIG_CONTEXT] = NOTE("--context", "empty", "FIPS 204 §5.2: ctx may be empty"),
    [PQPAN_DEFAULT_SIG_RND] = NOTE("--rnd", "deterministic: 32 zero bytes (FIPS 204 3.4)",
                                   "reproducible signatures unless --hedged"),
    [PQPAN_DEFAULT_ECDH_PARAM] = VALUE("--param", "P-256",
                                       "the LE Secure Connections curve, the only one"),
    [PQPAN_DEFAULT_ECDH_SK] = NOTE("--sk",
                                   "keygen: " FROM_OS ", by rejection sampling into 1..n-1",
                                   "a uniform private key in 1..n-1 (SP 800-186 P-256 order n)"),
    [PQPAN_DEFAULT_BENCH_PARAM] = VALUE("--param", "all", "every parameter set"),
    [PQPAN_DEFAULT_BENCH_OP] = NOTE("--op", "all of them", "every operation"),
    [PQPAN_DEFAULT_ITERATIONS] = VALUE("--iterations", "1000",
                                       "enough runs for a stable median on a quiet machine"),
};

const struct pqpan_default *pqpan_default_get(enum pqpan_default_id id)
{
    if (id <= PQPAN_DEFAULT_NONE || id >= PQPAN_DEFAULT_COUNT) {
        return NULL;
    }
    return &rows[id];
}

const char *pqpan_default_value(enum pqpan_default_id id)
{
    const struct pqpan_default *d = pqpan_default_get(id);
    return d != NULL ? d->value : NULL;
}

/* Decimal digits of s into *v (up to max_digits of them); the count read. */
static size_t digits(const char *s, uint64_t *v, size_t max_digits)
{
    size_t n = 0;
    while (n < max_digits && s[n] >= '0' && s[n] <= '9') {
        *v = *v * 10u + (uint64_t)(s[n] - '0');
        n++;
    }
    return n;
}

uint32_t pqpan_default_u32(enum pqpan_default_id id)
{
    const char *v = pqpan_default_value(id);
    uint64_t x = 0;
    if (v == NULL || digits(v, &x, 9) != strlen(v)) {
        return 0;
    }
    return (uint32_t)x;
}

/* "INT[.FRAC]" milliseconds, up to 6 decimals, as nanoseconds. */
uint64_t pqpan_default_ms_ns(enum pqpan_default_id id)
{
    const char *v = pqpan_default_value(id);
    uint64_t ms = 0, frac = 0;
    size_t n, f = 0;
    if (v == NULL) {
        return 0;
    }
    n = digits(v, &ms, 9);
    if (v[n] == '.') {
        f = digits(v + n + 1, &frac, 6);
        n += 1u + f;
    }
    if (n != strlen(v)) {
        return 0;
    }
    for (; f < 6u; f++) {
        frac *= 10u;
    }
    return ms * 1000000u + frac;
}

int pqpan_default_is(enum pqpan_default_id id, const char *word)
{
    const char *v = pqpan_default_value(id);
    return v != NULL && strcmp(v, word) == 0;
}
