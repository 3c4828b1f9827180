#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Netlink fixtures for r2c2ctl's tests, which run without the module.

r2c2ctl reads the kernel's side from a file when R2C2CTL_REPLAY is set
and appends the requests it sends to the file named by R2C2CTL_SENT.
This script writes such kernel-side files (scenarios below) and decodes
sent requests into one line each. Enum values come from the uapi header,
so the fixtures follow it.

  r2c2ctl_nl.py build SCENARIO FILE   write the kernel's messages
  r2c2ctl_nl.py decode FILE           print each request: CMD ATTR=VAL ...
  r2c2ctl_nl.py enum NAME             print an enum of the header
"""
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, "..", "..", "include", "uapi", "linux", "r2c2.h")

FAMILY = 0x1f                # R2C2CTL_REPLAY_FAMILY in r2c2ctl/nl.h
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_MULTI = 0x2
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLA_F_NESTED = 0x8000
NLMSGERR_ATTR_MSG = 1


def enum(name):
    """{'R2C2_A_NODE_ADDR': 1, ...} for 'enum NAME {...}' of the header."""
    text = open(HEADER).read()
    m = re.search(r"enum\s+%s\s*\{(.*?)\};" % re.escape(name), text, re.S)
    if not m:
        raise SystemExit("no enum %s in %s" % (name, HEADER))
    out, val = {}, -1
    for item in m.group(1).split(","):
        item = re.sub(r"/\*.*?\*/", "", item, flags=re.S).strip()
        if not item:
            continue
        if "=" in item:
            key, v = (s.strip() for s in item.split("="))
            val = int(v, 0)
        else:
            key, val = item, val + 1
        out[key] = val
    return out


CMD = enum("r2c2_cmd")
A = enum("r2c2_attr")
S = enum("r2c2_stat")
PS = enum("r2c2_port_state")
RP = enum("r2c2_rproto")
FE = enum("r2c2_flow_evt_type")


def a(name):
    return A["R2C2_A_" + name]


def attr(t, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, t) + payload + b"\0" * ((4 - n % 4) % 4)


def u8(t, v):
    return attr(t, struct.pack("=B", v))


def u16(t, v):
    return attr(t, struct.pack("=H", v))


def u32(t, v):
    return attr(t, struct.pack("=I", v))


def u64(t, v):
    return attr(t, struct.pack("=Q", v))


def string(t, s):
    return attr(t, (s if isinstance(s, bytes) else s.encode()) + b"\0")


def nest(t, *attrs):
    return attr(t | NLA_F_NESTED, b"".join(attrs))


def nlmsg(mtype, flags, payload, seq=0):
    return struct.pack("=IHHII", 16 + len(payload), mtype, flags, seq, 0) + payload


def genl(cmd, *attrs, multi=False):
    body = struct.pack("=BBH", CMD["R2C2_CMD_" + cmd], 1, 0) + b"".join(attrs)
    return nlmsg(FAMILY, NLM_F_MULTI if multi else 0, body)


def err_msg(errno_, text=None, req_len=36):
    """NLMSG_ERROR (errno_ 0: an ACK), capped, with an extack message."""
    flags = NLM_F_CAPPED
    tlv = b""
    if text is not None:
        flags |= NLM_F_ACK_TLVS
        tlv = string(NLMSGERR_ATTR_MSG, text)
    orig = struct.pack("=IHHII", req_len, FAMILY, 5, 1, 0)
    return nlmsg(NLMSG_ERROR, flags, struct.pack("=i", -errno_) + orig + tlv)


def done(errno_=0, text=None):
    flags, tlv = NLM_F_MULTI, b""
    if text is not None:
        flags |= NLM_F_ACK_TLVS
        tlv = string(NLMSGERR_ATTR_MSG, text)
    return nlmsg(NLMSG_DONE, flags, struct.pack("=i", -errno_) + tlv)


ACK = err_msg(0)


def all_stats(base):
    """Every counter of the header, value base + id, and one from the future."""
    cs = [u64(v, base + v) for k, v in S.items()
          if not k.startswith("__") and k != "R2C2_S_UNSPEC"]
    cs.append(u64(max(S.values()) + 5, 999))
    return nest(a("STATS"), *cs)


def node_attrs(dims=(3, 3), ok=1, ifname="r2c0", ethertype=0x88b5):
    at = [u16(a("NODE_ADDR"), 5), string(a("IFNAME"), ifname),
          u32(a("IFINDEX"), 7), u16(a("ETHERTYPE"), ethertype),
          u8(a("RPROTO"), RP["R2C2_RP_RPS"]),
          u8(a("TREES"), 4), u32(a("HELLO_MS"), 1000),
          nest(a("TOPO_DIMS"), *[u8(a("TOPO_DIM"), d) for d in dims])]
    if ok is not None:
        at.append(u8(a("TOPO_OK"), ok))
    at += [u32(a("NODES"), 9), u32(a("LINKS"), 36), u32(a("TABLES_GEN"), 7),
           u32(A["__R2C2_A_MAX"] + 40, 12345)]   # newer attribute: ignored
    return at


def port(p, dev, state, nbr=None, stats=True):
    at = [u8(a("PORT"), p), string(a("PORT_IFNAME"), dev),
          u32(a("IFINDEX"), 10 + p), u8(a("PORT_STATE"), PS[state])]
    if nbr:
        at += [u16(a("NBR_ADDR"), nbr[0]), u8(a("NBR_PORT"), nbr[1]),
               attr(a("NBR_MAC"), bytes([2, 0x52, 0x32, 0x43, 0, nbr[0]])),
               u32(a("AGE_MS"), 120)]
    if stats:
        at.append(all_stats(100 * p))
    return genl("PORT_GET", *at, multi=True)


def link(p, n, np_):
    return nest(a("TOPO_LINK"), u8(a("PORT"), p), u16(a("NBR_ADDR"), n),
                u8(a("NBR_PORT"), np_))


def tree(src, tid, parent, ports):
    return genl("TREE_GET", u16(a("TREE_SRC"), src), u8(a("TREE_ID"), tid),
                u8(a("TREE_PARENT"), parent), u8(a("TREE_PORTS"), ports),
                multi=True)


def flow_evt(src, fid, dst, evt, demand, rp="R2C2_RP_RPS"):
    return genl("FLOW_EVENT", u16(a("FLOW_SRC"), src), u32(a("FLOW_ID"), fid),
                u16(a("DST"), dst), u8(a("WEIGHT"), 2), u8(a("PRIO"), 1),
                u32(a("DEMAND_KBPS"), demand), u8(a("RPROTO"), RP[rp]),
                u8(a("FLOW_EVT"), FE[evt]))


def route_ent(src, fid, rp):
    return nest(a("ROUTE_ENT"), u16(a("FLOW_SRC"), src),
                u32(a("FLOW_ID"), fid), u8(a("RPROTO"), RP[rp]))


def link_counts():
    c = [0] * (9 * 8)
    c[0 * 8 + 0], c[0 * 8 + 2], c[1 * 8 + 2], c[4 * 8 + 1] = 500, 500, 250, 7
    return attr(a("LINK_COUNTS"), struct.pack("=%dI" % len(c), *c))


SCENARIOS = {
    "ack": lambda: [ACK],
    "ack_warning": lambda: [err_msg(0, "hello interval rounded to 10 ms")],
    "error_extack": lambda: [err_msg(16, "port 3 is already attached")],
    "error_plain": lambda: [err_msg(19)],
    "error_eperm": lambda: [err_msg(1)],
    # error codes no kernel sends: INT_MIN has no negation
    "error_intmin": lambda: [err_msg(2 ** 31)],
    "dump_intmin": lambda: [port(0, "p0", "R2C2_PS_UP"), done(2 ** 31)],
    "node": lambda: [genl("NODE_GET", *node_attrs()), ACK],
    "node_none": lambda: [genl("NODE_GET", *node_attrs(dims=(), ok=None)), ACK],
    "node_mismatch": lambda: [genl("NODE_GET", *node_attrs(dims=(4, 2, 2), ok=0,
                                                          ethertype=0x88b6)),
                              ACK],
    "node_evil": lambda: [genl("NODE_GET", *node_attrs(
        ifname=b'a"b\\c\x01\x7f\xff\xe2\x82\xac')), ACK],
    "node_malformed": lambda: [genl("NODE_GET", attr(a("NODE_ADDR"), b"\5")),
                               ACK],
    "keys": lambda: [genl("KEY_GET", u8(a("KEY_ID"), 2), u32(a("KEY_OVERLAP_MS"), 6000),
                          u8(a("KEY_PREV_ID"), 1), u32(a("KEY_PREV_MS"), 4500)), ACK],
    # a u32 of one byte, followed by another attribute
    "keys_malformed": lambda: [genl("KEY_GET", u8(a("KEY_ID"), 2),
                                    attr(a("KEY_OVERLAP_MS"), b"\x07"),
                                    u8(a("KEY_PREV_ID"), 1)), ACK],
    # port del: the port's netdev looked up first (an ifindex no host
    # has: r2c2ctl then has no XDP program to take off it), then the ack
    "port_del": lambda: [genl("PORT_GET", u8(a("PORT"), 0),
                              string(a("PORT_IFNAME"), "p0"),
                              u32(a("IFINDEX"), 999999),
                              u8(a("PORT_STATE"), PS["R2C2_PS_UP"]), multi=True),
                         done(), ACK],
    "ports": lambda: [port(0, "p0", "R2C2_PS_NBR", (1, 1)),
                      port(1, "p1", "R2C2_PS_DOWN"),
                      port(2, "p2", "R2C2_PS_UP", stats=False),
                      port(3, "p3", "R2C2_PS_NBR", (2, 0)),
                      done()],
    "dump_error": lambda: [port(0, "p0", "R2C2_PS_UP"),
                           done(22, "dump interrupted: node deleted")],
    "empty_dump": lambda: [done()],
    "qflows": lambda: [
        genl("QFLOW_GET", u32(a("FLOW_ID"), 0x1a), u16(a("DST"), 5),
             u8(a("RATE_STATE"), 1), u16(a("SPORT"), 20000), u16(a("DPORT"), 9),
             u64(a("RATE"), 4000000), u32(a("QLEN"), 3), u32(a("BACKLOG"), 3126),
             u64(a("PACKETS"), 10), u64(a("BYTES"), 10420), u64(a("DROPS"), 0),
             u32(a("AGE_MS"), 1), u32(a("LEASE_MS"), 1500), multi=True),
        genl("QFLOW_GET", u32(a("FLOW_ID"), 7), u8(a("RATE_STATE"), 2),
             u16(a("SPORT"), 0), u16(a("DPORT"), 0), u64(a("RATE"), 1500),
             u32(a("QLEN"), 0), u32(a("BACKLOG"), 0), u64(a("PACKETS"), 1),
             u64(a("BYTES"), 70), u64(a("DROPS"), 2), u32(a("AGE_MS"), 900),
             u32(a("LEASE_MS"), 0), multi=True),
        done()],
    "topo": lambda: [
        genl("TOPO_GET", nest(a("TOPO_NODE"), u16(a("NODE_ADDR"), 0),
                              link(0, 1, 1), link(2, 3, 3)), multi=True),
        # the links gathered in one list nest
        genl("TOPO_GET", nest(a("TOPO_NODE"), u16(a("NODE_ADDR"), 1),
                              nest(a("TOPO_LINK"), link(1, 0, 0))), multi=True),
        # a node without links
        genl("TOPO_GET", nest(a("TOPO_NODE"), u16(a("NODE_ADDR"), 4)),
             multi=True),
        done()],
    "trees": lambda: [tree(0, 0, 0xff, 0b101), tree(0, 1, 0xff, 0b10),
                      tree(3, 0, 2, 0), tree(3, 1, 1, 0b1001), done()],
    "route": lambda: [genl("ROUTE_GET", u16(a("DST"), 8),
                           u8(a("RPROTO"), RP["R2C2_RP_DOR"]),
                           attr(a("ROUTE"), bytes([0, 2, 2]))), ACK],
    "route_count": lambda: [genl("ROUTE_GET", u16(a("DST"), 8),
                                 u8(a("RPROTO"), RP["R2C2_RP_RPS"]),
                                 u32(a("COUNT"), 1000), u32(a("NODES"), 9),
                                 link_counts()), ACK],
    # traceroute from node 5 of a 3x3 torus to node 6: NODE_GET, TOPO_GET,
    # then ROUTE_GET three times (two distinct minimal paths)
    "traceroute": lambda: [
        genl("NODE_GET", *node_attrs()), ACK,
        genl("TOPO_GET", nest(a("TOPO_NODE"), u16(a("NODE_ADDR"), 3),
                              link(2, 6, 3)), multi=True),
        genl("TOPO_GET", nest(a("TOPO_NODE"), u16(a("NODE_ADDR"), 5),
                              link(0, 3, 1), link(2, 8, 3)), multi=True),
        genl("TOPO_GET", nest(a("TOPO_NODE"), u16(a("NODE_ADDR"), 8),
                              link(0, 6, 1)), multi=True),
        done()] + [x for r in ([0, 2], [2, 0], [0, 2]) for x in (
            genl("ROUTE_GET", u16(a("DST"), 6),
                 u8(a("RPROTO"), RP["R2C2_RP_RPS"]),
                 attr(a("ROUTE"), bytes(r))), ACK)],
    # the same, but the route's second hop leaves by a port with no link
    "traceroute_bad": lambda: [
        genl("NODE_GET", *node_attrs()), ACK,
        genl("TOPO_GET", nest(a("TOPO_NODE"), u16(a("NODE_ADDR"), 5),
                              link(0, 3, 1)), multi=True),
        done(),
        genl("ROUTE_GET", u16(a("DST"), 6), u8(a("RPROTO"), RP["R2C2_RP_DOR"]),
             attr(a("ROUTE"), bytes([0, 2]))), ACK],
    "stats": lambda: [genl("STATS_GET", all_stats(0)), ACK],
    "flows": lambda: [
        genl("FLOW_GET", u32(a("FLOW_ID"), 0x1a), u16(a("DST"), 5),
             u8(a("RPROTO"), RP["R2C2_RP_VLB"]), u32(a("SEQ"), 10),
             u64(a("PACKETS"), 10), u64(a("BYTES"), 15000),
             u32(a("AGE_MS"), 12), multi=True),
        genl("FLOW_GET", u32(a("FLOW_ID"), 0xdeadbeef), u16(a("DST"), 2),
             u8(a("RPROTO"), RP["R2C2_RP_RPS"]), u32(a("SEQ"), 0),
             u64(a("PACKETS"), 2 ** 64 - 1), u64(a("BYTES"), 0),
             u32(a("AGE_MS"), 0), u32(a("DEMAND_KBPS"), 0x3fffffff),
             multi=True),
        done()],
    "reseq": lambda: [
        genl("RESEQ_GET", u16(a("NODE_ADDR"), 1), u8(a("RESEQ"), 1),
             u32(a("RESEQ_TIMEOUT_US"), 300), u32(a("RESEQ_FLOW_LIMIT"), 128),
             u32(a("RESEQ_LIMIT"), 4096), u32(a("RESEQ_HELD"), 2),
             u32(a("RESEQ_MAX_DEPTH"), 51), u32(a("RESEQ_FLOWS"), 1),
             u32(a("RESEQ_TIMEOUT_EFF_US"), 2000),
             attr(a("RESEQ_HIST"), struct.pack(
                 "=257Q", *([70, 20, 0, 0, 0, 9] + [0] * 45 + [1] + [0] * 205))),
             multi=True),
        genl("RESEQ_GET", u16(a("FLOW_SRC"), 3), u32(a("FLOW_ID"), 0x1a),
             u32(a("SEQ"), 1000), u32(a("RESEQ_HELD"), 2),
             u32(a("RESEQ_MAX_DEPTH"), 51), u32(a("AGE_MS"), 4), multi=True),
        done()],
    "events": lambda: [
        flow_evt(3, 0x1a, 5, "R2C2_FE_START", 100000),
        genl("TOPO_EVENT", u16(a("NODE_ADDR"), 5), u32(a("NODES"), 9), u32(a("LINKS"), 36),
             u32(a("TABLES_GEN"), 8), u8(a("TOPO_OK"), 1)),
        genl("UNSPEC", u32(a("NODES"), 1)),          # not an event: skipped
        genl("ROUTES_EVENT", u16(a("NODE_ADDR"), 0),
             nest(a("ROUTES"), route_ent(3, 0x1a, "R2C2_RP_VLB"),
                  route_ent(4, 2, "R2C2_RP_RPS"))),
        flow_evt(4, 2, 1, "R2C2_FE_FINISH", 0x3fffffff, "R2C2_RP_DOR"),
    ],
}


STRINGS = {"IFNAME", "PORT_IFNAME"}
BINARY = {"NBR_MAC", "ROUTE", "LINK_COUNTS"}


def decode_attrs(buf, names):
    out, off = [], 0
    while off + 4 <= len(buf):
        n, t = struct.unpack_from("=HH", buf, off)
        if n < 4:
            break
        data = buf[off + 4:off + n]
        name = names.get(t & 0x3fff, str(t & 0x3fff))
        if t & NLA_F_NESTED:
            out.append("%s{%s}" % (name, " ".join(decode_attrs(data, names))))
        elif name in STRINGS:
            out.append('%s="%s"' % (name, data.rstrip(b"\0").decode(errors="replace")))
        elif name in BINARY or len(data) not in (1, 2, 4, 8):
            out.append("%s=%s" % (name, data.hex()))
        else:
            fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[len(data)]
            out.append("%s=%d" % (name, struct.unpack("=" + fmt, data)[0]))
        off += (n + 3) & ~3
    return out


def decode(path):
    cmds = {v: k[len("R2C2_CMD_"):] for k, v in CMD.items()}
    names = {v: k[len("R2C2_A_"):] for k, v in A.items()}
    buf = open(path, "rb").read()
    off = 0
    while off + 16 <= len(buf):
        n, mtype, flags, _, _ = struct.unpack_from("=IHHII", buf, off)
        cmd = buf[off + 16]
        words = [cmds.get(cmd, str(cmd))]
        words.append("dump" if flags & 0x300 == 0x300 else
                     "ack" if flags & 0x4 else "noack")
        if mtype != FAMILY:
            words.append("type=%d" % mtype)
        words += decode_attrs(buf[off + 20:off + n], names)
        print(" ".join(words))
        off += (n + 3) & ~3


def main(argv):
    if len(argv) == 4 and argv[1] == "build":
        with open(argv[3], "wb") as f:
            f.write(b"".join(SCENARIOS[argv[2]]()))
    elif len(argv) == 3 and argv[1] == "decode":
        decode(argv[2])
    elif len(argv) == 3 and argv[1] == "enum":
        for k, v in enum(argv[2]).items():
            print(k, v)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
