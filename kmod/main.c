// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the top of the module: init and exit, and a node for each
 * network namespace (node.c).
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <net/rtnetlink.h>

#include "r2c2.h"

static int __net_init r2c2_net_init(struct net *net)
{
	return r2c2_node_init(r2c2_node_get(net), net);
}

static void __net_exit r2c2_net_exit(struct net *net)
{
	r2c2_node_fini(r2c2_node_get(net));
}

static struct pernet_operations r2c2_net_ops = {
	.init = r2c2_net_init,
	.exit = r2c2_net_exit,
	.id = &r2c2_net_id,
	.size = sizeof(struct r2c2_node),
};

static int __init r2c2_init(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct r2c2_data_hdr) != R2C2_DATA_HLEN);
	BUILD_BUG_ON(sizeof(struct r2c2_data_hdr) != 40);
	BUILD_BUG_ON(sizeof(struct r2c2_ctl_hdr) != R2C2_CTL_HLEN);
	BUILD_BUG_ON(sizeof(struct r2c2_ctl_hdr) != 8);
	BUILD_BUG_ON(sizeof(struct r2c2_hello) != R2C2_HELLO_LEN);
	BUILD_BUG_ON(sizeof(struct r2c2_lsa) != 8);
	BUILD_BUG_ON(sizeof(struct r2c2_lsa_ent) != 4);
	BUILD_BUG_ON(sizeof(struct r2c2_flow_evt) != R2C2_FLOW_EVT_LEN);
	BUILD_BUG_ON(sizeof(struct r2c2_routes) != 4);
	BUILD_BUG_ON(sizeof(struct r2c2_route_ent) != 7);
	BUILD_BUG_ON(R2C2_MAX_HOPS * 3 > R2C2_ROUTE_BYTES * 8);
	BUILD_BUG_ON(sizeof(struct r2c2_auth_trl) != R2C2_AUTH_LEN);
	BUILD_BUG_ON(sizeof(siphash_key_t) != R2C2_AUTH_KEY_LEN);
	BUILD_BUG_ON(R2C2_CTL_HLEN + sizeof(struct r2c2_routes) +
		     R2C2_ROUTES_MAX_AUTH * sizeof(struct r2c2_route_ent) +
		     R2C2_AUTH_LEN > ETH_DATA_LEN);
	BUILD_BUG_ON(R2C2_CTL_HLEN + sizeof(struct r2c2_routes) +
		     R2C2_ROUTES_MAX * sizeof(struct r2c2_route_ent) >
		     ETH_DATA_LEN);

	r2c2_topo_register();
	err = r2c2_tables_wq_init();
	if (err)
		return err;
	err = register_pernet_device(&r2c2_net_ops);
	if (err)
		goto err_wq;
	err = r2c2_link_register();
	if (err)
		goto err_pernet;
	err = r2c2_notifier_register();
	if (err)
		goto err_link;
	/* last: userspace can reach us only when everything is ready */
	err = r2c2_genl_register();
	if (err)
		goto err_notifier;
	return 0;

err_notifier:
	r2c2_notifier_unregister();
err_link:
	/* no node was configured: genl was never reachable */
	r2c2_link_unregister();
err_pernet:
	unregister_pernet_device(&r2c2_net_ops);
	rcu_barrier();
err_wq:
	r2c2_tables_wq_fini();
	return err;
}

static void __exit r2c2_exit(void)
{
	r2c2_genl_unregister();
	r2c2_notifier_unregister();
	unregister_pernet_device(&r2c2_net_ops);
	/* after every node and its r2c0 are gone (link.c) */
	r2c2_link_unregister();
	r2c2_tables_wq_fini();
	rcu_barrier();
}

module_init(r2c2_init);
module_exit(r2c2_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("R2C2 rack-scale network: source-routed L2 forwarding, topology discovery and broadcast");
MODULE_AUTHOR("r2c2 project");
MODULE_ALIAS_GENL_FAMILY(R2C2_GENL_NAME);
MODULE_ALIAS_RTNL_LINK(R2C2_LINK_KIND);
