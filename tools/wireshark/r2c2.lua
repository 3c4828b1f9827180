-- SPDX-License-Identifier: GPL-2.0
--
-- r2c2.lua - Wireshark/tshark dissector for the R2C2 fabric protocol.
--
-- Decodes every frame of ethertype 0x88B5 as include/uapi/linux/r2c2.h
-- and Documentation/wire-format.md define it: the 40-byte data header
-- with its source route hop by hop, its payload handed to Wireshark's own
-- dissectors by ethertype (IPv4, IPv6, ARP...), and the control frames
-- (HELLO, LSA, BCAST_ETH with its inner Ethernet frame, FLOW, ROUTES),
-- with the authentication trailer a rack key adds to HELLO, LSA, BCAST_ETH,
-- FLOW and ROUTES, and to data frames holding ARP or ND (its MAC is
-- shown, not checked: the dissector holds no key).
-- Malformed and truncated frames get expert info (Analyze > Expert
-- Information, or tshark -z expert).
--
--   tshark -X lua_script:tools/wireshark/r2c2.lua -r capture.pcap -V
--   tshark -X lua_script:tools/wireshark/r2c2.lua -r capture.pcap \
--          -Y 'r2c2.type == 1' -T fields -e r2c2.src -e r2c2.dst -e r2c2.hop
--
-- or copy it to ~/.local/lib/wireshark/plugins/. Field names: tshark -G
-- fields | grep '\br2c2\.' (Documentation/observe.md lists them).

local ETH_P_R2C2 = 0x88B5
local VERSION = 1
local MAX_HOPS = 42
local MAX_PORTS = 8
local ROUTES_MAX = 212
local LSA_MAX_AGE_S = 3600
local DATA_HLEN = 40
local CTL_HLEN = 8
local DEMAND_UNLIMITED = 0x3fffffff
local AUTH_LEN = 24
local ADDR_NONE = 0xffff

-- Wireshark 4.0 embeds Lua 5.2: no integer division or bit operators.
local band, bnot, rshift = bit32.band, bit32.bnot, bit32.rshift
local function idiv(a, b) return math.floor(a / b) end

local p = Proto("r2c2", "R2C2 rack-scale fabric")

local types = {
	[1] = "DATA", [2] = "HELLO", [3] = "LSA", [4] = "BCAST_ETH",
	[5] = "FLOW", [6] = "ROUTES",
}
local rprotos = { [0] = "RPS", [1] = "DOR", [2] = "VLB" }
local events = {
	[1] = "start", [2] = "finish", [3] = "update", [4] = "refresh",
	[5] = "digest", [6] = "resync",
}

local f = p.fields
-- common
f.version = ProtoField.uint8("r2c2.version", "Version", base.DEC, nil, 0xf0)
f.type = ProtoField.uint8("r2c2.type", "Type", base.DEC, types, 0x0f)
f.src = ProtoField.uint16("r2c2.src", "Source node", base.DEC)
f.csum = ProtoField.uint16("r2c2.csum", "Header checksum", base.HEX)
f.csum_status = ProtoField.uint8("r2c2.csum.status", "Checksum status",
	base.DEC, { [0] = "Bad", [1] = "Good" })
