#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""spec-check.py - check Documentation/netlink/specs/r2c2.yaml.

1. against the upstream YNL schema it names (protocol: genetlink-legacy),
   from the kernel source (tools/ynl/ynl-src.sh finds or unpacks it);
2. against the kernel: the names and values of every enum of
   include/uapi/linux/r2c2.h the spec describes (a C program compiled
   against the header prints the values of the names the spec gives; the
   header's own member lists are read for names the spec lacks), the type
   each attribute's kernel-doc gives, the policy of kmod/policy.c (type,
   min, max, max-len, exact-len of every entry, its expressions evaluated
   by the same C program), and the operations and multicast groups of
   kmod/netlink.c (doit/dumpit, admin flags, events, group flags).

Any difference is printed and makes the exit status 1.

usage: spec-check.py [--spec FILE] [--src KERNEL_SRC] [--repo DIR]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import jsonschema
import yaml

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
here = os.path.dirname(os.path.abspath(__file__))
ap.add_argument("--repo", default=os.path.normpath(os.path.join(here, "../..")))
ap.add_argument("--spec")
ap.add_argument("--src", help="kernel source with Documentation/netlink/")
ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
args = ap.parse_args()
repo = args.repo
spec_path = args.spec or os.path.join(repo, "Documentation/netlink/specs/r2c2.yaml")
errors = []


def err(msg):
    errors.append(msg)
    print("spec-check: " + msg)


def read(rel):
    with open(os.path.join(repo, rel)) as f:
        return f.read()


with open(spec_path) as f:
    spec = yaml.safe_load(f)

# ------------------------------------------------------------- 1. schema
src = args.src
if not src:
    src = subprocess.run(["bash", os.path.join(here, "ynl-src.sh")], check=True,
                         capture_output=True, text=True).stdout.strip()
proto = spec.get("protocol", "genetlink")
with open(os.path.join(src, "Documentation/netlink", proto + ".yaml")) as f:
    schema = yaml.safe_load(f)
try:
    jsonschema.validate(spec, schema)
except jsonschema.ValidationError as e:
    err("schema %s: %s (at %s)" % (proto, e.message, "/".join(map(str, e.path))))

# ------------------------------------------------------------- 2. kernel
uapi = read("include/uapi/linux/r2c2.h")
policy_c = read("kmod/policy.c")
netlink_c = read("kmod/netlink.c")


def cname(prefix, name):
    return (prefix + name).upper().replace("-", "_")


def enum_members(enum):
    """Member names of enum ENUM in the uapi header, __*_MAX left out."""
    m = re.search(r"enum %s \{(.*?)\};" % enum, uapi, re.S)
    if not m:
        err("enum %s not found in the uapi header" % enum)
        return []
    out = []
    for part in m.group(1).split(","):
        n = part.split("=")[0].strip()
        if n and not n.startswith("__"):
            out.append(n)
    return out


def spec_values(entries, start=0):
    """(name, value) of enum entries or attributes, values implied by order."""
    v = start
    out = []
    for e in entries:
        if isinstance(e, str):
            e = {"name": e}
        if "value" in e:
            v = e["value"]
        out.append((e["name"], v))
        v += 1
    return out


# The checks the C program makes: (label, C expression, expected value).
probes = []
kdefs = {}
for h in ("kmod/r2c2.h", "kmod/reseq.h"):
    for m in re.finditer(r"^#define\s+(R2C2_\w+)\s+([^\n/]+)", read(h), re.M):
        kdefs[m.group(1)] = m.group(2).strip()


def kernel_defines(exprs):
    """#defines of kmod/*.h (kernel-internal limits) the expressions need."""
    need, seen = [], set()

    def walk(e):
        for ident in re.findall(r"\b[A-Z_][A-Z0-9_]*\b", e):
            if ident in kdefs and ident not in seen and ident not in uapi:
                seen.add(ident)
                walk(kdefs[ident])
                need.append("#define %s %s" % (ident, kdefs[ident]))
    for e in exprs:
        walk(e)
    return need


