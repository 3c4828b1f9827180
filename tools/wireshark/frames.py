#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""frames.py - write a pcap of hand-made r2c2 frames with known contents.

The host-side test of the dissector (userspace/tests/wireshark_test.sh)
decodes them with tshark and compares each field with what is written
here: one frame of every type, well formed, then malformed and truncated
ones. Layouts: include/uapi/linux/r2c2.h, Documentation/wire-format.md.

usage: frames.py OUT.pcap
"""
import struct
import sys

ETH_P_R2C2 = 0x88B5
BCAST = b"\xff" * 6
MAC0 = bytes.fromhex("020000000001")
MAC1 = bytes.fromhex("020000000002")


def csum(data):
    """Internet checksum (RFC 1071)."""
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s > 0xFFFF:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def route_bytes(hops):
    """Hop i's port in bits 3i..3i+2 of a little-endian 128-bit number."""
    v = 0
    for i, port in enumerate(hops):
        v |= port << (3 * i)
    return v.to_bytes(16, "little")


def data_hdr(hops, ridx, rproto, flow, src, dst, seq, plen, proto,
             rlen=None, ver_type=0x11, bad_csum=False):
    rlen = len(hops) if rlen is None else rlen
    h = struct.pack("!BBBBIHHIHHHH", ver_type, rlen, 0, rproto, flow, src,
                    dst, seq, plen, proto, 0, 0) + route_bytes(hops)
    c = csum(h) ^ (0x5555 if bad_csum else 0)
    return h[:2] + bytes([ridx]) + h[3:20] + struct.pack("!H", c) + h[22:]


def ctl(typ, tree, src, seq, body):
    h = struct.pack("!BBHHH", 0x10 | typ, tree, src, seq, 0)
    covered = body[:14] if typ == 4 else body
    c = csum(h + covered)
    return h[:6] + struct.pack("!H", c) + body


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & 0xFFFFFFFFFFFFFFFF


def siphash24(key, data):
    """SipHash-2-4 of data with a 16-byte key (the kernel's siphash())."""
    k0, k1 = struct.unpack("<QQ", key)
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D,
         k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]
    mask = 0xFFFFFFFFFFFFFFFF

    def rnd():
        v[0] = (v[0] + v[1]) & mask
        v[1] = _rotl(v[1], 13) ^ v[0]
        v[0] = _rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & mask
        v[3] = _rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & mask
        v[3] = _rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & mask
        v[1] = _rotl(v[1], 17) ^ v[2]
        v[2] = _rotl(v[2], 32)

    tail = len(data) & 7
    for i in range(0, len(data) - tail, 8):
        m = struct.unpack_from("<Q", data, i)[0]
        v[3] ^= m
        rnd()
        rnd()
        v[0] ^= m
    b = (len(data) & 0xFF) << 56
    for i, c in enumerate(data[len(data) - tail:]):
        b |= c << (8 * i)
    v[3] ^= b
    rnd()
    rnd()
    v[0] ^= b
    v[2] ^= 0xFF
    for _ in range(4):
        rnd()
    return (v[0] ^ v[1] ^ v[2] ^ v[3]) & mask


# the rack key of the keyed frames below (key id 1 and 2 alike)
AUTH_KEY = bytes(range(16))


def auth(frame, key_id, newest, frm, to, seq, resv=0):
    """frame + its authentication trailer (struct r2c2_auth_trl)."""
    t = frame + struct.pack("!BBHHHQ", key_id, newest, frm, to, resv, seq)
    return t + struct.pack("<Q", siphash24(AUTH_KEY, t))


def eth(dst, src, proto, payload):
    f = dst + src + struct.pack("!H", proto) + payload
    return f + b"\0" * max(0, 60 - len(f))


def ipv4_icmp_echo(src, dst, ident, seq):
    icmp = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + b"r2c2" * 4
    icmp = icmp[:2] + struct.pack("!H", csum(icmp)) + icmp[4:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(icmp), 1, 0x4000, 64,
                     1, 0, bytes(src), bytes(dst))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return ip + icmp


def arp_request(sha, spa, tpa):
    return struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, 1, sha, bytes(spa),
                       b"\0" * 6, bytes(tpa))


