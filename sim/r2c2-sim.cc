// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2-sim - R2C2 at packet level on ns-3, running r2c2's own code.
 *
 * ns-3 provides the event core, the packets and the links (point-to-point
 * devices with drop-tail queues). What R2C2 decides comes from r2c2's C
 * code, linked in unchanged:
 *   - each packet's route: r2c2_route_sample() of common/paths.c, packed
 *     with r2c2_route_pack() of <r2c2/wire.h> into a real struct
 *     r2c2_data_hdr, and forwarded hop by hop from its route index;
 *   - flow START and FINISH: a real control header and struct
 *     r2c2_flow_evt, broadcast over the source's shortest-path trees of
 *     common/trees.c, relayed hop by hop through the same queues as data;
 *   - every node's traffic matrix: r2c2d's own matrix.c (mx_apply()),
 *     fed by the broadcasts that node has received so far;
 *   - every node's rates, recomputed every rho from its own matrix by
 *     libr2c2's r2c2_maxmin() (headroom as r2c2d), as r2c2d's compute()
 *     does; a node pushes the rates of its own flows to its pacers.
 * The glue models what sch_r2c2 does at the source: one pacer per flow;
 * a new flow sends at initial_rate until it is announced (announce_after,
 * the paper's rule that only flows older than rho count) and rated.
 * The baselines run ns-3's TCP NewReno or DCTCP over the same links,
 * routed by per-flow ECMP over the minimal next hops of common/paths.c
 * (EcmpRouting); the ideal one, PFQ, R2C2's routes with per-flow queues
 * and back-pressure at every port and no rates (Sim::PfqTry()).
 * Documentation/simulator.md describes the model and its limits.
 *
 * Output: one CSV row per flow (--out), a summary on stdout.
 */
#include <algorithm>
#include <cstdarg>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <unordered_map>
#include <memory>
#include <random>
#include <deque>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/applications-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <arpa/inet.h>

/* the C headers declare a C11 thread-local counter (compat-user.h) */
#define _Thread_local thread_local
extern "C" {
#include <r2c2/paths.h>
#include <r2c2/trees.h>
#include <r2c2/wire.h>
#include "r2c2_alloc.h"
#include "matrix.h"
}
#undef _Thread_local

#ifndef R2C2_SIM_COMMIT
#define R2C2_SIM_COMMIT "unknown"
#endif

using namespace ns3;

namespace
{

/* ns-3's PPP model carries IPv4 and IPv6 only: R2C2 frames ride 0x0800 */
const uint16_t SIM_PROTO = 0x0800;
/* an Ethernet header is 14 bytes, PPP's 2: pad so frames are as long */
const uint32_t ETH_PAD = 12;
/* broadcast trees a source uses (R2C2_TREES_DEFAULT of r2c2.ko) */
const uint32_t TREES = 4;
/*
 * The centralised design (--control=central): its messages ride data
 * frames, source-routed (DOR) between a node and the controller, with
 * flow id 0 (no flow has it) and the message's kind in the sequence
 * number: a flow event (struct r2c2_flow_evt, to the controller) or a
 * source's rates (CTL_RATE_LEN bytes a flow: flow id, kbit/s; both
 * big-endian).
 */
const uint32_t CTL_FLOW = 0;
const uint32_t CTL_KIND_EVT = 1;
const uint32_t CTL_KIND_RATES = 2;
const uint32_t CTL_RATE_LEN = 8;

/* ---------------------------------------------------------------- */
/* The R2C2 headers as ns-3 headers: the bytes are r2c2's structs     */
/* ---------------------------------------------------------------- */

class R2c2Header : public Header
{
  public:
    /* data: struct r2c2_data_hdr; control: ctl header + flow event */
    uint8_t buf[R2C2_DATA_HLEN > R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN
                    ? R2C2_DATA_HLEN
                    : R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN];
    uint32_t len = 0;

    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("R2c2Header").SetParent<Header>().AddConstructor<R2c2Header>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return ETH_PAD + len;
    }

    void Serialize(Buffer::Iterator it) const override
    {
        for (uint32_t i = 0; i < ETH_PAD; i++)
            it.WriteU8(0);
        it.Write(buf, len);
    }

    /* the frame type (byte 0) gives the length; 0 for a type we do not carry */
    uint32_t Deserialize(Buffer::Iterator it) override
    {
        it.Next(ETH_PAD);
        buf[0] = it.ReadU8();
        switch (r2c2_hdr_type(buf[0])) {
        case R2C2_T_DATA:
            len = R2C2_DATA_HLEN;
            break;
        case R2C2_T_FLOW:
            len = R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN;
            break;
        default:
            len = 0;
            return ETH_PAD + 1;
        }
        it.Read(buf + 1, len - 1);
        return ETH_PAD + len;
    }

    void Print(std::ostream& os) const override
    {
        os << "r2c2 type " << unsigned(r2c2_hdr_type(buf[0])) << " len " << len;
    }

    struct r2c2_data_hdr* Data()
    {
        return reinterpret_cast<struct r2c2_data_hdr*>(buf);
    }

    struct r2c2_ctl_hdr* Ctl()
    {
        return reinterpret_cast<struct r2c2_ctl_hdr*>(buf);
    }

    struct r2c2_flow_evt* Evt()
    {
        return reinterpret_cast<struct r2c2_flow_evt*>(buf + R2C2_CTL_HLEN);
    }
};

/* ---------------------------------------------------------------- */
/* Configuration                                                      */
/* ---------------------------------------------------------------- */

struct SimConfig
{
    std::string topo = "torus:4x4x4";
    std::string linkRate = "10Gbps";
    double linkDelayNs = 100;
    double rhoUs = 500;
    double announceUs = -1; /* -1: rho */
    double tauUs = 1;       /* mean inter-arrival, whole rack */
    uint32_t flows = 1000;
    std::string flowFile;
    double meanSize = 100000;
    double shape = 1.05;
    double maxSize = 0; /* 0: no cap */
    std::string proto = "rps";
    double headroom = 0.05;
    double initialRate = 0; /* 0: the link rate (the paper: at once) */
    uint32_t payload = 1460;
    uint32_t queuePkts = 100000;
    double stopMs = 0; /* 0: when every flow is done, or 10 s */
    double measureFromMs = -1; /* >= 0: aggregate goodput from then to the stop */
    std::string windowOut; /* per-flow goodput, per-link max queue over the window */
    uint64_t seed = 1;
    std::string out;
    /* the stack the flows run over: r2c2, tcp (NewReno) or dctcp */
    std::string stack = "r2c2";
    uint32_t tcpQueuePkts = 300;
    double dctcpK = 65;
    double tcpMinRtoUs = 1000;
    double finishIdleUs = 0; /* FINISH this long after the last packet */
    uint32_t pfqPkts = 8;    /* pfq: packets a flow may hold at a port */
    /* r2c2: decentral (every node rates the rack), or central at one node */
    std::string control = "decentral";
    uint32_t controller = 0;
    std::string centralSend = "all"; /* central: rates to every source, or changed ones */
};

/* ---------------------------------------------------------------- */
/* State                                                              */
/* ---------------------------------------------------------------- */

struct Flow
{
    uint32_t id;     /* r2c2 flow id, unique per source */
    uint32_t index;  /* row in the output */
    uint16_t src, dst;
    uint8_t rproto;
    uint64_t size;
    Time start, finish;
    uint64_t sent = 0, rcvd = 0;
    uint64_t rcvdAtMark = 0; /* rcvd at --measure-from-ms */
    uint32_t nextSeq = 0;
    double rate = 0; /* pacing rate now, bit/s */
    bool announced = false;
    bool sendDone = false;
    bool done = false;
    bool rated = false;
    Time nextSend;
    EventId sendEv;
    EventId announceEv;
    /* pfq: the next packet, waiting for room at its first port */
    Ptr<Packet> pending;
    uint8_t pendPort = 0;
    /* receiver: resequencing */
    uint32_t expect = 0;
    std::set<uint32_t> held;
    uint32_t maxHeld = 0;
};

bool IsTcp(const std::string& stack)
{
    return stack == "tcp" || stack == "dctcp";
}

/* PFQ: a packet in a port's queue, and where it goes next */
struct PfqItem
{
    Ptr<Packet> p;
    uint16_t v;  /* the node at the far end */
    uint8_t vq;  /* its port the packet leaves by, unless it is the destination */
    bool last;   /* v is the destination: no room to ask for there */
};

/* PFQ: one output port, a queue a flow, served in turn */
struct PfqPort
{
    std::deque<uint32_t> rr; /* flows with a packet here, in turn */
    std::unordered_map<uint32_t, std::deque<PfqItem>> q;
    bool busy = false;
    uint64_t bytes = 0;
};

struct SimNode
{
    Ptr<Node> node;
    Ptr<PointToPointNetDevice> dev[R2C2_MAX_PORTS];
    struct mx m;
    uint64_t lastGen = 0;
    uint16_t bseq = 0;
    std::vector<uint32_t> own; /* flows of this source being sent */
};

class Sim
{
  public:
    SimConfig c;
    struct r2c2_topo* topo = nullptr;
    struct r2c2_rtab* rt = nullptr;
    struct r2c2_ws* ws = nullptr;
    std::vector<SimNode> nodes;
    std::vector<Flow> flows;
    std::unordered_map<uint64_t, uint32_t> byKey; /* (src << 32 | id) -> flow */
    std::vector<uint32_t> srcNextId;
    std::mt19937_64 rng;
    uint32_t nDone = 0;
    double linkBps = 0;
    /* statistics */
    uint64_t drops = 0, dataPkts = 0, ctlPkts = 0, ctlHops = 0, ctlBytes = 0;
    uint64_t rcvdTotal = 0, rcvdAtMark = 0; /* payload bytes received, all flows */
    /* bytes put on links, every hop: data and control alike */
    uint64_t dataBytes = 0, forwards = 0, badFrames = 0;
    uint64_t rounds = 0, pushes = 0;
    /*
     * control bytes a message puts on links, counted when it is sent:
     * its frame's bytes times its hops (a broadcast: a frame on every
     * link of its tree), and as on Ethernet (a frame of at least 64
     * bytes, + 20 of preamble and gap); and the flow events sent
     */
    uint64_t ctlOffered = 0, ctlOfferedEth = 0, flowEvents = 0, ctlMsgs = 0;
    uint64_t ctlOfferedAtMark = 0, ctlOfferedEthAtMark = 0, flowEventsAtMark = 0;
    /* central: the flow events the controller heard (each is rated on) */
    uint64_t heard = 0, heardAtMark = 0;
    bool centralDue = false;
    double computeCpuS = 0;
    std::vector<double> roundUs;    /* each round's CPU time */
    std::vector<double> roundFlows; /* and the flows it rated */
    std::vector<uint32_t> maxQueue; /* per directed link, bytes */
    /* maxQueue before --measure-from-ms (maxQueue restarts from 0 then) */
    std::vector<uint32_t> maxQueueAtMark;
    std::vector<double> scratchRate;
    std::vector<struct r2c2_flow> scratchFlow;
    std::vector<uint32_t> scratchIdx;

    ~Sim()
    {
        for (auto& n : nodes)
            mx_fini(&n.m);
        r2c2_ws_free(ws);
        r2c2_rtab_free(rt);
        r2c2_topo_free(topo);
    }

    uint32_t Rand32()
    {
        return static_cast<uint32_t>(rng() >> 32);
    }

    static uint32_t RandCb(void* ctx)
    {
        return static_cast<Sim*>(ctx)->Rand32();
    }

    double Uniform()
    {
        return (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0;
    }

    bool Setup(std::string& err);
    void Workload();
    bool LoadFlows(std::string& err);
    void StartFlow(uint32_t fi);
    void Announce(uint32_t fi);
    void Finish(uint32_t fi);
    void SendNext(uint32_t fi);
    void SetRate(Flow& f, double bps);
    void Broadcast(uint16_t s, uint8_t type, const Flow& f);
    void FillEvt(struct r2c2_flow_evt* ev, uint8_t type, const Flow& f);
    void Offer(uint32_t frameBytes, uint32_t hops);
    /* the centralised design */
    bool Central() const
    {
        return c.control == "central";
    }
    void Report2Controller(uint8_t type, const Flow& f);
    void CtlSend(uint16_t from, uint16_t to, uint32_t kind, const uint8_t* body, uint32_t len);
    void CtlRx(uint16_t u, const struct r2c2_data_hdr& d, Ptr<Packet> body);
    void CentralRound();
    void ControllerHears(uint16_t src, const struct r2c2_flow_evt& ev);
    void FillData(R2c2Header& h, uint8_t rproto, uint32_t flow, uint16_t from, uint16_t to,
                  uint32_t seq, uint32_t plen, const uint8_t* hops, int nh);
    void ApplyRate(uint16_t src, uint32_t id, double bps);
    size_t Solve(uint16_t u);
    bool Receive(uint16_t u, Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t proto,
                 const Address& from);
    void Deliver(uint16_t u, const struct r2c2_data_hdr& h, uint32_t plen);
    void HearEvent(uint16_t u, uint16_t src, const struct r2c2_flow_evt& e);
    void Tick(uint16_t u);
    void Compute(uint16_t u);
    void PreparePair(const struct r2c2_flow& f);
    void Report(double wallS);
    void WindowOut(double simS);
    /* TCP baselines: ns-3's Internet stack over the same links */
    void SetupTcp();
    void StartTcpFlow(uint32_t fi);
    void TcpRx(uint32_t fi, uint32_t bytes);
    void Completed(Flow& f);
    /* the ideal baseline: per-flow queues and back-pressure at every port */
    std::vector<PfqPort> pfq;                      /* by node * 8 + port */
    std::unordered_map<uint64_t, uint32_t> pfqOcc; /* (port, flow): held + on the way */
    Ptr<Packet> BuildPacket(Flow& f, uint8_t* port);
    void PfqStartFlow(uint32_t fi);
    void PfqFill(uint32_t fi);
    void PfqRedraw(Flow& f);
    void PfqEnqueue(uint16_t u, uint8_t q, uint32_t fi, PfqItem it);
    void PfqTry(uint32_t uq);
    void PfqTxDone(uint32_t uq);
    void PfqWake(uint16_t u, uint32_t fi, uint8_t q);
    PfqItem PfqNext(uint16_t u, uint8_t q, Ptr<Packet> p);
    static uint64_t OccKey(uint32_t uq, uint32_t fi)
    {
        return static_cast<uint64_t>(uq) << 32 | fi;
    }
    uint32_t& Occ(uint32_t uq, uint32_t fi)
    {
        return pfqOcc[OccKey(uq, fi)];
    }
    /* a flow's id at its source, and the flow a data header names */
    void NewFlowId(uint32_t fi)
    {
        Flow& f = flows[fi];

        f.id = srcNextId[f.src]++;
        byKey[static_cast<uint64_t>(f.src) << 32 | f.id] = fi;
    }
    static constexpr uint32_t NO_FLOW = UINT32_MAX;
    uint32_t FlowOf(const struct r2c2_data_hdr& d)
    {
        auto it = byKey.find(static_cast<uint64_t>(r2c2_ntohs(d.src)) << 32 | ntohl(d.flow));

        return it == byKey.end() ? NO_FLOW : it->second;
    }
    std::vector<Ipv4Address> addr;
    std::vector<uint16_t> nextPort;
    std::unordered_map<uint32_t, uint16_t> nodeOfAddr;
    std::vector<Ipv4Address> peerAddr; /* per directed link: its far end's address */
};

/*
 * ECMP as a switch does it, for the TCP baselines: at every hop the next
 * hop among the minimal ones (r2c2_next_hops() of common/paths.c, RPS:
 * weighted by the minimal paths each leads to) chosen by a hash of the
 * flow's addresses and ports, so a flow keeps one shortest path and
 * different flows of the same two nodes take different ones.
 */
class EcmpRouting : public Ipv4RoutingProtocol
{
  public:
    Sim* sim = nullptr;
    uint16_t me = 0;
    Ptr<Ipv4> ipv4;

    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("R2c2EcmpRouting").SetParent<Ipv4RoutingProtocol>();
        return tid;
    }

    /* the output port for a packet of (src, dst, ports), or -1 */
    int Pick(const Ipv4Header& h, Ptr<const Packet> p, uint16_t* dnode) const
    {
        auto it = sim->nodeOfAddr.find(h.GetDestination().Get());
        auto is = sim->nodeOfAddr.find(h.GetSource().Get());
        uint16_t sport = 0, dport = 0;
        uint8_t ports[R2C2_MAX_PORTS];
        uint32_t w[R2C2_MAX_PORTS];
        uint64_t x, total = 0, r;
        int n, i;

        if (it == sim->nodeOfAddr.end())
            return -1;
        *dnode = it->second;
        if (it->second == me)
            return R2C2_MAX_PORTS;
        if (p && h.GetProtocol() == 6 && p->GetSize() >= 20) {
            TcpHeader th;
            p->PeekHeader(th);
            sport = th.GetSourcePort();
            dport = th.GetDestinationPort();
        }
        n = r2c2_next_hops(&sim->topo->paths,
                           R2C2_RP_RPS,
                           is == sim->nodeOfAddr.end() ? me : is->second,
                           me,
                           it->second,
                           ports,
                           w);
        if (n <= 0)
            return -1;
        x = (static_cast<uint64_t>(h.GetSource().Get()) << 32 | h.GetDestination().Get()) ^
            (static_cast<uint64_t>(sport) << 48 | static_cast<uint64_t>(dport) << 32 | me);
        x += 0x9e3779b97f4a7c15ull;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        x ^= x >> 31;
        for (i = 0; i < n; i++)
            total += w[i];
        r = x % total;
        for (i = 0; i < n - 1; i++) {
            if (r < w[i])
                break;
            r -= w[i];
        }
        return ports[i];
    }

    Ptr<Ipv4Route> Route(const Ipv4Header& h, int port) const
    {
        Ptr<Ipv4Route> rt = Create<Ipv4Route>();
        size_t l = static_cast<size_t>(me) * R2C2_MAX_PORTS + port;

        rt->SetDestination(h.GetDestination());
        rt->SetSource(sim->addr[me]);
        rt->SetGateway(sim->peerAddr[l]);
        rt->SetOutputDevice(sim->nodes[me].dev[port]);
        return rt;
    }

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& h,
                               Ptr<NetDevice>,
                               Socket::SocketErrno& err) override
    {
        uint16_t d;
        int port = Pick(h, p, &d);

        if (port < 0 || port == R2C2_MAX_PORTS) {
            err = Socket::ERROR_NOROUTETOHOST;
            return nullptr;
        }
        err = Socket::ERROR_NOTERROR;
        return Route(h, port);
    }

    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& h,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override
    {
        uint16_t d;
        int port = Pick(h, p, &d);

        if (port == R2C2_MAX_PORTS) {
            lcb(p, h, ipv4->GetInterfaceForDevice(idev));
            return true;
        }
        if (port < 0) {
            ecb(p, h, Socket::ERROR_NOROUTETOHOST);
            return true;
        }
        ucb(Route(h, port), p, h);
        return true;
    }

    void NotifyInterfaceUp(uint32_t) override
    {
    }

    void NotifyInterfaceDown(uint32_t) override
    {
    }

    void NotifyAddAddress(uint32_t, Ipv4InterfaceAddress) override
    {
    }

    void NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress) override
    {
    }

    void SetIpv4(Ptr<Ipv4> i) override
    {
        ipv4 = i;
    }

    void PrintRoutingTable(Ptr<OutputStreamWrapper>, Time::Unit) const override
    {
    }
};

