/* SPDX-License-Identifier: GPL-2.0 */
/*
 * r2c2.h - internal definitions of r2c2.ko.
 *
 * One struct r2c2_node per network namespace (net_generic). It owns up to
 * R2C2_MAX_PORTS ports (Ethernet netdevs of the same netns), the soft
 * interface r2c0, the link-state database and the path/FIB tables.
 *
 * Locking:
 * - RTNL serialises configuration (netlink set commands, the netdevice
 *   notifier, namespace exit): node fields written by them, the port
 *   array and r2c0.
 * - @node->lock (BH) protects neighbour changes, the link-state database
 *   and our own LSA sequence; @node->dup_lock the broadcast duplicate
 *   state; @node->flow_lock insertions and removals of sender flows.
 * - @node->tbl_lock serialises table computation and publication; the
 *   fast paths read ports, neighbours, tables and flows under RCU.
 * - Works never take RTNL, so teardown can cancel them holding it.
 */
#ifndef _R2C2_KMOD_H
#define _R2C2_KMOD_H

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/memcontrol.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/u64_stats_sync.h>
#include <linux/percpu.h>
#include <linux/siphash.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/genetlink.h>
#include <net/gro_cells.h>

#include <r2c2/wire.h>
#include <r2c2/paths.h>
#include <r2c2/trees.h>

#include "kcompat.h"
#include "reseq.h"
#include "bretry.h"

/* the modules' version (ethtool -i r2c0); the Makefile's VERSION */
#define R2C2_MOD_VERSION	"0.1.0"

#define R2C2_HELLO_MS_DEFAULT	1000
#define R2C2_TREES_DEFAULT	4
#define R2C2_RP_NODE		0xff	/* flow follows the node default */
#define R2C2_FLOW_HBITS		10
#define R2C2_FLOW_MAX		65536
#define R2C2_FLOW_IDLE		(10 * HZ)
#define R2C2_FLOW_ANNOUNCE_TTL	(60 * HZ)	/* an announced flow, unrefreshed */
/* struct r2c2_flow.held: why an idle flow is kept */
#define R2C2_FH_QDISC		0x01	/* sch_r2c2 on r2c0 started it, no finish yet */
#define R2C2_FH_ANNOUNCED	0x02	/* a FLOW_EVENT request announced it */
#define R2C2_DUP_MAX		4096
#define R2C2_LLADDR_VLANS	8	/* VLAN tags r2c2_lladdr_ok() looks behind */
#define R2C2_DUP_WIN		64
#define R2C2_DUP_RESET		HZ	/* idle time after which a source may restart */
#define R2C2_DUP_AGE		(10 * HZ)	/* an entry idle this long is forgotten */
#define R2C2_RECOMPUTE_DELAY	msecs_to_jiffies(15)
#define R2C2_RECOMPUTE_HOLD_MAX	HZ	/* see r2c2_recompute_soon() */
#define R2C2_LSA_REFRESH_MAX_MS	10000
#define R2C2_LSA_REFRESH_HELLOS	30
#define R2C2_LSA_REFRESH_PER_NODE_MS	100	/* see r2c2_lsa_refresh_ms() */
#define R2C2_LSA_REFRESH_CAP_MS	900000	/* max_age (4x, in s) fits a u16 */
/* no node announces a longer max_age: a longer one is malformed */
#define R2C2_LSA_MAX_AGE_S	(4 * R2C2_LSA_REFRESH_CAP_MS / 1000)
/* r2c2.max_nodes: nodes the link-state database holds, ourselves included */
#define R2C2_MAX_NODES_DEFAULT	1024
#define R2C2_MAX_NODES_MIN	2
#define R2C2_MAX_NODES_MAX	16384	/* 5 * n^2 bytes of tables: 1.3 GB */
/* table computations running at once, of different nodes (namespaces) */
#define R2C2_TABLES_WQ_ACTIVE	clamp_t(int, num_possible_cpus(), 2, 8)
#define R2C2_ROUTE_SAMPLES_MAX	1000000
#define R2C2_ROUTE_SAMPLES_UNPRIV 100	/* more needs CAP_NET_ADMIN */

