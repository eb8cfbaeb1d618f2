/* An independent model of pqpan's PQKE exchange over 6LoWPAN, built on ns-3 (3.37, Debian
 * 12: LrWpanNetDevice, SixLowPanNetDevice, the IPv6/UDP stack), for the cross-check
 * tests/integration/ns3_crosscheck.sh. None of pqpan's code is used: ns-3's MAC (unslotted
 * CSMA-CA, Imm-Ack, IFS), PHY (2.4 GHz O-QPSK) and 6LoWPAN (RFC 6282 IPHC, RFC 4944
 * fragments) carry datagrams of the sizes pqpan's messages have.
 *
 * usage: pqke_lowpan INIT RESP FIN KEYGEN_NS RESP_CPU_NS FIN_CPU_NS RUNS PCAP
 *   INIT RESP FIN    the messages' octets (docs/PROTOCOL.md §2.5)
 *   KEYGEN_NS        the initiator's computation before INIT (KeyGen)
 *   RESP_CPU_NS      the responder's before RESP (Encaps, KDF)
 *   FIN_CPU_NS       the initiator's before FIN (Decaps, KDF)
 *   RUNS             runs 1..RUNS (ns-3's RngRun), one exchange each
 *   PCAP             the first run's frames as node 1 hears them (LINKTYPE 195)
 * Prints one line per run: run, latency in ns, frames on air (data + Imm-Ack). Exit 1
 * when a run does not complete or puts on air anything but the exchange's data frames
 * and their Imm-Acks, once each (no retry, no drop, no other frame).
 *
 * Settings aligned with `pqpan simulate --link 802154 --addr short` at zero load (and why):
 *  - 2.4 GHz O-QPSK PHY (ns-3's default PHY option, 62.5 ksymbol/s, SHR 5 + PHR 1 octets):
 *    pqpan's only PHY. Nodes 1 m apart: 3.3 ns of propagation per frame, pqpan has none.
 *  - MAC: PAN 0xABCD, short addresses 0x0001 (initiator) and 0x0002 (responder), PAN ID
 *    compression (ns-3 sets it for equal PANs): pqpan's --addr short frames, MHR 9 + FCS 2.
 *    Acknowledged frames (UseAcks), macMaxFrameRetries 3, CSMA-CA unslotted with macMinBE
 *    3, macMaxBE 5, macMaxCSMABackoffs 4: pqpan's --csma ieee set (IEEE 802.15.4 Table
 *    8-94). Backoff, CCA (8 symbols), aTurnaroundTime (12 symbols) before the frame and
 *    before the Imm-Ack, macAckWaitDuration (54 symbols) and SIFS 12 / LIFS 40 symbols
 *    after an acknowledged frame of more / at most 18 octets: ns-3's fixed values, the
 *    same as pqpan's. The receiver keeps its radio on (macRxOnWhenIdle, as --idle listen).
 *  - 6LoWPAN: IPHC (Rfc6282 true, ns-3's default), stateless (no context: link-local
 *    addresses derived from the short addresses, both elided as in pqpan), hop limit 64
 *    (ns-3's DefaultTtl, pqpan's hop limit: both compressed to 2 bits), traffic class and
 *    flow label 0 (elided; ns-3 sets no flow label), NHC UDP with the 4-bit ports
 *    0xF0B1/0xF0B2 (pqpan's). OmitUdpChecksum false: ns-3 elides the UDP checksum by
 *    default (RFC 6282 §4.3.2), pqpan carries it inline; checksums on (ChecksumEnabled) so
 *    the FCS and UDP checksums on the air are real.
 *  - MTU: ns-3's LrWpanNetDevice offers 114 octets per frame (it assumes no PAN ID
 *    compression), pqpan 116; both give FRAG1 and FRAGN 104 octets of datagram (RFC 4944
 *    §5.3: multiples of 8), so the fragments are the same. The IPv6 MTU is 1280 in both
 *    (RFC 4944 §4); no datagram exceeds it (below), so IPv6 never fragments.
 *  - Datagrams: a message of at most 1232 octets (1280 - 40 - 8) is one UDP datagram; a
 *    longer one goes in segments of a 2-octet header (0x80 | index, count) and at most
 *    1230 message octets, one datagram each, sent back to back (docs/MODEL.md "PQKE
 *    messages over 6LoWPAN").
 *  - No other traffic: no DAD (Icmpv6L4Protocol::DAD false), no Router Solicitation
 *    (interfaces forwarding), no neighbour discovery (permanent neighbour cache entries):
 *    pqpan's two nodes exchange the PQKE datagrams alone. The program fails if anything
 *    else goes on the air.
 *  - Application: a datagram reaches it at the end of the last frame's reception (ns-3
 *    delivers up the stack from PD-DATA.indication); it computes (a delay) and answers.
 *  - Latency as pqpan's: from the start of KeyGen to the end of the exchange, when both
 *    sides are done and FIN is acknowledged: the initiator's MAC receives the Imm-Ack of
 *    FIN's last frame (ns-3's MacTxOk); the IFS after it spaces only a next frame of the
 *    initiator's (IEEE 802.15.4-2020 §6.2.4), which it has none of. */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/lr-wpan-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/sixlowpan-module.h"