std::string
Fmt(const char* f, ...)
{
    char b[512];
    va_list ap;

    va_start(ap, f);
    vsnprintf(b, sizeof(b), f, ap);
    va_end(ap);
    return b;
}

/*
 * The deepest a queue (a device's, or a queue disc of the TCP baselines)
 * has been, in bytes, into *deepest; its drops counted in *drops. Item:
 * what its Drop trace hands over (Packet or QueueDiscItem).
 */
template <typename Item>
void
WatchQueue(Ptr<Object> q, uint32_t* deepest, uint64_t* drops)
{
    q->TraceConnectWithoutContext("BytesInQueue",
                                  MakeBoundCallback(
                                      +[](uint32_t* mx, uint32_t, uint32_t now) {
                                          if (now > *mx)
                                              *mx = now;
                                      },
                                      deepest));
    q->TraceConnectWithoutContext(
        "Drop",
        MakeBoundCallback(+[](uint64_t* d, Ptr<const Item>) { (*d)++; }, drops));
}

/* CPU time of this thread: a round's cost whatever else the host runs */
double
ThreadCpuS()
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

bool
ParseProto(const std::string& s, uint8_t* p)
{
    if (s == "rps")
        *p = R2C2_RP_RPS;
    else if (s == "dor")
        *p = R2C2_RP_DOR;
    else if (s == "vlb")
        *p = R2C2_RP_VLB;
    else if (s == "wlb")
        *p = R2C2_RP_WLB;
    else
        return false;
    return true;
}

