#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Documentation/netlink/specs/r2c2.yaml: valid for the upstream YNL schema
# and tooling (Linux 6.12's, tools/ynl/ynl-src.sh), equal to what the
# kernel declares (tools/ynl/spec-check.py), and each kind of drift
# between the two (a policy range, a new attribute, a command's flags,
# an attribute's type, enum values) is caught. The rt_link and tc
# fragments (rt_link-r2c2.yaml, tc-r2c2.yaml) likewise, against the UAPI
# header (tools/ynl/spec-merge.py --check). The policy r2c2ctl and r2c2d
# parse with (userspace/lib/genl.c) likewise.
set -u
cd "$(dirname "$0")/../.." || exit 1
PY=/usr/bin/python3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; fail=$((fail + 1)); }

if ! SRC=$(bash tools/ynl/ynl-src.sh); then
	nok "upstream YNL tooling (linux-source-6.12) available"
	echo "1..$n"; exit 1
fi
if $PY tools/ynl/spec-check.py --src "$SRC" >"$T/out" 2>&1; then
	ok "spec-check: $(tail -n 1 "$T/out" | sed 's/^spec-check: //')"
else
	nok "spec-check on the repository"; sed 's/^/# /' "$T/out"
fi
if $PY - "$SRC" >"$T/out" 2>&1 <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[1] + "/tools/net/ynl")
from lib import SpecFamily
f = SpecFamily("Documentation/netlink/specs/r2c2.yaml",
               sys.argv[1] + "/Documentation/netlink/genetlink-legacy.yaml")
assert f.attr_sets["r2c2"]["node-addr"].value == 1
assert f.msgs["class-get"].value == 23
print(len(f.msgs), "messages")
PYEOF
then
	ok "the upstream ynl library loads the spec ($(cat "$T/out"))"
else
	nok "the upstream ynl library loads the spec"; sed 's/^/# /' "$T/out"
fi

# drift NAME FILE SED_EXPR EXPECTED_MESSAGE: the checker, on a copy with
# FILE edited, must fail and say EXPECTED_MESSAGE.
drift()
{
	local name=$1 file=$2 expr=$3 msg=$4 d=$T/repo
	rm -rf "$d"
	mkdir -p "$d/include/uapi/linux" "$d/kmod" "$d/Documentation/netlink/specs" \
		"$d/userspace/lib"
	cp include/uapi/linux/r2c2.h "$d/include/uapi/linux/"
	cp userspace/lib/genl.c "$d/userspace/lib/"
	cp kmod/policy.c kmod/netlink.c kmod/r2c2.h kmod/reseq.h "$d/kmod/"
	cp Documentation/netlink/specs/r2c2.yaml "$d/Documentation/netlink/specs/"
	sed -i "$expr" "$d/$file"
	if cmp -s "$file" "$d/$file"; then
		nok "drift: $name (the edit changed nothing)"
		return
	fi
	if $PY tools/ynl/spec-check.py --repo "$d" --src "$SRC" >"$T/out" 2>&1; then
		nok "drift: $name: not caught"
	elif grep -qF -- "$msg" "$T/out"; then
		ok "drift: $name: $msg"
	else
		nok "drift: $name: caught, but not as '$msg'"; sed 's/^/# /' "$T/out"
	fi
}
drift "a policy range" kmod/policy.c \
	's/NLA_POLICY_RANGE(NLA_U8, 1, R2C2_MAX_TREES)/NLA_POLICY_RANGE(NLA_U8, 1, 8)/' \
	"R2C2_A_TREES: max (8): kernel 8, spec 16"
drift "a kernel-internal limit" kmod/reseq.h \
	's/^#define R2C2_RSQ_WIN\t\t\t256/#define R2C2_RSQ_WIN\t\t\t512/' \
	"R2C2_A_RESEQ_FLOW_LIMIT: max (R2C2_RSQ_WIN - 1): kernel 511, spec 255"
