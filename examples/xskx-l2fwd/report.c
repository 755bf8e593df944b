// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-l2fwd: what the run did. A line per port and queue every second
 * (packets per second received on the port and sent out of it, dropped for
 * a full TX ring, packets held for one), and at the end a summary in text
 * or, with --json, one JSON object on stdout.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "census.h"
#include "json.h"
#include "l2fwd.h"
#include "run.h"

/* The socket statistics the summary shows: where packets were lost, and why. */
static const struct {
	const char *name;
	size_t offset;
} socket_counters[] = {
#define C(field) { #field, offsetof(struct xskx_stats, field) }
	C(rx_dropped),	      C(rx_ring_full), C(rx_fill_ring_empty_descs),
	C(rx_invalid_descs),  C(tx_invalid_descs), C(tx_ring_full),
#undef C
};
#define NSOCKET_COUNTERS (sizeof(socket_counters) / sizeof(socket_counters[0]))

static uint64_t socket_counter(const struct xskx_stats *s, size_t i)
{
	return *(const uint64_t *)((const char *)s + socket_counters[i].offset);
}

static FILE *live_out(const struct l2fwd *app)
{
	return app->opts->fwd.json ? stderr : stdout;
}

/*
 * Each port's losses: its sockets' counters over every queue, and what the
 * forwarder gave up of the packets that arrived on it.
 */
static void take_losses(const struct l2fwd *app, struct l2fwd_sample *s)
{
	for (uint32_t i = 0; i < app->nports; i++) {
		struct loss_sock sum = { 0 };
		uint64_t app_drops = 0;

		for (uint32_t k = 0; k < app->opts->fwd.queues; k++) {
			loss_sock_read_add(&app->queues[k].pub.sock[i], &sum);
			app_drops += fwd_given_up(&s->ports[k][i]);
			s->sent += s->ports[k][i].tx;
		}
		loss_port_read(&app->loss[i], &sum, app_drops, &s->loss[i]);
	}
}

void l2fwd_sample_take(const struct l2fwd *app, double t,
		       struct l2fwd_sample *s)
{
	s->t = t;
	s->sent = 0;
	for (uint32_t k = 0; k < app->opts->fwd.queues; k++)
		for (uint32_t i = 0; i < app->nports; i++)
			fwd_counters_read(&app->queues[k].fwd.ports[i],
					  &s->ports[k][i]);
	take_losses(app, s);
}

static void total_loss(const struct l2fwd *app, const struct l2fwd_sample *s,
		       struct loss *l)
{
	*l = (struct loss){ 0 };
	for (uint32_t i = 0; i < app->nports; i++)
		loss_add(l, &s->loss[i]);
}

/*
 * Packets received on the egress port's partner and not yet sent out of the
 * egress port: held for its full TX ring (or in the forwarder's hands right
 * now). The counters are read one after the other while the threads run, so
 * a snapshot can be a burst out of step: never below 0.
 */
static uint64_t held_for(const struct fwd_counters *in,
			 const struct fwd_counters *out)
{
	uint64_t gone = out->tx + fwd_given_up(in);

	return in->rx > gone ? in->rx - gone : 0;
}

static void report_line(const struct l2fwd *app,
			const struct l2fwd_sample *prev,
			const struct l2fwd_sample *now)
{
	double dt = now->t - prev->t;
	FILE *f = live_out(app);
	struct loss was, is, lost;

	for (uint32_t k = 0; k < app->opts->fwd.queues; k++) {
		for (uint32_t i = 0; i < app->nports; i++) {
			const struct fwd_counters *a = &prev->ports[k][i];
			const struct fwd_counters *b = &now->ports[k][i];

			fprintf(f,
				"%6.1fs %5.2fs  q%-2u %-10s rx %9.0f pps %11llu pkts  tx %9.0f pps %11llu pkts  tx-full drops %7.0f pps %9llu pkts  held %4llu\n",
				now->t - app->start, dt,
				app->opts->fwd.first_queue + k, app->port_names[i],
				(double)(b->rx - a->rx) / dt,
				(unsigned long long)b->rx,
				(double)(b->tx - a->tx) / dt,
				(unsigned long long)b->tx,
				(double)(b->tx_full_drops - a->tx_full_drops) / dt,
				(unsigned long long)b->tx_full_drops,
				(unsigned long long)held_for(
					&now->ports[k][app->nports - 1 - i], b));
		}
	}
	total_loss(app, prev, &was);
	total_loss(app, now, &is);
	loss_since(&lost, &is, &was);
	fprintf(f, "%6.1fs %5.2fs  all ports      delivered %9.0f pps %11llu pkts  ",
		now->t - app->start, dt,
		((double)loss_delivered(now->sent, &is) -
		 (double)loss_delivered(prev->sent, &was)) / dt,
		(unsigned long long)loss_delivered(now->sent, &is));
	loss_print_interval(f, &lost, &is, dt);
	fputc('\n', f);
	fflush(f);
}

