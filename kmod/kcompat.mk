# SPDX-License-Identifier: GPL-2.0
# Header probes for kcompat.h where no macro leaves a trace and stable
# kernels backport the change (6.12.117 has 6.15's netns_immutable).
# Included by kmod/Kbuild and kunit/Kbuild: both compile kcompat.h.
ifneq ($(shell grep -s 'netns_immutable:1' $(srctree)/include/linux/netdevice.h),)
ccflags-y += -DR2C2_HAVE_NETNS_IMMUTABLE
endif
# bpf_map_get() in a symbol namespace (6.12), and struct bpf_map's record
# of special value fields (6.2): kmod/xdp.c
ifneq ($(shell grep -sP '\tbpf_map_get\t.*\tBPF_INTERNAL' $(objtree)/Module.symvers),)
ccflags-y += -DR2C2_HAVE_BPF_INTERNAL_NS
endif
ifneq ($(shell grep -s 'struct btf_record \*record;' $(srctree)/include/linux/bpf.h),)
ccflags-y += -DR2C2_HAVE_BTF_RECORD
endif
# what a netdev's XDP can do, and its change event (6.3): kmod/xdp.c
ifneq ($(shell grep -s 'xdp_features_t[[:space:]]*xdp_features;' $(srctree)/include/linux/netdevice.h),)
ccflags-y += -DR2C2_HAVE_XDP_FEATURES
endif
# a dump's family in its genl_info (6.6): kmod/class.c, kmod/sch_api.c
ifneq ($(shell grep -s 'genl_info_dump.struct netlink_callback' $(srctree)/include/net/genetlink.h),)
ccflags-y += -DR2C2_HAVE_GENL_INFO_DUMP
endif