bool
Sim::Setup(std::string& err)
{
    char e[256] = "";
    uint8_t rp;
    int ret;

    linkBps = static_cast<double>(DataRate(c.linkRate).GetBitRate());
    if (!(linkBps > 0)) {
        err = "--link-rate: must be above 0";
        return false;
    }
    if (c.stack != "r2c2" && c.stack != "pfq" && !IsTcp(c.stack)) {
        err = "--stack: r2c2, pfq, tcp or dctcp, not '" + c.stack + "'";
        return false;
    }
    if (c.pfqPkts < 1 || c.pfqPkts > 100000) {
        err = "--pfq-pkts: 1 to 100000";
        return false;
    }
    if (c.tcpQueuePkts < 1 || !(c.dctcpK >= 1) || !(c.tcpMinRtoUs >= 1)) {
        err = "--tcp-queue-pkts, --dctcp-k, --tcp-min-rto-us: at least 1";
        return false;
    }
    if (c.control != "decentral" && c.control != "central") {
        err = "--control: decentral or central, not '" + c.control + "'";
        return false;
    }
    if (Central() && c.stack != "r2c2") {
        err = "--control=central: with --stack=r2c2 only";
        return false;
    }
    if (c.centralSend != "all" && c.centralSend != "changed") {
        err = "--central-send: all or changed, not '" + c.centralSend + "'";
        return false;
    }
    if (c.queuePkts < 1) {
        err = "--queue-pkts: at least 1";
        return false;
    }
    if (!ParseProto(c.proto, &rp)) {
        err = "--proto: rps, dor, vlb or wlb, not '" + c.proto + "'";
        return false;
    }
    if (!(c.rhoUs >= 1 && c.rhoUs <= 1e6)) {
        err = "--rho-us: 1 to 1000000";
        return false;
    }
    if (c.announceUs < 0)
        c.announceUs = c.rhoUs;
    if (!(c.headroom >= 0 && c.headroom < 1)) {
        err = "--headroom: 0 to below 1";
        return false;
    }
    if (c.payload < 1 || c.payload > 9000) {
        err = "--payload: 1 to 9000 bytes";
        return false;
    }
    if (c.initialRate == 0)
        c.initialRate = linkBps;
    if (!(c.initialRate > 0)) {
        err = "--initial-rate: above 0 (0: the link rate)";
        return false;
    }
    ret = r2c2_topo_parse(&topo, c.topo.c_str(), linkBps, e, sizeof(e));
    if (ret) {
        err = std::string("--topo: ") + (e[0] ? e : strerror(-ret));
        return false;
    }
    ret = r2c2_rtab_new(&rt, topo);
    if (ret) {
        err = std::string("--topo: tables: ") + r2c2_rtab_strerror(ret);
        return false;
    }
    ws = r2c2_ws_new();
    if (!ws) {
        err = "out of memory";
        return false;
    }
    rng.seed(c.seed);

    uint16_t n = topo->n;
    if (c.controller >= n) {
        err = Fmt("--controller: a node, 0 to %u", n - 1u);
        return false;
    }
    if (c.stack == "r2c2") {
        /*
         * a daemon's scratch space has grown to its matrix long before:
         * grow this one once, off the clock, so that no round is charged
         * for its first touch of memory (its own random stream: the
         * workload does not depend on it)
         */
        std::vector<struct r2c2_flow> wf(4096);
        std::vector<double> wr(wf.size());
        std::mt19937_64 wrng(c.seed ^ 0x5eedull);

        for (auto& f : wf) {
            f.src = static_cast<uint16_t>(wrng() % n);
            do
                f.dst = static_cast<uint16_t>(wrng() % n);
            while (f.dst == f.src);
            f.weight = 1;
            f.rproto = static_cast<uint8_t>(wrng() % __R2C2_RP_MAX);
            PreparePair(f);
        }
        if (n > 1 && r2c2_maxmin(rt, wf.data(), wf.size(), c.headroom, wr.data(), ws)) {
            err = "r2c2_maxmin: warming up failed";
            return false;
        }
    }
    nodes.resize(n);
    srcNextId.assign(n, 1);
    maxQueue.assign(static_cast<size_t>(n) * R2C2_MAX_PORTS, 0);
    for (uint16_t u = 0; u < n; u++) {
        nodes[u].node = CreateObject<Node>();
        /* the TCP baselines have no matrix (mx_fini() of a zeroed one is a no-op) */
        if (c.stack == "r2c2" && mx_init(&nodes[u].m, 1u << 20)) {
            err = "out of memory";
            return false;
        }
    }
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(c.linkRate));
    p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(c.linkDelayNs)));
    /* TCP: the queue is the queue disc's; the device holds a packet or two */
    p2p.SetQueue("ns3::DropTailQueue<Packet>",
                 "MaxSize",
                 QueueSizeValue(
                     QueueSize(QueueSizeUnit::PACKETS, IsTcp(c.stack) ? 2 : c.queuePkts)));
    for (uint16_t u = 0; u < n; u++) {
        for (uint8_t p = 0; p < R2C2_MAX_PORTS; p++) {
            size_t l = static_cast<size_t>(u) * R2C2_MAX_PORTS + p;
            uint16_t v = topo->nbr[l];
            uint8_t q = topo->nbr_port[l];

            if (v == R2C2_IDX_NONE || nodes[u].dev[p])
                continue;
            if (q >= R2C2_MAX_PORTS || nodes[v].dev[q]) {
                err = Fmt("--topo: link %u port %u: far end port unknown", u, p);
                return false;
            }
            NetDeviceContainer d = p2p.Install(nodes[u].node, nodes[v].node);
            nodes[u].dev[p] = DynamicCast<PointToPointNetDevice>(d.Get(0));
            nodes[v].dev[q] = DynamicCast<PointToPointNetDevice>(d.Get(1));
        }
    }
    for (uint16_t u = 0; u < n; u++) {
        for (uint8_t p = 0; p < R2C2_MAX_PORTS; p++) {
            if (!nodes[u].dev[p])
                continue;
            size_t l = static_cast<size_t>(u) * R2C2_MAX_PORTS + p;

            WatchQueue<Packet>(nodes[u].dev[p]->GetQueue(), &maxQueue[l], &drops);
        }
        if (IsTcp(c.stack))
            continue;
        nodes[u].node->RegisterProtocolHandler(
            MakeBoundCallback(+[](Sim* s,
                                  uint16_t me,
                                  Ptr<NetDevice> dev,
                                  Ptr<const Packet> p,
                                  uint16_t proto,
                                  const Address& from,
                                  const Address&,
                                  NetDevice::PacketType) { s->Receive(me, dev, p, proto, from); },
                              this,
                              u),
            SIM_PROTO,
            nullptr);
        if (c.stack == "pfq") {
            for (uint8_t p = 0; p < R2C2_MAX_PORTS; p++)
                if (nodes[u].dev[p])
                    nodes[u].dev[p]->TraceConnectWithoutContext(
                        "PhyTxEnd",
                        MakeBoundCallback(
                            +[](Sim* s, uint32_t uq, Ptr<const Packet>) {
                                /* after the device is done with this one */
                                Simulator::ScheduleNow(&Sim::PfqTxDone, s, uq);
                            },
                            this,
                            static_cast<uint32_t>(u) * R2C2_MAX_PORTS + p));
            continue;
        }
        /* every node ticks every rho, at its own phase (central: the controller on events) */
        Time phase = MicroSeconds(c.rhoUs * Uniform());
        if (!Central())
            Simulator::Schedule(phase, &Sim::Tick, this, u);
    }
    if (c.stack == "pfq")
        pfq.resize(static_cast<size_t>(n) * R2C2_MAX_PORTS);
    if (IsTcp(c.stack))
        SetupTcp();
    return true;
}

/*
 * The baselines: TCP NewReno over drop-tail queues, or DCTCP over RED
 * queues marking ECN at K packets (instantaneous queue), one shortest
 * path per flow (EcmpRouting below).
 */
void
Sim::SetupTcp()
{
    uint16_t n = topo->n;
    InternetStackHelper inet;
    TrafficControlHelper tch;
    Ipv4AddressHelper ip;

    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(c.payload - 52));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    /* a lost SYN is retried after the minimum RTO, not ns-3's 3 s */
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(MicroSeconds(c.tcpMinRtoUs)));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MicroSeconds(c.tcpMinRtoUs)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));
    if (c.stack == "dctcp") {
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpDctcp::GetTypeId()));
        Config::SetDefault("ns3::TcpSocketBase::UseEcn", EnumValue(TcpSocketState::On));
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MaxSize",
                             QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, c.tcpQueuePkts)),
                             "MinTh",
                             DoubleValue(c.dctcpK),
                             "MaxTh",
                             DoubleValue(c.dctcpK),
                             "QW",
                             DoubleValue(1),
                             "UseEcn",
                             BooleanValue(true),
                             "UseHardDrop",
                             BooleanValue(false),
                             "LinkBandwidth",
                             StringValue(c.linkRate),
                             "LinkDelay",
                             TimeValue(NanoSeconds(c.linkDelayNs)),
                             "MeanPktSize",
                             UintegerValue(c.payload));
    } else {
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
        tch.SetRootQueueDisc("ns3::FifoQueueDisc",
                             "MaxSize",
                             QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, c.tcpQueuePkts)));
    }
    for (uint16_t u = 0; u < n; u++) {
        Ptr<EcmpRouting> r = CreateObject<EcmpRouting>();

        r->sim = this;
        r->me = u;
        inet.SetRoutingHelper(Ipv4StaticRoutingHelper()); /* replaced below */
        inet.Install(nodes[u].node);
        nodes[u].node->GetObject<Ipv4>()->SetRoutingProtocol(r);
    }
    peerAddr.assign(static_cast<size_t>(n) * R2C2_MAX_PORTS, Ipv4Address());
    ip.SetBase("10.0.0.0", "255.255.255.252");
    addr.assign(n, Ipv4Address());
    nextPort.assign(n, 1000);
    for (uint16_t u = 0; u < n; u++) {
        for (uint8_t p = 0; p < R2C2_MAX_PORTS; p++) {
            size_t l = static_cast<size_t>(u) * R2C2_MAX_PORTS + p;
            uint16_t v = topo->nbr[l];
            uint8_t q = topo->nbr_port[l];

            /* one subnet a link, each link once: from its lower end */
            if (v == R2C2_IDX_NONE || v <= u)
                continue;
            NetDeviceContainer d;
            d.Add(nodes[u].dev[p]);
            d.Add(nodes[v].dev[q]);
            tch.Install(d);
            Ipv4InterfaceContainer ifs = ip.Assign(d);
            ip.NewNetwork();
            if (addr[u] == Ipv4Address())
                addr[u] = ifs.GetAddress(0);
            if (addr[v] == Ipv4Address())
                addr[v] = ifs.GetAddress(1);
            nodeOfAddr[ifs.GetAddress(0).Get()] = u;
            nodeOfAddr[ifs.GetAddress(1).Get()] = v;
            peerAddr[l] = ifs.GetAddress(1);
            peerAddr[static_cast<size_t>(v) * R2C2_MAX_PORTS + q] = ifs.GetAddress(0);
        }
    }
    for (uint16_t u = 0; u < n; u++) {
        for (uint8_t p = 0; p < R2C2_MAX_PORTS; p++) {
            if (!nodes[u].dev[p])
                continue;
            Ptr<TrafficControlLayer> tc = nodes[u].node->GetObject<TrafficControlLayer>();
            Ptr<QueueDisc> qd = tc->GetRootQueueDiscOnDevice(nodes[u].dev[p]);
            size_t l = static_cast<size_t>(u) * R2C2_MAX_PORTS + p;

            if (qd)
                WatchQueue<QueueDiscItem>(qd, &maxQueue[l], &drops);
        }
    }
}