/* One port of one queue at the end of the run. */
struct port_result {
	struct fwd_counters count;
	struct xskx_stats stats;
};

static void port_result(const struct fwd_port *port, struct port_result *r)
{
	int err;

	fwd_counters_read(port, &r->count);
	err = xskx_socket_stats(port->sock, &r->stats);
	if (err) {
		run_lib_error("xskx_socket_stats", err);
		r->stats = (struct xskx_stats){ 0 };
	}
}


/* The final losses: the threads and the NIC have stopped. */
struct run_losses {
	struct l2fwd_sample s;
	struct loss total;
	uint64_t delivered, offered;
	bool offered_known;
};

static void run_losses(const struct l2fwd *app, struct run_losses *r)
{
	r->offered = 0;
	r->offered_known = app->nports > 0;
	l2fwd_sample_take(app, 0, &r->s);
	total_loss(app, &r->s, &r->total);
	r->delivered = loss_delivered(r->s.sent, &r->total);
	for (uint32_t i = 0; i < app->nports; i++) {
		uint64_t n;

		r->offered_known = loss_port_offered(&app->loss[i], &n) &&
				   r->offered_known;
		r->offered += n;
	}
}

/*
 * Per port what was lost of what arrived on it, and the check: offered =
 * delivered + lost. On the simulated NIC the offered count is the ports'
 * own; what is left over was still in a ring or the NIC at exit. On the
 * kernel only the senders know what they sent.
 */
static void print_losses(const struct l2fwd *app)
{
	static struct run_losses r;

	run_losses(app, &r);
	for (uint32_t i = 0; i < app->nports; i++) {
		printf("%-10s ", app->port_names[i]);
		loss_print_text(stdout, &r.s.loss[i], 0);
		printf("\n");
	}
	if (r.offered_known)
		printf("total: offered %llu = delivered %llu + lost %llu + in flight at exit %lld\n",
		       (unsigned long long)r.offered,
		       (unsigned long long)r.delivered,
		       (unsigned long long)loss_total(&r.total),
		       (long long)(r.offered - r.delivered - loss_total(&r.total)));
	else
		printf("total: delivered %llu + lost %llu = what the senders offered, less what was in flight at exit\n",
		       (unsigned long long)r.delivered,
		       (unsigned long long)loss_total(&r.total));
}

