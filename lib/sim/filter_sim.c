// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The deny list on the simulated NIC: the port's XDP hook.
 *
 * What the hook reads is a table built once and never changed: the list,
 * longest prefixes first, and which queues have a socket. Every change (to
 * the list, or a socket opening or closing) builds a new table and installs
 * it with xskx__sim_port_set_xskx_xdp(), which takes the machine's lock, the one
 * the NIC holds while it runs hooks (inside kicks and xskx_sim_poll(), or on
 * the NIC thread). So once it returns no hook can be reading the old table,
 * which is freed at once; and a packet meets either the old table or the
 * new one, whole. The rest of the simulated NIC knows nothing of this: a
 * port only runs a hook.
 *
 * An empty list installs no hook (the port's default). A hook set with
 * xskx_sim_port_set_xdp() is replaced while the list is not empty: the
 * deny list is the XDP program of the port, as xskx's program is the
 * interface's on the kernel backend.
 *
 * The lookup walks the list: a model of the BPF program's LPM trie, not a
 * fast one.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <xskx/packet.h>
#include <xskx-sim/sim.h>

#include "filter_internal.h"
#include "filter_sim.h"
#include "log_internal.h"
#include "port_internal.h"
#include "sim_port.h"
#include "socket_internal.h"

/* The deny list of one port, alive while a socket is open on the port. */
struct sim_filter {
	struct xskx_sim_port *port;
	uint32_t sockets;
	uint32_t nqueues;     /* entries of rx_sockets */
	uint32_t *rx_sockets; /* per queue: sockets with an RX ring */
	struct xskx_filter_entry *entries;
	uint32_t n;
	struct sim_filter_table *table; /* installed, or NULL */
	/* Written by the hook, read by rule_stats: atomics. */
	struct xskx_filter_counters counters[XSKX_FILTER_MAX_RULES];
	struct sim_filter *next;
};

/* What the hook reads; never changed once installed. */
struct sim_filter_table {
	struct xskx_filter_counters *counters;
	uint32_t n;
	uint32_t nqueues;
	const uint8_t *queue_has_socket;
	struct xskx_filter_entry entries[]; /* longest prefix first */
};

static pthread_mutex_t filters_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_filter *filters;

static struct sim_filter *find_filter(const struct xskx_sim_port *port)
{
	for (struct sim_filter *f = filters; f; f = f->next)
		if (f->port == port)
			return f;
	return NULL;
}

static const struct xskx_filter_entry *lookup(const struct sim_filter_table *t,
					      enum xskx_filter_field field,
					      uint8_t family,
					      const uint8_t *addr)
{
	for (uint32_t i = 0; i < t->n; i++) {
		const struct xskx_filter_entry *e = &t->entries[i];

		if (e->field == field && e->prefix.family == family &&
		    xskx__prefix_covers(&e->prefix, addr))
			return e;
	}
	return NULL;
}

/*
 * Both fields, as in bpf/xskx_maps.bpf.h: a packet that a source and a
 * destination entry both match counts for the lower rule id.
 */
static enum xskx_xdp_verdict filter_hook(uint8_t *data, uint32_t len,
					 uint32_t queue, void *ctx)
{
	const struct sim_filter_table *t = ctx;
	const struct xskx_filter_entry *hit = NULL;
	struct xskx_pkt_view view;

	xskx_pkt_parse(data, len, &view);
	if (view.family) {
		const struct xskx_filter_entry *dst =
			lookup(t, XSKX_FILTER_DST, view.family, view.dst);

		hit = lookup(t, XSKX_FILTER_SRC, view.family, view.src);
		if (!hit || (dst && dst->rule_id < hit->rule_id))
			hit = dst;
	}
	if (hit) {
		struct xskx_filter_counters *c = &t->counters[hit->rule_id];

		__atomic_fetch_add(&c->packets, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&c->bytes, len, __ATOMIC_RELAXED);
		return XSKX_XDP_DROP;
	}
	/* What the port's default hook does. */
	if (queue < t->nqueues && t->queue_has_socket[queue])
		return XSKX_XDP_REDIRECT;
	return XSKX_XDP_PASS;
}

static int longest_first(const void *pa, const void *pb)
{
	const struct xskx_filter_entry *a = pa, *b = pb;

	return (int)b->prefix.len - (int)a->prefix.len;
}

/* Build and install the table for f's list and sockets; frees the old one. */
static int publish(struct sim_filter *f)
{
	struct sim_filter_table *t = NULL, *old = f->table;
	uint8_t *queues;
	int err;

	if (!f->n && !old)
		return 0; /* nothing installed: leave the port's own hook */
	if (f->n) {
		t = malloc(sizeof(*t) + f->n * sizeof(t->entries[0]) +
			   f->nqueues);
		if (!t)
			return xskx__fail(-ENOMEM, "filter: out of memory");
		t->counters = f->counters;
		t->n = f->n;
		t->nqueues = f->nqueues;
		memcpy(t->entries, f->entries, f->n * sizeof(t->entries[0]));
		qsort(t->entries, t->n, sizeof(t->entries[0]), longest_first);
		queues = (uint8_t *)&t->entries[t->n];
		for (uint32_t q = 0; q < f->nqueues; q++)
			queues[q] = f->rx_sockets[q] > 0;
		t->queue_has_socket = queues;
	}
	err = xskx__sim_port_set_xskx_xdp(f->port, t ? filter_hook : NULL, t);
	if (err) {
		free(t);
		return err;
	}
	f->table = t;
	free(old);
	return 0;
}

static void destroy(struct sim_filter *f)
{
	for (struct sim_filter **p = &filters; *p; p = &(*p)->next)
		if (*p == f) {
			*p = f->next;
			break;
		}
	free(f->entries);
	free(f->rx_sockets);
	free(f);
}

int xskx__filter_sim_hold(struct xskx_sim_port *port, uint32_t queue, bool rx)
{
	struct sim_filter *f;
	int err = 0;

	pthread_mutex_lock(&filters_lock);
	f = find_filter(port);
	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f) {
			err = xskx__fail(-ENOMEM, "out of memory");
			goto out;
		}
		f->port = port;
		f->next = filters;
		filters = f;
	}
	if (rx && queue >= f->nqueues) {
		uint32_t *grown =
			realloc(f->rx_sockets, (queue + 1) * sizeof(*grown));

		if (!grown) {
			err = xskx__fail(-ENOMEM, "out of memory");
			goto out;
		}
		memset(grown + f->nqueues, 0,
		       (queue + 1 - f->nqueues) * sizeof(*grown));
		f->rx_sockets = grown;
		f->nqueues = queue + 1;
	}
	f->sockets++;
	if (rx) {
		f->rx_sockets[queue]++;
		if (f->table)
			err = publish(f);
		if (err) {
			f->rx_sockets[queue]--;
			f->sockets--;
		}
	}
