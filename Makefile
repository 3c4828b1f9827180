# SPDX-License-Identifier: GPL-2.0
#
# r2c2 top-level Makefile.
#
#   make                 modules for the running kernel's headers + userspace
#   make modules KVER=X  modules against /lib/modules/X/build into build/X/
#   make modules-all     modules for both target kernels (see setup.sh)
#   make modules-debug   modules for the debug kernels (scripts/debug-kernel.sh;
#                        KVER=6.1 or KVER=6.12 for one)
#   make userspace       r2c2ctl, r2c2d, libr2c2
#   make check           set up and run the tests (what CI runs): each
#                        selftest file on the stock kernels that
#                        selftests/kernels gives it, the rack on 6.12;
#                        two lanes of guests side by side
#                        (R2C2_CHECK_LANES=1: one step after the other)
#   make check-full      make check with every selftest file, the icount
#                        guest and the rack on both stock kernels
#   make check-fuzz      the frame fuzzer (selftests/fuzz_rack.sh), both kernels
#   make check-fuzz-user the userspace parsers under libFuzzer, each
#                        harness FUZZ_RUNS times (default 1000000; clang;
#                        userspace/fuzz/, Documentation/reliability.md)
#   make check-debug     every selftest on the debug kernel (make check runs
#                        the files of selftests/debug-subset there);
#                        DEBUG_KERNEL=6.12 for the 6.12 one
#   make check-debug-6.12
#                        the files of selftests/debug-subset on the 6.12
#                        debug kernel (not in make check: its time)
#   make kernel-mutants  mutants of the modules against the selftests that
#                        must kill them (scripts/mutants.sh -K 6.12)
#   make check-lifecycle 50 load/configure/traffic/unload cycles under
#                        traffic (selftests/lifecycle_stress.sh), both kernels
#   make check-rack      a rack of guests, one a node, on virtio-net links,
#                        from the installed tree, with its faults (link cut,
#                        daemon restart, node crash), both kernels
#                        (scripts/rack-check.sh; RACK_KERNELS="6.12",
#                        RACK_ARGS="--torus 3x3 --hello 20"); make check
#                        runs its --quick part
#   make demo            set up and run the demo in a VM
#   make figures         redraw Documentation/figures/*.png from the committed
#                        data (gnuplot, Graphviz; no VM)
#   make figures-data    rerun the VM runs behind that data, then redraw
#                        (~15 min on 2 cores; scripts/figures.sh)
#   make sim             the packet-level simulator, sim/r2c2-sim (ns-3;
#                        Documentation/simulator.md)
#   make checkpatch      scripts/checkpatch.pl --strict over kernel sources
#   make mutants         mutation testing of the userspace unit tests
#                        (scripts/mutants.sh, userspace/tests/mutants.list;
#                        not in make check; MUTANTS_ARGS="-c" only checks
#                        the list, MUTANTS_ARGS="NAME..." runs some)
#   make bench-forward   forwarding benchmark in a VM, both kernels
#                        (BENCH_ARGS="-r 3 -s 64" etc. go to bench/forward.sh)
#   make install         modules for KVER, tools, tc plugin, man pages, units,
#                        sample configuration (DESTDIR, PREFIX; see
#                        Documentation/install.md); make uninstall
#   make deb             r2c2-dkms and r2c2-tools packages in build/deb/
#   make deb-chroot      the source package, built in a clean Debian 12
#                        chroot (mmdebstrap), and lintian on the result
#   make check-install   install into a staging tree and bring a node pair
#                        up from the installed files only, in a VM
#   make check-deb       make deb, then dpkg -i the packages in a VM of each
#                        kernel (DKMS builds the modules there) and bring a
#                        2x2 torus up from them; dpkg -r, dpkg -P
#
# Out-of-tree kbuild writes objects next to the sources, so each kernel
# gets a shadow tree of symlinks under build/<kver>/ and builds there.

KVER	?= $(shell uname -r)
KDIR	?= /lib/modules/$(KVER)/build
BUILD	:= $(CURDIR)/build/$(KVER)
R2C2_CACHE ?= /var/cache/r2c2
KSRC_DIRS := kmod qdisc common include
# and the KUnit suites, built only against a kernel with KUnit (Kbuild)
KBUILD_DIRS := $(KSRC_DIRS) kunit
W	?= 1