# Enums of definitions.
enum_map = {}
for d in spec.get("definitions", []):
    if d["type"] != "enum":
        continue
    enum_map[d["name"]] = d
    ename, prefix = d["enum-name"], d["name-prefix"]
    vals = spec_values(d["entries"], d.get("value-start", 0))
    names = [cname(prefix, n) for n, _ in vals]
    for n, v in vals:
        probes.append(("enum %s: %s" % (ename, cname(prefix, n)), cname(prefix, n), v))
    for n in enum_members(ename):
        if n not in names:
            err("enum %s: %s is not in the spec" % (ename, n))

# Attribute sets.
policy_needed = {}
setnames = [x["name"] for x in spec["attribute-sets"]]
for s in spec["attribute-sets"]:
    if "subset-of" in s:
        parent = [x for x in spec["attribute-sets"] if x["name"] == s["subset-of"]]
        pnames = [a["name"] for a in parent[0]["attributes"]] if parent else []
        for a in s["attributes"]:
            if a["name"] not in pnames:
                err("subset %s: %s is not in %s" % (s["name"], a["name"], s["subset-of"]))
        continue
    ename, prefix = s["enum-name"], s["name-prefix"]
    vals = spec_values(s["attributes"])
    names = [cname(prefix, n) for n, _ in vals]
    for n, v in vals:
        probes.append(("%s: %s" % (ename, cname(prefix, n)), cname(prefix, n), v))
    for n in enum_members(ename):
        if n not in names:
            err("enum %s: %s is not in the spec" % (ename, n))
    if "attr-max-name" in s:
        probes.append(("%s: max" % ename, cname("", s["attr-max-name"]), vals[-1][1]))
    for a in s["attributes"]:
        if a.get("type") == "nest" and a.get("nested-attributes") not in setnames:
            err("attribute %s: nested-attributes %s is no attribute set" %
                (a["name"], a.get("nested-attributes")))
        if "enum" in a and a["enum"] not in enum_map:
            err("attribute %s: enum %s is not defined" % (a["name"], a["enum"]))

# The kernel-doc of the uapi header gives each top-level attribute's type.
top = [s for s in spec["attribute-sets"] if s.get("enum-name") == "r2c2_attr"][0]
doc_type = {}
for m in re.finditer(r"@(R2C2_A_\w+): (\w+)", uapi):
    doc_type[m.group(1)] = m.group(2)
doc_map = {"u8": "u8", "u16": "u16", "u32": "u32", "u64": "u64", "s32": "s32", "string": "string",
           "binary": "binary", "nested": "nest"}
for a in top["attributes"]:
    c = cname(top["name-prefix"], a["name"])
    want = doc_map.get(doc_type.get(c, ""))
    if a["type"] in ("unused", "pad"):
        continue
    if want is None:
        err("%s: the uapi kernel-doc gives no type (%s)" % (c, doc_type.get(c)))
    elif want != a["type"]:
        err("%s: spec type %s, the uapi kernel-doc says %s" % (c, a["type"], want))

# The policy table of kmod/policy.c.
ranges = {}
for m in re.finditer(r"struct netlink_range_validation (\w+)[^=]*=\s*\{\s*\.min\s*=\s*([^,]+),"
                     r"\s*\.max\s*=\s*([^,]+),\s*\}", policy_c):
    ranges[m.group(1)] = (m.group(2).strip(), m.group(3).strip())
m = re.search(r"const struct nla_policy r2c2_policy\[R2C2_A_MAX \+ 1\] = \{(.*?)\n\};",
              policy_c, re.S)
if not m:
    err("kmod/policy.c: r2c2_policy[R2C2_A_MAX + 1] not found")
    table = ""
else:
    table = m.group(1)
nla = {"NLA_U8": "u8", "NLA_U16": "u16", "NLA_U32": "u32", "NLA_U64": "u64", "NLA_S32": "s32",
       "NLA_NUL_STRING": "string", "NLA_BINARY": "binary", "NLA_NESTED": "nest"}