/**
 * struct r2c2_stats - per-CPU counters, one per enum r2c2_stat
 * @c: the counters
 * @syncp: 64-bit consistency on 32-bit hosts
 */
struct r2c2_stats {
	u64_stats_t c[__R2C2_S_MAX];
	struct u64_stats_sync syncp;
};

/* rack keys (auth.c) */
#define R2C2_AUTH_OVERLAP_MS_DEFAULT	60000
#define R2C2_AUTH_SEEN		16	/* sequences remembered per transmitter */
/* a frame this much older than a transmitter's newest accepted is a replay */
#define R2C2_AUTH_REORDER_NS	NSEC_PER_SEC
/* idle time after which replay state is forgotten with auth_window_s 0 */
#define R2C2_AUTH_IDLE_S	300
#define R2C2_AUTH_PEERS_MAX	R2C2_DUP_MAX
/* replay state of a source's end-to-end signed data frames: apart */
#define R2C2_AUTH_E2E		BIT(16)

/**
 * struct r2c2_auth_key - one rack key
 * @id: its id, 1..255
 * @k: the 128-bit SipHash key
 */
struct r2c2_auth_key {
	u8 id;
	siphash_key_t k;
};

/**
 * struct r2c2_auth - the node's rack keys (immutable, RCU; zeroed when
 * freed)
 * @rcu: for call_rcu()
 * @cur: the newest key: frames are sent with it
 * @prev: the key before @cur, accepted until @prev_until (when
 *	@has_prev); sent with to a neighbour that does not hold @cur yet
 * @has_prev: @prev is set
 * @prev_until: jiffies when @prev stops being accepted
 * @overlap_ms: overlap of the next rotation
 */
struct r2c2_auth {
	struct rcu_head rcu;
	struct r2c2_auth_key cur;
	struct r2c2_auth_key prev;
	bool has_prev;
	unsigned long prev_until;
	u32 overlap_ms;
};

/**
 * struct r2c2_auth_peer - replay state of one transmitter
 * @seen: the largest authentication sequences accepted from it
 * @max: the largest of @seen
 * @n: entries in @seen
 * @last: jiffies of the last frame accepted
 */
struct r2c2_auth_peer {
	u64 seen[R2C2_AUTH_SEEN];
	u64 max;
	u8 n;
	unsigned long last;
};

/**
 * struct r2c2_nbr - the neighbour heard on a port (immutable, RCU)
 * @rcu: for kfree_rcu()
 * @addr: neighbour node address
 * @port: neighbour's port number
 * @mac: neighbour port's MAC (source of its hellos)
 * @interval_ms: neighbour's hello interval
 * @topo_hash: neighbour's declared topology hash
 */
struct r2c2_nbr {
	struct rcu_head rcu;
	u16 addr;
	u8 port;
	u8 mac[ETH_ALEN];
	u16 interval_ms;
	u32 topo_hash;
};

/**
 * struct r2c2_port - an attached netdev
 * @rcu: for kfree_rcu()
 * @node: owning node
 * @dev: the netdev (reference held)
 * @pt: packet_type receiving our ethertype on @dev only
 * @stats: per-port counters
 * @nbr: neighbour heard, or NULL
 * @last_heard: jiffies of the last hello from @nbr
 * @num: port number
 * @up: @dev running with carrier
 * @sync: send the whole link-state database on this port soon
 * @bretry_dead: the port is being removed: no copy may wait any more
 *	(under @bretry_q's lock)
 * @bretry_q: broadcast copies whose transmit failed, waiting for their
 *	next try (bcast.c); its lock also guards @bretry_dead
 * @bretry_timer: fires at the earliest next try in @bretry_q
 * @auth_kid: newest key id the neighbour announced in an authenticated
 *	frame (0: none heard)
 */