.PHONY: all xdp modules modules-locked modules-all modules-debug userspace check check-full kernel-mutants check-debug check-debug-6.12 check-fuzz check-fuzz-user check-lifecycle check-rack demo clean checkpatch bench-forward
.PHONY: figures figures-data mutants sim layers
.PHONY: install install-modules install-tools uninstall check-install check-deb tc-plugin dkms-source deb deb-chroot

VERSION	:= 0.1.0

all: modules userspace

# Builds of one tree are serialised (flock): each build refreshes the
# shadow tree, which would pull objects from under a concurrent build.
modules:
	@test -d $(KDIR) || { echo "no kernel headers at $(KDIR); run scripts/setup.sh or pass KVER=" >&2; exit 1; }
	@# one line: make -n runs a line with $(MAKE) in it, so the lock's
	@# directory must be made there too
	@mkdir -p $(CURDIR)/build && \
	flock $(CURDIR)/build/.modules.lock $(MAKE) --no-print-directory modules-locked KVER=$(KVER) KDIR=$(KDIR)

# The shadow tree is made on the line of $(MAKE), so that make -n (which
# runs such lines) gets a tree for kbuild's own dry run.
modules-locked:
	@mkdir -p $(BUILD) && for d in $(KBUILD_DIRS); do \
		mkdir -p $(BUILD)/$$d && \
		cp -rs --remove-destination $(CURDIR)/$$d/. $(BUILD)/$$d/ && \
		find $(BUILD)/$$d -xtype l -delete || exit 1; \
	done && ln -sf $(CURDIR)/Kbuild $(BUILD)/Kbuild && \
	$(MAKE) -C $(KDIR) M=$(BUILD) W=$(W) modules
	@for k in $$(find $(BUILD) -mindepth 2 -name '*.ko' -not -path '$(BUILD)/kunit/*'); do ln -sf $$k $(BUILD)/; done

modules-all:
	@test -f $(R2C2_CACHE)/kernels || { echo "run scripts/setup.sh first" >&2; exit 1; }
	@for k in $$(cat $(R2C2_CACHE)/kernels); do \
		$(MAKE) --no-print-directory modules KVER=$$k || exit 1; \
	done

# Against the O= tree of each debug kernel that this checkout's
# scripts/debug-kernel*.config describe: build/<its release>/. The 6.1 one
# must be built, the 6.12 one is skipped when it is not; KVER=6.1 or
# KVER=6.12 builds for that one only (which must be built).
ifeq ($(origin KVER),command line)
DEBUG_KVERS := $(KVER)
else
DEBUG_KVERS := 6.1 6.12
endif
modules-debug:
	@for v in $(DEBUG_KVERS); do \
		d=$$(scripts/debug-kernel.sh $$v --dir) || exit 1; \
		if [ ! -f $$d/.done ]; then \
			if [ $$v = 6.1 ] || [ "$(DEBUG_KVERS)" = $$v ]; then \
				echo "no $$v debug kernel: run scripts/debug-kernel.sh $$v first" >&2; exit 1; \
			fi; \
			echo "no $$v debug kernel (scripts/debug-kernel.sh $$v): its modules skipped"; \
			continue; \
		fi; \
		$(MAKE) --no-print-directory modules KVER=$$(cat $$d/release) KDIR=$$d/build || exit 1; \
	done

userspace: xdp
	$(MAKE) -C userspace R2C2_XDP_LIBDIR=$(XDPDIR)

# The XDP transit program (clang's BPF target, libbpf's headers); r2c2ctl
# xdp attach loads it (R2C2_XDP_OBJECT or its object keyword name another)
XDP_OBJ := build/xdp/r2c2_xdp.bpf.o
xdp: $(XDP_OBJ)
$(XDP_OBJ): xdp/r2c2_xdp.bpf.c include/r2c2/xdp.h include/r2c2/wire.h \
		include/r2c2/compat.h include/r2c2/compat-bpf.h include/uapi/linux/r2c2.h
	@mkdir -p $(dir $@)
	clang -O2 -g -Wall -Wextra -Werror -target bpf -Iinclude -Iinclude/uapi \
		-I/usr/include/$(shell $(CC) -print-multiarch) -c $< -o $@

sim:
	$(MAKE) -C sim

check:
	bash scripts/check.sh

# make check with every selftest file, the icount guest and the rack on
# both stock kernels (make check runs a file that does not depend on the
# kernel's version on the one kernel selftests/kernels names): before a
# release, and for a change to what a kernel version decides.
check-full:
	R2C2_CHECK_FULL=1 bash scripts/check.sh