kpol = {}
for ent in re.split(r"\n\t(?=\[)", table):
    ent = " ".join(ent.split())
    if not ent:
        continue
    mm = re.match(r"\[(R2C2_A_\w+)\] = (.*),$", ent)
    if not mm:
        err("kmod/policy.c: cannot parse %r" % ent)
        continue
    attr, rhs = mm.groups()
    p = {}
    if (x := re.fullmatch(r"\{ \.type = (NLA_\w+)(?:, \.len = ([^}]+))? \}", rhs)):
        p["type"] = x.group(1)
        if x.group(2):
            p["max-len"] = x.group(2).strip()
    elif (x := re.fullmatch(r"NLA_POLICY_FULL_RANGE\((NLA_\w+), &(\w+)\)", rhs)):
        p["type"] = x.group(1)
        p["min"], p["max"] = ranges[x.group(2)]
    elif (x := re.fullmatch(r"NLA_POLICY_RANGE\((NLA_\w+), (.+), (.+)\)", rhs)):
        p["type"], p["min"], p["max"] = x.groups()
    elif (x := re.fullmatch(r"NLA_POLICY_MAX\((NLA_\w+), (.+)\)", rhs)):
        p["type"], p["max"] = x.groups()
    elif (x := re.fullmatch(r"NLA_POLICY_MIN\((NLA_\w+), (.+)\)", rhs)):
        p["type"], p["min"] = x.groups()
    elif (x := re.fullmatch(r"NLA_POLICY_EXACT_LEN\((.+)\)", rhs)):
        p["type"], p["exact-len"] = "NLA_BINARY", x.group(1)
    else:
        err("kmod/policy.c: %s: policy form not understood: %s" % (attr, rhs))
        continue
    if p["type"] not in nla:
        err("kmod/policy.c: %s: type %s has no YNL equivalent here" % (attr, p["type"]))
        continue
    kpol[attr] = p

exprs = []
npol = len(kpol)
for a in top["attributes"]:
    c = cname(top["name-prefix"], a["name"])
    p = kpol.pop(c, None)
    checks = a.get("checks", {})
    if p is None:
        if checks:
            err("%s: the spec has checks %s, the kernel policy has no entry" % (c, checks))
        continue
    if nla[p["type"]] != a["type"]:
        err("%s: spec type %s, kernel policy %s" % (c, a["type"], p["type"]))
    for k in ("min", "max", "max-len", "exact-len"):
        if k in p and k not in checks:
            err("%s: kernel policy has %s = %s, the spec has none" % (c, k, p[k]))
        elif k in checks and k not in p:
            err("%s: the spec has %s = %s, the kernel policy has none" % (c, k, checks[k]))
        elif k in p:
            if not isinstance(checks[k], int):
                err("%s: %s must be a number in this spec (%r)" % (c, k, checks[k]))
                continue
            probes.append(("%s: %s (%s)" % (c, k, p[k]), p[k], checks[k]))
            exprs.append(p[k])
for c in kpol:
    err("%s: in the kernel policy, not in the spec's %s set" % (c, top["name"]))

# The policy r2c2ctl and r2c2d parse the kernel's messages with
# (userspace/lib/genl.c): every attribute of the set, typed as the spec
# types it; a binary's exact-len or max-len and a string's max-len (plus
# its NUL) are its length bounds. Values ranges are the kernel's to check.
upol_file = "userspace/lib/genl.c"
genl_c = read(upol_file)
m = re.search(r"struct nla_policy r2c2_genl_policy\[R2C2_A_MAX \+ 1\] = \{(.*?)\n\};",
              genl_c, re.S)
upol = {}
if not m:
    err("%s: r2c2_genl_policy[R2C2_A_MAX + 1] not found" % upol_file)
else:
    for attr, rhs in re.findall(r"\[(R2C2_A_\w+)\]\s*=\s*([^,\n]+(?:\([^)]*\))?),", m.group(1)):
        upol[attr] = rhs.strip()
ukind = {"U8": "u8", "U16": "u16", "U32": "u32", "U64": "u64", "S32": "s32", "NEST": "nest",
         "BINARY": "binary", "IFNAME": "string"}
