/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netlink.h - the notifications of the generic netlink family. Only the
 * events layer (events.c) sends them; the rest of the module reports to
 * events.h.
 */
#ifndef _R2C2_NETLINK_H
#define _R2C2_NETLINK_H

#include "r2c2.h"

void r2c2_genl_topo_event(struct r2c2_node *node,
			  const struct r2c2_tables *t);
void r2c2_genl_flow_event(struct r2c2_node *node, u16 src,
			  const struct r2c2_flow_evt *evt);
void r2c2_genl_routes_event(struct r2c2_node *node, u16 src,
			    const struct r2c2_route_ent *ent,
			    unsigned int count);

#endif /* _R2C2_NETLINK_H */
