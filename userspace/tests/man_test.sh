#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# man_test.sh - the man pages against the code (TAP):
#   - groff -ww -man is silent on every page of Documentation/ (*.5, *.8);
#   - every page is installed (the top Makefile's MAN8/MAN5);
#   - r2c2ctl(8): every object of r2c2ctl's table (objects[] and its
#     *_cmds[] in r2c2ctl/main.c) is in the SYNOPSIS's OBJECT list and has
#     an entry ".B r2c2ctl [ -x ] OBJECT COMMAND" for each of its commands
#     (one ".B r2c2ctl [ -x ] OBJECT" when it takes no command word), and
#     the page names no object the table lacks; `r2c2ctl help` lists the
#     table's objects in its order (examples of prefixes, "r2c2ctl fl sh",
#     are taken for the objects they abbreviate);
#   - tc-r2c2(8): every keyword q_r2c2.c's parser takes is an option of
#     the page and a row of Documentation/sch_r2c2.md's option table.
set -u
cd "$(dirname "$0")/.." || exit 1
CTL=${R2C2CTL:-r2c2ctl/r2c2ctl}

python3 - "$CTL" <<'EOF'
import glob, os, re, shutil, subprocess, sys

ctl = sys.argv[1]
top = ".."
doc = os.path.join(top, "Documentation")
n = 0
failed = 0


def check(ok, desc, *why):
    global n, failed
    n += 1
    if ok:
        print("ok %d - %s" % (n, desc))
    else:
        failed += 1
        print("not ok %d - %s" % (n, desc))
        for w in why:
            print("#   %s" % w)


def skip(desc, why):
    global n
    n += 1
    print("ok %d - %s # SKIP %s" % (n, desc, why))


def plain(line):
    """A roff line without font escapes, "\\-" as "-"."""
    line = re.sub(r"\\f[BRIP]", "", line)
    return line.replace("\\-", "-").replace("\\ ", " ")


pages = sorted(glob.glob(os.path.join(doc, "*.[58]")))

# groff -ww: silent
if shutil.which("groff"):
    for p in pages:
        r = subprocess.run(["groff", "-ww", "-man", "-Tutf8", "-z", p],
                           capture_output=True, text=True)
        check(r.returncode == 0 and not r.stderr.strip(),
              "groff -ww -man %s: silent" % os.path.basename(p),
              *r.stderr.strip().splitlines()[:10])
else:
    skip("groff -ww -man on the pages", "groff not installed")

# installed by make install
mk = open(os.path.join(top, "Makefile")).read()
inst = set()
for var in ("MAN8", "MAN5"):
    m = re.search(r"^%s\s*:=\s*(.*)$" % var, mk, re.M)
    if m:
        inst.update(m.group(1).split())
for p in pages:
    b = os.path.basename(p)
    check(b in inst, "make install installs %s" % b,
          "not in the Makefile's MAN8/MAN5: %s" % sorted(inst))

# r2c2ctl's table
src = open("r2c2ctl/main.c").read()
cmds = {}
for m in re.finditer(r"static const char \*const (\w+)_cmds\[\] = \{([^}]*)\};", src):
    cmds[m.group(1)] = [w.split()[0] for w in re.findall(r'"([^"]+)"', m.group(2))]
table = []
body = src[src.index("static const struct object objects[]"):]
body = body[:body.index("};")]
for m in re.finditer(r'\{\s*"([a-z-]+)",\s*"[^"]*",\s*cmd_\w+,\s*(NULL|(\w+)_cmds),', body):
    table.append((m.group(1), cmds[m.group(3)] if m.group(3) else []))
check(len(table) >= 20, "r2c2ctl/main.c: the objects table read (%d objects)" % len(table))

if os.access(ctl, os.X_OK):
    out = subprocess.run([ctl, "help"], capture_output=True, text=True).stdout
    m = re.search(r"^where  OBJECT  := \{ (.*) \}$", out, re.M)
    listed = m.group(1).split(" | ") if m else []
    check(listed == [o for o, _ in table], "r2c2ctl help lists the table's objects",
          "help: %s" % listed)