void
Sim::StartTcpFlow(uint32_t fi)
{
    Flow& f = flows[fi];
    uint16_t port = nextPort[f.dst]++;
    Ptr<PacketSink> sink = CreateObject<PacketSink>();
    Ptr<BulkSendApplication> snd = CreateObject<BulkSendApplication>();

    if (port == 0) {
        NS_FATAL_ERROR("node " << f.dst << ": more than 64,535 flows in");
    }
    sink->SetAttribute("Protocol", TypeIdValue(TcpSocketFactory::GetTypeId()));
    sink->SetAttribute("Local", AddressValue(InetSocketAddress(Ipv4Address::GetAny(), port)));
    sink->TraceConnectWithoutContext(
        "Rx",
        MakeBoundCallback(+[](Sim* s, uint32_t i, Ptr<const Packet> p, const Address&) {
            s->TcpRx(i, p->GetSize());
        },
                          this,
                          fi));
    nodes[f.dst].node->AddApplication(sink);
    sink->SetStartTime(Seconds(0));
    snd->SetAttribute("Protocol", TypeIdValue(TcpSocketFactory::GetTypeId()));
    snd->SetAttribute("Remote", AddressValue(InetSocketAddress(addr[f.dst], port)));
    snd->SetAttribute("MaxBytes", UintegerValue(f.size));
    snd->SetAttribute("SendSize", UintegerValue(c.payload - 52));
    nodes[f.src].node->AddApplication(snd);
    snd->SetStartTime(Seconds(0));
    sink->Initialize();
    snd->Initialize();
}

void
Sim::TcpRx(uint32_t fi, uint32_t bytes)
{
    Flow& f = flows[fi];

    f.rcvd += bytes;
    rcvdTotal += bytes;
    if (f.rcvd >= f.size)
        Completed(f);
}

/* a flow's last byte arrived in order: its FCT ends now */
void
Sim::Completed(Flow& f)
{
    if (f.done)
        return;
    f.done = true;
    f.finish = Simulator::Now();
    nDone++;
    /* the last FINISH broadcasts still reach every node */
    if (nDone == flows.size() && c.stopMs <= 0)
        Simulator::Stop(MilliSeconds(1));
}

/* Pareto(shape, scale) with the given mean, optionally capped */
void
Sim::Workload()
{
    double scale = c.meanSize * (c.shape - 1) / c.shape;
    double t = 0;
    uint8_t rp;
    uint16_t n = topo->n;

    ParseProto(c.proto, &rp);
    for (uint32_t i = 0; i < c.flows; i++) {
        Flow f;
        double sz = scale / std::pow(Uniform(), 1 / c.shape);

        if (c.maxSize > 0 && sz > c.maxSize)
            sz = c.maxSize;
        t += -std::log(Uniform()) * c.tauUs;
        f.src = static_cast<uint16_t>(Rand32() % n);
        do
            f.dst = static_cast<uint16_t>(Rand32() % n);
        while (f.dst == f.src);
        f.size = std::max<uint64_t>(1, static_cast<uint64_t>(sz));
        f.start = NanoSeconds(static_cast<int64_t>(t * 1000));
        f.rproto = rp;
        f.index = i;
        flows.push_back(f);
    }
}

/* a flow file: "SRC DST SIZE START_US [rps|dor|vlb|wlb]" a line, # comments */
bool
Sim::LoadFlows(std::string& err)
{
    std::ifstream in(c.flowFile);
    std::string line;
    unsigned int ln = 0;
    uint8_t rp;

    if (!in) {
        err = "--flows-file: cannot open " + c.flowFile;
        return false;
    }
    ParseProto(c.proto, &rp);
    while (std::getline(in, line)) {
        ln++;
        size_t h = line.find('#');
        if (h != std::string::npos)
            line.erase(h);
        std::istringstream ss(line);
        long long src, dst;
        double size, st;
        std::string pr;
        if (!(ss >> src)) {
            continue;
        }
        if (!(ss >> dst >> size >> st)) {
            err = Fmt("%s:%u: expected SRC DST SIZE START_US", c.flowFile.c_str(), ln);
            return false;
        }
        Flow f;
        f.rproto = rp;
        if (ss >> pr && !ParseProto(pr, &f.rproto)) {
            err = Fmt("%s:%u: routing '%s': rps, dor, vlb or wlb", c.flowFile.c_str(), ln, pr.c_str());
            return false;
        }
        if (src < 0 || dst < 0 || src >= topo->n || dst >= topo->n || src == dst) {
            err = Fmt("%s:%u: nodes 0..%u, two different", c.flowFile.c_str(), ln, topo->n - 1);
            return false;
        }
        if (!(size >= 1 && size <= 1e15) || !(st >= 0 && st <= 1e12)) {
            err = Fmt("%s:%u: SIZE 1..1e15 bytes, START_US 0..1e12", c.flowFile.c_str(), ln);
            return false;
        }
        f.src = static_cast<uint16_t>(src);
        f.dst = static_cast<uint16_t>(dst);
        f.size = static_cast<uint64_t>(size);
        f.start = NanoSeconds(static_cast<int64_t>(st * 1000));
        f.index = static_cast<uint32_t>(flows.size());
        flows.push_back(f);
    }
    if (flows.empty()) {
        err = c.flowFile + ": no flows";
        return false;
    }
    return true;
}

void
Sim::StartFlow(uint32_t fi)
{
    Flow& f = flows[fi];
    SimNode& s = nodes[f.src];

    NewFlowId(fi);
    s.own.push_back(fi);
    f.rate = c.initialRate;
    f.nextSend = Simulator::Now();
    f.announceEv = Simulator::Schedule(MicroSeconds(c.announceUs), &Sim::Announce, this, fi);
    SendNext(fi);
}

/* sch_r2c2's announcement: the source's matrix learns it, the rack hears it */
void
Sim::Announce(uint32_t fi)
{
    Flow& f = flows[fi];
    struct mx_evt e = {};

    if (f.sendDone)
        return;
    f.announced = true;
    e.type = R2C2_FE_START;
    e.src = f.src;
    e.id = f.id;
    e.dst = f.dst;
    e.weight = 1;
    e.prio = 0;
    e.rproto = f.rproto;
    e.demand_kbps = R2C2_DEMAND_UNLIMITED;
    flowEvents++;
    if (Central()) {
        Report2Controller(R2C2_FE_START, f);
        return;
    }
    mx_apply(&nodes[f.src].m, &e, static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()));
    Broadcast(f.src, R2C2_FE_START, f);
}

/* sch_r2c2's FINISH: the flow sent its last packet finish-idle-us ago */
void
Sim::Finish(uint32_t fi)
{
    Flow& f = flows[fi];
    struct mx_evt e = {};

    e.type = R2C2_FE_FINISH;
    e.src = f.src;
    e.id = f.id;
    flowEvents++;
    if (Central()) {
        Report2Controller(R2C2_FE_FINISH, f);
        return;
    }
    mx_apply(&nodes[f.src].m, &e, static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()));
    Broadcast(f.src, R2C2_FE_FINISH, f);
}

/* the flow event r2c2.ko broadcasts (and the centralised design unicasts) */
void
Sim::FillEvt(struct r2c2_flow_evt* ev, uint8_t type, const Flow& f)
{
    memset(ev, 0, sizeof(*ev));
    ev->flow = htonl(f.id);
    ev->dst = r2c2_htons(f.dst);
    ev->weight = 1;
    ev->evt_prio = static_cast<uint8_t>(type << 4);
    ev->rproto_demand = htonl(static_cast<uint32_t>(f.rproto) << 30 | R2C2_DEMAND_UNLIMITED);
}

/* a message of frameBytes sent over hops links */
void
Sim::Offer(uint32_t frameBytes, uint32_t hops)
{
    ctlMsgs++;
    ctlOffered += static_cast<uint64_t>(frameBytes) * hops;
    /* the PPP header's 2 bytes and the FCS's 4 make the Ethernet frame */
    ctlOfferedEth += static_cast<uint64_t>(std::max<uint32_t>(64, frameBytes + 6) + 20) * hops;
}