def frames():
    out = []
    # 1: DATA 0 -> 4 over DOR route [0 2], seen between hop 0 and hop 1.
    icmp = ipv4_icmp_echo([10, 42, 0, 0], [10, 42, 0, 4], 0x77, 3)
    out.append(eth(MAC1, MAC0, ETH_P_R2C2,
                   data_hdr([0, 2], 1, 1, 0x1234ABCD, 0, 4, 17, len(icmp),
                            0x0800) + icmp))
    # 2: DATA with a 42-hop route (every port once and over again), ridx 5.
    hops = [i % 8 for i in range(42)]
    out.append(eth(MAC1, MAC0, ETH_P_R2C2,
                   data_hdr(hops, 5, 2, 0xDEADBEEF, 7, 65534, 1, 0, 0x86DD)))
    # 3: HELLO from node 3 port 5, interval 1000 ms, topo hash 0xcafef00d.
    out.append(eth(BCAST, MAC0, ETH_P_R2C2,
                   ctl(2, 0, 3, 0, struct.pack("!BBHI", 5, 0, 1000, 0xCAFEF00D))))
    # 4: LSA of node 4: seq 9, max age 40 s, links 0->5/1, 1->3/0, 2->7/3, 3->1/2.
    links = [(0, 1, 5), (1, 0, 3), (2, 3, 7), (3, 2, 1)]
    body = struct.pack("!IBBH", 9, len(links), 0, 40)
    body += b"".join(struct.pack("!BBH", p, np, n) for p, np, n in links)
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, ctl(3, 0, 4, 12, body)))
    # 5: BCAST_ETH from node 0, tree 2: an ARP request for 10.42.0.4.
    inner = eth(BCAST, bytes.fromhex("025232430000"), 0x0806,
                arp_request(bytes.fromhex("025232430000"), [10, 42, 0, 0],
                            [10, 42, 0, 4]))
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, ctl(4, 2, 0, 77, inner)))
    # 6: FLOW update of node 0's flow 0x1234abcd to node 5: weight 7,
    #    prio 3, VLB, 12000 Kbit/s.
    body = struct.pack("!IHBBI", 0x1234ABCD, 5, 7, 0x33, (2 << 30) | 12000)
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, ctl(5, 1, 0, 78, body)))
    # 7: FLOW start, unlimited demand, RPS, prio 0.
    body = struct.pack("!IHBBI", 0x0000001A, 8, 1, 0x10, 0x3FFFFFFF)
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, ctl(5, 0, 6, 79, body)))
    # 8: ROUTES from node 0: 3:0x1a=vlb 4:0x2=rps.
    ents = [(3, 0x1A, 2), (4, 0x2, 0)]
    body = struct.pack("!HH", len(ents), 0)
    body += b"".join(struct.pack("!HIB", s, fl, rp) for s, fl, rp in ents)
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, ctl(6, 3, 0, 80, body)))
    # Malformed, one fault each (expert info names it):
    # 9: data header cut at 30 bytes (no Ethernet padding)
    good = data_hdr([0, 2], 1, 1, 1, 0, 4, 1, 0, 0x0800)
    out.append(MAC1 + MAC0 + struct.pack("!H", ETH_P_R2C2) + good[:30])
    # 10: bad header checksum
    out.append(eth(MAC1, MAC0, ETH_P_R2C2,
                   data_hdr([0, 2], 1, 1, 1, 0, 4, 1, 0, 0x0800, bad_csum=True)))
    # 11: rlen 43
    out.append(eth(MAC1, MAC0, ETH_P_R2C2,
                   data_hdr([1] * 42, 1, 0, 1, 0, 4, 1, 0, 0x0800, rlen=43)))
    # 12: ridx 3 > rlen 2
    out.append(eth(MAC1, MAC0, ETH_P_R2C2,
                   data_hdr([0, 2], 3, 0, 1, 0, 4, 1, 0, 0x0800)))
    # 13: version 2
    out.append(eth(MAC1, MAC0, ETH_P_R2C2,
                   data_hdr([0, 2], 1, 0, 1, 0, 4, 1, 0, 0x0800, ver_type=0x21)))
    # 14: plen 100 with 20 payload bytes (without Ethernet padding: a
    #     frame of 74 bytes)
    f = data_hdr([0], 1, 0, 1, 0, 1, 1, 100, 0x0800) + b"\0" * 20
    out.append(MAC1 + MAC0 + struct.pack("!H", ETH_P_R2C2) + f)
    # 15: LSA claiming 9 links, max age 0, only 8 links' bytes: count and
    #     age bad, entries truncated
    body = struct.pack("!IBBH", 1, 9, 0, 0) + b"\0" * 32
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, ctl(3, 0, 4, 1, body)))
    # 16: ROUTES with 0 entries
    out.append(eth(BCAST, MAC0, ETH_P_R2C2,
                   ctl(6, 0, 0, 2, struct.pack("!HH", 0, 0))))
    # 17: HELLO cut after the control header (no Ethernet padding)
    h = ctl(2, 0, 3, 0, struct.pack("!BBHI", 5, 0, 1000, 0))[:10]
    out.append(BCAST + MAC0 + struct.pack("!H", ETH_P_R2C2) + h)
    # Well-formed again:
    # 18: FLOW digest of node 2's 3 flows, an answer to a resync
    #     (weight: periodic | answer)
    body = struct.pack("!IHBBI", 0x89ABCDEF, 2, 3, 0x50, 3)
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, ctl(5, 2, 2, 81, body)))
    # 19: FLOW resync: node 4 asks node 2, of which it holds 2 flows
    body = struct.pack("!IHBBI", 0x01234567, 2, 1, 0x60, 2)
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, ctl(5, 0, 4, 82, body)))
    # With a rack key (an authentication trailer after the body):
    # 20: HELLO of node 3 on a port without a neighbour yet, key 1,
    #     newest 2, sequence 1764000000.123456789 s
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, auth(
        ctl(2, 0, 3, 0, struct.pack("!BBHI", 5, 0, 1000, 0xCAFEF00D)),
        1, 2, 3, 0xFFFF, 1_764_000_000_123_456_789)))
    # 21: LSA of node 4 (2 links) relayed by node 7 to node 5, key 2
    body = struct.pack("!IBBH", 10, 2, 0, 40)
    body += b"".join(struct.pack("!BBH", p, np, n)
                     for p, np, n in [(0, 1, 5), (1, 0, 3)])
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, auth(
        ctl(3, 0, 4, 13, body), 2, 2, 7, 5, 1_764_000_000_200_000_000)))
    # 22: FLOW start of node 0 sent to node 1, key 1
    body = struct.pack("!IHBBI", 0x0000001B, 8, 1, 0x10, 0x3FFFFFFF)
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, auth(
        ctl(5, 0, 0, 83, body), 1, 1, 0, 1, 1_764_000_000_300_000_000)))
    # 23: ROUTES from node 0 with a trailer whose reserved field is 5
    body = struct.pack("!HH", 1, 0) + struct.pack("!HIB", 3, 0x1A, 2)
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, auth(
        ctl(6, 3, 0, 84, body), 1, 1, 0, 1, 1_764_000_000_400_000_000,
        resv=5)))
    # 24: BCAST_ETH of node 0 with a trailer after its Ethernet frame (an
    #     ARP request, unpadded, as r2c0 sends it), relayed by node 7 to 5
    inner = (BCAST + bytes.fromhex("025232430000") + struct.pack("!H", 0x0806) +
             arp_request(bytes.fromhex("025232430000"), [10, 42, 0, 0],
                         [10, 42, 0, 4]))
    out.append(eth(BCAST, MAC0, ETH_P_R2C2, auth(
        ctl(4, 2, 0, 85, inner), 1, 1, 7, 5, 1_764_000_000_500_000_000)))
    # 25: DATA 4 -> 0 holding an ARP reply, signed by node 4 for node 0:
    #     the trailer after plen, its reserved field the ethertype
    rep = struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, 2,
                      bytes.fromhex("025232430004"), bytes([10, 42, 0, 4]),
                      bytes.fromhex("025232430000"), bytes([10, 42, 0, 0]))
    seq = 1_764_000_000_600_000_000
    out.append(eth(MAC1, MAC0, ETH_P_R2C2,
                   data_hdr([1], 1, 0, 9, 4, 0, 0, len(rep), 0x0806) +
                   auth(rep, 1, 1, 4, 0, seq, resv=0x0806)))
    # 26: the same during a rotation: a trailer with key 2, then one with
    #     key 1 (whose MAC covers the first)
    out.append(eth(MAC1, MAC0, ETH_P_R2C2,
                   data_hdr([1], 1, 0, 9, 4, 0, 1, len(rep), 0x0806) +
                   auth(auth(rep, 2, 2, 4, 0, seq + 1, resv=0x0806),
                        1, 2, 4, 0, seq + 1, resv=0x0806)))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1], "wb") as fp:
        fp.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames()):
            fp.write(struct.pack("<IIII", 1_700_000_000 + i, 0, len(fr), len(fr)))
            fp.write(fr)


if __name__ == "__main__":
    main()