using namespace ns3;

namespace {

/* pqpan's link (src/ieee802154/estimate.c defaults, cli/lowpan_model.c for --addr short):
 * PAN ID, the initiator's and the responder's ports and short addresses. */
constexpr uint16_t kPanId = 0xABCD;
constexpr uint16_t kPort[2] = {0xF0B1, 0xF0B2};
constexpr const char *kShort[2] = {"00:01", "00:02"};
/* The IPv6 minimum MTU that RFC 4944 §4 requires of the link (RFC 8200 §5), less the IPv6
 * header (RFC 8200 §3, 40 octets) and the UDP header (RFC 768, 8 octets). */
constexpr uint32_t kUdpPayloadMax = 1280u - 40u - 8u;
/* Segments (docs/MODEL.md "PQKE messages over 6LoWPAN"): 0x80 | index, count, data. */
constexpr uint32_t kSegHeader = 2u;
constexpr uint32_t kSegData = kUdpPayloadMax - kSegHeader;
constexpr uint8_t kSegFlag = 0x80u;
constexpr uint8_t kPqkeVersion = 0x02u; /* a message's first octet, docs/PROTOCOL.md §2.1 */
constexpr double kStartS = 1.0;         /* well after the MACs' RX_ON at start-up */
constexpr double kLimitS = 60.0;        /* a run not over by then has failed */

enum Msg { INIT = 0, RESP, FIN, MSGS };

struct Setup {
    uint32_t octets[MSGS];
    uint64_t cpu_ns[MSGS]; /* the computation before each message */
    uint32_t runs;
    std::string pcap;
};

/* UDP payloads of a message of len octets: itself, or its segments. */
std::vector<std::vector<uint8_t>> datagrams_of(Msg m, uint32_t len)
{
    std::vector<uint8_t> msg(len, 0);
    std::vector<std::vector<uint8_t>> out;
    msg[0] = kPqkeVersion;
    if (len > 1) {
        msg[1] = static_cast<uint8_t>(m + 1); /* type: INIT 1, RESP 2, FIN 3 */
    }
    if (len <= kUdpPayloadMax) {
        out.push_back(msg);
        return out;
    }
    uint32_t count = (len + kSegData - 1u) / kSegData;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t off = i * kSegData, n = std::min(kSegData, len - off);
        std::vector<uint8_t> d(kSegHeader + n);
        d[0] = static_cast<uint8_t>(kSegFlag | i);
        d[1] = static_cast<uint8_t>(count);
        std::copy(msg.begin() + off, msg.begin() + off + n, d.begin() + kSegHeader);
        out.push_back(d);
    }
    return out;
}

struct Party {
    Ptr<Socket> socket;
    uint32_t received = 0;   /* octets of the message being received */
    uint32_t next_seg = 0;
    uint32_t enqueued = 0;   /* frames handed to the MAC */
    uint32_t acked = 0;      /* frames whose Imm-Ack arrived */
    uint32_t on_air = 0;     /* PHY transmissions: data frames and Imm-Acks */
    uint32_t dropped = 0;
};