# Every selftest file on the debug kernel, in one VM (about 1.5 hours on
# 2 cores; a kmemleak scan after each file). DEBUG_KERNEL=6.12: on the
# 6.12 debug kernel.
DEBUG_KERNEL ?= 6.1
check-debug: userspace
	bash scripts/debug-kernel.sh $(DEBUG_KERNEL)
	@$(MAKE) --no-print-directory modules-debug KVER=$(DEBUG_KERNEL)
	@$(MAKE) -C tc --no-print-directory
	@$(MAKE) -C selftests/tools --no-print-directory
	scripts/vm-run --kernel debug-$(DEBUG_KERNEL) --timeout 7200 -- \
		env R2C2_SELFTEST_TIMEOUT=1200 selftests/run.sh

# make check's debug step (the files of selftests/debug-subset) on the
# 6.12 debug kernel, building it first if needed (Documentation/testing.md).
check-debug-6.12:
	R2C2_CHECK_STEPS="build userspace debug" R2C2_CHECK_DEBUG_KERNELS=6.12 \
		bash scripts/check.sh

# The frame fuzzer on a 3x3 torus, both kernels, 100,000 frames (not in
# make check; Documentation/reliability.md, "Frame fuzzing").
check-fuzz: modules-all userspace
	@$(MAKE) -C selftests/tools --no-print-directory
	@for k in 6.1 6.12; do \
		scripts/vm-run --kernel $$k -- selftests/run.sh fuzz_rack.sh || exit 1; \
	done

# No VM, no module: the parsers of r2c2d and r2c2ctl under libFuzzer
# (userspace/Makefile fuzz-run; FUZZ_RUNS=N for another count)
check-fuzz-user:
	$(MAKE) -C userspace fuzz-run

# The modules' whole life, LIFECYCLE_CYCLES times (default 50, ~15-20 s
# each under TCG), on both stock kernels: not in make check for its time.
# On the debug kernel (KASAN, kmemleak: run.sh scans for leaks after the
# file), with fewer cycles to fit the guest's slowness:
#   scripts/debug-kernel.sh && make modules-debug && scripts/vm-run \
#     --kernel debug --timeout 3000 -- 'LIFECYCLE_CYCLES=5 \
#     R2C2_SELFTEST_TIMEOUT=2700 selftests/run.sh lifecycle_stress.sh'
LIFECYCLE_CYCLES ?= 50
check-lifecycle: modules-all userspace
	@$(MAKE) -C selftests/tools --no-print-directory
	@$(MAKE) -C tc --no-print-directory
	@for k in 6.1 6.12; do \
		scripts/vm-run --kernel $$k --timeout 3600 -- \
			"LIFECYCLE_CYCLES=$(LIFECYCLE_CYCLES) R2C2_SELFTEST_TIMEOUT=3300 selftests/run.sh lifecycle_stress.sh" || exit 1; \
	done

# Mutants of the modules (selftests/kernel-mutants.list), one at a time
# in a copy of the tree, each against the selftest files it names in a
# guest (2-4 min a mutant; not in make check). KERNEL=6.1 for the other.
KERNEL ?= 6.12
kernel-mutants: userspace
	@$(MAKE) -C tc --no-print-directory
	@$(MAKE) -C selftests/tools --no-print-directory
	bash scripts/mutants.sh -K $(KERNEL)

demo:
	bash scripts/demo.sh

# Each mutant of the list in a scratch copy, its unit tests rebuilt without
# sanitizers (Documentation/testing.md, "Mutation testing")
mutants:
	bash scripts/mutants.sh $(MUTANTS_ARGS)

figures:
	@bash scripts/figures.sh draw

figures-data:
	bash scripts/figures.sh data

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

# r2c2.ko's files call their own layer and the layers below only
# (kmod/r2c2.h, "The module's layers"), on the objects of $(KVER)'s build.
layers: modules
	@bash scripts/kmod-layers.sh $(BUILD)/kmod