for a in top["attributes"]:
    if a["type"] in ("unused", "pad"):
        continue
    c = cname(top["name-prefix"], a["name"])
    rhs = upol.pop(c, None)
    if rhs is None:
        err("%s: not in %s's policy" % (c, upol_file))
        continue
    checks = a.get("checks", {})
    x = re.fullmatch(r"(EXACT|MAXLEN)\((.+)\)", rhs)
    kind = "binary" if x else ukind.get(rhs)
    if kind is None:
        err("%s: %s: policy form not understood: %s" % (upol_file, c, rhs))
        continue
    if kind != a["type"]:
        err("%s: spec type %s, %s's policy %s" % (c, a["type"], upol_file, rhs))
        continue
    if kind == "binary":
        want = ("EXACT", checks["exact-len"]) if "exact-len" in checks else \
            ("MAXLEN", checks["max-len"]) if "max-len" in checks else None
        have = (x.group(1), x.group(2)) if x else None
        if (want is None) != (have is None) or (want and want[0] != have[0]):
            err("%s: spec checks %s, %s's policy %s" % (c, checks or "none", upol_file, rhs))
        elif want:
            probes.append(("%s: %s's %s" % (c, upol_file, rhs), have[1], want[1]))
    elif kind == "string" and checks.get("max-len") != 15:
        err("%s: spec max-len %s, %s's policy IFNAME (15)" % (c, checks.get("max-len"), upol_file))
for c in upol:
    err("%s: in %s's policy, not in the spec's %s set" % (c, upol_file, top["name"]))

# Family, operations and multicast groups of kmod/netlink.c.
fam = re.search(r"struct genl_family r2c2_genl_family __ro_after_init = \{(.*?)\n\};",
                netlink_c, re.S)
fam = fam.group(1) if fam else ""
for k, want in (("name", cname("", spec["c-family-name"])),
                ("version", cname("", spec["c-version-name"])),
                ("maxattr", cname("", top["attr-max-name"])),
                ("policy", "r2c2_policy")):
    if not re.search(r"\.%s = %s," % (k, re.escape(want)), fam):
        err("kmod/netlink.c: the family's .%s is not %s" % (k, want))
probes.append(("family name", "sizeof(R2C2_GENL_NAME) - 1 == %d && !strcmp(R2C2_GENL_NAME, \"%s\")"
               % (len(spec["name"]), spec["name"]), 1))
probes.append(("family version", "R2C2_GENL_VERSION", spec["version"]))

kops = {}
m = re.search(r"static const struct genl_small_ops r2c2_ops\[\] = \{(.*?)\n\};", netlink_c, re.S)
for blk in re.findall(r"\{(.*?)\}", m.group(1) if m else "", re.S):
    cmd = re.search(r"\.cmd = (R2C2_CMD_\w+)", blk)
    if not cmd:
        continue
    fl = re.search(r"\.flags = ([\w| ]+)", blk)
    kops[cmd.group(1)] = {
        "do": ".doit" in blk, "dump": ".dumpit" in blk,
        "flags": sorted(f.strip() for f in fl.group(1).split("|")) if fl else []}
kevents = set()
for fn in re.finditer(r"\n(?:static )?void (r2c2_genl_\w+_event)\(.*?\n\}", netlink_c, re.S):
    kevents.update(re.findall(r"R2C2_CMD_\w+", fn.group(0)))
flag_c = {"admin-perm": "GENL_ADMIN_PERM", "uns-admin-perm": "GENL_UNS_ADMIN_PERM"}
ops = spec["operations"]
opnames = []
for name, v in spec_values(ops["list"]):
    c = cname(ops["name-prefix"], name)
    opnames.append(c)
    probes.append(("r2c2_cmd: " + c, c, v))
for op in ops["list"]:
    c = cname(ops["name-prefix"], op["name"])
    if c == "R2C2_CMD_UNSPEC":
        continue
    k = kops.pop(c, {"do": False, "dump": False, "flags": []})
    for kind in ("do", "dump"):
        if (kind in op) != k[kind]:
            err("%s: spec %s %s, kernel %s" % (c, "has" if kind in op else "has no", kind,
                                              "has it" if k[kind] else "has none"))
    sf = sorted(flag_c[f] for f in op.get("flags", []))
    if sf != k["flags"]:
        err("%s: spec flags %s, kernel %s" % (c, sf, k["flags"]))
    if ("event" in op) != (c in kevents):
        err("%s: spec %s, the kernel %s" % (c, "has an event" if "event" in op else "has no event",
                                            "multicasts it" if c in kevents else "does not multicast it"))
    if "event" in op and op.get("mcgrp") not in [g["name"] for g in spec["mcast-groups"]["list"]]:
        err("%s: mcgrp %s is not a multicast group" % (c, op.get("mcgrp")))
    for kind in ("do", "dump"):
        for d in ("request", "reply"):
            for an in op.get(kind, {}).get(d, {}).get("attributes", []):
                if an not in [a["name"] for a in top["attributes"]]:
                    err("%s: %s %s attribute %s is not in the set" % (c, kind, d, an))
