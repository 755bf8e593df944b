// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw: what the run did. A line every second (packets per second
 * received, forwarded, dropped by stage 1, denied by stage 2, not
 * classifiable, dropped for a full TX ring, lost at each stage: loss.h),
 * and at the end the per-rule and per-stage counters and the losses in
 * text or, with --json, one JSON object on stdout.
 */
#include <stdio.h>

#include "census.h"
#include "fwapp.h"
#include "json.h"

static FILE *live_out(const struct fwapp *app)
{
	return app->opts->fwd.json ? stderr : stdout;
}

static uint64_t unclassified(const struct fw_stage2 *s)
{
	uint64_t n = 0;

	for (uint32_t k = 0; k < FW_UNCLASSIFIED_KINDS; k++)
		n += s->unclassified[k].packets;
	return n;
}

void fwapp_sample_take(const struct fwapp *app, double t,
		       struct fwapp_sample *s)
{
	s->t = t;
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++)
		s->ports[i] = (struct fwd_counters){ 0 };
	for (uint32_t k = 0; k < app->fw.nqueues; k++)
		for (uint32_t i = 0; i < FWD_MAX_PORTS; i++) {
			fwd_counters_read(&app->fw.queues[k].fwd.ports[i],
					  &s->queues[k][i]);
			fwd_counters_add(&s->ports[i], &s->queues[k][i]);
		}
	fw_stage1_total(&app->fw, &s->stage1);
	fw_stage2_read(&app->fw, &s->stage2);
	s->sent = 0;
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++) {
		struct loss_sock sock = { 0 };

		for (uint32_t k = 0; k < app->fw.nqueues; k++)
			loss_sock_read_add(&app->pub[k].sock[i], &sock);
		loss_port_read(&app->loss[i], &sock,
			       fwd_given_up(&s->ports[i]), &s->loss[i]);
		s->sent += s->ports[i].tx;
	}
}

/* Every queue's UMEM, each frame in one place (census.h); threads stopped. */
static bool frames_accounted(const struct fwapp *app)
{
	bool accounted = true;

	for (uint32_t k = 0; k < app->fw.nqueues; k++)
		accounted = census_umem_accounted(app->fw.queues[k].fwd.umem) &&
			    accounted;
	return accounted;
}

static void total_loss(const struct fwapp_sample *s, struct loss *l)
{
	*l = (struct loss){ 0 };
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++)
		loss_add(l, &s->loss[i]);
}

static void report_line(const struct fwapp *app,
			const struct fwapp_sample *prev,
			const struct fwapp_sample *now)
{
	double dt = now->t - prev->t;
	uint64_t rx = 0, tx = 0, tx_full_drops = 0;
	uint64_t rx_total = 0, tx_total = 0, tx_full_total = 0;
	FILE *f = live_out(app);
	struct loss was, is, lost;

	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++) {
		rx += now->ports[i].rx - prev->ports[i].rx;
		tx += now->ports[i].tx - prev->ports[i].tx;
		tx_full_drops += now->ports[i].tx_full_drops -
				 prev->ports[i].tx_full_drops;
	}
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++) {
		rx_total += now->ports[i].rx;
		tx_total += now->ports[i].tx;
		tx_full_total += now->ports[i].tx_full_drops;
	}
	fprintf(f,
		"%6.1fs %5.2fs  received %9.0f pps %11llu pkts  forwarded %9.0f pps %11llu pkts  stage1 dropped %9.0f pps %11llu pkts  stage2 denied %9.0f pps %11llu pkts  unclassified %7.0f pps %9llu pkts  tx-full drops %7.0f pps %9llu pkts  ",
		now->t - app->start, dt, (double)rx / dt,
		(unsigned long long)rx_total, (double)tx / dt,
		(unsigned long long)tx_total,
		(double)(now->stage1.packets - prev->stage1.packets) / dt,
		(unsigned long long)now->stage1.packets,
		(double)(now->stage2.denied.packets -
			 prev->stage2.denied.packets) / dt,
		(unsigned long long)now->stage2.denied.packets,
		(double)(unclassified(&now->stage2) -
			 unclassified(&prev->stage2)) / dt,
		(unsigned long long)unclassified(&now->stage2),
		(double)tx_full_drops / dt,
		(unsigned long long)tx_full_total);
	total_loss(prev, &was);
	total_loss(now, &is);
	loss_since(&lost, &is, &was);
	loss_print_interval(f, &lost, &is, dt);
	fputc('\n', f);
	fflush(f);
}