void
Sim::Broadcast(uint16_t s, uint8_t type, const Flow& f)
{
    SimNode& sn = nodes[s];
    R2c2Header h;
    struct r2c2_ctl_hdr* ch = h.Ctl();
    struct r2c2_flow_evt* ev = h.Evt();
    /* as r2c2.ko: a flow's events on one tree, so they arrive in order */
    uint8_t tree = static_cast<uint8_t>(f.id % TREES);
    uint8_t mask = r2c2_tree_ports(&topo->paths, s, tree, s);

    h.len = R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN;
    memset(h.buf, 0, sizeof(h.buf));
    ch->ver_type = r2c2_ver_type(R2C2_T_FLOW);
    ch->tree = tree;
    ch->src = r2c2_htons(s);
    ch->seq = r2c2_htons(sn.bseq++);
    FillEvt(ev, type, f);
    ch->csum = r2c2_ctl_csum(ch, ev, R2C2_FLOW_EVT_LEN);
    /* a tree reaches every other node once: n - 1 links */
    Offer(ETH_PAD + h.len, topo->n - 1u);
    for (uint8_t p = 0; p < R2C2_MAX_PORTS; p++) {
        if (!(mask & (1u << p)) || !sn.dev[p])
            continue;
        Ptr<Packet> pk = Create<Packet>();
        pk->AddHeader(h);
        ctlPkts++;
        ctlHops++;
        ctlBytes += pk->GetSize();
        sn.dev[p]->Send(pk, sn.dev[p]->GetBroadcast(), SIM_PROTO);
    }
}

/* the rate sch_r2c2 applies: the wait already scheduled is scaled */
void
Sim::SetRate(Flow& f, double bps)
{
    if (bps <= 0 || bps == f.rate)
        return;
    if (f.sendEv.IsRunning()) {
        Time left = f.nextSend - Simulator::Now();
        Time scaled = NanoSeconds(
            static_cast<int64_t>(static_cast<double>(left.GetNanoSeconds()) * f.rate / bps));
        uint32_t fi = static_cast<uint32_t>(&f - flows.data());

        f.sendEv.Cancel();
        f.nextSend = Simulator::Now() + scaled;
        f.sendEv = Simulator::Schedule(scaled, &Sim::SendNext, this, fi);
    }
    f.rate = bps;
}

/* a data header (struct r2c2_data_hdr) with its route, at its first hop */
void
Sim::FillData(R2c2Header& h, uint8_t rproto, uint32_t flow, uint16_t from, uint16_t to,
              uint32_t seq, uint32_t plen, const uint8_t* hops, int nh)
{
    struct r2c2_data_hdr* d = h.Data();

    h.len = R2C2_DATA_HLEN;
    memset(h.buf, 0, sizeof(h.buf));
    d->ver_type = r2c2_ver_type(R2C2_T_DATA);
    d->rlen = static_cast<uint8_t>(nh);
    d->ridx = 1;
    d->rproto = rproto;
    d->flow = htonl(flow);
    d->src = r2c2_htons(from);
    d->dst = r2c2_htons(to);
    d->seq = htonl(seq);
    d->plen = r2c2_htons(static_cast<uint16_t>(plen));
    r2c2_route_pack(d->route, hops, static_cast<unsigned int>(nh));
    d->csum = r2c2_data_csum(d);
}

/* a flow's next data packet on a route of its protocol; *port: its first hop */
Ptr<Packet>
Sim::BuildPacket(Flow& f, uint8_t* port)
{
    uint8_t hops[R2C2_MAX_HOPS];
    R2c2Header h;
    uint32_t plen = static_cast<uint32_t>(std::min<uint64_t>(c.payload, f.size - f.sent));
    int nh = r2c2_route_sample(&topo->paths, f.rproto, f.src, f.dst, &Sim::RandCb, this, hops);

    if (nh <= 0) {
        NS_FATAL_ERROR("no route " << f.src << " -> " << f.dst);
    }
    FillData(h, f.rproto, f.id, f.src, f.dst, f.nextSeq++, plen, hops, nh);

    Ptr<Packet> pk = Create<Packet>(plen);
    pk->AddHeader(h);
    f.sent += plen;
    *port = hops[0];
    return pk;
}

void
Sim::SendNext(uint32_t fi)
{
    Flow& f = flows[fi];
    SimNode& s = nodes[f.src];
    uint8_t port;
    Ptr<Packet> pk = BuildPacket(f, &port);

    dataPkts++;
    dataBytes += pk->GetSize();
    s.dev[port]->Send(pk, s.dev[port]->GetBroadcast(), SIM_PROTO);
    if (f.sent >= f.size) {
        f.sendDone = true;
        s.own.erase(std::find(s.own.begin(), s.own.end(), fi));
        if (f.announced)
            Simulator::Schedule(MicroSeconds(c.finishIdleUs), &Sim::Finish, this, fi);
        else
            f.announceEv.Cancel();
        return;
    }
    /* the token bucket of one flow: next packet when this one is paid */
    double bits = 8.0 * (pk->GetSize() + 2); /* + PPP */
    Time gap = NanoSeconds(static_cast<int64_t>(std::ceil(bits / f.rate * 1e9)));
    f.nextSend = Simulator::Now() + gap;
    f.sendEv = Simulator::Schedule(gap, &Sim::SendNext, this, fi);
}

bool
Sim::Receive(uint16_t u,
             Ptr<NetDevice>,
             Ptr<const Packet> p,
             uint16_t,
             const Address&)
{
    Ptr<Packet> pk = p->Copy();
    R2c2Header h;
    SimNode& me = nodes[u];

    pk->RemoveHeader(h);
    if (h.len < 1) {
        badFrames++;
        return true;
    }
    if (r2c2_hdr_type(h.buf[0]) == R2C2_T_DATA && h.len == R2C2_DATA_HLEN) {
        struct r2c2_data_hdr* d = h.Data();

        if (r2c2_ntohs(d->dst) == u) {
            if (ntohl(d->flow) == CTL_FLOW)
                CtlRx(u, *d, pk);
            else
                Deliver(u, *d, pk->GetSize());
            return true;
        }
        if (d->ridx >= d->rlen) {
            badFrames++;
            return true;
        }
        uint8_t port = r2c2_route_get(d->route, d->ridx);
        if (port >= R2C2_MAX_PORTS || !me.dev[port]) {
            badFrames++;
            return true;
        }
        d->ridx++;
        pk->AddHeader(h);
        if (c.stack == "pfq") {
            uint32_t fi = FlowOf(*d);

            if (fi == NO_FLOW) {
                badFrames++;
                return true;
            }
            /* its room here was taken when the last hop sent it */
            PfqEnqueue(u, port, fi, PfqNext(u, port, pk));
            return true;
        }
        if (ntohl(d->flow) == CTL_FLOW) {
            ctlHops++;
            ctlBytes += pk->GetSize();
        } else {
            forwards++;
            dataBytes += pk->GetSize();
        }
        me.dev[port]->Send(pk, me.dev[port]->GetBroadcast(), SIM_PROTO);
        return true;
    }
    if (r2c2_hdr_type(h.buf[0]) == R2C2_T_FLOW && h.len == R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN) {
        struct r2c2_ctl_hdr* ch = h.Ctl();
        uint16_t s = r2c2_ntohs(ch->src);
        uint8_t mask;

        uint16_t sum = ch->csum;

        ch->csum = 0;
        if (s >= topo->n || ch->tree >= R2C2_MAX_TREES ||
            r2c2_ctl_csum(ch, h.Evt(), R2C2_FLOW_EVT_LEN) != sum) {
            badFrames++;
            return true;
        }
        ch->csum = sum;
        HearEvent(u, s, *h.Evt());
        mask = r2c2_tree_ports(&topo->paths, s, ch->tree, u);
        for (uint8_t q = 0; q < R2C2_MAX_PORTS; q++) {
            if (!(mask & (1u << q)) || !me.dev[q])
                continue;
            Ptr<Packet> c2 = pk->Copy();
            c2->AddHeader(h);
            ctlHops++;
            ctlBytes += c2->GetSize();
            me.dev[q]->Send(c2, me.dev[q]->GetBroadcast(), SIM_PROTO);
        }
        return true;
    }
    badFrames++;
    return true;
}

void
Sim::HearEvent(uint16_t u, uint16_t src, const struct r2c2_flow_evt& ev)
{
    struct mx_evt e = {};
    uint32_t rd = ntohl(ev.rproto_demand);

    e.type = ev.evt_prio >> 4;
    e.src = src;
    e.id = ntohl(ev.flow);
    e.dst = r2c2_ntohs(ev.dst);
    e.weight = ev.weight;
    e.prio = ev.evt_prio & 0xf;
    e.rproto = static_cast<uint8_t>(rd >> 30);
    e.demand_kbps = rd & R2C2_DEMAND_UNLIMITED;
    mx_apply(&nodes[u].m, &e, static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()));
}

/* the receiver: in-order delivery through a resequencing buffer */
void
Sim::Deliver(uint16_t, const struct r2c2_data_hdr& h, uint32_t plen)
{
    uint32_t fi = FlowOf(h);

    if (fi == NO_FLOW) {
        badFrames++;
        return;
    }
    Flow& f = flows[fi];
    uint32_t seq = ntohl(h.seq);

    f.rcvd += plen;
    rcvdTotal += plen;
    if (seq == f.expect) {
        f.expect++;
        while (!f.held.empty() && *f.held.begin() == f.expect) {
            f.held.erase(f.held.begin());
            f.expect++;
        }
    } else if (seq > f.expect) {
        f.held.insert(seq);
        f.maxHeld = std::max<uint32_t>(f.maxHeld, static_cast<uint32_t>(f.held.size()));
    }
    if (f.rcvd >= f.size && f.held.empty())
        Completed(f);
}

/*
 * PFQ, the paper's ideal baseline: every output port keeps a queue a
 * flow and serves them in turn, one packet each; a port sends a flow's
 * packet only when the next port it will wait at holds fewer than
 * --pfq-pkts of that flow (counting packets on the way): back-pressure
 * hop by hop, up to the source, which makes a flow's next packet only
 * when a first port of its routes has room (PfqFill()). Nothing is dropped; a flow gets the
 * max-min fair share of every link along its routes (RPS, VLB, DOR as
 * for R2C2), with no rate computation and no broadcasts.
 */
PfqItem
Sim::PfqNext(uint16_t u, uint8_t q, Ptr<Packet> p)
{
    PfqItem it;
    R2c2Header h;

    p->PeekHeader(h);
    const struct r2c2_data_hdr* d = h.Data();
    it.p = p;
    it.v = topo->nbr[static_cast<size_t>(u) * R2C2_MAX_PORTS + q];
    it.last = r2c2_ntohs(d->dst) == it.v;
    it.vq = it.last ? 0 : r2c2_route_get(d->route, d->ridx);
    return it;
}

void
Sim::PfqStartFlow(uint32_t fi)
{
    NewFlowId(fi);
    PfqFill(fi);
}