class Exchange {
  public:
    explicit Exchange(const Setup &c) : cfg(c) {}

    void attach(int side, Ptr<LrWpanNetDevice> dev, Ptr<Socket> s)
    {
        Party &p = party[side];
        p.socket = s;
        s->SetRecvCallback(MakeCallback(&Exchange::on_receive, this, side));
        dev->GetMac()->TraceConnectWithoutContext("MacTxEnqueue",
                                                  MakeCallback(&Exchange::on_enqueue, this, side));
        dev->GetMac()->TraceConnectWithoutContext("MacTxDrop",
                                                  MakeCallback(&Exchange::on_drop, this, side));
        dev->GetPhy()->TraceConnectWithoutContext("PhyTxBegin",
                                                  MakeCallback(&Exchange::on_air, this, side));
        dev->GetMac()->TraceConnectWithoutContext("MacTxOk",
                                                  MakeCallback(&Exchange::on_acked, this, side));
    }

    void start()
    {
        t0 = Simulator::Now();
        Simulator::Schedule(NanoSeconds(static_cast<int64_t>(cfg.cpu_ns[INIT])), &Exchange::send,
                            this, INIT);
    }

    bool complete() const { return end_ns != 0; }
    uint64_t latency_ns() const { return end_ns; }
    uint32_t frames_on_air() const { return party[0].on_air + party[1].on_air; }

    /* Every data frame once and one Imm-Ack each: nothing repeated, dropped or extra. */
    bool clean() const
    {
        uint32_t data = party[0].enqueued + party[1].enqueued;
        return party[0].dropped == 0 && party[1].dropped == 0 && frames_on_air() == 2u * data;
    }

  private:
    static int sender_of(Msg m) { return m == RESP ? 1 : 0; }

    void send(Msg m)
    {
        Party &p = party[sender_of(m)];
        for (const std::vector<uint8_t> &d : datagrams_of(m, cfg.octets[m])) {
            p.socket->Send(Create<Packet>(d.data(), static_cast<uint32_t>(d.size())));
        }
        if (m == FIN) {
            fin_sent = true;
        }
    }

    /* A datagram for side: a whole message, or the next segment of one. */
    void on_receive(int side, Ptr<Socket> s)
    {
        Ptr<Packet> pkt;
        while ((pkt = s->Recv())) {
            std::vector<uint8_t> d(pkt->GetSize());
            pkt->CopyData(d.data(), static_cast<uint32_t>(d.size()));
            if (d.empty()) {
                continue;
            }
            Party &p = party[side];
            uint32_t count = 1;
            if ((d[0] & kSegFlag) != 0) {
                if ((d[0] & ~kSegFlag) != p.next_seg || d.size() < kSegHeader) {
                    continue;
                }
                count = d[1];
                p.received += static_cast<uint32_t>(d.size()) - kSegHeader;
                p.next_seg++;
            } else {
                p.received = static_cast<uint32_t>(d.size());
                p.next_seg = 1;
            }
            if (p.next_seg == count) {
                message_in(side, p.received);
                p.received = 0;
                p.next_seg = 0;
            }
        }
    }

    /* The responder answers INIT with RESP, the initiator RESP with FIN, each after its
     * computation; FIN ends the responder's part. */
    void message_in(int side, uint32_t len)
    {
        Msg m = side == 1 ? (got_init ? FIN : INIT) : RESP;
        if (len != cfg.octets[m]) {
            return;
        }
        if (m == INIT) {
            got_init = true;
            answer(RESP);
        } else if (m == RESP) {
            answer(FIN);
        } else {
            fin_received = true;
        }
    }

    void answer(Msg m)
    {
        Simulator::Schedule(NanoSeconds(static_cast<int64_t>(cfg.cpu_ns[m])), &Exchange::send, this,
                            m);
    }