void fwapp_report_rules(FILE *f, const struct fwapp *app,
			const struct fw_ruleset *rs)
{
	fprintf(f, "line  stage      xdp_packets     xdp_bytes  user_packets    user_bytes  rule\n");
	for (uint32_t i = 0; i <= rs->count; i++) {
		struct fw_counter s1, s2;
		char text[160];

		fw_rule_counts(&app->fw, rs, i, &s1, &s2);
		if (i == rs->count)
			snprintf(text, sizeof(text), "default %s",
				 rs->default_action == FW_ALLOW ? "allow" : "deny");
		else
			fw_rule_format(&rs->rules[i], text, sizeof(text));
		fprintf(f, "%4u  %-8s %13llu %13llu %13llu %13llu  %s\n",
			i < rs->count ? rs->rules[i].line : 0,
			i == rs->count ? "-" :
			rs->rules[i].in_xdp ? "xdp+user" : "user",
			(unsigned long long)s1.packets,
			(unsigned long long)s1.bytes,
			(unsigned long long)s2.packets,
			(unsigned long long)s2.bytes, text);
	}
}

/* Judged and dropped on purpose: stage 1's drops and stage 2's denials. */
static uint64_t filtered(const struct fwapp_sample *s)
{
	return s->stage1.packets + s->stage2.denied.packets;
}

static bool offered(const struct fwapp *app, uint64_t *n)
{
	uint64_t one;
	bool known = true;

	*n = 0;
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++) {
		known = loss_port_offered(&app->loss[i], &one) && known;
		*n += one;
	}
	return known;
}

/*
 * Per port what was lost of what arrived on it, and the check: offered =
 * delivered + filtered + lost. On the simulated NIC the ports count what
 * was offered; what is left over was in a ring or the NIC at exit.
 */
static void text_losses(const struct fwapp *app, const struct fwapp_sample *s)
{
	struct loss total;
	uint64_t delivered, offered_n;

	total_loss(s, &total);
	delivered = loss_delivered(s->sent, &total);
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++) {
		printf("%-10s ", app->port_names[i]);
		loss_print_text(stdout, &s->loss[i], 0);
		printf("\n");
	}
	if (offered(app, &offered_n))
		printf("total: offered %llu = delivered %llu + filtered %llu + lost %llu + in flight at exit %lld\n",
		       (unsigned long long)offered_n,
		       (unsigned long long)delivered,
		       (unsigned long long)filtered(s),
		       (unsigned long long)loss_total(&total),
		       (long long)(offered_n - delivered - filtered(s) -
				   loss_total(&total)));
	else
		printf("total: delivered %llu + filtered %llu + lost %llu = what the senders offered, less what was in flight at exit\n",
		       (unsigned long long)delivered,
		       (unsigned long long)filtered(s),
		       (unsigned long long)loss_total(&total));
}