drift "a string's length" kmod/policy.c \
	's/\[R2C2_A_IFNAME\] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 }/[R2C2_A_IFNAME] = { .type = NLA_NUL_STRING }/' \
	"R2C2_A_IFNAME: the spec has max-len = 15, the kernel policy has none"
drift "a new attribute" include/uapi/linux/r2c2.h \
	's/^\tR2C2_A_CLASS_FLOWS,$/&\n\tR2C2_A_NEW_THING,/' \
	"enum r2c2_attr: R2C2_A_NEW_THING is not in the spec"
drift "a new policy entry" kmod/policy.c \
	's/^\t\[R2C2_A_DPORT_MAX\] = { .type = NLA_U16 },$/&\n\t[R2C2_A_CLASS_FLOWS] = NLA_POLICY_MAX(NLA_U64, 1000),/' \
	"R2C2_A_CLASS_FLOWS: kernel policy has max = 1000, the spec has none"
drift "two commands swapped" include/uapi/linux/r2c2.h \
	's/^\tR2C2_CMD_CLASS_SET,$/\tR2C2_CMD_CLASS_DEL_X,/; s/^\tR2C2_CMD_CLASS_DEL,$/\tR2C2_CMD_CLASS_SET,/; s/R2C2_CMD_CLASS_DEL_X/R2C2_CMD_CLASS_DEL/' \
	"r2c2_cmd: R2C2_CMD_CLASS_SET: kernel 22, spec 21"
drift "a command's admin flag" kmod/netlink.c \
	'/\.cmd = R2C2_CMD_CLASS_DEL,/{n;d}' \
	"R2C2_CMD_CLASS_DEL: spec flags ['GENL_UNS_ADMIN_PERM'], kernel []"
drift "the multicast group's flags" kmod/netlink.c \
	's/\.flags = GENL_MCAST_CAP_NET_ADMIN }/.flags = GENL_MCAST_CAP_SYS_ADMIN }/' \
	"multicast group events: spec flags"
drift "an attribute's type in the spec" Documentation/netlink/specs/r2c2.yaml \
	'/^        name: dst$/{n;s/type: u16/type: u32/}' \
	"R2C2_A_DST: spec type u32, the uapi kernel-doc says u16"
drift "userspace's policy: an attribute left out" userspace/lib/genl.c \
	'/^\t\[R2C2_A_KEY_PREV_MS\]/d' \
	"R2C2_A_KEY_PREV_MS: not in userspace/lib/genl.c's policy"
drift "userspace's policy: a type" userspace/lib/genl.c \
	's/^\(\t\[R2C2_A_RATE\]\t*= \)U64,/\1U32,/' \
	"R2C2_A_RATE: spec type u64, userspace/lib/genl.c's policy U32"
drift "userspace's policy: a length" userspace/lib/genl.c \
	's/EXACT(R2C2_AUTH_KEY_LEN)/EXACT(R2C2_AUTH_KEY_LEN + 1)/' \
	"R2C2_A_KEY: userspace/lib/genl.c's EXACT(R2C2_AUTH_KEY_LEN + 1): kernel 17, spec 16"
drift "userspace's policy: no length" userspace/lib/genl.c \
	's/MAXLEN(R2C2_MAX_HOPS)/BINARY/' \
	"R2C2_A_ROUTE: spec checks {'max-len': 42}, userspace/lib/genl.c's policy BINARY"
drift "a spec the schema refuses" Documentation/netlink/specs/r2c2.yaml \
	's/^      flags: \[ uns-admin-perm \]$/      flags: [ root-only ]/' \
	"schema genetlink-legacy:"