struct r2c2_port {
	struct rcu_head rcu;
	struct r2c2_node *node;
	struct net_device *dev;
	struct packet_type pt;
	struct r2c2_stats __percpu *stats;
	struct r2c2_nbr __rcu *nbr;
	unsigned long last_heard;
	u8 num;
	bool up;
	bool sync;
	bool bretry_dead;
	struct sk_buff_head bretry_q;
	struct timer_list bretry_timer;
	u8 auth_kid;
};

/**
 * struct r2c2_lsa_rec - a node's link-state advertisement (immutable, RCU)
 * @rcu: for kfree_rcu()
 * @addr: advertising node
 * @seq: its LSA sequence number
 * @max_age_s: lifetime announced by the advertiser
 * @count: entries in @ent
 * @expires: jiffies after which it is forgotten (not for our own)
 * @joined: the node has a path of two-way links to us, in the last
 *	tables (or it was taken for one: r2c2_lsa_joins()); written and
 *	read under the node's lock, the rest of the record never changes
 * @ent: the advertised up links
 */
struct r2c2_lsa_rec {
	struct rcu_head rcu;
	u16 addr;
	u32 seq;
	u16 max_age_s;
	u8 count;
	bool joined;
	unsigned long expires;
	struct r2c2_lsa_ent ent[R2C2_MAX_PORTS];
};

/**
 * struct r2c2_dup_win - a window of broadcast sequence numbers
 * @top: highest sequence number seen
 * @bits: bit i set when @top - i was seen; 0 while nothing was seen
 * @last: jiffies of the last broadcast the window accepted
 */
struct r2c2_dup_win {
	u16 top;
	u64 bits;
	unsigned long last;
};

/**
 * struct r2c2_dup - duplicate suppression of one broadcast source
 * @ctl: the window of its FLOW and ROUTES broadcasts
 * @eth: the window of its BCAST_ETH broadcasts, which a rack key does
 *	not authenticate: a forged one moves only this window, and can
 *	never make a genuine FLOW or ROUTES frame look like a duplicate
 * @last: jiffies of the last broadcast accepted in either window
 *
 * A source numbers all its broadcasts from one counter; each window
 * sees its own part of the sequence, with gaps.
 */
struct r2c2_dup {
	struct r2c2_dup_win ctl;
	struct r2c2_dup_win eth;
	unsigned long last;
};

/**
 * struct r2c2_flow - a flow sent by r2c0 (sender flow table)
 * @hnode: in @node->flows
 * @rcu: for kfree_rcu()
 * @id: flow identifier (r2c2_flow_id())
 * @dst: destination node of its last packet
 * @rproto: enum r2c2_rproto, or R2C2_RP_NODE for the node default
 * @held: R2C2_FH_* (under @node->flow_lock): the flow lives although idle
 * @seq: next sequence number
 * @packets: packets sent
 * @bytes: bytes sent
 * @last_used: jiffies of the last packet or change
 * @announced: jiffies of the last START, UPDATE or REFRESH request
 *
 * A flow idle for R2C2_FLOW_IDLE is forgotten, with its routing
 * assignment, unless it is held: by the qdisc (from its start to its
 * finish), or by announcements (until R2C2_FLOW_ANNOUNCE_TTL after the
 * last). A finish, of either, forgets it at once.
 */
struct r2c2_flow {
	struct hlist_node hnode;
	struct rcu_head rcu;
	u32 id;
	u16 dst;
	u8 rproto;
	u8 held;
	atomic_t seq;
	atomic64_t packets;
	atomic64_t bytes;
	unsigned long last_used;
	unsigned long announced;
};

