// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The losses of a run, stage by stage (see loss.h for what counts where). */
#include <stddef.h>
#include <string.h>

#include "json.h"
#include "loss.h"

static const struct {
	const char *name;
	size_t off;
} stages[] = {
#define STAGE(field) { #field, offsetof(struct loss, field) }
	STAGE(nic_rx),	   STAGE(xdp_passed), STAGE(xdp_redirect_failed),
	STAGE(rx_dropped), STAGE(rx_ring_full), STAGE(app),
	STAGE(tx_invalid), STAGE(nic_tx),
#undef STAGE
};
#define NSTAGES (sizeof(stages) / sizeof(stages[0]))

static uint64_t *stage(struct loss *l, size_t i)
{
	return (uint64_t *)((char *)l + stages[i].off);
}

static uint64_t stage_of(const struct loss *l, size_t i)
{
	return *(const uint64_t *)((const char *)l + stages[i].off);
}

/* Counters read one after the other can be a packet out of step: never below 0. */
static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

uint64_t loss_total(const struct loss *l)
{
	uint64_t n = 0;

	for (size_t i = 0; i < NSTAGES; i++)
		n += stage_of(l, i);
	return n;
}

uint64_t loss_delivered(uint64_t sent, const struct loss *l)
{
	return minus(sent, l->tx_invalid + l->nic_tx);
}

void loss_add(struct loss *a, const struct loss *b)
{
	for (size_t i = 0; i < NSTAGES; i++)
		*stage(a, i) += stage_of(b, i);
}

void loss_since(struct loss *d, const struct loss *now,
		const struct loss *before)
{
	/* no_socket too: the callers' d is a fresh local. */
	*d = (struct loss){ 0 };
	for (size_t i = 0; i < NSTAGES; i++)
		*stage(d, i) = minus(stage_of(now, i), stage_of(before, i));
}

int loss_sock_publish(struct loss_sock *dst, struct xskx_socket *sock)
{
	struct xskx_stats s;
	int err = xskx_socket_stats(sock, &s);

	if (err)
		return err;
	__atomic_store_n(&dst->rx_dropped, s.rx_dropped, __ATOMIC_RELAXED);
	__atomic_store_n(&dst->rx_ring_full, s.rx_ring_full, __ATOMIC_RELAXED);
	__atomic_store_n(&dst->tx_invalid_descs, s.tx_invalid_descs,
			 __ATOMIC_RELAXED);
	return 0;
}

void loss_sock_read(const struct loss_sock *src, struct loss_sock *out)
{
	out->rx_dropped = __atomic_load_n(&src->rx_dropped, __ATOMIC_RELAXED);
	out->rx_ring_full =
		__atomic_load_n(&src->rx_ring_full, __ATOMIC_RELAXED);
	out->tx_invalid_descs =
		__atomic_load_n(&src->tx_invalid_descs, __ATOMIC_RELAXED);
}

void loss_sock_read_add(const struct loss_sock *src, struct loss_sock *sum)
{
	struct loss_sock one;

	loss_sock_read(src, &one);
	sum->rx_dropped += one.rx_dropped;
	sum->rx_ring_full += one.rx_ring_full;
	sum->tx_invalid_descs += one.tx_invalid_descs;
}

void loss_sock_add(struct loss_sock *sum, const struct xskx_stats *s)
{
	sum->rx_dropped += s->rx_dropped;
	sum->rx_ring_full += s->rx_ring_full;
	sum->tx_invalid_descs += s->tx_invalid_descs;
}

/* Which queues of the port had packets and no socket, since the baseline. */
static void no_socket_begin(struct loss_port *p, const struct xskx_port *port)
{
	struct xskx_port_info info;

	/* A kernel port without an XDP program (TX only) has nothing to read. */
	if (!port || xskx_port_info(port, &info) ||
	    (!info.xdp_attached && strcmp(info.backend, "sim")))
		return;
	p->port = port;
	p->have_no_socket = xskx_port_rx_no_socket(port, p->no_socket0,
						   LOSS_QUEUES) >= 0;
}

void loss_port_begin(struct loss_port *p, const char *ifname,
		     const struct xskx_sim_port *sim,
		     const struct xskx_port *port)
{
	struct xskx_port_info info;

	memset(p, 0, sizeof(*p));
	p->ifname = ifname;
	p->sim = sim;
	no_socket_begin(p, port);
	if (sim || !ifname)
		return;
	p->native = port && !xskx_port_info(port, &info) &&
		    info.xdp_attached && info.xdp_mode == XSKX_XDP_NATIVE;
	p->have_xdp = !xskx_xdp_prog_stats(ifname, &p->xdp0);
	p->have_dev = !xskx_netdev_stats(ifname, &p->dev0);
}