-- data header
f.rlen = ProtoField.uint8("r2c2.rlen", "Route length", base.DEC)
f.ridx = ProtoField.uint8("r2c2.ridx", "Route index", base.DEC)
f.rproto = ProtoField.uint8("r2c2.rproto", "Routing protocol", base.DEC, rprotos)
f.flow = ProtoField.uint32("r2c2.flow", "Flow", base.HEX)
f.dst = ProtoField.uint16("r2c2.dst", "Destination node", base.DEC)
f.seq = ProtoField.uint32("r2c2.seq", "Sequence", base.DEC)
f.plen = ProtoField.uint16("r2c2.plen", "Payload length", base.DEC)
f.proto = ProtoField.uint16("r2c2.proto", "Payload ethertype", base.HEX)
f.resv = ProtoField.uint16("r2c2.resv", "Reserved", base.HEX)
f.route = ProtoField.bytes("r2c2.route", "Route")
f.hop = ProtoField.uint8("r2c2.hop", "Hop port", base.DEC)
f.hops = ProtoField.string("r2c2.hops", "Hops")
f.next_port = ProtoField.uint8("r2c2.next_port", "Next hop port", base.DEC)
f.hops_left = ProtoField.uint8("r2c2.hops_left", "Hops left", base.DEC)
f.pad = ProtoField.bytes("r2c2.padding", "Padding")
-- control header
f.tree = ProtoField.uint8("r2c2.tree", "Broadcast tree", base.DEC)
f.bseq = ProtoField.uint16("r2c2.bseq", "Broadcast sequence", base.DEC)
-- HELLO
f.hello_port = ProtoField.uint8("r2c2.hello.port", "Sender port", base.DEC)
f.hello_flags = ProtoField.uint8("r2c2.hello.flags", "Flags", base.HEX)
f.hello_interval = ProtoField.uint16("r2c2.hello.interval_ms", "Hello interval (ms)", base.DEC)
f.hello_topo = ProtoField.uint32("r2c2.hello.topo_hash", "Topology hash", base.HEX)
-- LSA
f.lsa_seq = ProtoField.uint32("r2c2.lsa.seq", "LSA sequence", base.DEC)
f.lsa_count = ProtoField.uint8("r2c2.lsa.count", "Links", base.DEC)
f.lsa_resv = ProtoField.uint8("r2c2.lsa.resv", "Reserved", base.HEX)
f.lsa_max_age = ProtoField.uint16("r2c2.lsa.max_age_s", "Max age (s)", base.DEC)
f.lsa_link = ProtoField.string("r2c2.lsa.link", "Link")
f.lsa_port = ProtoField.uint8("r2c2.lsa.port", "Port", base.DEC)
f.lsa_nbr_port = ProtoField.uint8("r2c2.lsa.nbr_port", "Neighbour port", base.DEC)
f.lsa_nbr = ProtoField.uint16("r2c2.lsa.nbr", "Neighbour", base.DEC)
-- FLOW
f.fe_flow = ProtoField.uint32("r2c2.fe.flow", "Flow", base.HEX)
f.fe_dst = ProtoField.uint16("r2c2.fe.dst", "Destination node", base.DEC)
f.fe_weight = ProtoField.uint8("r2c2.fe.weight", "Weight", base.DEC)
f.fe_event = ProtoField.uint8("r2c2.fe.event", "Event", base.DEC, events, 0xf0)
f.fe_prio = ProtoField.uint8("r2c2.fe.prio", "Priority", base.DEC, nil, 0x0f)
f.fe_rproto = ProtoField.uint32("r2c2.fe.rproto", "Routing protocol", base.DEC,
	rprotos, 0xc0000000)
f.fe_demand = ProtoField.uint32("r2c2.fe.demand_kbps", "Demand (Kbit/s)", base.DEC,
	nil, 0x3fffffff)
f.fe_unlimited = ProtoField.bool("r2c2.fe.unlimited", "Unlimited demand")
-- ROUTES
f.rt_count = ProtoField.uint16("r2c2.routes.count", "Entries", base.DEC)
f.rt_resv = ProtoField.uint16("r2c2.routes.resv", "Reserved", base.HEX)
f.rt_entry = ProtoField.string("r2c2.routes.entry", "Entry")
f.rt_src = ProtoField.uint16("r2c2.routes.src", "Flow source", base.DEC)
f.rt_flow = ProtoField.uint32("r2c2.routes.flow", "Flow", base.HEX)
f.rt_rproto = ProtoField.uint8("r2c2.routes.rproto", "Routing protocol", base.DEC, rprotos)
-- authentication trailer (struct r2c2_auth_trl)
f.auth = ProtoField.bytes("r2c2.auth", "Authentication trailer")
f.auth_key = ProtoField.uint8("r2c2.auth.key_id", "Key id", base.DEC)
f.auth_newest = ProtoField.uint8("r2c2.auth.newest_id", "Newest key id", base.DEC)
f.auth_from = ProtoField.uint16("r2c2.auth.from", "Transmitter", base.DEC)
f.auth_to = ProtoField.uint16("r2c2.auth.to", "Sent to", base.DEC)
f.auth_resv = ProtoField.uint16("r2c2.auth.resv", "Reserved", base.HEX)
f.auth_proto = ProtoField.uint16("r2c2.auth.proto", "Ethertype (data frames)", base.HEX)
f.auth_seq = ProtoField.uint64("r2c2.auth.seq", "Sequence (ns of real time)", base.DEC)
f.auth_time = ProtoField.absolute_time("r2c2.auth.time", "Sequence as time", base.UTC)
f.auth_mac = ProtoField.uint64("r2c2.auth.mac", "MAC (SipHash-2-4, not checked)", base.HEX)

