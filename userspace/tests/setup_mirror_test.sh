#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scripts/setup.sh takes the Debian mirror from this machine's apt
# configuration (its extra sources and the virtme-ng .deb come from it):
# setup.sh --mirror under apt configurations of our own (APT_CONFIG),
# deb822 and one-line sources, and the R2C2_DEBIAN_MIRROR override.
set -u
cd "$(dirname "$0")/../.."
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0 fail=0
ok() { # ok COND-STATUS MESSAGE
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
mirror() { # APT_CONFIG file -> what setup.sh --mirror prints
	APT_CONFIG=$1 R2C2_DEBIAN_MIRROR= bash scripts/setup.sh --mirror 2>&1
}
echo "1..5"
if ! command -v apt-get >/dev/null; then
	for i in 1 2 3 4 5; do echo "ok $i # SKIP no apt-get"; done
	exit 4
fi
mkdir -p "$t/parts" "$t/none"
cat >"$t/parts/a.sources" <<'SRC'
Types: deb
URIs: http://security.example.org/debian-security
Suites: bookworm-security
Components: main

Types: deb
URIs: http://mirror.example.org/debian/
Suites: bookworm bookworm-updates
Components: main contrib
SRC
printf 'Dir::Etc::sourcelist "/dev/null";\nDir::Etc::sourceparts "%s";\n' "$t/parts" >"$t/deb822.conf"
m=$(mirror "$t/deb822.conf")
[ "$m" = http://mirror.example.org/debian ]; ok $? "deb822 sources: bookworm's main from http://mirror.example.org/debian, not the security suite's ('$m')"

printf 'deb http://one.example/debian bookworm-backports main\ndeb [arch=amd64] http://two.example/debian bookworm main\n' >"$t/list"
printf 'Dir::Etc::sourcelist "%s";\nDir::Etc::sourceparts "%s";\n' "$t/list" "$t/none" >"$t/list.conf"
m=$(mirror "$t/list.conf")
[ "$m" = http://two.example/debian ]; ok $? "one-line sources: bookworm's, not backports' ('$m')"

printf 'Dir::Etc::sourcelist "/dev/null";\nDir::Etc::sourceparts "%s";\n' "$t/none" >"$t/empty.conf"
m=$(mirror "$t/empty.conf")
[ "$m" = http://deb.debian.org/debian ]; ok $? "no bookworm source: deb.debian.org ('$m')"

m=$(APT_CONFIG=$t/deb822.conf R2C2_DEBIAN_MIRROR=http://own.example/debian/ bash scripts/setup.sh --mirror)
[ "$m" = http://own.example/debian ]; ok $? "R2C2_DEBIAN_MIRROR wins, without its trailing slash ('$m')"

grep -q 'deb.debian.org/debian/pool' scripts/setup.sh
[ $? != 0 ]; ok $? "setup.sh names no fixed mirror for the virtme-ng .deb"
exit $fail