    void on_enqueue(int side, Ptr<const Packet>) { party[side].enqueued++; }
    void on_drop(int side, Ptr<const Packet>) { party[side].dropped++; }
    void on_air(int side, Ptr<const Packet>) { party[side].on_air++; }

    /* A frame of side's is acknowledged: the end once FIN is out and delivered and every
     * frame the initiator handed to its MAC is acknowledged. */
    void on_acked(int side, Ptr<const Packet>)
    {
        const Party &p = party[0];
        party[side].acked++;
        if (side == 0 && fin_sent && fin_received && p.acked == p.enqueued && end_ns == 0) {
            end_ns = static_cast<uint64_t>((Simulator::Now() - t0).GetNanoSeconds());
            Simulator::Stop();
        }
    }

    Setup cfg;
    Party party[2];
    Time t0;
    uint64_t end_ns = 0;
    bool got_init = false, fin_sent = false, fin_received = false;
};

/* ns-3's Ipv6Header starts with flow label 1 (ipv6-header.cc, its constructor) and nothing
 * on the way down clears it, so IPHC would carry it inline (TF 01: 3 octets more per
 * datagram, RFC 6282 §3.1.1). pqpan's datagrams have flow label 0 (RFC 6437: unlabelled),
 * elided (TF 11). This device clears it before compression. */
class SixLowPanFlowLabelZero : public SixLowPanNetDevice {
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("pqpan::SixLowPanFlowLabelZero")
                                .SetParent<SixLowPanNetDevice>()
                                .SetGroupName("pqpan")
                                .AddConstructor<SixLowPanFlowLabelZero>();
        return tid;
    }

    bool Send(Ptr<Packet> packet, const Address &dest, uint16_t protocol) override
    {
        Ipv6Header h;
        if (packet->RemoveHeader(h) != 0) {
            h.SetFlowLabel(0);
            packet->AddHeader(h);
        }
        return SixLowPanNetDevice::Send(packet, dest, protocol);
    }
};

/* 6LoWPAN over each LrWpanNetDevice, as SixLowPanHelper::Install does, with the UDP
 * checksum inline. */
NetDeviceContainer install_sixlowpan(const NetDeviceContainer &lr)
{
    NetDeviceContainer out;
    for (uint32_t i = 0; i < lr.GetN(); i++) {
        Ptr<SixLowPanFlowLabelZero> dev = CreateObject<SixLowPanFlowLabelZero>();
        dev->SetAttribute("OmitUdpChecksum", BooleanValue(false));
        lr.Get(i)->GetNode()->AddDevice(dev);
        dev->SetNetDevice(lr.Get(i));
        dev->AssignStreams(100 + i);
        out.Add(dev);
    }
    return out;
}

/* Node i's neighbour cache holds node j's link-local address as a permanent entry: no
 * neighbour solicitation goes on the air. */
void add_neighbour(Ptr<Node> node, uint32_t if_index, Ipv6Address peer, Address peer_mac)
{
    Ptr<Ipv6L3Protocol> ip = node->GetObject<Ipv6L3Protocol>();
    NdiscCache::Entry *e = ip->GetInterface(if_index)->GetNdiscCache()->Add(peer);
    e->SetMacAddress(peer_mac);
    e->MarkPermanent();
}

void configure_mac(Ptr<LrWpanNetDevice> dev, int side)
{
    Ptr<LrWpanMac> mac = dev->GetMac();
    Ptr<LrWpanCsmaCa> csma = dev->GetCsmaCa();
    mac->SetPanId(kPanId);
    mac->SetShortAddress(Mac16Address(kShort[side]));
    mac->SetMacMaxFrameRetries(3);
    mac->SetRxOnWhenIdle(true);
    csma->SetUnSlottedCsmaCa();
    csma->SetMacMinBE(3);
    csma->SetMacMaxBE(5);
    csma->SetMacMaxCSMABackoffs(4);
}