local e_trunc = ProtoExpert.new("r2c2.truncated", "Frame shorter than its headers",
	expert.group.MALFORMED, expert.severity.ERROR)
local e_version = ProtoExpert.new("r2c2.bad_version", "Unknown version or type",
	expert.group.MALFORMED, expert.severity.ERROR)
local e_csum = ProtoExpert.new("r2c2.bad_csum", "Bad header checksum",
	expert.group.CHECKSUM, expert.severity.ERROR)
local e_rlen = ProtoExpert.new("r2c2.bad_rlen", "Route length above 42 hops",
	expert.group.MALFORMED, expert.severity.ERROR)
local e_ridx = ProtoExpert.new("r2c2.bad_ridx", "Route index beyond route length",
	expert.group.MALFORMED, expert.severity.ERROR)
local e_body = ProtoExpert.new("r2c2.bad_body", "Malformed body",
	expert.group.MALFORMED, expert.severity.ERROR)
local e_resv = ProtoExpert.new("r2c2.resv_nonzero", "Reserved field not zero",
	expert.group.PROTOCOL, expert.severity.WARN)
p.experts = { e_trunc, e_version, e_csum, e_rlen, e_ridx, e_body, e_resv }

local ethertype_table = DissectorTable.get("ethertype")
local eth_dissector = Dissector.get("eth_withoutfcs")
local data_dissector = Dissector.get("data")

-- Internet checksum (RFC 1071) of tvb bytes [off, off + len), with the
-- 16-bit words at the offsets in skip (relative to off) taken as zero.
local function inet_csum(tvb, off, len, skip)
	local sum = 0
	local i = 0
	while i < len do
		local hi = tvb(off + i, 1):uint()
		local lo = 0
		if i + 1 < len then lo = tvb(off + i + 1, 1):uint() end
		if skip[i] then hi = 0 end
		if skip[i + 1] then lo = 0 end
		sum = sum + hi * 256 + lo
		i = i + 2
	end
	while sum > 0xffff do
		sum = band(sum, 0xffff) + rshift(sum, 16)
	end
	return band(bnot(sum), 0xffff)
end

local function add_csum(tree, tvb, off, len, skip, csum_off)
	local want = tvb(csum_off, 2):uint()
	local got = inet_csum(tvb, off, len, skip)
	local item = tree:add(f.csum, tvb(csum_off, 2))
	local ok = (want == got)
	tree:add(f.csum_status, ok and 1 or 0):set_generated()
	if ok then
		item:append_text(" [correct]")
	else
		item:append_text(string.format(" [incorrect, should be 0x%04x]", got))
		item:add_proto_expert_info(e_csum,
			string.format("Bad header checksum 0x%04x, should be 0x%04x", want, got))
	end
	return ok
end

-- Port of hop i: bits 3i..3i+2 of the little-endian 128-bit route.
local function hop_port(route, i)
	local bit = 3 * i
	local byte = idiv(bit, 8)
	local v = route:get_index(byte)
	if byte + 1 < route:len() then
		v = v + route:get_index(byte + 1) * 256
	end
	return band(rshift(v, bit % 8), 7)
end