else:
    skip("r2c2ctl help lists the table's objects", "%s not built" % ctl)

man = [plain(l) for l in open(os.path.join(doc, "r2c2ctl.8")).read().splitlines()]
syn = " ".join(man[:man.index(".SH DESCRIPTION")])
m = re.search(r"OBJECT\s*:=\s*\{(.*?)\}", re.sub(r"\.BR|\.IR|\"", " ", syn))
man_objs = [w for w in (m.group(1).split() if m else []) if w != "|"]
check(man_objs == [o for o, _ in table],
      "r2c2ctl(8) SYNOPSIS lists the objects of the table, in its order",
      "page:  %s" % man_objs, "table: %s" % [o for o, _ in table])

# an entry: a ".B r2c2ctl ..." line, with the lines that continue it when
# it is split over macros (".B r2c2ctl" / ".RB [ -j ]" / ".B alloc ...")
entries = []
for i, l in enumerate(man):
    if not re.match(r"^\.B r2c2ctl( |$)", l):
        continue
    words = [l[3:]]
    for nxt in man[i + 1:i + 6]:
        if not re.match(r"^\.(B|BR|RB|I|IR|RI|BI)( |$)", nxt) or nxt.startswith(".B r2c2ctl"):
            break
        words.append(nxt.split(None, 1)[1] if " " in nxt else "")
    e = " ".join(words).replace('"', "")
    entries.append(re.sub(r"\s+", " ", e).strip())
opt = r"(?:\[ -[a-z] \] )*"
for obj, cs in table:
    for c in cs or [None]:
        want = obj + (" " + c if c else "")
        pat = re.compile(r"^r2c2ctl " + opt + re.escape(want) + r"(?: |$)")
        check(any(pat.match(e) for e in entries),
              "r2c2ctl(8) documents \"r2c2ctl %s\"" % want,
              "no line \".B r2c2ctl [ -x ] %s ...\"" % want)
known = {o for o, _ in table}
for e in entries:
    m = re.match(r"^r2c2ctl " + opt + r"([a-z][a-z-]*)", e)
    # the prefixes the page shows as examples ("r2c2ctl fl sh") are fine
    if m and m.group(1) != "help" and not any(o.startswith(m.group(1)) for o in known):
        check(False, "r2c2ctl(8) entry names an object of the table: %s" % m.group(1), e)

# tc-r2c2(8) against the tc plugin's parser and sch_r2c2.md
qsrc = open(os.path.join(top, "tc", "q_r2c2.c")).read()
parse = qsrc[qsrc.index("r2c2_parse_opt("):qsrc.index("tail = addattr_nest")]
kws = [k for k in re.findall(r'strcmp\(\*argv, "([a-z_]+)"\)', parse) if k != "help"]
check(len(kws) >= 12, "tc/q_r2c2.c: the parser's keywords read (%d)" % len(kws))
tcpage = os.path.join(doc, "tc-r2c2.8")
check(os.path.exists(tcpage), "Documentation/tc-r2c2.8 exists")
tcman = [plain(l) for l in open(tcpage).read().splitlines()] if os.path.exists(tcpage) else []
opts = tcman[tcman.index(".SH OPTIONS"):tcman.index(".SH STATISTICS")] if ".SH OPTIONS" in tcman else []
md = open(os.path.join(doc, "sch_r2c2.md")).read()
for k in kws:
    check(any(re.match(r"^\.BI? %s(?: |$)" % re.escape(k), l) for l in opts),
          "tc-r2c2(8) OPTIONS documents %s" % k)
    check(re.search(r"^\| `(?:[a-z_]+` / `)?%s`" % re.escape(k), md, re.M) is not None
          or re.search(r"^\| `%s` / `" % re.escape(k), md, re.M) is not None,
          "sch_r2c2.md's option table has %s" % k)

print("1..%d" % n)
sys.exit(1 if failed else 0)
EOF