# r2c0's link attributes and sch_r2c2's options and statistics in the
# terms of the upstream rt_link and tc specs: each fragment agrees with
# the UAPI header, merges into the upstream spec, and the upstream ynl
# library loads the result and finds the r2c2 formats.
USPECS=$SRC/Documentation/netlink/specs
for x in rt_link tc; do
	if $PY tools/ynl/spec-merge.py --check include/uapi/linux/r2c2.h \
		"$USPECS/$x.yaml" "Documentation/netlink/specs/$x-r2c2.yaml" \
		-o "$T/$x.yaml" 2>"$T/out"; then
		ok "$x-r2c2.yaml merged into 6.12's $x.yaml: $(sed -n 's/^spec-merge: //p' "$T/out")"
	else
		nok "$x-r2c2.yaml merged into 6.12's $x.yaml"; sed 's/^/# /' "$T/out"
	fi
done
if $PY - "$SRC" "$T" >"$T/out" 2>&1 <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[1] + "/tools/net/ynl")
from lib import SpecFamily
schema = sys.argv[1] + "/Documentation/netlink/netlink-raw.yaml"
rt = SpecFamily(sys.argv[2] + "/rt_link.yaml", schema)
tc = SpecFamily(sys.argv[2] + "/tc.yaml", schema)
assert rt.sub_msgs["linkinfo-data-msg"].formats["r2c2"].attr_set == "linkinfo-r2c2-attrs"
assert rt.attr_sets["linkinfo-r2c2-attrs"]["topo-dims"].value == 4
assert tc.sub_msgs["tc-options-msg"].formats["r2c2"].attr_set == "tc-r2c2-attrs"
assert tc.sub_msgs["tca-stats-app-msg"].formats["r2c2"].fixed_header == "tc-r2c2-xstats"
assert tc.attr_sets["tc-r2c2-attrs"]["announce-bytes"].value == 13
print("rt_link %d, tc %d messages" % (len(rt.msgs), len(tc.msgs)))
PYEOF
then
	ok "the upstream ynl library loads both merged specs and their r2c2 formats ($(cat "$T/out"))"
else
	nok "the upstream ynl library loads both merged specs"; sed 's/^/# /' "$T/out"
fi

# rdrift NAME SED_EXPR EXPECTED_MESSAGE: spec-merge --check, on a copy of
# the header edited, must fail and say EXPECTED_MESSAGE
rdrift()
{
	local name=$1 expr=$2 msg=$3 x=$4
	sed "$expr" include/uapi/linux/r2c2.h >"$T/r2c2.h"
	if cmp -s include/uapi/linux/r2c2.h "$T/r2c2.h"; then
		nok "raw drift: $name (the edit changed nothing)"
	elif $PY tools/ynl/spec-merge.py --check "$T/r2c2.h" "$USPECS/$x.yaml" \
		"Documentation/netlink/specs/$x-r2c2.yaml" >/dev/null 2>"$T/out"; then
		nok "raw drift: $name: not caught"
	elif grep -qF -- "$msg" "$T/out"; then
		ok "raw drift: $name: $msg"
	else
		nok "raw drift: $name: caught, but not as '$msg'"; sed 's/^/# /' "$T/out"
	fi
}
rdrift "a new qdisc option" 's/^\tTCA_R2C2_ANNOUNCE_BYTES,$/&\n\tTCA_R2C2_NEW_KNOB,/' \
	"tc-r2c2-attrs: TCA_R2C2_NEW_KNOB in" tc
rdrift "two link attributes swapped" \
	's/^\tIFLA_R2C2_RPROTO,$/\tIFLA_R2C2_X,/; s/^\tIFLA_R2C2_HELLO_MS,$/\tIFLA_R2C2_RPROTO,/; s/IFLA_R2C2_X,/IFLA_R2C2_HELLO_MS,/' \
	"linkinfo-r2c2-attrs rproto: 2 in the fragment, IFLA_R2C2_RPROTO = 3" rt_link
rdrift "a statistic widened" 's/^\t__u32\tflows_active;$/\t__u64\tflows_active;/' \
	"struct tc_r2c2_xstats.flows_active size: 4 in the fragment" tc
echo "1..$n"
((fail == 0))