-- The authentication trailer after a body of n bytes, by the kernel's
-- rule (Documentation/wire-format.md): present when the frame holds
-- n + 24 bytes and its key id is not 0 (Ethernet padding reads as key
-- id 0); else what follows the body is padding. Returns the bytes
-- decoded. A data frame's trailer (proto: its header's ethertype) holds
-- that ethertype where a control frame's holds zero, and may be followed
-- by a second one (a rotation): more is padding.
local function dissect_trailer(tvb, pinfo, tree, n, proto)
	local len = tvb:len()
	if len < n + AUTH_LEN or tvb(n, 1):uint() == 0 then
		if len > n then tree:add(f.pad, tvb(n)) end
		return n
	end
	local at = tree:add(f.auth, tvb(n, AUTH_LEN))
	local key, from, to = tvb(n, 1):uint(), tvb(n + 2, 2):uint(), tvb(n + 4, 2):uint()
	at:set_text(string.format("Authentication trailer: key %d, from %d to %s",
		key, from, to == ADDR_NONE and "none" or tostring(to)))
	at:add(f.auth_key, tvb(n, 1))
	at:add(f.auth_newest, tvb(n + 1, 1))
	at:add(f.auth_from, tvb(n + 2, 2))
	local it = at:add(f.auth_to, tvb(n + 4, 2))
	if to == ADDR_NONE then it:append_text(" (no neighbour yet)") end
	if proto then
		it = at:add(f.auth_proto, tvb(n + 6, 2))
		if tvb(n + 6, 2):uint() ~= proto then
			it:add_proto_expert_info(e_body, string.format(
				"Trailer's ethertype 0x%04x is not the header's 0x%04x",
				tvb(n + 6, 2):uint(), proto))
		end
	else
		it = at:add(f.auth_resv, tvb(n + 6, 2))
		if tvb(n + 6, 2):uint() ~= 0 then it:add_proto_expert_info(e_resv) end
	end
	local seq = tvb(n + 8, 8):uint64()
	at:add(f.auth_seq, tvb(n + 8, 8))
	at:add(f.auth_time, tvb(n + 8, 8), NSTime.new((seq / 1000000000):tonumber(),
		(seq % 1000000000):tonumber())):set_generated()
	at:add_le(f.auth_mac, tvb(n + 16, 8))
	pinfo.cols.info:append(string.format(" [key %d from %d]", key, from))
	if proto and len >= n + 2 * AUTH_LEN and tvb(n + AUTH_LEN, 1):uint() ~= 0 then
		return dissect_trailer(tvb, pinfo, tree, n + AUTH_LEN, proto)
	end
	if len > n + AUTH_LEN then tree:add(f.pad, tvb(n + AUTH_LEN)) end
	return n + AUTH_LEN
end

local function truncated(tree, pinfo, tvb, need, what)
	tree:add_proto_expert_info(e_trunc, string.format(
		"Truncated: %s needs %d bytes, the frame has %d", what, need, tvb:len()))
	pinfo.cols.info:append(" [truncated]")
end

