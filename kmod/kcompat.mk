# SPDX-License-Identifier: GPL-2.0
# Header probes for kcompat.h where no macro leaves a trace and stable
# kernels backport the change (6.12.117 has 6.15's netns_immutable).
# Included by kmod/Kbuild and kunit/Kbuild: both compile kcompat.h.
ifneq ($(shell grep -s 'netns_immutable:1' $(srctree)/include/linux/netdevice.h),)
ccflags-y += -DR2C2_HAVE_NETNS_IMMUTABLE
endif