out:
	if (err && f && !f->sockets)
		destroy(f);
	pthread_mutex_unlock(&filters_lock);
	return err;
}

void xskx__filter_sim_put(struct xskx_sim_port *port, uint32_t queue, bool rx)
{
	struct sim_filter *f;

	pthread_mutex_lock(&filters_lock);
	f = find_filter(port);
	if (rx)
		f->rx_sockets[queue]--;
	if (!--f->sockets) {
		f->n = 0;
		/* With no list there is nothing to allocate: cannot fail. */
		publish(f);
		destroy(f);
	} else if (rx && f->table && publish(f)) {
		/*
		 * Out of memory: the old table stays, and the queue's packets
		 * go to a redirect that finds no socket instead of the stack.
		 */
		xskx_warn(
			"filter: sim port queue %u keeps redirecting after its last socket closed",
			queue);
	}
	pthread_mutex_unlock(&filters_lock);
}

static struct sim_filter *filter_of(struct xskx_filter_dev *dev)
{
	return dev->impl;
}

static int sim_filter_set(struct xskx_filter_dev *dev,
			  const struct xskx_filter_entry *entries, uint32_t n)
{
	struct sim_filter *f = filter_of(dev);
	struct xskx_filter_entry *copy = NULL, *old;
	uint32_t old_n;
	int err;

	if (n) {
		copy = malloc(n * sizeof(*copy));
		if (!copy)
			return xskx__fail(-ENOMEM, "filter set: out of memory");
		memcpy(copy, entries, n * sizeof(*copy));
	}
	pthread_mutex_lock(&filters_lock);
	old = f->entries;
	old_n = f->n;
	f->entries = copy;
	f->n = n;
	err = publish(f);
	if (err) {
		f->entries = old;
		f->n = old_n;
		old = copy;
	}
	pthread_mutex_unlock(&filters_lock);
	free(old);
	return err;
}

static int sim_filter_list(struct xskx_filter_dev *dev,
			   struct xskx_filter_entry **entries, uint32_t *n)
{
	struct sim_filter *f = filter_of(dev);
	int err = 0;

	pthread_mutex_lock(&filters_lock);
	*n = f->n;
	*entries = NULL;
	if (f->n) {
		*entries = malloc(f->n * sizeof(**entries));
		if (*entries)
			memcpy(*entries, f->entries, f->n * sizeof(**entries));
		else
			err = xskx__fail(-ENOMEM, "filter list: out of memory");
	}
	pthread_mutex_unlock(&filters_lock);
	return err;
}

static int sim_filter_rule_stats(struct xskx_filter_dev *dev, uint32_t rule_id,
				 struct xskx_filter_counters *counters)
{
	const struct xskx_filter_counters *c =
		&filter_of(dev)->counters[rule_id];

	counters->packets = __atomic_load_n(&c->packets, __ATOMIC_RELAXED);
	counters->bytes = __atomic_load_n(&c->bytes, __ATOMIC_RELAXED);
	return 0;
}

static const struct xskx_filter_dev_ops sim_filter_ops = {
	.set = sim_filter_set,
	.list = sim_filter_list,
	.rule_stats = sim_filter_rule_stats,
};

int xskx__filter_sim_begin(struct xskx_port *port, struct xskx_filter_dev *dev)
{
	struct sim_filter *f;

	pthread_mutex_lock(&filters_lock);
	f = find_filter(port->backend);
	pthread_mutex_unlock(&filters_lock);
	/* Every open socket holds its port's filter: there is one while any is open. */
	if (!f)
		return xskx__fail(
			-ENOENT,
			"filter: port '%s' has no deny list yet: it lives while a socket is open on the port; open one first",
			port->name);
	dev->ops = &sim_filter_ops;
	dev->impl = f;
	return 0;
}
