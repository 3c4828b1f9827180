#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""spec-merge.py - add r2c2's fragment of a netlink-raw spec to the upstream spec.

Documentation/netlink/specs/rt_link-r2c2.yaml and tc-r2c2.yaml describe
r2c0's link attributes and sch_r2c2's options and statistics in the terms
of Linux's rt_link.yaml and tc.yaml. This prints BASE with FRAGMENT's
definitions and attribute sets appended and its sub-message formats
added to BASE's sub-messages of the same name: the upstream ynl cli then
decodes r2c0 and the r2c2 qdisc with the merged spec.

With --check HEADER, also compare the fragment with the UAPI header (a C
program compiled against it prints the values): every attribute's value
(its position, or its "value"), the attribute set's names against the
header's enum members of that prefix, enum entries, and each struct's
member offsets and sizes against offsetof() and sizeof(). A difference
is printed and makes the exit status 1; nothing is printed on success
but a summary on stderr.

usage: spec-merge.py [--check HEADER] [--cc CC] BASE FRAGMENT
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import yaml

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("base")
ap.add_argument("fragment")
ap.add_argument("--check", metavar="HEADER")
ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
ap.add_argument("-o", "--output")
args = ap.parse_args()

with open(args.base) as f:
    base = yaml.safe_load(f)
with open(args.fragment) as f:
    frag = yaml.safe_load(f)
errors = []


def err(msg):
    errors.append(msg)
    print("spec-merge: " + msg, file=sys.stderr)


if frag.get("name") != base.get("name"):
    err("%s extends %s, %s is %s" % (args.fragment, frag.get("name"),
                                       args.base, base.get("name")))

for key in ("definitions", "attribute-sets"):
    have = {d["name"] for d in base.get(key, [])}
    for d in frag.get(key, []):
        if d["name"] in have:
            err("%s %s is in %s already" % (key, d["name"], args.base))
        base.setdefault(key, []).append(d)
subs = {s["name"]: s for s in base.get("sub-messages", [])}
for s in frag.get("sub-messages", []):
    if s["name"] not in subs:
        err("no sub-message %s in %s" % (s["name"], args.base))
        continue
    values = {fm["value"] for fm in subs[s["name"]]["formats"]}
    for fm in s["formats"]:
        if fm["value"] in values:
            err("sub-message %s has a format %s already" % (s["name"], fm["value"]))
        subs[s["name"]]["formats"].append(fm)

SIZES = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "s8": 1, "s16": 2, "s32": 4,
         "s64": 8}


def c_name(*parts):
    """the C name of a prefix ("ifla-r2c2-") and a name"""
    return "".join(parts).upper().replace("-", "_")


def check(header):
    """each name of the fragment, and its value, against the header"""
    text = open(header).read()
    probes = []     # (what, C expression, value the spec gives)
    for d in frag.get("definitions", []):
        if d["type"] == "enum":
            for i, e in enumerate(d["entries"]):
                name = e if isinstance(e, str) else e["name"]
                val = i if isinstance(e, str) else e.get("value", i)
                probes.append(("enum %s entry %s" % (d["name"], name),
                               c_name(d["name-prefix"], name), val))
        elif d["type"] == "struct":
            cs = "struct " + d["name"].replace("-", "_")
            off = 0
            for m in d["members"]:
                cm = m["name"].replace("-", "_")
                probes.append(("%s.%s offset" % (cs, cm),
                               "offsetof(%s, %s)" % (cs, cm), off))
                probes.append(("%s.%s size" % (cs, cm),
                               "sizeof(((%s *)0)->%s)" % (cs, cm), SIZES[m["type"]]))
                off += SIZES[m["type"]]
            probes.append(("sizeof(%s)" % cs, "sizeof(%s)" % cs, off))
    for a in frag.get("attribute-sets", []):
        prefix = a["name-prefix"]
        names = []
        v = 1
        for at in a["attributes"]:
            v = at.get("value", v)
            names.append(c_name(prefix, at["name"]))
            probes.append(("%s %s" % (a["name"], at["name"]), names[-1], v))
            v += 1
        # names the header has and the fragment lacks
        pfx = c_name(prefix)
        hdr = set(re.findall(r"\b(%s[A-Z0-9_]+)\s*[,=]" % re.escape(pfx), text))
        hdr -= {pfx + "UNSPEC"}
        for h in sorted(hdr - set(names)):
            err("%s: %s in %s is not described" % (a["name"], h, header))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "p.c")
        with open(src, "w") as f:
            f.write("#include <stdio.h>\n#include <stddef.h>\n#include <linux/types.h>\n")
            f.write('#include "%s"\nint main(void)\n{\n' % os.path.abspath(header))
            for what, expr, _ in probes:
                f.write('\tprintf("%%lld\\n", (long long)(%s));\n' % expr)
            f.write("\treturn 0;\n}\n")
        cc = subprocess.run([args.cc, "-o", os.path.join(tmp, "p"), src],
                            capture_output=True, text=True)
        if cc.returncode:
            for line in cc.stderr.splitlines():
                if "error" in line:
                    err("the header has no " + line.split("error: ")[-1])
            return
        out = subprocess.run([os.path.join(tmp, "p")], capture_output=True,
                             text=True, check=True).stdout.split()
    for (what, expr, val), got in zip(probes, out):
        if int(got) != val:
            err("%s: %d in the fragment, %s = %s in %s" % (what, val, expr, got, header))
    print("spec-merge: %s: %d names and values agree with %s" %
          (os.path.basename(args.fragment), len(probes), os.path.basename(header)),
          file=sys.stderr)


if args.check:
    check(args.check)
if errors:
    sys.exit(1)
out = open(args.output, "w") if args.output else sys.stdout
# the base's licence line first: the ynl library requires it there
with open(args.base) as f:
    spdx = f.readline()
out.write(spdx)
out.write("# %s with %s (tools/ynl/spec-merge.py)\n" %
          (os.path.basename(args.base), os.path.basename(args.fragment)))
yaml.safe_dump(base, out, sort_keys=False)