/**
 * struct r2c2_tables - routing and broadcast tables (immutable, RCU)
 * @rcu: for call_rcu()
 * @gen: generation
 * @n: number of nodes
 * @me: our index, R2C2_IDX_NONE if we are not in the graph
 * @links: directed links
 * @topo_ok: 1 matches the declared topology, 0 does not, -1 none declared
 * @addrs: n node addresses, ascending (index = position)
 * @paths: distance and path-count tables
 * @fib_ports: n * R2C2_MAX_TREES port masks of our broadcast FIB
 * @fib_parent: n * R2C2_MAX_TREES ports we are reached on
 */
struct r2c2_tables {
	struct rcu_head rcu;
	u32 gen;
	u16 n;
	u16 me;
	u32 links;
	int topo_ok;
	u16 *addrs;
	struct r2c2_paths paths;
	u8 *fib_ports;
	u8 *fib_parent;
};

/**
 * struct r2c2_node - the R2C2 node of a network namespace
 * @net: the namespace
 * @active: configured and running (READ_ONCE outside RTNL)
 * @addr: node address, R2C2_ADDR_NONE until configured
 * @hello_ms: hello interval
 * @trees: broadcast trees this node uses as a source
 * @rproto: default routing protocol of new flows
 * @ndims: declared torus dimensions (0 = none)
 * @dims: their radices
 * @topo_hash: r2c2_topo_hash() of @dims
 * @dev: the soft interface (r2c0)
 * @ports: attached ports
 * @stats: node counters
 * @lock: neighbours, link-state database, @lsa_seq
 * @lsdb: link-state database, struct r2c2_lsa_rec by address
 * @nlsa: records in @lsdb
 * @lsdb_all_joined: a full @lsdb had no record to evict
 *	(r2c2_lsdb_evict()); cleared when the tables are computed or a
 *	record is added
 * @lsa_seq: sequence number of our own LSA
 * @lsa_refresh: jiffies when our LSA is re-flooded next
 * @tick: periodic work: hellos, expiry, refresh, flow GC
 * @lsa_work: originates our LSA and syncs new neighbours
 * @recompute: debounced table computation
 * @recompute_last: jiffies when the tables were last computed
 * @recompute_hold: least time from one computation to the next
 * @memcg: memory cgroup of the process that configured the node: the
 *	table computation's allocations are charged to it
 * @tbl_lock: serialises computing and sampling the tables
 * @tables: current tables
 * @tables_retired: the tables the last computation replaced, under
 *	@tbl_lock: freed once readers are done with them, by the next
 *	computation (which waits for that) or by the tick, so a node holds
 *	at most three sets of tables however slow grace periods are:
 *	current, retired, being built (r2c2_tables_retire())
 * @tables_retired_gp: the RCU grace-period cookie of @tables_retired
 * @tables_gen: generation counter
 * @bcast_seq: our broadcast sequence number
 * @bcast_rr: round robin over our trees
 * @dup_lock: protects @dups and @ndups
 * @dups: struct r2c2_dup by source address
 * @ndups: entries in @dups
 * @flow_lock: protects insertions and removals in @flows, @nflows
 * @nflows: entries in @flows
 * @flow_gc: jiffies of the next flow garbage collection
 * @flows: sender flow table
 * @rsq: receiver resequencing (reseqtab.c)
 * @classes: traffic classes (class.c), NULL when none
 * @auth: rack keys, NULL when authentication is off (written under RTNL)
 * @auth_seq: last authentication sequence sent
 * @auth_lock: protects @auth_peers and @nauth_peers
 * @auth_peers: struct r2c2_auth_peer by transmitter address (and by
 *	R2C2_AUTH_E2E | source address for data frames signed end to end)
 * @nauth_peers: entries in @auth_peers
 * @xdp: the maps of the XDP transit program, NULL when none is bound
 *	(xdp.c; written under RTNL)
 * @xdp_lock: serialises writing the entries of @xdp's ports map
 */