/*
 * The source: packets into their first port while it has room for them.
 * A packet whose route starts at a port without room is given another
 * route of its protocol, up to PFQ_REDRAWS draws: an ideal source sprays
 * over every first port that has room, and does not wait on one while
 * another idles (the minimal first hops of a torus are at most six).
 */
#define PFQ_REDRAWS 16

void
Sim::PfqFill(uint32_t fi)
{
    Flow& f = flows[fi];
    uint32_t base = static_cast<uint32_t>(f.src) * R2C2_MAX_PORTS;

    while (f.pending || !f.sendDone) {
        if (!f.pending) {
            f.pending = BuildPacket(f, &f.pendPort);
            if (f.sent >= f.size)
                f.sendDone = true;
        }
        for (int k = 0; k < PFQ_REDRAWS && f.rproto != R2C2_RP_DOR &&
                        Occ(base + f.pendPort, fi) >= c.pfqPkts;
             k++)
            PfqRedraw(f);
        uint32_t& o = Occ(base + f.pendPort, fi);
        if (o >= c.pfqPkts)
            return;
        o++;
        Ptr<Packet> p = f.pending;
        f.pending = nullptr;
        PfqEnqueue(f.src, f.pendPort, fi, PfqNext(f.src, f.pendPort, p));
    }
}

/* pfq: the flow's next packet, not yet sent, on a new draw of its route */
void
Sim::PfqRedraw(Flow& f)
{
    uint8_t hops[R2C2_MAX_HOPS];
    R2c2Header h;

    f.pending->RemoveHeader(h);
    struct r2c2_data_hdr* d = h.Data();
    int nh = r2c2_route_sample(&topo->paths, f.rproto, f.src, f.dst, &Sim::RandCb, this, hops);
    if (nh <= 0) {
        NS_FATAL_ERROR("no route " << f.src << " -> " << f.dst);
    }
    d->rlen = static_cast<uint8_t>(nh);
    r2c2_route_pack(d->route, hops, static_cast<unsigned int>(nh));
    d->csum = r2c2_data_csum(d);
    f.pending->AddHeader(h);
    f.pendPort = hops[0];
}

void
Sim::PfqEnqueue(uint16_t u, uint8_t q, uint32_t fi, PfqItem it)
{
    uint32_t uq = static_cast<uint32_t>(u) * R2C2_MAX_PORTS + q;
    PfqPort& P = pfq[uq];
    auto& dq = P.q[fi];

    if (dq.empty())
        P.rr.push_back(fi);
    P.bytes += it.p->GetSize();
    maxQueue[uq] = std::max<uint32_t>(maxQueue[uq], static_cast<uint32_t>(P.bytes));
    dq.push_back(it);
    PfqTry(uq);
}

/* the port is free: the next flow in turn whose next port has room */
void
Sim::PfqTry(uint32_t uq)
{
    PfqPort& P = pfq[uq];
    uint16_t u = static_cast<uint16_t>(uq / R2C2_MAX_PORTS);
    uint8_t q = static_cast<uint8_t>(uq % R2C2_MAX_PORTS);

    if (P.busy)
        return;
    for (size_t n = P.rr.size(); n > 0; n--) {
        uint32_t fi = P.rr.front();
        auto qi = P.q.find(fi);
        PfqItem& it = qi->second.front();

        /* the next port's count: a reference stays valid as others come and go */
        uint32_t* next =
            it.last ? nullptr : &Occ(static_cast<uint32_t>(it.v) * R2C2_MAX_PORTS + it.vq, fi);

        P.rr.pop_front();
        if (next && *next >= c.pfqPkts) {
            P.rr.push_back(fi);
            continue;
        }
        PfqItem go = it;
        qi->second.pop_front();
        if (qi->second.empty())
            P.q.erase(qi);
        else
            P.rr.push_back(fi);
        P.bytes -= go.p->GetSize();
        if (next)
            ++*next;
        auto oi = pfqOcc.find(OccKey(uq, fi));
        if (--oi->second == 0)
            pfqOcc.erase(oi);
        if (u == flows[fi].src)
            dataPkts++;
        else
            forwards++;
        dataBytes += go.p->GetSize();
        P.busy = true;
        nodes[u].dev[q]->Send(go.p, nodes[u].dev[q]->GetBroadcast(), SIM_PROTO);
        PfqWake(u, fi, q);
        return;
    }
}

void
Sim::PfqTxDone(uint32_t uq)
{
    pfq[uq].busy = false;
    PfqTry(uq);
}

/*
 * room for flow fi at port q of u: whoever may be waiting for it, after
 * this event (no recursion through the rack): the source, or the ports
 * of u's neighbours that face u
 */
void
Sim::PfqWake(uint16_t u, uint32_t fi, uint8_t q)
{
    Flow& f = flows[fi];

    if (u == f.src && f.pending && (f.pendPort == q || f.rproto != R2C2_RP_DOR))
        Simulator::ScheduleNow(&Sim::PfqFill, this, fi);
    for (uint8_t p = 0; p < R2C2_MAX_PORTS; p++) {
        size_t l = static_cast<size_t>(u) * R2C2_MAX_PORTS + p;
        uint16_t w = topo->nbr[l];

        if (w == R2C2_IDX_NONE || !nodes[u].dev[p])
            continue;
        uint32_t wq = static_cast<uint32_t>(w) * R2C2_MAX_PORTS + topo->nbr_port[l];
        if (!pfq[wq].busy && pfq[wq].q.count(fi))
            Simulator::ScheduleNow(&Sim::PfqTry, this, wq);
    }
}

void
Sim::Tick(uint16_t u)
{
    SimNode& n = nodes[u];

    /* as r2c2d: a round when the matrix changed and we have flows to rate */
    if (n.m.gen != n.lastGen) {
        n.lastGen = n.m.gen;
        bool any = false;
        for (uint32_t fi : n.own)
            any |= flows[fi].announced;
        if (any)
            Compute(u);
    }
    Simulator::Schedule(MicroSeconds(c.rhoUs), &Sim::Tick, this, u);
}

/* the pair's link weights in the tables (a torus has them all but WLB's) */
void
Sim::PreparePair(const struct r2c2_flow& f)
{
    int r;

    if (r2c2_rtab_prepared(rt, f.src, f.dst, f.rproto))
        return;
    r = r2c2_rtab_prepare(rt, f.src, f.dst, f.rproto);
    if (r)
        NS_FATAL_ERROR("tables: " << r2c2_rtab_strerror(r));
}

/* compute() of r2c2d: the matrix into r2c2_flow, max-min, own rates pushed */
void
Sim::Compute(uint16_t u)
{
    SimNode& n = nodes[u];

    Solve(u);
    for (uint32_t fi : n.own) {
        Flow& f = flows[fi];
        uint32_t j;

        if (!f.announced)
            continue;
        j = mx_find(&n.m, f.src, f.id);
        if (j == MX_NONE || !(n.m.f[j].rate > 0))
            continue;
        f.rated = true;
        pushes++;
        SetRate(f, n.m.f[j].rate);
    }
}

/* max-min over node u's matrix, each flow's rate into it; the flows rated */
size_t
Sim::Solve(uint16_t u)
{
    SimNode& n = nodes[u];
    size_t k = 0;
    double t0;

    scratchFlow.resize(n.m.n + 1);
    scratchIdx.resize(n.m.n + 1);
    scratchRate.resize(n.m.n + 1);
    t0 = ThreadCpuS();
    for (uint32_t j = 0; j < n.m.n; j++)
        if (mx_alloc_flow(&n.m.f[j], topo->n, &scratchFlow[k]))
            scratchIdx[k++] = j;
    /*
     * a graph (a mesh) computes a pair's weights on first use: as r2c2d,
     * that is table work, done before the round and not charged to it;
     * a torus's tables have every pair but WLB's
     */
    for (size_t j = 0; j < k; j++) {
        const struct r2c2_flow& sf = scratchFlow[j];

        if (topo->kind == R2C2_TOPO_TORUS && sf.rproto != R2C2_RP_WLB)
            continue;
        if (!r2c2_rtab_prepared(rt, sf.src, sf.dst, sf.rproto)) {
            double tp = ThreadCpuS();

            PreparePair(sf);
            t0 += ThreadCpuS() - tp;
        }
    }
    if (r2c2_maxmin(rt, scratchFlow.data(), k, c.headroom, scratchRate.data(), ws)) {
        NS_FATAL_ERROR("r2c2_maxmin failed at node " << u);
    }
    for (size_t j = 0; j < k; j++)
        n.m.f[scratchIdx[j]].rate = scratchRate[j];
    double dt = ThreadCpuS() - t0;
    computeCpuS += dt;
    roundUs.push_back(dt * 1e6);
    roundFlows.push_back(static_cast<double>(k));
    if (getenv("R2C2_SIM_DEBUG") && dt > 3e-4)
        fprintf(stderr, "round at node %u: %zu flows, %.0f us\n", u, k, dt * 1e6);
    rounds++;
    return k;
}

/*
 * The centralised design (the paper's Figure 19, as Fastpass): a source
 * sends its flow events to the controller alone; the controller rates
 * the rack after every event (events arriving at the same instant
 * together) and sends each node that sources a flow one message with
 * the rates of all its flows (--central-send=changed: only a node one
 * of whose rates changed).
 */
void
Sim::Report2Controller(uint8_t type, const Flow& f)
{
    struct r2c2_flow_evt ev;
    uint16_t k = static_cast<uint16_t>(c.controller);

    FillEvt(&ev, type, f);
    if (f.src == k) {
        ControllerHears(f.src, ev);
        return;
    }
    CtlSend(f.src, k, CTL_KIND_EVT, reinterpret_cast<const uint8_t*>(&ev), sizeof(ev));
}

/* the controller applies an event; a round follows the events of this instant */
void
Sim::ControllerHears(uint16_t src, const struct r2c2_flow_evt& ev)
{
    HearEvent(static_cast<uint16_t>(c.controller), src, ev);
    heard++;
    if (!centralDue) {
        centralDue = true;
        Simulator::ScheduleNow(&Sim::CentralRound, this);
    }
}

