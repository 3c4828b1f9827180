# SPDX-License-Identifier: GPL-2.0
#
# iproute2.mk - which iproute2 headers tc/ and ip/ build their plugins
# against (included by tc/Makefile and ip/Makefile; see
# third_party/iproute2/README):
#
#   IP2_SRC=DIR   an unpacked iproute2 source tree: its headers and UAPI
#   (unset)       third_party/iproute2, when the installed iproute2 (or,
#                 with none installed, the one the package will depend on)
#                 has its upstream version; else the source that
#                 scripts/setup.sh unpacked for the installed version
#
# Sets IP2_INC (-I options, the plugin's directory DIR last) and
# IP2_BUILT_FOR, the upstream version the plugin will need.

R2C2_CACHE ?= /var/cache/r2c2
IP2_TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
IP2_VENDOR := $(IP2_TOP)/iproute2
IP2_VENDOR_VER := $(shell cat $(IP2_VENDOR)/VERSION)
# the installed iproute2: Debian version, and its upstream part
IP2_VER	:= $(shell dpkg-query -W -f='$${Version}' iproute2 2>/dev/null)
IP2_UP	:= $(shell echo '$(IP2_VER)' | sed -e 's/^[0-9]*://' -e 's/-[^-]*$$//')
IP2_CACHED := $(R2C2_CACHE)/iproute2-$(IP2_VER)/src

ifneq ($(IP2_SRC),)
IP2_HDRS := $(IP2_SRC)
IP2_BUILT_FOR := $(shell sed -n 's/.*version\[\] = "\(.*\)";/\1/p' $(IP2_SRC)/include/version.h 2>/dev/null)
IP2_UAPI := -I$(IP2_SRC)/include/uapi
else ifeq ($(filter-out $(IP2_VENDOR_VER),$(IP2_UP)),)
IP2_HDRS := $(IP2_VENDOR)
IP2_BUILT_FOR := $(IP2_VENDOR_VER)
IP2_UAPI :=
else ifneq ($(wildcard $(IP2_CACHED)/include/version.h),)
IP2_HDRS := $(IP2_CACHED)
IP2_BUILT_FOR := $(IP2_UP)
IP2_UAPI := -I$(IP2_CACHED)/include/uapi
else
IP2_HDRS :=
endif

# ip2_inc DIR: the -I options for a plugin of iproute2's DIR (tc or ip)
ip2_inc = -I$(IP2_HDRS)/include -I$(IP2_HDRS)/$(1)

# checked when a plugin is built, not when the file is read (clean works
# everywhere)
define ip2_check
	@test -n '$(IP2_HDRS)' || { echo "iproute2 $(IP2_VER) is installed and third_party/iproute2 has the headers of $(IP2_VENDOR_VER) (no stable plugin ABI): pass IP2_SRC=<iproute2-$(IP2_UP) source>, or run scripts/setup.sh, which unpacks it in $(R2C2_CACHE)" >&2; exit 1; }
	@test -f $(IP2_HDRS)/$(1)/$(2) || { echo "no $(1)/$(2) in $(IP2_HDRS): IP2_SRC must be an unpacked iproute2 source tree" >&2; exit 1; }
endef