# Run from the kernel source tree, as in-tree code would be: checkpatch then
# knows the kernel's own identifiers (struct Qdisc is not our CamelCase).
# Trace headers (*trace.h) are written as include/trace/events/ are:
# TRACE_EVENT's layout and the EM()/EMe() enum lists, which checkpatch
# would have otherwise; everything else in them is checked.
CHECKPATCH_TRACE_IGNORE := OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,COMPLEX_MACRO,TRAILING_SEMICOLON
checkpatch:
	@cd $(R2C2_CACHE)/linux-source-6.1 && perl scripts/checkpatch.pl --strict \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,LINUX_VERSION_CODE \
		-f $$(cd $(CURDIR) && find $(CURDIR)/kmod $(CURDIR)/qdisc $(CURDIR)/common \
			$(CURDIR)/include -name '*.[ch]' ! -name compat-user.h ! -name compat-bpf.h ! -name '*trace.h')
	@cd $(R2C2_CACHE)/linux-source-6.1 && perl scripts/checkpatch.pl --strict \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,LINUX_VERSION_CODE,$(CHECKPATCH_TRACE_IGNORE) \
		-f $$(cd $(CURDIR) && find $(CURDIR)/kmod $(CURDIR)/qdisc -name '*trace.h')
	@# the XDP program: its READ_ONCE() is a volatile load (no atomics in
	@# clang 14's BPF target)
	@cd $(R2C2_CACHE)/linux-source-6.1 && perl scripts/checkpatch.pl --strict \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,VOLATILE -f $(CURDIR)/xdp/r2c2_xdp.bpf.c

# ---- install
# The usual layout: modules in /lib/modules/$(KVER)/updates/r2c2/ (then
# depmod, unless DESTDIR is set: a staging tree or a package gets its
# depmod from whoever installs it), programs in $(SBINDIR), q_r2c2.so
# where the installed tc looks for plugins (tc/Makefile: TC_LIB_DIR),
# man pages, systemd units, /etc/r2c2/ and /etc/modprobe.d/r2c2.conf.
# Files in /etc are not overwritten when present (an operator's edits
# survive make install); make uninstall leaves them alone too.
PREFIX	?= /usr
SBINDIR	?= $(PREFIX)/sbin
XDPDIR	?= $(PREFIX)/lib/r2c2
MANDIR	?= $(PREFIX)/share/man
DOCDIR	?= $(PREFIX)/share/doc/r2c2
SYSCONFDIR ?= /etc
UNITDIR	?= /lib/systemd/system
MODDIR	?= /lib/modules/$(KVER)/updates/r2c2
MODULES	:= r2c2.ko sch_r2c2.ko
MAN8	:= r2c2ctl.8 r2c2d.8 r2c2-node.8 tc-r2c2.8
MAN5	:= r2c2.conf.5
UNITS	:= r2c2.service r2c2d.service
INSTALL	?= install

install: install-modules install-tools

install-modules: modules
	@for m in $(MODULES); do test -f $(BUILD)/$$m || \
		{ echo "install: $(BUILD)/$$m was not built" >&2; exit 1; }; done
	$(INSTALL) -d $(DESTDIR)$(MODDIR)
	$(INSTALL) -m 0644 $(addprefix $(BUILD)/,$(MODULES)) $(DESTDIR)$(MODDIR)/
ifeq ($(DESTDIR),)
	depmod -a $(KVER)
endif

# tc's q_r2c2.so and ip's link_r2c2.so (ip -d link show r2c0)
tc-plugin:
	@$(MAKE) --no-print-directory -C tc q_r2c2.so
	@$(MAKE) --no-print-directory -C ip link_r2c2.so