/* a message of the centralised design, source-routed (DOR) to node to */
void
Sim::CtlSend(uint16_t from, uint16_t to, uint32_t kind, const uint8_t* body, uint32_t len)
{
    uint8_t hops[R2C2_MAX_HOPS];
    R2c2Header h;
    int nh = r2c2_route_sample(&topo->paths, R2C2_RP_DOR, from, to, &Sim::RandCb, this, hops);

    if (nh <= 0) {
        NS_FATAL_ERROR("no route " << from << " -> " << to);
    }
    FillData(h, R2C2_RP_DOR, CTL_FLOW, from, to, kind, len, hops, nh);

    Ptr<Packet> pk = Create<Packet>(body, len);
    pk->AddHeader(h);
    Offer(pk->GetSize(), static_cast<uint32_t>(nh));
    ctlPkts++;
    ctlHops++;
    ctlBytes += pk->GetSize();
    nodes[from].dev[hops[0]]->Send(pk, nodes[from].dev[hops[0]]->GetBroadcast(), SIM_PROTO);
}

/* a message of the centralised design reached node u */
void
Sim::CtlRx(uint16_t u, const struct r2c2_data_hdr& d, Ptr<Packet> body)
{
    uint32_t kind = ntohl(d.seq);
    uint32_t len = body->GetSize();
    uint16_t src = r2c2_ntohs(d.src);
    std::vector<uint8_t> b(len);

    body->CopyData(b.data(), len);
    if (kind == CTL_KIND_EVT && u == c.controller && len == R2C2_FLOW_EVT_LEN &&
        src < topo->n) {
        struct r2c2_flow_evt ev;

        memcpy(&ev, b.data(), sizeof(ev));
        ControllerHears(src, ev);
        return;
    }
    if (kind == CTL_KIND_RATES && src == c.controller && len % CTL_RATE_LEN == 0) {
        for (uint32_t o = 0; o < len; o += CTL_RATE_LEN) {
            uint32_t id, kbps;

            memcpy(&id, &b[o], 4);
            memcpy(&kbps, &b[o + 4], 4);
            ApplyRate(u, ntohl(id), ntohl(kbps) * 1e3);
        }
        return;
    }
    badFrames++;
}

/* a rate for flow id of source src reached it: its pacer takes it */
void
Sim::ApplyRate(uint16_t src, uint32_t id, double bps)
{
    auto it = byKey.find(static_cast<uint64_t>(src) << 32 | id);

    if (it == byKey.end() || !(bps > 0))
        return;
    Flow& f = flows[it->second];
    if (f.sendDone)
        return;
    f.rated = true;
    pushes++;
    SetRate(f, bps);
}

void
Sim::CentralRound()
{
    uint16_t k = static_cast<uint16_t>(c.controller);
    struct mx& m = nodes[k].m;
    /* the flows of each source, in the matrix's order */
    std::vector<std::vector<uint32_t>> bySrc(topo->n);
    uint32_t per = std::max<uint32_t>(1, c.payload / CTL_RATE_LEN);

    centralDue = false;
    Solve(k);
    for (uint32_t j = 0; j < m.n; j++)
        if (m.f[j].rate > 0)
            bySrc[m.f[j].src].push_back(j);
    for (uint16_t s = 0; s < topo->n; s++) {
        auto& js = bySrc[s];
        bool changed = false;

        for (uint32_t j : js)
            changed |= m.f[j].rate != m.f[j].pushed;
        if (js.empty() || (c.centralSend == "changed" && !changed))
            continue;
        for (uint32_t j : js)
            m.f[j].pushed = m.f[j].rate;
        if (s == k) {
            for (uint32_t j : js)
                ApplyRate(s, m.f[j].id, m.f[j].rate);
            continue;
        }
        /* as many frames as the payload needs */
        for (size_t o = 0; o < js.size(); o += per) {
            size_t e = std::min<size_t>(js.size(), o + per);
            std::vector<uint8_t> b((e - o) * CTL_RATE_LEN);

            for (size_t i = o; i < e; i++) {
                const struct mx_flow& mf = m.f[js[i]];
                uint32_t id = htonl(mf.id);
                uint32_t kbps = htonl(static_cast<uint32_t>(
                    std::min(mf.rate / 1e3, 4294967295.0)));

                memcpy(&b[(i - o) * CTL_RATE_LEN], &id, 4);
                memcpy(&b[(i - o) * CTL_RATE_LEN + 4], &kbps, 4);
            }
            CtlSend(k, s, CTL_KIND_RATES, b.data(), static_cast<uint32_t>(b.size()));
        }
    }
}

double
Pct(std::vector<double> v, double q)
{
    if (v.empty())
        return NAN;
    std::sort(v.begin(), v.end());
    size_t i = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
    return v[std::min(i, v.size() - 1)];
}

/*
 * --window-out: over the --measure-from-ms window, each flow's goodput
 * (payload bytes received in the window / the window) and each directed
 * link's deepest queue, as "flow" and "link" rows of a TSV
 */
void
Sim::WindowOut(double simS)
{
    FILE* o = fopen(c.windowOut.c_str(), "w");
    double w = simS - c.measureFromMs / 1e3;

    if (!o) {
        NS_FATAL_ERROR("--window-out: cannot write " << c.windowOut);
    }
    fprintf(o, "# r2c2-sim window from_ms %g to_ms %g; flow INDEX SRC DST GOODPUT_BPS; "
               "link NODE PORT NBR MAX_QUEUE_BYTES\n",
            c.measureFromMs, simS * 1e3);
    for (auto& f : flows)
        fprintf(o, "flow\t%u\t%u\t%u\t%.0f\n", f.index, f.src, f.dst,
                w > 0 ? static_cast<double>(f.rcvd - f.rcvdAtMark) * 8 / w : 0.0);
    for (size_t l = 0; l < maxQueue.size(); l++)
        if (topo->nbr[l] != R2C2_IDX_NONE)
            fprintf(o, "link\t%zu\t%zu\t%u\t%u\n", l / R2C2_MAX_PORTS, l % R2C2_MAX_PORTS,
                    static_cast<unsigned>(topo->nbr[l]), maxQueue[l]);
    fclose(o);
}

void
Sim::Report(double wallS)
{
    std::vector<double> shortFct, longTput;
    uint32_t maxHeld = 0;
    uint32_t maxQ = 0;
    uint64_t left = 0, unknownFin = 0, announced = 0;
    double simS = Simulator::Now().GetSeconds();

    for (auto& f : flows) {
        maxHeld = std::max(maxHeld, f.maxHeld);
        if (!f.done)
            continue;
        double fct = (f.finish - f.start).GetSeconds();
        if (f.size < 100000)
            shortFct.push_back(fct * 1e6);
        if (f.size >= 1000000)
            longTput.push_back(8.0 * static_cast<double>(f.size) / fct / 1e9);
    }
    std::vector<double> qmax, held;
    for (size_t l = 0; l < maxQueue.size(); l++) {
        if (topo->nbr[l] == R2C2_IDX_NONE)
            continue;
        uint32_t m = std::max(maxQueue[l], l < maxQueueAtMark.size() ? maxQueueAtMark[l] : 0);
        maxQ = std::max(maxQ, m);
        qmax.push_back(m);
    }
    for (auto& f : flows)
        held.push_back(f.maxHeld);
    for (auto& f : flows)
        announced += f.announced;
    for (auto& n : nodes) {
        left += n.m.n;
        unknownFin += n.m.st.unknown_finishes;
        if (getenv("R2C2_SIM_DEBUG"))
            for (uint32_t j = 0; j < n.m.n; j++)
                fprintf(stderr, "node %u holds %u:%u\n", static_cast<unsigned>(&n - nodes.data()),
                        n.m.f[j].src, n.m.f[j].id);
    }
    if (!c.out.empty()) {
        FILE* o = fopen(c.out.c_str(), "w");

        if (!o) {
            NS_FATAL_ERROR("--out: cannot write " << c.out);
        }
        fprintf(o, "# r2c2-sim, commit %s: topo %s link %s delay %.0fns rho %.0fus announce %.0fus "
                   "tau %.3fus flows %zu proto %s headroom %.3f initial %.0f payload %u seed %llu "
                   "stack %s control %s\n",
                R2C2_SIM_COMMIT, c.topo.c_str(), c.linkRate.c_str(), c.linkDelayNs, c.rhoUs,
                c.announceUs, c.tauUs, flows.size(), c.proto.c_str(), c.headroom, c.initialRate,
                c.payload, static_cast<unsigned long long>(c.seed), c.stack.c_str(),
                c.control.c_str());
        fprintf(o, "flow,src,dst,size_bytes,start_us,fct_us,announced,rated,max_reseq_pkts\n");
        for (auto& f : flows)
            fprintf(o, "%u,%u,%u,%llu,%.3f,%.3f,%d,%d,%u\n", f.index, f.src, f.dst,
                    static_cast<unsigned long long>(f.size), f.start.GetSeconds() * 1e6,
                    f.done ? (f.finish - f.start).GetSeconds() * 1e6 : -1.0, f.announced,
                    f.rated, f.maxHeld);
        fclose(o);
    }
    if (!c.windowOut.empty())
        WindowOut(simS);
    printf("flows %zu done %u sim_s %.6f wall_s %.2f events_per_wall_s %.0f\n", flows.size(),
           nDone, simS, wallS,
           wallS > 0 ? static_cast<double>(Simulator::GetEventCount()) / wallS : 0.0);
    if (c.measureFromMs >= 0 && simS * 1e3 > c.measureFromMs) {
        double w = simS - c.measureFromMs / 1e3;
        /* an event counts when the node that rates on it hears it */
        uint64_t ev = Central() ? heard - heardAtMark : flowEvents - flowEventsAtMark;

        printf("window_gbps %.3f from_ms %g to_ms %g\n",
               static_cast<double>(rcvdTotal - rcvdAtMark) * 8 / w / 1e9, c.measureFromMs,
               simS * 1e3);
        printf("window_ctl flow_events %llu offered_gbps %.3f eth_gbps %.3f bytes_per_event %.1f "
               "eth_bytes_per_event %.1f\n",
               static_cast<unsigned long long>(ev),
               static_cast<double>(ctlOffered - ctlOfferedAtMark) * 8 / w / 1e9,
               static_cast<double>(ctlOfferedEth - ctlOfferedEthAtMark) * 8 / w / 1e9,
               ev ? static_cast<double>(ctlOffered - ctlOfferedAtMark) / static_cast<double>(ev)
                  : 0.0,
               ev ? static_cast<double>(ctlOfferedEth - ctlOfferedEthAtMark) /
                        static_cast<double>(ev)
                  : 0.0);
    }
    printf("short_fct_us (<100KB) n %zu p50 %.2f p99 %.2f\n", shortFct.size(), Pct(shortFct, 0.5),
           Pct(shortFct, 0.99));
    printf("long_gbps (>=1MB) n %zu p50 %.3f p1 %.3f\n", longTput.size(), Pct(longTput, 0.5),
           Pct(longTput, 0.01));
    printf("data_pkts %llu forwards %llu drops %llu bad_frames %llu max_queue_bytes %u "
           "max_reseq_pkts %u\n",
           static_cast<unsigned long long>(dataPkts), static_cast<unsigned long long>(forwards),
           static_cast<unsigned long long>(drops), static_cast<unsigned long long>(badFrames),
           maxQ, maxHeld);
    printf("queue_max_bytes (per link) p50 %.0f p99 %.0f max %u\n", Pct(qmax, 0.5), Pct(qmax, 0.99),
           maxQ);
    printf("reseq_max_pkts (per flow) p50 %.0f p95 %.0f max %u\n", Pct(held, 0.5), Pct(held, 0.95),
           maxHeld);
    if (!roundUs.empty())
        printf("round_cpu_us p50 %.1f p99 %.1f (of rho: p50 %.3f %% p99 %.3f %%)\n",
               Pct(roundUs, 0.5), Pct(roundUs, 0.99), Pct(roundUs, 0.5) / c.rhoUs * 100,
               Pct(roundUs, 0.99) / c.rhoUs * 100);
    if (!roundFlows.empty())
        printf("round_flows p50 %.0f p99 %.0f max %.0f\n", Pct(roundFlows, 0.5),
               Pct(roundFlows, 0.99), Pct(roundFlows, 1.0));
    printf("ctl_msgs %llu flow_events %llu controller_heard %llu ctl_offered_bytes %llu "
           "ctl_offered_eth_bytes %llu\n",
           static_cast<unsigned long long>(ctlMsgs), static_cast<unsigned long long>(flowEvents),
           static_cast<unsigned long long>(heard),
           static_cast<unsigned long long>(ctlOffered),
           static_cast<unsigned long long>(ctlOfferedEth));
    printf("ctl_frames %llu ctl_hops %llu ctl_bytes %llu data_bytes %llu ctl_share %.5f\n",
           static_cast<unsigned long long>(ctlPkts), static_cast<unsigned long long>(ctlHops),
           static_cast<unsigned long long>(ctlBytes), static_cast<unsigned long long>(dataBytes),
           dataBytes ? static_cast<double>(ctlBytes) / static_cast<double>(ctlBytes + dataBytes)
                     : 0.0);
    if (IsTcp(c.stack)) {
        uint64_t marks = 0;
        for (auto& nd : nodes)
            for (auto& dv : nd.dev) {
                if (!dv)
                    continue;
                Ptr<QueueDisc> qd =
                    nd.node->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(dv);
                if (qd)
                    marks += qd->GetStats().nTotalMarkedPackets;
            }
        printf("ecn_marks %llu\n", static_cast<unsigned long long>(marks));
    }
    printf("announced %llu rounds %llu pushes %llu compute_cpu_s %.3f matrix_flows_left %llu "
           "unknown_finishes %llu\n",
           static_cast<unsigned long long>(announced), static_cast<unsigned long long>(rounds),
           static_cast<unsigned long long>(pushes), computeCpuS,
           static_cast<unsigned long long>(left), static_cast<unsigned long long>(unknownFin));
}

} // namespace