struct r2c2_node {
	struct net *net;
	bool active;
	u16 addr;
	u32 hello_ms;
	u8 trees;
	u8 rproto;
	u8 ndims;
	u8 dims[R2C2_MAX_DIMS];
	u32 topo_hash;
	struct net_device *dev;
	struct r2c2_port __rcu *ports[R2C2_MAX_PORTS];
	struct r2c2_stats __percpu *stats;

	spinlock_t lock;	/* see above */
	struct xarray lsdb;
	unsigned int nlsa;
	bool lsdb_all_joined;
	u32 lsa_seq;
	unsigned long lsa_refresh;
	struct delayed_work tick;
	struct work_struct lsa_work;
	struct delayed_work recompute;
	unsigned long recompute_last;
	unsigned long recompute_hold;
	struct mem_cgroup *memcg;

	struct mutex tbl_lock;	/* see above */
	struct r2c2_tables __rcu *tables;
	struct r2c2_tables *tables_retired;
	unsigned long tables_retired_gp;
	u32 tables_gen;

	atomic_t bcast_seq;
	atomic_t bcast_rr;
	spinlock_t dup_lock;	/* see above */
	struct xarray dups;
	unsigned int ndups;

	spinlock_t flow_lock;	/* see above */
	unsigned int nflows;
	unsigned long flow_gc;
	struct hlist_head flows[1 << R2C2_FLOW_HBITS];

	struct r2c2_rsq_node rsq;

	struct r2c2_class_tab __rcu *classes;

	struct r2c2_auth __rcu *auth;
	atomic64_t auth_seq;
	spinlock_t auth_lock;	/* see above */
	struct xarray auth_peers;
	unsigned int nauth_peers;

	struct r2c2_xdp __rcu *xdp;
	spinlock_t xdp_lock;	/* see above */
};

/**
 * r2c2_tables_idx() - dense index of a node address
 * @t: tables
 * @addr: node address
 *
 * Return: the index, or -1 when @addr is not in the graph.
 */