static void text_summary(const struct fwapp *app, double seconds,
			 const char *stop_reason, const struct fwapp_sample *s)
{
	const struct fwapp_opts *o = app->opts;

	printf("\nxskx-fw: %s <-> %s on %s, %u queue%s, rules %s, --tx-full %s, %.2f s (%s), %u reload%s, %u rejected\n",
	       app->port_names[0], app->port_names[1],
	       o->fwd.sim ? "the simulated NIC" : "the kernel",
	       app->fw.nqueues, app->fw.nqueues == 1 ? "" : "s", o->rules_path,
	       fwd_tx_full_names[o->fwd.tx_full], seconds, stop_reason,
	       app->reloads, app->reloads == 1 ? "" : "s", app->reloads_rejected);
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++)
		printf("%-10s received %llu, forwarded to %s %llu, dropped for its full TX ring %llu, given back at exit %llu\n",
		       app->port_names[i], (unsigned long long)s->ports[i].rx,
		       app->port_names[1 - i],
		       (unsigned long long)s->ports[1 - i].tx,
		       (unsigned long long)s->ports[i].tx_full_drops,
		       (unsigned long long)s->ports[i].dropped);
	printf("partial TCP/UDP checksums completed: %s %llu, %s %llu%s\n",
	       app->port_names[0],
	       (unsigned long long)s->ports[0].csum_completed,
	       app->port_names[1],
	       (unsigned long long)s->ports[1].csum_completed,
	       o->fwd.keep_partial_csum ? " (--no-csum-complete)" : "");
	for (uint32_t k = 0; app->fw.nqueues > 1 && k < app->fw.nqueues; k++)
		printf("queue %-4u %s received %llu, %s received %llu\n",
		       o->fwd.first_queue + k, app->port_names[0],
		       (unsigned long long)s->queues[k][0].rx,
		       app->port_names[1],
		       (unsigned long long)s->queues[k][1].rx);
	fwapp_report_rules(stdout, app, app->fw.rules);
	printf("stage 1 (XDP): %llu packets, %llu bytes dropped\n",
	       (unsigned long long)s->stage1.packets,
	       (unsigned long long)s->stage1.bytes);
	printf("stage 2 (user space): %llu allowed, %llu denied; unclassified (default %s):",
	       (unsigned long long)s->stage2.allowed.packets,
	       (unsigned long long)s->stage2.denied.packets,
	       app->fw.rules->default_action == FW_ALLOW ? "allow" : "deny");
	for (uint32_t k = 0; k < FW_UNCLASSIFIED_KINDS; k++)
		printf(" %s %llu", fw_unclassified_names[k],
		       (unsigned long long)s->stage2.unclassified[k].packets);
	printf("\n");
	text_losses(app, s);
	printf("frames: %s\n", frames_accounted(app) ?
					"every frame of every UMEM accounted for" :
					"census MISMATCH (a frame went missing)");
}

static void json_counter(struct json *j, const char *name,
			 const struct fw_counter *c)
{
	json_object(j, name);
	json_u64(j, "packets", c->packets);
	json_u64(j, "bytes", c->bytes);
	json_object_end(j);
}

/*
 * The summary (prev NULL: seconds and stop_reason say how long and why) or,
 * for --json-lines, the interval from prev to s: the same counters, totals
 * since the start.
 */