int
main(int argc, char** argv)
{
    Sim s;
    SimConfig& c = s.c;
    CommandLine cmd;
    std::string err;
    std::string announce = "rho";

    cmd.Usage("R2C2 on ns-3: source routing from common/paths.c, broadcasts over common/trees.c,\n"
              "r2c2d's matrix at every node and libr2c2's max-min every rho.\n"
              "Flows: Poisson arrivals (mean gap --tau-us over the rack), Pareto sizes\n"
              "(--shape, --mean-size), uniform random pairs; or --flows-file.");
    cmd.AddValue("topo", "torus:K1xK2[xK3], mesh:..., or a topology file", c.topo);
    cmd.AddValue("link-rate", "link rate (ns-3 DataRate, e.g. 10Gbps)", c.linkRate);
    cmd.AddValue("link-delay-ns", "propagation delay of a link, ns", c.linkDelayNs);
    cmd.AddValue("rho-us", "rate recomputation interval rho, us (1..1e6)", c.rhoUs);
    cmd.AddValue("announce-us",
                 "a flow is announced once this old, us (default: rho)",
                 c.announceUs);
    cmd.AddValue("tau-us", "mean flow inter-arrival time over the rack, us", c.tauUs);
    cmd.AddValue("flows", "number of flows to generate", c.flows);
    cmd.AddValue("flows-file", "flows from a file: SRC DST SIZE START_US [PROTO] a line",
                 c.flowFile);
    cmd.AddValue("mean-size", "mean flow size, bytes", c.meanSize);
    cmd.AddValue("shape", "Pareto shape (> 1)", c.shape);
    cmd.AddValue("max-size", "cap on a flow's size, bytes (0: none)", c.maxSize);
    cmd.AddValue("stack",
                 "r2c2, pfq (per-flow queues and back-pressure: the ideal), tcp (NewReno, "
                 "drop-tail) or dctcp (RED/ECN at K)",
                 c.stack);
    cmd.AddValue("pfq-pkts", "pfq: packets a flow may hold at each port (1..100000)", c.pfqPkts);
    cmd.AddValue("tcp-queue-pkts", "tcp, dctcp: packets a link's queue disc holds", c.tcpQueuePkts);
    cmd.AddValue("dctcp-k", "dctcp: ECN marking threshold K, packets", c.dctcpK);
    cmd.AddValue("tcp-min-rto-us", "tcp, dctcp: minimum retransmission timeout, us", c.tcpMinRtoUs);
    cmd.AddValue("proto", "routing protocol of every flow: rps, dor, vlb or wlb", c.proto);
    cmd.AddValue("headroom", "share of each link kept free (0..<1)", c.headroom);
    cmd.AddValue("initial-rate", "rate of a flow before it is rated, bit/s (0: the link rate)", c.initialRate);
    cmd.AddValue("payload", "payload bytes per packet (1..9000)", c.payload);
    cmd.AddValue("queue-pkts", "packets a link's queue holds", c.queuePkts);
    cmd.AddValue("stop-ms", "stop the simulation at this time, ms (0: all flows done, at most 10 s)",
                 c.stopMs);
    cmd.AddValue("measure-from-ms",
                 "report the goodput of all flows together from this time to --stop-ms, ms",
                 c.measureFromMs);
    cmd.AddValue("window-out",
                 "with --measure-from-ms: write each flow's goodput and each directed link's "
                 "deepest queue over the window to this TSV",
                 c.windowOut);
    cmd.AddValue("finish-idle-us",
                 "r2c2: FINISH this long after a flow's last packet (sch_r2c2: idle)",
                 c.finishIdleUs);
    cmd.AddValue("control",
                 "r2c2: decentral (every node hears every flow event and rates the rack) or "
                 "central (sources tell --controller, which rates the rack at every event and "
                 "sends each source its rates)",
                 c.control);
    cmd.AddValue("controller", "--control=central: the controller's node (default 0)",
                 c.controller);
    cmd.AddValue("central-send",
                 "--control=central: rates to every node sourcing a flow (all) or to those "
                 "whose rates changed (changed)",
                 c.centralSend);
    cmd.AddValue("seed", "random seed", c.seed);
    cmd.AddValue("out", "per-flow CSV file", c.out);
    cmd.Parse(argc, argv);

    if (!(c.shape > 1)) {
        fprintf(stderr, "r2c2-sim: --shape: above 1, not %g\n", c.shape);
        return 2;
    }
    if (!(c.tauUs > 0) || !(c.meanSize >= 1)) {
        fprintf(stderr, "r2c2-sim: --tau-us and --mean-size: above 0\n");
        return 2;
    }
    if (!(c.finishIdleUs >= 0 && c.finishIdleUs <= 1e7)) {
        fprintf(stderr, "r2c2-sim: --finish-idle-us: 0 to 10000000\n");
        return 2;
    }
    if (!(c.stopMs >= 0)) {
        fprintf(stderr, "r2c2-sim: --stop-ms: 0 or more\n");
        return 2;
    }
    if (!c.windowOut.empty() && c.measureFromMs < 0) {
        fprintf(stderr, "r2c2-sim: --window-out needs --measure-from-ms\n");
        return 2;
    }
    if (c.measureFromMs != -1 && !(c.measureFromMs >= 0 && c.measureFromMs < c.stopMs)) {
        fprintf(stderr, "r2c2-sim: --measure-from-ms: 0 to below --stop-ms (%g)\n", c.stopMs);
        return 2;
    }
    if (!s.Setup(err)) {
        fprintf(stderr, "r2c2-sim: %s\n", err.c_str());
        return 2;
    }
    if (!c.flowFile.empty()) {
        if (!s.LoadFlows(err)) {
            fprintf(stderr, "r2c2-sim: %s\n", err.c_str());
            return 2;
        }
    } else {
        if (c.flows < 1) {
            fprintf(stderr, "r2c2-sim: --flows: at least 1\n");
            return 2;
        }
        s.Workload();
    }
    for (uint32_t i = 0; i < s.flows.size(); i++)
        Simulator::Schedule(s.flows[i].start,
                            IsTcp(c.stack)        ? &Sim::StartTcpFlow
                            : c.stack == "pfq"    ? &Sim::PfqStartFlow
                                                  : &Sim::StartFlow,
                            &s,
                            i);
    if (c.measureFromMs >= 0)
        Simulator::Schedule(MicroSeconds(c.measureFromMs * 1e3), [&s] {
            s.rcvdAtMark = s.rcvdTotal;
            s.ctlOfferedAtMark = s.ctlOffered;
            s.ctlOfferedEthAtMark = s.ctlOfferedEth;
            s.flowEventsAtMark = s.flowEvents;
            s.heardAtMark = s.heard;
            for (auto& f : s.flows)
                f.rcvdAtMark = f.rcvd;
            /* the window's deepest queues from here; the run's kept apart */
            s.maxQueueAtMark = s.maxQueue;
            std::fill(s.maxQueue.begin(), s.maxQueue.end(), 0);
        });
    Simulator::Stop(c.stopMs > 0 ? MicroSeconds(c.stopMs * 1e3) : Seconds(10));
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.Report(wall);
    Simulator::Destroy();
    return s.nDone == s.flows.size() ? 0 : 1;
}
