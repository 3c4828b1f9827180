# SPDX-License-Identifier: GPL-2.0
#
# r2c2 top-level Makefile.
#
#   make                 modules for the running kernel's headers + userspace
#   make modules KVER=X  modules against /lib/modules/X/build into build/X/
#   make modules-all     modules for both target kernels (see setup.sh)
#   make modules-debug   modules for the debug kernel (scripts/debug-kernel.sh)
#   make userspace       r2c2ctl, r2c2d, libr2c2
#   make check           set up and run every test (what CI runs)
#   make check-fuzz      the frame fuzzer (selftests/fuzz_rack.sh), both kernels
#   make demo            set up and run the demo in a VM
#   make checkpatch      scripts/checkpatch.pl --strict over kernel sources
#   make bench-forward   forwarding benchmark in a VM, both kernels
#                        (BENCH_ARGS="-r 3 -s 64" etc. go to bench/forward.sh)
#
# Out-of-tree kbuild writes objects next to the sources, so each kernel
# gets a shadow tree of symlinks under build/<kver>/ and builds there.

KVER	?= $(shell uname -r)
KDIR	?= /lib/modules/$(KVER)/build
BUILD	:= $(CURDIR)/build/$(KVER)
R2C2_CACHE ?= /var/cache/r2c2
KSRC_DIRS := kmod qdisc common include
W	?= 1

.PHONY: all modules modules-locked modules-all modules-debug userspace check demo clean checkpatch bench-forward

all: modules userspace

# Builds of one tree are serialised (flock): each build refreshes the
# shadow tree, which would pull objects from under a concurrent build.
modules:
	@test -d $(KDIR) || { echo "no kernel headers at $(KDIR); run scripts/setup.sh or pass KVER=" >&2; exit 1; }
	@mkdir -p $(CURDIR)/build
	@flock $(CURDIR)/build/.modules.lock $(MAKE) --no-print-directory modules-locked KVER=$(KVER) KDIR=$(KDIR)

modules-locked:
	@mkdir -p $(BUILD)
	@for d in $(KSRC_DIRS); do \
		rm -rf $(BUILD)/$$d; cp -rs $(CURDIR)/$$d $(BUILD)/$$d; \
	done; ln -sf $(CURDIR)/Kbuild $(BUILD)/Kbuild
	$(MAKE) -C $(KDIR) M=$(BUILD) W=$(W) modules
	@for k in $$(find $(BUILD) -mindepth 2 -name '*.ko'); do ln -sf $$k $(BUILD)/; done

modules-all:
	@test -f $(R2C2_CACHE)/kernels || { echo "run scripts/setup.sh first" >&2; exit 1; }
	@for k in $$(cat $(R2C2_CACHE)/kernels); do \
		$(MAKE) --no-print-directory modules KVER=$$k || exit 1; \
	done

# Against the O= tree of the debug kernel that this checkout's
# scripts/debug-kernel.config describes: build/<its release>/.
modules-debug:
	@d=$$(scripts/debug-kernel.sh --dir) && test -f $$d/.done || \
		{ echo "no debug kernel: run scripts/debug-kernel.sh first" >&2; exit 1; }; \
	$(MAKE) --no-print-directory modules KVER=$$(cat $$d/release) KDIR=$$d/build

userspace:
	$(MAKE) -C userspace

check:
	bash scripts/check.sh

# The frame fuzzer on a 3x3 torus, both kernels, 100,000 frames (not in
# make check; Documentation/reliability.md, "Frame fuzzing").
check-fuzz: modules-all userspace
	@$(MAKE) -C selftests/tools --no-print-directory
	@for k in 6.1 6.12; do \
		scripts/vm-run --kernel $$k -- selftests/run.sh fuzz_rack.sh || exit 1; \
	done

demo:
	bash scripts/demo.sh

bench/pktblast: bench/pktblast.c selftests/tools/r2c2_raw.h include/uapi/linux/r2c2.h include/r2c2/wire.h include/r2c2/compat.h
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -Iinclude -Iinclude/uapi -o $@ $<

# One VM run per kernel; the output (numbers, a Markdown table at the end)
# also goes to build/bench/forward-<abi>.log.
bench-forward: modules-all userspace bench/pktblast
	@mkdir -p build/bench
	@for k in $$(cat $(R2C2_CACHE)/kernels); do \
		log=build/bench/forward-$$k.log; \
		scripts/vm-run --kernel $$k --timeout 3000 -- bench/forward.sh $(BENCH_ARGS) 2>&1 | tee $$log; \
		grep -q '^vm-run: exit status 0 ' $$log || { echo "bench-forward: the run on $$k failed ($$log)" >&2; exit 1; }; \
	done

# Run from the kernel source tree, as in-tree code would be: checkpatch then
# knows the kernel's own identifiers (struct Qdisc is not our CamelCase).
checkpatch:
	@cd $(R2C2_CACHE)/linux-source-6.1 && perl scripts/checkpatch.pl --strict \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,LINUX_VERSION_CODE \
		-f $$(cd $(CURDIR) && find $(CURDIR)/kmod $(CURDIR)/qdisc $(CURDIR)/common \
			$(CURDIR)/include -name '*.[ch]' ! -name compat-user.h)

clean:
	rm -rf build
	-$(MAKE) -C userspace clean