static void json_object_of(const struct fwapp *app, double seconds,
			   const char *stop_reason,
			   const struct fwapp_sample *prev,
			   const struct fwapp_sample *s)
{
	const struct fw_ruleset *rs = app->fw.rules;
	uint64_t offered_n;
	struct loss total;
	struct json j;

	json_begin(&j, stdout, "xskx-fw", prev ? "interval" : "summary");
	if (prev) {
		json_num(&j, "elapsed_s", s->t - app->start, 3);
		json_num(&j, "interval_s", s->t - prev->t, 3);
	}
	json_str(&j, "backend", app->opts->fwd.sim ? "sim" : "kernel");
	json_str(&j, "rules_file", app->opts->rules_path);
	json_str(&j, "tx_full", fwd_tx_full_names[app->opts->fwd.tx_full]);
	if (!prev) {
		json_num(&j, "seconds", seconds, 3);
		json_str(&j, "stop", stop_reason);
	}
	json_u64(&j, "reloads", app->reloads);
	json_u64(&j, "reloads_rejected", app->reloads_rejected);
	json_u64(&j, "first_queue", app->opts->fwd.first_queue);
	json_u64(&j, "queues", app->fw.nqueues);
	json_array(&j, "per_queue");
	for (uint32_t k = 0; k < app->fw.nqueues; k++)
		for (uint32_t i = 0; i < FWD_MAX_PORTS; i++) {
			json_object(&j, NULL);
			json_u64(&j, "queue", app->opts->fwd.first_queue + k);
			json_str(&j, "port", app->port_names[i]);
			json_u64(&j, "rx", s->queues[k][i].rx);
			json_u64(&j, "tx", s->queues[k][i].tx);
			json_bool(&j, "zero_copy",
				  fwd_port_zero_copy(
					  &app->fw.queues[k].fwd.ports[i]));
			json_object_end(&j);
		}
	json_array_end(&j);
	json_array(&j, "ports");
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++) {
		json_object(&j, NULL);
		json_str(&j, "port", app->port_names[i]);
		json_u64(&j, "rx", s->ports[i].rx);
		json_u64(&j, "tx", s->ports[i].tx);
		json_u64(&j, "tx_full_drops", s->ports[i].tx_full_drops);
		json_u64(&j, "dropped", s->ports[i].dropped);
		json_u64(&j, "csum_completed", s->ports[i].csum_completed);
		loss_json(&j, "loss", &s->loss[i]);
		json_object_end(&j);
	}
	json_array_end(&j);
	total_loss(s, &total);
	json_object(&j, "total");
	json_u64(&j, "delivered", loss_delivered(s->sent, &total));
	json_u64(&j, "filtered", filtered(s));
	json_u64(&j, "lost", loss_total(&total));
	if (offered(app, &offered_n))
		json_u64(&j, "offered", offered_n);
	loss_json(&j, "loss", &total);
	json_object_end(&j);
	json_array(&j, "rules");
	for (uint32_t i = 0; i <= rs->count; i++) {
		struct fw_counter s1, s2;
		char text[160];

		fw_rule_counts(&app->fw, rs, i, &s1, &s2);
		if (i == rs->count)
			snprintf(text, sizeof(text), "default %s",
				 rs->default_action == FW_ALLOW ? "allow" : "deny");
		else
			fw_rule_format(&rs->rules[i], text, sizeof(text));
		json_object(&j, NULL);
		json_u64(&j, "line", i < rs->count ? rs->rules[i].line : 0);
		json_str(&j, "rule", text);
		json_str(&j, "stage", i == rs->count ? "default" :
				      rs->rules[i].in_xdp ? "xdp+user" : "user");
		json_counter(&j, "xdp", &s1);
		json_counter(&j, "user", &s2);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_counter(&j, "stage1_dropped", &s->stage1);
	json_object(&j, "stage2");
	json_counter(&j, "allowed", &s->stage2.allowed);
	json_counter(&j, "denied", &s->stage2.denied);
	json_object(&j, "unclassified");
	for (uint32_t k = 0; k < FW_UNCLASSIFIED_KINDS; k++)
		json_counter(&j, fw_unclassified_names[k],
			     &s->stage2.unclassified[k]);
	json_object_end(&j);
	json_object_end(&j);
	if (!prev) {
		capture_run_json(&j, &app->captures, &app->opts->fwd.capture);
		json_bool(&j, "frames_accounted", frames_accounted(app));
	}
	json_end(&j);
}

void fwapp_report_line(void *app, const void *prev, const void *now)
{
	report_line(app, prev, now);
}

void fwapp_report_json_line(void *app, const void *prev, const void *now)
{
	json_object_of(app, 0, NULL, prev, now);
}

void fwapp_report_summary(const struct fwapp *app, double seconds,
			  const char *stop_reason)
{
	struct fwapp_sample s;

	fwapp_sample_take(app, seconds, &s);
	if (app->opts->fwd.json)
		json_object_of(app, seconds, stop_reason, NULL, &s);
	else
		text_summary(app, seconds, stop_reason, &s);
	fflush(stdout);
}