static inline int r2c2_tables_idx(const struct r2c2_tables *t, u16 addr)
{
	int lo = 0, hi = t->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (t->addrs[mid] == addr)
			return mid;
		if (t->addrs[mid] < addr)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/**
 * struct r2c2_dev_priv - private area of r2c0
 * @node: owning node
 * @gro: per-CPU NAPI contexts that run GRO over the frames r2c0 receives
 */
struct r2c2_dev_priv {
	struct r2c2_node *node;
	struct gro_cells gro;
};

extern unsigned int r2c2_net_id;

/**
 * r2c2_node_get() - the node of a network namespace
 * @net: the namespace
 *
 * Return: the node (maybe not configured); NULL only while the namespace
 * is being set up and our init has not run yet (netdevice notifier).
 */
static inline struct r2c2_node *r2c2_node_get(const struct net *net)
{
	return net_generic(net, r2c2_net_id);
}

/**
 * r2c2_auth_on() - whether the node authenticates control frames
 * @node: the node
 *
 * Return: true while a rack key is set.
 */
static inline bool r2c2_auth_on(struct r2c2_node *node)
{
	return rcu_access_pointer(node->auth);
}

/*
 * The module's layers, bottom to top (Documentation/design.md, "The
 * module's layers"). A file calls functions of its own layer and of the
 * layers below only; the one way up is a handler a layer above registers
 * at module init (r2c2_rx_handler_set(), r2c2_event_ops_set()).
 *
 *   1. core:        core.c, events.c (events.h), policy.c, and the pure
 *                   computations paths.c, trees.c, reseq.c (reseq.h)
 *   2. data plane:  port.c, fwd.c, dev.c, link.c, bcast.c, reseqtab.c,
 *                   xdp.c, auth.c
 *   3. control:     topo.c, node.c, class.c
 *   4. interfaces:  netlink.c, sch_api.c, main.c
 */

/* ---- 1. core ---- */

/* core.c */
void r2c2_stat_add(struct r2c2_node *node, struct r2c2_port *port,
		   enum r2c2_stat s, u64 v);
void r2c2_stats_read(struct r2c2_stats __percpu *stats, u64 *out);
void r2c2_stats_zero(struct r2c2_stats __percpu *stats);
u32 r2c2_rand(void *ctx);
struct r2c2_node *r2c2_genl_node(struct genl_info *info);

/* policy.c */
extern const struct nla_policy r2c2_policy[R2C2_A_MAX + 1];

/* ---- 2. data plane ---- */

/* port.c */
struct r2c2_port *r2c2_port_find_dev(struct r2c2_node *node,
				     const struct net_device *dev);
int r2c2_port_add(struct r2c2_node *node, u8 num, struct net_device *dev,
		  struct netlink_ext_ack *extack);
void r2c2_port_del(struct r2c2_node *node, u8 num, bool sync);
u8 r2c2_port_state(struct r2c2_port *port);
bool r2c2_port_follow(struct r2c2_port *port);
int r2c2_port_xmit(struct r2c2_port *port, struct sk_buff *skb,
		   const u8 *dst);
int r2c2_port_xmit_nbr(struct r2c2_port *port, struct sk_buff *skb);

/* fwd.c */
typedef void (*r2c2_rx_handler)(struct r2c2_port *port, struct sk_buff *skb);
void r2c2_rx_handler_set(u8 type, r2c2_rx_handler handler);
int r2c2_rcv(struct sk_buff *skb, struct net_device *dev,
	     struct packet_type *pt, struct net_device *orig_dev);
void r2c2_deliver_eth(struct r2c2_node *node, struct sk_buff *skb);
bool r2c2_lladdr_ok(struct r2c2_node *node, const struct sk_buff *skb, u16 src);
bool r2c2_lladdr_frame(const struct sk_buff *skb, unsigned int off,
		       __be16 proto);

/* dev.c */
struct net_device *r2c2_dev_create(struct r2c2_node *node,
				   const char *ifname);
int r2c2_dev_pre_set_mac(struct r2c2_node *node, u16 addr,
			 struct netlink_ext_ack *extack);
void r2c2_dev_set_mac(struct r2c2_node *node);
struct r2c2_flow *r2c2_flow_set(struct r2c2_node *node, u32 id, u16 dst,
				u8 rproto);
void r2c2_flows_gc(struct r2c2_node *node, bool all);
void r2c2_flow_hold(struct r2c2_node *node, u32 id, u16 dst, u8 why);
void r2c2_flow_forget(struct r2c2_node *node, u32 id);
void r2c2_flows_release(struct r2c2_node *node, u8 why);

/* link.c */
void r2c2_link_setup(struct net_device *dev);
int r2c2_link_register(void);
void r2c2_link_unregister(void);

/* bcast.c */
struct sk_buff *r2c2_ctl_alloc(struct r2c2_node *node, unsigned int len);
void r2c2_bcast_send(struct r2c2_node *node, struct sk_buff *skb, u8 type,
		     unsigned int csum_len);
void r2c2_rcv_bcast(struct r2c2_port *port, struct sk_buff *skb);
void r2c2_dups_flush(struct r2c2_node *node);
void r2c2_dups_gc(struct r2c2_node *node);
void r2c2_bretry_init(struct r2c2_port *port);
void r2c2_bretry_stop(struct r2c2_port *port);
int r2c2_flow_evt_send(struct r2c2_node *node,
		       const struct r2c2_flow_evt *evt);
int r2c2_routes_send(struct r2c2_node *node,
		     const struct r2c2_route_ent *ent, unsigned int count);
void r2c2_routes_apply(struct r2c2_node *node,
		       const struct r2c2_route_ent *ent, unsigned int count,
		       bool remote);

/* xdp.c */
void r2c2_node_stats_read(struct r2c2_node *node, u64 *out);
void r2c2_port_stats_read(struct r2c2_port *port, u64 *out);
struct r2c2_xdp;
int r2c2_xdp_bind(struct r2c2_node *node, int ports_fd, int stats_fd,
		  struct netlink_ext_ack *extack);
void r2c2_xdp_unbind(struct r2c2_node *node);
void r2c2_xdp_sync(struct r2c2_node *node, unsigned int num);
void r2c2_xdp_sync_all(struct r2c2_node *node);
void r2c2_xdp_refresh(struct r2c2_node *node);
void r2c2_xdp_port_gone(struct r2c2_node *node, unsigned int num);
void r2c2_xdp_stats_add(struct r2c2_node *node, const struct r2c2_port *port,
			u64 *v);
void r2c2_xdp_stats_zero(struct r2c2_node *node);

/* auth.c */
struct genl_info;
int r2c2_auth_sign(struct r2c2_port *port, struct sk_buff *skb);
enum r2c2_stat r2c2_auth_rcv(struct r2c2_port *port, struct sk_buff *skb);
int r2c2_auth_data_sign(struct r2c2_node *node, struct sk_buff *skb);
enum r2c2_stat r2c2_auth_data_rcv(struct r2c2_node *node, struct sk_buff *skb);
void r2c2_auth_clear(struct r2c2_node *node);
void r2c2_auth_peers_gc(struct r2c2_node *node, bool all);
int r2c2_nl_key_set(struct sk_buff *skb, struct genl_info *info);
int r2c2_nl_key_del(struct sk_buff *skb, struct genl_info *info);
int r2c2_auth_fill(struct r2c2_node *node, struct sk_buff *msg);

/* ---- 3. control ---- */

/* topo.c */
void r2c2_topo_register(void);
void r2c2_topo_tick(struct work_struct *work);
void r2c2_lsa_work(struct work_struct *work);
void r2c2_recompute_work(struct work_struct *work);
extern struct workqueue_struct *r2c2_tables_wq;
int r2c2_tables_wq_init(void);
void r2c2_tables_wq_fini(void);
void r2c2_rcv_hello(struct r2c2_port *port, struct sk_buff *skb);
void r2c2_rcv_lsa(struct r2c2_port *port, struct sk_buff *skb);
void r2c2_nbr_clear(struct r2c2_port *port);
void r2c2_topo_changed(struct r2c2_node *node);
void r2c2_lsdb_flush(struct r2c2_node *node);
void r2c2_tables_free(struct r2c2_tables *t);
struct r2c2_tables *r2c2_tables_retire(struct r2c2_node *node,
				       struct r2c2_tables *old,
				       unsigned long *gp);
void r2c2_tables_reap(struct r2c2_tables *t, unsigned long gp);

/* node.c */
int r2c2_node_init(struct r2c2_node *node, struct net *net);
void r2c2_node_fini(struct r2c2_node *node);
int r2c2_node_create(struct r2c2_node *node, u16 addr, const char *ifname);
void r2c2_node_destroy(struct r2c2_node *node);
int r2c2_node_set_addr(struct r2c2_node *node, u16 addr);
int r2c2_notifier_register(void);
void r2c2_notifier_unregister(void);

/* class.c */
struct netlink_callback;
struct r2c2_class_tab;
void r2c2_classes_free(struct r2c2_node *node);
int r2c2_nl_class_set(struct sk_buff *skb, struct genl_info *info);
int r2c2_nl_class_del(struct sk_buff *skb, struct genl_info *info);
int r2c2_nl_class_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* ---- 4. interfaces ---- */

/* netlink.c */
int r2c2_genl_register(void);
void r2c2_genl_unregister(void);

/* sch_api.c */
int r2c2_nl_rate_set(struct sk_buff *skb, struct genl_info *info);
int r2c2_nl_qflow_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _R2C2_KMOD_H */