local function dissect_data(tvb, pinfo, top, tree)
	local len = tvb:len()
	if len < DATA_HLEN then
		truncated(tree, pinfo, tvb, DATA_HLEN, "data header")
		return
	end
	local rlen = tvb(1, 1):uint()
	local ridx = tvb(2, 1):uint()
	local src = tvb(8, 2):uint()
	local dst = tvb(10, 2):uint()
	local plen = tvb(16, 2):uint()
	local ptype = tvb(18, 2):uint()
	tree:set_len(DATA_HLEN)
	local it = tree:add(f.rlen, tvb(1, 1))
	if rlen > MAX_HOPS then
		it:add_proto_expert_info(e_rlen, "Route length " .. rlen .. " above 42")
	end
	it = tree:add(f.ridx, tvb(2, 1))
	if ridx > rlen then
		it:add_proto_expert_info(e_ridx, "Route index " .. ridx .. " beyond route length " .. rlen)
	end
	tree:add(f.rproto, tvb(3, 1))
	tree:add(f.flow, tvb(4, 4))
	tree:add(f.src, tvb(8, 2))
	tree:add(f.dst, tvb(10, 2))
	tree:add(f.seq, tvb(12, 4))
	it = tree:add(f.plen, tvb(16, 2))
	if DATA_HLEN + plen > len then
		it:add_proto_expert_info(e_trunc, string.format(
			"Truncated: payload length %d, the frame holds %d after the header",
			plen, len - DATA_HLEN))
		pinfo.cols.info:append(" [truncated]")
	end
	tree:add(f.proto, tvb(18, 2))
	add_csum(tree, tvb, 0, DATA_HLEN, { [2] = true, [20] = true, [21] = true }, 20)
	it = tree:add(f.resv, tvb(22, 2))
	if tvb(22, 2):uint() ~= 0 then it:add_proto_expert_info(e_resv) end

	local route = tvb(24, 16):bytes()
	local rt = tree:add(f.route, tvb(24, 16))
	local ports = {}
	local n = math.min(rlen, MAX_HOPS)
	for i = 0, n - 1 do
		local port = hop_port(route, i)
		ports[#ports + 1] = tostring(port)
		local b0 = idiv(3 * i, 8)
		local blen = idiv(3 * i + 2, 8) - b0 + 1
		local h = rt:add(f.hop, tvb(24 + b0, blen), port)
		local state = ""
		if i < ridx then
			state = " (taken)"
		elseif i == ridx then
			state = " (next)"
		end
		h:set_text(string.format("Hop %d: port %d%s", i, port, state))
	end
	local hops = table.concat(ports, " ")
	rt:append_text(" [" .. hops .. "]")
	tree:add(f.hops, hops):set_generated()
	if ridx < n then
		tree:add(f.next_port, hop_port(route, ridx)):set_generated()
	end
	if ridx <= rlen then
		tree:add(f.hops_left, rlen - ridx):set_generated()
	end
	tree:append_text(string.format(": %d -> %d, hop %d/%d", src, dst, ridx, rlen))
	pinfo.cols.info:set(string.format("DATA %d -> %d flow 0x%08x seq %d route [%s] ridx %d",
		src, dst, tvb(4, 4):uint(), tvb(12, 4):uint(), hops, ridx))

	local avail = math.min(plen, len - DATA_HLEN)
	if avail > 0 then
		local payload = tvb(DATA_HLEN, avail):tvb()
		pinfo.cols.protocol:set("R2C2")
		if not ethertype_table:try(ptype, payload, pinfo, top) then
			data_dissector:call(payload, pinfo, top)
		end
	end
	-- with a rack key, ARP and ND carry a trailer (two in a rotation)
	if len > DATA_HLEN + plen then
		dissect_trailer(tvb, pinfo, tree, DATA_HLEN + plen, ptype)
	end
end

local function dissect_hello(tvb, pinfo, top, tree)
	if tvb:len() < CTL_HLEN + 8 then
		truncated(tree, pinfo, tvb, CTL_HLEN + 8, "HELLO")
		return
	end
	add_csum(tree, tvb, 0, CTL_HLEN + 8, { [6] = true, [7] = true }, 6)
	tree:add(f.hello_port, tvb(8, 1))
	tree:add(f.hello_flags, tvb(9, 1))
	tree:add(f.hello_interval, tvb(10, 2))
	tree:add(f.hello_topo, tvb(12, 4))
	pinfo.cols.info:set(string.format("HELLO from %d port %d interval %d ms",
		tvb(2, 2):uint(), tvb(8, 1):uint(), tvb(10, 2):uint()))
	dissect_trailer(tvb, pinfo, tree, CTL_HLEN + 8)
end

local function dissect_lsa(tvb, pinfo, top, tree)
	local len = tvb:len()
	if len < CTL_HLEN + 8 then
		truncated(tree, pinfo, tvb, CTL_HLEN + 8, "LSA")
		return
	end
	local count = tvb(12, 1):uint()
	local maxage = tvb(14, 2):uint()
	local body = CTL_HLEN + 8 + 4 * count
	tree:add(f.lsa_seq, tvb(8, 4))
	local it = tree:add(f.lsa_count, tvb(12, 1))
	if count > MAX_PORTS then
		it:add_proto_expert_info(e_body, "LSA with " .. count .. " links (at most 8)")
	end
	it = tree:add(f.lsa_resv, tvb(13, 1))
	if tvb(13, 1):uint() ~= 0 then it:add_proto_expert_info(e_resv) end
	it = tree:add(f.lsa_max_age, tvb(14, 2))
	if maxage < 1 or maxage > LSA_MAX_AGE_S then
		it:add_proto_expert_info(e_body, "LSA max age " .. maxage .. " s outside 1..3600")
	end
	if len < body then
		truncated(tree, pinfo, tvb, body, "LSA with " .. count .. " links")
		return
	end
	add_csum(tree, tvb, 0, body, { [6] = true, [7] = true }, 6)
	local links = {}
	for i = 0, count - 1 do
		local o = CTL_HLEN + 8 + 4 * i
		local s = string.format("port %d -> node %d port %d", tvb(o, 1):uint(),
			tvb(o + 2, 2):uint(), tvb(o + 1, 1):uint())
		local lt = tree:add(f.lsa_link, tvb(o, 4), s)
		lt:add(f.lsa_port, tvb(o, 1))
		lt:add(f.lsa_nbr_port, tvb(o + 1, 1))
		lt:add(f.lsa_nbr, tvb(o + 2, 2))
		links[#links + 1] = string.format("%d:%d/%d", tvb(o, 1):uint(),
			tvb(o + 2, 2):uint(), tvb(o + 1, 1):uint())
	end
	pinfo.cols.info:set(string.format("LSA from %d seq %d links %s",
		tvb(2, 2):uint(), tvb(8, 4):uint(), table.concat(links, " ")))
	dissect_trailer(tvb, pinfo, tree, body)
end

-- The length of the Ethernet frame at off as its own headers give it (ARP,
-- IPv4, IPv6, behind VLAN tags), or nil: a BCAST_ETH frame has no length
-- field, and with a rack key its trailer is the frame's last 24 bytes.
local function inner_len(tvb, off)
	local len, o = tvb:len(), off + 12
	while o + 2 <= len and (tvb(o, 2):uint() == 0x8100 or tvb(o, 2):uint() == 0x88a8) do
		o = o + 4
	end
	if o + 2 > len then return nil end
	local et = tvb(o, 2):uint()
	o = o + 2
	if et == 0x0806 and o + 6 <= len then
		return o - off + 8 + 2 * (tvb(o + 4, 1):uint() + tvb(o + 5, 1):uint())
	elseif et == 0x0800 and o + 4 <= len then
		return o - off + tvb(o + 2, 2):uint()
	elseif et == 0x86dd and o + 6 <= len then
		return o - off + 40 + tvb(o + 4, 2):uint()
	end
	return nil
end

local function dissect_bcast_eth(tvb, pinfo, top, tree)
	local len = tvb:len()
	if len < CTL_HLEN + 14 then
		truncated(tree, pinfo, tvb, CTL_HLEN + 14, "BCAST_ETH")
		return
	end
	add_csum(tree, tvb, 0, CTL_HLEN + 14, { [6] = true, [7] = true }, 6)
	tree:set_len(CTL_HLEN)
	pinfo.cols.protocol:set("R2C2")
	local src = tvb(2, 2):uint()
	local eth_len = len - CTL_HLEN
	local n = inner_len(tvb, CTL_HLEN)
	if n and n + AUTH_LEN == eth_len and tvb(len - AUTH_LEN, 1):uint() ~= 0 then
		eth_len = n
	end
	eth_dissector:call(tvb(CTL_HLEN, eth_len):tvb(), pinfo, top)
	pinfo.cols.info:prepend(string.format("BCAST_ETH from %d tree %d: ", src, tvb(1, 1):uint()))
	if eth_len < len - CTL_HLEN then
		local t = top:add(p, tvb(CTL_HLEN + eth_len), "R2C2 authentication")
		dissect_trailer(tvb, pinfo, t, CTL_HLEN + eth_len)
	end
end

local function dissect_flow(tvb, pinfo, top, tree)
	if tvb:len() < CTL_HLEN + 12 then
		truncated(tree, pinfo, tvb, CTL_HLEN + 12, "FLOW")
		return
	end
	add_csum(tree, tvb, 0, CTL_HLEN + 12, { [6] = true, [7] = true }, 6)
	tree:add(f.fe_flow, tvb(8, 4))
	tree:add(f.fe_dst, tvb(12, 2))
	local it = tree:add(f.fe_weight, tvb(14, 1))
	if tvb(14, 1):uint() == 0 then
		it:add_proto_expert_info(e_body, "Flow weight 0 (1..255)")
	end
	local ev = rshift(tvb(15, 1):uint(), 4)
	it = tree:add(f.fe_event, tvb(15, 1))
	if not events[ev] then
		it:add_proto_expert_info(e_body, "Unknown flow event " .. ev)
	end
	tree:add(f.fe_prio, tvb(15, 1))
	local rd = tvb(16, 4):uint()
	it = tree:add(f.fe_rproto, tvb(16, 4))
	if not rprotos[rshift(rd, 30)] then
		it:add_proto_expert_info(e_body, "Unknown routing protocol " .. rshift(rd, 30))
	end
	tree:add(f.fe_demand, tvb(16, 4))
	local demand = band(rd, DEMAND_UNLIMITED)
	tree:add(f.fe_unlimited, demand == DEMAND_UNLIMITED):set_generated()
	-- a digest of the source's flows, or a request for them: no flow
	if ev == 5 then
		pinfo.cols.info:set(string.format("FLOW digest src %d: 0x%08x over %d flows%s",
			tvb(2, 2):uint(), tvb(8, 4):uint(), demand,
			band(tvb(14, 1):uint(), 2) ~= 0 and " (answer to a resync)" or ""))
	elseif ev == 6 then
		pinfo.cols.info:set(string.format("FLOW resync src %d asks %d for its flows (holds %d, digest 0x%08x)",
			tvb(2, 2):uint(), tvb(12, 2):uint(), demand, tvb(8, 4):uint()))
	else
		pinfo.cols.info:set(string.format("FLOW %s src %d flow 0x%08x dst %d weight %d prio %d %s demand %s",
			events[ev] or tostring(ev), tvb(2, 2):uint(), tvb(8, 4):uint(), tvb(12, 2):uint(),
			tvb(14, 1):uint(), band(tvb(15, 1):uint(), 15), rprotos[rshift(rd, 30)] or "?",
			demand == DEMAND_UNLIMITED and "unlimited" or (demand .. " Kbit/s")))
	end
	dissect_trailer(tvb, pinfo, tree, CTL_HLEN + 12)
end

local function dissect_routes(tvb, pinfo, top, tree)
	local len = tvb:len()
	if len < CTL_HLEN + 4 then
		truncated(tree, pinfo, tvb, CTL_HLEN + 4, "ROUTES")
		return
	end
	local count = tvb(8, 2):uint()
	local it = tree:add(f.rt_count, tvb(8, 2))
	if count < 1 or count > ROUTES_MAX then
		it:add_proto_expert_info(e_body, "ROUTES with " .. count .. " entries (1..212)")
	end
	it = tree:add(f.rt_resv, tvb(10, 2))
	if tvb(10, 2):uint() ~= 0 then it:add_proto_expert_info(e_resv) end
	local body = CTL_HLEN + 4 + 7 * count
	if len < body then
		truncated(tree, pinfo, tvb, body, "ROUTES with " .. count .. " entries")
		return
	end
	add_csum(tree, tvb, 0, body, { [6] = true, [7] = true }, 6)
	local ents = {}
	for i = 0, count - 1 do
		local o = CTL_HLEN + 4 + 7 * i
		local rp = tvb(o + 6, 1):uint()
		local s = string.format("%d:0x%08x=%s", tvb(o, 2):uint(), tvb(o + 2, 4):uint(),
			rprotos[rp] or tostring(rp))
		local et = tree:add(f.rt_entry, tvb(o, 7), s)
		et:add(f.rt_src, tvb(o, 2))
		et:add(f.rt_flow, tvb(o + 2, 4))
		local ri = et:add(f.rt_rproto, tvb(o + 6, 1))
		if not rprotos[rp] then
			ri:add_proto_expert_info(e_body, "Unknown routing protocol " .. rp)
		end
		ents[#ents + 1] = s
	end
	pinfo.cols.info:set(string.format("ROUTES from %d %s", tvb(2, 2):uint(),
		table.concat(ents, " ")))
	dissect_trailer(tvb, pinfo, tree, body)
end

local ctl = {
	[2] = dissect_hello, [3] = dissect_lsa, [4] = dissect_bcast_eth,
	[5] = dissect_flow, [6] = dissect_routes,
}

function p.dissector(tvb, pinfo, root)
	pinfo.cols.protocol:set("R2C2")
	local tree = root:add(p, tvb())
	if tvb:len() < 1 then
		truncated(tree, pinfo, tvb, 1, "a header")
		return
	end
	local vt = tvb(0, 1):uint()
	local ver, typ = rshift(vt, 4), band(vt, 15)
	local vi = tree:add(f.version, tvb(0, 1))
	tree:add(f.type, tvb(0, 1))
	if ver ~= VERSION or not types[typ] then
		vi:add_proto_expert_info(e_version, string.format(
			"Unknown version %d or type %d", ver, typ))
		pinfo.cols.info:set(string.format("R2C2 version %d type %d [unknown]", ver, typ))
		return
	end
	tree:append_text(", " .. types[typ])
	if typ == 1 then
		dissect_data(tvb, pinfo, root, tree)
		return
	end
	if tvb:len() < CTL_HLEN then
		truncated(tree, pinfo, tvb, CTL_HLEN, "control header")
		return
	end
	tree:add(f.tree, tvb(1, 1))
	tree:add(f.src, tvb(2, 2))
	tree:add(f.bseq, tvb(4, 2))
	tree:append_text(string.format(" from %d", tvb(2, 2):uint()))
	pinfo.cols.info:set(types[typ])
	ctl[typ](tvb, pinfo, root, tree)
end

ethertype_table:add(ETH_P_R2C2, p)