for c in kops:
    err("%s: in the kernel's ops, not in the spec" % c)
# The enum's 0 is no command (genetlink never dispatches it): the spec,
# like the kernel's own, lists the operations from 1 on.
for n in enum_members("r2c2_cmd"):
    if n not in opnames and n != "R2C2_CMD_UNSPEC":
        err("enum r2c2_cmd: %s is not in the spec" % n)

kgrps = re.findall(r"\{ \.name = (\w+),\s*\.flags = ([\w| ]+) \}", netlink_c)
sgrps = spec["mcast-groups"]["list"]
if len(kgrps) != len(sgrps):
    err("multicast groups: kernel %d, spec %d" % (len(kgrps), len(sgrps)))
gflag = {"uns-admin-perm": "GENL_MCAST_CAP_NET_ADMIN", "admin-perm": "GENL_MCAST_CAP_SYS_ADMIN"}
for (kn, kf), g in zip(kgrps, sgrps):
    if kn != cname("", g.get("c-define-name", "")):
        err("multicast group %s: kernel name %s, spec c-define-name %s" %
            (g["name"], kn, g.get("c-define-name")))
    probes.append(("group %s" % g["name"], "!strcmp(%s, \"%s\")" % (kn, g["name"]), 1))
    sf = sorted(gflag[f] for f in g.get("flags", []))
    if sf != sorted(x.strip() for x in kf.split("|")):
        err("multicast group %s: spec flags %s, kernel %s" % (g["name"], sf, kf))

# The C program: every probe's value, compiled against the uapi header.
prog = ["#include <stdio.h>", "#include <string.h>", "#include <linux/if.h>",
        "#include <linux/if_ether.h>", "#include <linux/r2c2.h>",
        "#define BIT(n) (1ULL << (n))"]
prog += kernel_defines(exprs)
prog.append("int main(void)\n{")
for i, (label, expr, _) in enumerate(probes):
    prog.append("\tprintf(\"%%d %%lld\\n\", %d, (long long)(%s));" % (i, expr))
prog.append("\treturn 0;\n}")
with tempfile.TemporaryDirectory() as tmp:
    cfile, exe = os.path.join(tmp, "probe.c"), os.path.join(tmp, "probe")
    with open(cfile, "w") as f:
        f.write("\n".join(prog) + "\n")
    cc = subprocess.run([args.cc, "-std=c11", "-Wall", "-Werror",
                         "-I", os.path.join(repo, "include/uapi"), "-o", exe, cfile],
                        capture_output=True, text=True)
    if cc.returncode != 0:
        # A name the spec gives that the header lacks: say which.
        for line in cc.stderr.splitlines():
            if "undeclared" in line or "error" in line:
                err("C probe: " + line.split("error: ", 1)[-1])
        out = ""
    else:
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
for line in out.splitlines():
    i, val = line.split()
    label, expr, want = probes[int(i)]
    if int(val) != want:
        err("%s: kernel %s, spec %s" % (label, val, want))

nattr = sum(len(s["attributes"]) for s in spec["attribute-sets"] if "subset-of" not in s)
if errors:
    print("spec-check: %d difference(s) between %s and the kernel" % (len(errors), spec_path))
    sys.exit(1)
print("spec-check: %s matches the %s schema, the kernel and userspace's policy: "
      "%d attributes in %d sets, %d policy entries, %d operations, %d multicast group(s), "
      "%d values compared"
      % (os.path.relpath(spec_path, repo), proto, nattr,
         sum(1 for s in spec["attribute-sets"] if "subset-of" not in s),
         npol,
         len(ops["list"]) - 1, len(sgrps), len(probes)))