static void text_summary(const struct l2fwd *app, double seconds,
			 const char *stop_reason)
{
	const struct l2fwd_opts *o = app->opts;
	uint64_t rx = 0, tx = 0, tx_full_drops = 0, dropped = 0, completed = 0;
	bool accounted = true;

	printf("\nxskx-l2fwd: %s %s%s%s on %s, %u queue%s, --tx-full %s, %.2f s (%s)\n",
	       o->reflect ? "reflect on" : "forward", app->port_names[0],
	       o->reflect ? "" : " <-> ", o->reflect ? "" : app->port_names[1],
	       o->fwd.sim ? "the simulated NIC" : "the kernel", o->fwd.queues,
	       o->fwd.queues == 1 ? "" : "s", fwd_tx_full_names[o->fwd.tx_full],
	       seconds, stop_reason);
	printf("queue port        received        sent  tx_full_drops  dropped");
	for (size_t c = 0; c < NSOCKET_COUNTERS; c++)
		printf("  %s", socket_counters[c].name);
	printf("\n");
	for (uint32_t k = 0; k < o->fwd.queues; k++) {
		const struct fwd_queue *q = &app->queues[k].fwd;

		for (uint32_t i = 0; i < app->nports; i++) {
			struct port_result r;

			port_result(&q->ports[i], &r);
			printf("%5u %-10s %11llu %11llu  %13llu %8llu",
			       o->fwd.first_queue + k,
			       app->port_names[i],
			       (unsigned long long)r.count.rx,
			       (unsigned long long)r.count.tx,
			       (unsigned long long)r.count.tx_full_drops,
			       (unsigned long long)r.count.dropped);
			for (size_t c = 0; c < NSOCKET_COUNTERS; c++)
				printf("  %*llu", (int)strlen(socket_counters[c].name),
				       (unsigned long long)socket_counter(&r.stats, c));
			printf("\n");
			rx += r.count.rx;
			tx += r.count.tx;
			tx_full_drops += r.count.tx_full_drops;
			dropped += r.count.dropped;
			completed += r.count.csum_completed;
		}
		accounted = accounted && census_umem_accounted(q->umem);
	}
	printf("total: %llu received, %llu sent; dropped by the forwarder: %llu for a full TX ring, %llu held at exit\n",
	       (unsigned long long)rx, (unsigned long long)tx,
	       (unsigned long long)tx_full_drops,
	       (unsigned long long)dropped);
	printf("partial TCP/UDP checksums completed: %llu%s\n",
	       (unsigned long long)completed,
	       o->fwd.keep_partial_csum ? " (--no-csum-complete)" : "");
	for (uint32_t i = 0; app->sim && i < app->nports; i++) {
		struct xskx_sim_port_stats s;

		if (xskx_sim_port_stats(app->sim_ports[i], &s))
			continue;
		printf("%s: %llu generated, %llu missed (no buffer posted), %llu redirects refused (RX ring full), %llu transmitted\n",
		       app->port_names[i],
		       (unsigned long long)s.source_packets,
		       (unsigned long long)s.rx_missed,
		       (unsigned long long)s.xdp_redirect_err,
		       (unsigned long long)s.tx_packets);
	}
	print_losses(app);
	printf("frames: %s\n", accounted ? "every frame of every UMEM accounted for" :
					   "census MISMATCH (a frame went missing)");
}

/* The offered count of every port, if the ports know it (--sim). */
static bool offered_now(const struct l2fwd *app, uint64_t *offered)
{
	bool known = app->nports > 0;

	*offered = 0;
	for (uint32_t i = 0; i < app->nports; i++) {
		uint64_t n;

		known = loss_port_offered(&app->loss[i], &n) && known;
		*offered += n;
	}
	return known;
}

/*
 * "total" and "port_losses", from a sample: what the summary and every
 * interval share.
 */