static void no_socket_read(const struct loss_port *p, struct loss *l)
{
	uint64_t now[LOSS_QUEUES];
	int n;

	if (!p->have_no_socket)
		return;
	/* The port's queues, of which the first LOSS_QUEUES were written. */
	n = xskx_port_rx_no_socket(p->port, now, LOSS_QUEUES);
	for (int q = 0; q < n && q < LOSS_QUEUES; q++)
		l->no_socket[q] = minus(now[q], p->no_socket0[q]);
}

/* The simulated port: every stage from its own counters and the socket's. */
static void sim_port_losses(const struct xskx_sim_port *port,
			    const struct loss_sock *sock, struct loss *l)
{
	struct xskx_sim_port_stats s;
	uint64_t refused, sock_drops;

	if (xskx_sim_port_stats(port, &s))
		return;
	/* Stops kept the packet: out of both counts. */
	refused = minus(s.xdp_redirect_err, s.napi_stops);
	l->rx_ring_full = minus(sock->rx_ring_full, s.napi_stops);
	sock_drops = l->rx_dropped + l->rx_ring_full;
	l->xdp_redirect_failed = minus(refused, sock_drops);
	l->nic_rx = s.rx_missed;
	l->xdp_passed = s.xdp_pass;
	/*
	 * The programs never wire their ports to each other (TX goes to the
	 * port's sink), so a wire drop is not also one of their ports'
	 * rx_missed.
	 */
	l->nic_tx = s.wire_drops;
}

static void kernel_port_losses(const struct loss_port *p,
			       const struct loss_sock *sock, struct loss *l)
{
	struct xskx_xdp_verdicts v;
	struct xskx_netdev_stats d;

	l->rx_ring_full = sock->rx_ring_full;
	if (p->have_xdp && !xskx_xdp_prog_stats(p->ifname, &v)) {
		l->xdp_passed = minus(v.passed, p->xdp0.passed);
		l->xdp_redirect_failed =
			minus(v.redirect_failed, p->xdp0.redirect_failed);
	}
	if (p->have_dev && !xskx_netdev_stats(p->ifname, &d)) {
		uint64_t rx = minus(d.rx_dropped, p->dev0.rx_dropped) +
			      minus(d.rx_missed, p->dev0.rx_missed);

		if (p->native && d.rx_dropped_has_redirect_errors)
			rx = minus(rx, l->rx_dropped + l->rx_ring_full);
		l->nic_rx = rx;
		l->nic_tx = minus(d.tx_dropped, p->dev0.tx_dropped);
	}
}

void loss_port_read(const struct loss_port *p, const struct loss_sock *sock,
		    uint64_t app, struct loss *l)
{
	memset(l, 0, sizeof(*l));
	l->rx_dropped = sock->rx_dropped;
	l->tx_invalid = sock->tx_invalid_descs;
	l->app = app;
	if (p->sim)
		sim_port_losses(p->sim, sock, l);
	else if (p->ifname)
		kernel_port_losses(p, sock, l);
	no_socket_read(p, l);
}

bool loss_port_offered(const struct loss_port *p, uint64_t *offered)
{
	struct xskx_sim_port_stats s;

	*offered = 0;
	if (!p->sim || xskx_sim_port_stats(p->sim, &s))
		return false;
	*offered = s.rx_packets + s.rx_missed;
	return true;
}

static void print_count(FILE *f, uint64_t n, double seconds)
{
	if (seconds > 0)
		fprintf(f, "%.0f", (double)n / seconds);
	else
		fprintf(f, "%llu", (unsigned long long)n);
}

void loss_print_text(FILE *f, const struct loss *l, double seconds)
{
	const char *sep = " (";

	fputs("lost ", f);
	print_count(f, loss_total(l), seconds);
	for (size_t i = 0; i < NSTAGES; i++) {
		if (!stage_of(l, i))
			continue;
		fprintf(f, "%s%s ", sep, stages[i].name);
		print_count(f, stage_of(l, i), seconds);
		sep = ", ";
	}
	if (*sep == ',')
		fputc(')', f);
	sep = "; no socket on queue ";
	for (uint32_t q = 0; q < LOSS_QUEUES; q++) {
		if (!l->no_socket[q])
			continue;
		fprintf(f, "%s%u: ", sep, q);
		print_count(f, l->no_socket[q], seconds);
		sep = ", queue ";
	}
}

void loss_print_interval(FILE *f, const struct loss *interval,
			 const struct loss *total, double seconds)
{
	loss_print_text(f, interval, seconds);
	fprintf(f, " pps, %llu pkts", (unsigned long long)loss_total(total));
}

void loss_json(struct json *j, const char *key, const struct loss *l)
{
	json_object(j, key);
	for (size_t i = 0; i < NSTAGES; i++)
		json_u64(j, stages[i].name, stage_of(l, i));
	json_u64(j, "total", loss_total(l));
	json_array(j, "no_socket");
	for (uint32_t q = 0; q < LOSS_QUEUES; q++) {
		if (!l->no_socket[q])
			continue;
		json_object(j, NULL);
		json_u64(j, "queue", q);
		json_u64(j, "packets", l->no_socket[q]);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