install-tools: userspace tc-plugin
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 0755 userspace/r2c2ctl/r2c2ctl userspace/r2c2d/r2c2d $(DESTDIR)$(SBINDIR)/
	$(INSTALL) -d $(DESTDIR)$(XDPDIR)
	$(INSTALL) -m 0644 $(XDP_OBJ) $(DESTDIR)$(XDPDIR)/
	sed 's,@SBINDIR@,$(SBINDIR),g; s,@SYSCONFDIR@,$(SYSCONFDIR),g' dist/r2c2-node \
		>$(DESTDIR)$(SBINDIR)/r2c2-node
	chmod 0755 $(DESTDIR)$(SBINDIR)/r2c2-node
	$(MAKE) --no-print-directory -C tc install DESTDIR=$(DESTDIR)
	$(MAKE) --no-print-directory -C ip install DESTDIR=$(DESTDIR)
	$(INSTALL) -m 0644 $(addprefix Documentation/,$(MAN8)) $(DESTDIR)$(MANDIR)/man8/
	$(INSTALL) -m 0644 $(addprefix Documentation/,$(MAN5)) $(DESTDIR)$(MANDIR)/man5/
	for u in $(UNITS); do \
		sed 's,@SBINDIR@,$(SBINDIR),g; s,@SYSCONFDIR@,$(SYSCONFDIR),g' dist/systemd/$$u \
			>$(DESTDIR)$(UNITDIR)/$$u && chmod 0644 $(DESTDIR)$(UNITDIR)/$$u || exit 1; \
	done
	$(INSTALL) -m 0644 dist/r2c2.conf dist/r2c2d.conf dist/modprobe-r2c2.conf \
		$(DESTDIR)$(DOCDIR)/examples/
	$(INSTALL) -d $(DESTDIR)$(SYSCONFDIR)/r2c2 $(DESTDIR)$(SYSCONFDIR)/modprobe.d
	@for f in r2c2/r2c2.conf:r2c2.conf r2c2/r2c2d.conf:r2c2d.conf \
		  modprobe.d/r2c2.conf:modprobe-r2c2.conf; do \
		dst=$(DESTDIR)$(SYSCONFDIR)/$${f%%:*}; \
		if [ -e $$dst ]; then echo "  $$dst exists: kept"; \
		else echo "  install dist/$${f#*:} $$dst"; \
			$(INSTALL) -m 0644 dist/$${f#*:} $$dst || exit 1; fi; \
	done
ifeq ($(DESTDIR),)
	-systemctl daemon-reload 2>/dev/null
endif

# The DKMS source tree: kbuild files and sources, dkms.conf with the version.
DKMS_SRC ?= /usr/src/r2c2-$(VERSION)
dkms-source:
	$(INSTALL) -d $(DESTDIR)$(DKMS_SRC)
	cp -r Kbuild $(KSRC_DIRS) $(DESTDIR)$(DKMS_SRC)/
	find $(DESTDIR)$(DKMS_SRC) \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o -name '*.mod' \
		-o -name '*.mod.c' -o -name modules.order -o -name Module.symvers \) -delete
	sed 's,#MODULE_VERSION#,$(VERSION),' dkms.conf >$(DESTDIR)$(DKMS_SRC)/dkms.conf

# The installed path in a guest, both kernels (scripts/check-install.sh).
check-install: modules-all userspace tc-plugin
	bash scripts/check-install.sh

# A rack of guests (scripts/vm-rack): each node its own kernel on
# virtio-net NICs, installed and configured as an operator would
RACK_KERNELS ?= 6.1 6.12
check-rack: modules-all userspace tc-plugin
	@for k in $(RACK_KERNELS); do \
		bash scripts/rack-check.sh --kernel $$k $(RACK_ARGS) || exit 1; \
	done

# r2c2-dkms and r2c2-tools .debs in build/deb/ (scripts/build-deb.sh)
deb:
	bash scripts/build-deb.sh

# the source package, built in a clean Debian 12 chroot, then lintian
deb-chroot:
	bash scripts/build-deb.sh --chroot

# The packages in a guest of each kernel (scripts/check-deb.sh).
check-deb:
	bash scripts/check-deb.sh

uninstall:
	rm -f $(addprefix $(DESTDIR)$(MODDIR)/,$(MODULES))
	-rmdir $(DESTDIR)$(MODDIR) 2>/dev/null
ifeq ($(DESTDIR),)
	-depmod -a $(KVER)
endif
	rm -f $(addprefix $(DESTDIR)$(SBINDIR)/,r2c2ctl r2c2d r2c2-node)
	rm -f $(DESTDIR)$(XDPDIR)/r2c2_xdp.bpf.o
	rm -f $(DESTDIR)$$($(MAKE) -s --no-print-directory -C tc print-libdir)/q_r2c2.so
	rm -f $(DESTDIR)$$($(MAKE) -s --no-print-directory -C ip print-libdir)/link_r2c2.so
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man8/,$(MAN8)) $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(MAN5))
	rm -f $(addprefix $(DESTDIR)$(UNITDIR)/,$(UNITS))
	rm -rf $(DESTDIR)$(DOCDIR)
	@echo "uninstall: $(DESTDIR)$(SYSCONFDIR)/r2c2/ and $(DESTDIR)$(SYSCONFDIR)/modprobe.d/r2c2.conf kept (your configuration)"

clean:
	rm -rf build
	-$(MAKE) -C userspace clean
	-$(MAKE) -C sim clean