static void json_totals(struct json *j, const struct l2fwd *app,
			const struct l2fwd_sample *s)
{
	uint64_t rx = 0, tx = 0, tx_full_drops = 0, dropped = 0, offered;
	uint64_t completed = 0;
	struct loss total;

	for (uint32_t k = 0; k < app->opts->fwd.queues; k++)
		for (uint32_t i = 0; i < app->nports; i++) {
			rx += s->ports[k][i].rx;
			tx += s->ports[k][i].tx;
			tx_full_drops += s->ports[k][i].tx_full_drops;
			dropped += s->ports[k][i].dropped;
			completed += s->ports[k][i].csum_completed;
		}
	total_loss(app, s, &total);
	json_object(j, "total");
	json_u64(j, "rx", rx);
	json_u64(j, "tx", tx);
	json_u64(j, "tx_full_drops", tx_full_drops);
	json_u64(j, "dropped", dropped);
	json_u64(j, "csum_completed", completed);
	json_u64(j, "delivered", loss_delivered(s->sent, &total));
	json_u64(j, "lost", loss_total(&total));
	if (offered_now(app, &offered))
		json_u64(j, "offered", offered);
	loss_json(j, "loss", &total);
	json_object_end(j);
	json_array(j, "port_losses");
	for (uint32_t i = 0; i < app->nports; i++) {
		json_object(j, NULL);
		json_str(j, "port", app->port_names[i]);
		loss_json(j, "loss", &s->loss[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

/* What the simulated ports counted (--sim). */
static void json_sim_ports(struct json *j, const struct l2fwd *app)
{
	if (!app->sim)
		return;
	json_array(j, "sim_ports");
	for (uint32_t i = 0; i < app->nports; i++) {
		struct xskx_sim_port_stats s = { 0 };

		xskx_sim_port_stats(app->sim_ports[i], &s);
		json_object(j, NULL);
		json_str(j, "port", app->port_names[i]);
		json_u64(j, "generated", s.source_packets);
		json_u64(j, "rx_missed", s.rx_missed);
		json_u64(j, "xdp_redirect_err", s.xdp_redirect_err);
		json_u64(j, "transmitted", s.tx_packets);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_settings(struct json *j, const struct l2fwd_opts *o)
{
	json_str(j, "mode", o->reflect ? "reflect" : "forward");
	json_str(j, "backend", o->fwd.sim ? "sim" : "kernel");
	json_u64(j, "first_queue", o->fwd.first_queue);
	json_u64(j, "queues", o->fwd.queues);
	json_str(j, "tx_full", fwd_tx_full_names[o->fwd.tx_full]);
	json_bool(j, "csum_complete", !o->fwd.keep_partial_csum);
}

/*
 * --json-lines: an interval's object. Per queue and port the forwarder's
 * counters (the sockets' own are the owning thread's until the end: in the
 * summary), then what the summary has.
 */
static void json_interval(const struct l2fwd *app,
			  const struct l2fwd_sample *prev,
			  const struct l2fwd_sample *now)
{
	struct json j;

	json_begin(&j, stdout, "xskx-l2fwd", "interval");
	json_num(&j, "elapsed_s", now->t - app->start, 3);
	json_num(&j, "interval_s", now->t - prev->t, 3);
	json_settings(&j, app->opts);
	json_array(&j, "ports");
	for (uint32_t k = 0; k < app->opts->fwd.queues; k++)
		for (uint32_t i = 0; i < app->nports; i++) {
			const struct fwd_counters *c = &now->ports[k][i];

			json_object(&j, NULL);
			json_u64(&j, "queue", app->opts->fwd.first_queue + k);
			json_str(&j, "port", app->port_names[i]);
			json_u64(&j, "rx", c->rx);
			json_u64(&j, "tx", c->tx);
			json_u64(&j, "tx_full_drops", c->tx_full_drops);
			json_u64(&j, "dropped", c->dropped);
			json_u64(&j, "csum_completed", c->csum_completed);
			json_u64(&j, "held",
				 held_for(&now->ports[k][app->nports - 1 - i], c));
			json_object_end(&j);
		}
	json_array_end(&j);
	json_totals(&j, app, now);
	json_sim_ports(&j, app);
	json_end(&j);
}

void l2fwd_report_line(void *app, const void *prev, const void *now)
{
	report_line(app, prev, now);
}

void l2fwd_report_json_line(void *app, const void *prev, const void *now)
{
	json_interval(app, prev, now);
}

static void json_summary(const struct l2fwd *app, double seconds,
			 const char *stop_reason)
{
	static struct run_losses losses;
	const struct l2fwd_opts *o = app->opts;
	bool accounted = true;
	struct json j;

	json_begin(&j, stdout, "xskx-l2fwd", "summary");
	json_settings(&j, o);
	json_num(&j, "seconds", seconds, 3);
	json_str(&j, "stop", stop_reason);
	json_array(&j, "ports");
	for (uint32_t k = 0; k < o->fwd.queues; k++) {
		const struct fwd_queue *q = &app->queues[k].fwd;

		for (uint32_t i = 0; i < app->nports; i++) {
			struct port_result r;

			port_result(&q->ports[i], &r);
			json_object(&j, NULL);
			json_u64(&j, "queue", app->opts->fwd.first_queue + k);
			json_str(&j, "port", app->port_names[i]);
			json_u64(&j, "rx", r.count.rx);
			json_u64(&j, "tx", r.count.tx);
			json_u64(&j, "tx_full_drops", r.count.tx_full_drops);
			json_u64(&j, "dropped", r.count.dropped);
			json_u64(&j, "csum_completed", r.count.csum_completed);
			json_bool(&j, "zero_copy",
				  fwd_port_zero_copy(&q->ports[i]));
			for (size_t c = 0; c < NSOCKET_COUNTERS; c++)
				json_u64(&j, socket_counters[c].name,
					 socket_counter(&r.stats, c));
			json_object_end(&j);
		}
		accounted = accounted && census_umem_accounted(q->umem);
	}
	json_array_end(&j);
	run_losses(app, &losses);
	json_totals(&j, app, &losses.s);
	json_sim_ports(&j, app);
	capture_run_json(&j, &app->captures, &o->fwd.capture);
	json_bool(&j, "frames_accounted", accounted);
	json_end(&j);
}

void l2fwd_report_summary(const struct l2fwd *app, double seconds,
			  const char *stop_reason)
{
	if (app->opts->fwd.json)
		json_summary(app, seconds, stop_reason);
	else
		text_summary(app, seconds, stop_reason);
	fflush(stdout);
}