/* One exchange with ns-3's RNG run `run`; 0 on success. */
int run_once(const Setup &cfg, uint32_t run, bool pcap)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);

    NodeContainer nodes;
    nodes.Create(2);
    MobilityHelper mobility;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0.0, 0.0, 0.0));
    pos->Add(Vector(1.0, 0.0, 0.0));
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    LrWpanHelper lrwpan;
    NetDeviceContainer lr = lrwpan.Install(nodes);
    for (int i = 0; i < 2; i++) {
        configure_mac(DynamicCast<LrWpanNetDevice>(lr.Get(static_cast<uint32_t>(i))), i);
    }
    lrwpan.AssignStreams(lr, 0);

    InternetStackHelper internet;
    internet.SetIpv4StackInstall(false);
    internet.Install(nodes);
    NetDeviceContainer six = install_sixlowpan(lr);
    Ipv6AddressHelper addresses;
    Ipv6InterfaceContainer ifs = addresses.AssignWithoutAddress(six);
    ifs.SetForwarding(0, true);
    ifs.SetForwarding(1, true);

    Exchange ex(cfg);
    for (uint32_t i = 0; i < 2; i++) {
        uint32_t j = 1u - i;
        add_neighbour(nodes.Get(i), ifs.GetInterfaceIndex(i), ifs.GetLinkLocalAddress(j),
                      six.Get(j)->GetAddress());
        Ptr<Socket> s = Socket::CreateSocket(nodes.Get(i), UdpSocketFactory::GetTypeId());
        s->Bind(Inet6SocketAddress(ifs.GetLinkLocalAddress(i), kPort[i]));
        s->Connect(Inet6SocketAddress(ifs.GetLinkLocalAddress(j), kPort[j]));
        ex.attach(static_cast<int>(i), DynamicCast<LrWpanNetDevice>(lr.Get(i)), s);
    }
    if (pcap) {
        lrwpan.EnablePcap(cfg.pcap, lr.Get(1), true, true);
    }

    Simulator::Schedule(Seconds(kStartS), &Exchange::start, &ex);
    Simulator::Stop(Seconds(kLimitS));
    Simulator::Run();
    Simulator::Destroy();

    if (!ex.complete() || !ex.clean()) {
        std::fprintf(stderr, "pqke_lowpan: run %u: %s\n", run,
                     ex.complete() ? "a frame repeated, dropped or not the exchange's"
                                   : "the exchange did not complete");
        return 1;
    }
    std::printf("%u %llu %u\n", run, static_cast<unsigned long long>(ex.latency_ns()),
                ex.frames_on_air());
    return 0;
}

bool parse_u64(const char *s, uint64_t *out)
{
    char *end = nullptr;
    unsigned long long v = std::strtoull(s, &end, 10);
    if (s[0] == '\0' || s[0] == '-' || *end != '\0') {
        return false;
    }
    *out = v;
    return true;
}

bool parse_args(Setup *c, int argc, char **argv)
{
    uint64_t v[7];
    if (argc != 9) {
        return false;
    }
    for (int i = 0; i < 7; i++) {
        if (!parse_u64(argv[i + 1], &v[i])) {
            return false;
        }
    }
    for (int m = 0; m < MSGS; m++) {
        if (v[m] == 0 || v[m] > 127u * kSegData) {
            return false;
        }
        c->octets[m] = static_cast<uint32_t>(v[m]);
        c->cpu_ns[m] = v[3 + m];
    }
    if (v[6] == 0 || v[6] > 100000u) {
        return false;
    }
    c->runs = static_cast<uint32_t>(v[6]);
    c->pcap = argv[8];
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    Setup cfg;
    if (!parse_args(&cfg, argc, argv)) {
        std::fprintf(stderr, "usage: pqke_lowpan INIT RESP FIN KEYGEN_NS RESP_CPU_NS FIN_CPU_NS "
                             "RUNS PCAP\n");
        return 2;
    }
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
    Config::SetDefault("ns3::Icmpv6L4Protocol::DAD", BooleanValue(false));
    for (uint32_t run = 1; run <= cfg.runs; run++) {
        if (run_once(cfg, run, run == 1) != 0) {
            return 1;
        }
    }
    return 0;
}
