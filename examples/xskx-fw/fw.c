// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* xskx-fw: the firewall core (see fw.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"

const char *const fw_unclassified_names[FW_UNCLASSIFIED_KINDS] = {
	"not_ip", "fragment", "truncated", "malformed",
};

/* A drops capture's comment for the default: no rule matched, or why none could. */
static const char *const default_notes[1 + FW_UNCLASSIFIED_KINDS] = {
	"default deny: no rule matched",
	"default deny: not IP",
	"default deny: a fragment after the first",
	"default deny: truncated",
	"default deny: malformed",
};

/* Single writer: a plain read of our own counter, an atomic store for readers. */
static void count(struct fw_counter *c, uint32_t bytes)
{
	__atomic_store_n(&c->packets, c->packets + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&c->bytes, c->bytes + bytes, __ATOMIC_RELAXED);
}

static void counter_read(const struct fw_counter *c, struct fw_counter *out)
{
	out->packets = __atomic_load_n(&c->packets, __ATOMIC_RELAXED);
	out->bytes = __atomic_load_n(&c->bytes, __ATOMIC_RELAXED);
}

static int unclassified_kind(enum xskx_pkt_class cls)
{
	switch (cls) {
	case XSKX_PKT_NOT_IP:
		return FW_UNCLASSIFIED_NOT_IP;
	case XSKX_PKT_FRAGMENT:
		return FW_UNCLASSIFIED_FRAGMENT;
	case XSKX_PKT_TRUNCATED:
		return FW_UNCLASSIFIED_TRUNCATED;
	case XSKX_PKT_MALFORMED:
		return FW_UNCLASSIFIED_MALFORMED;
	default:
		return -1;
	}
}

/*
 * fwd's filter hook: stage 2 on one batch, with one rule set throughout.
 * A packet is one descriptor, or with multi-buffer a chain, judged by its
 * first fragment's headers, its verdict on its first entry.
 */
static void judge_batch(void *ctx, uint32_t port, const struct xskx_pkt *pkts,
			uint32_t n, uint8_t *verdicts)
{
	struct fw_queue *q = ctx;
	struct fw_ruleset *rs = q->in_use;
	struct fw_counter *hits = &rs->hits[q->row * (rs->count + 1)];
	uint32_t frags;

	(void)port;
	for (uint32_t i = 0; i < n; i += frags) {
		struct xskx_pkt_view v;
		uint32_t len = pkts[i].len;
		enum xskx_pkt_class cls;
		enum fw_action action;
		int kind, rule;
		uint32_t slot;

		frags = q->fwd.multi_buffer ? xskx_pkt_frags(pkts + i, n - i,
							     &len) :
					      1;
		if (!frags) /* a batch holds whole chains only */
			frags = n - i;
		cls = xskx_pkt_parse_chain(pkts + i, frags, &v);
		kind = unclassified_kind(cls);
		rule = fw_rules_match(rs, &v);
		slot = rule < 0 ? rs->count : (uint32_t)rule;
		action = rule < 0 ? rs->default_action : rs->rules[rule].action;
		if (kind >= 0)
			count(&q->stage2.unclassified[kind], len);
		count(&hits[slot], len);
		if (action == FW_DENY) {
			count(&q->stage2.denied, len);
			if (q->drops)
				capture_ring_put(q->drops, pkts + i, frags,
						 rule < 0 ? default_notes[kind + 1] :
							    rs->drop_notes +
							    (size_t)rule * FW_DROP_NOTE_MAX);
			verdicts[i] = XSKX_PKT_DROP;
			continue;
		}
		count(&q->stage2.allowed, len);
	}
}

static void xdp_counts(const struct fw *fw, uint32_t rule_id,
		       struct xskx_filter_counters *sum)
{
	*sum = (struct xskx_filter_counters){ 0 };
	const struct fwd_queue *fwd = &fw->queues[0].fwd;

	for (uint32_t p = 0; p < fwd->nports; p++) {
		struct xskx_filter_counters c;

		if (!xskx_filter_rule_stats(fwd->ports[p].port, rule_id, &c)) {
			sum->packets += c.packets;
			sum->bytes += c.bytes;
		}
	}
}

/*
 * The hand-over of the XDP counters. A set's rule ids are in the bank its
 * predecessor does not use, and nothing writes to that bank when the set
 * is installed: the list that last used it was replaced by the
 * predecessor's, and xskx_filter_set() returned only once no XDP program
 * could still be reading it. So:
 *   1. the new set's counters' starting points are read (take_xdp_base):
 *      no packet can move them until the swap;
 *   2. the deny lists are swapped, and every packet from then on counts in
 *      the new bank;
 *   3. the old set's counters, which nothing moves any more, are read for
 *      good (freeze_xdp).
 * Each packet stage 1 drops counts for exactly one set. (On a kernel that
 * refuses xskx_filter_set() its wait for readers, nohz_full, a packet still
 * being judged by the old list in step 3 may be missed.)
 */
static void take_xdp_base(const struct fw *fw, struct fw_ruleset *rs)
{
	for (uint32_t i = 0; i < rs->count; i++)
		if (rs->rules[i].in_xdp)
			xdp_counts(fw, rs->id_base + i, &rs->xdp_base[i]);
}

static void freeze_xdp(const struct fw *fw, struct fw_ruleset *rs)
{
	for (uint32_t i = 0; i < rs->count; i++) {
		struct fw_counter s1, s2;

		fw_rule_counts(fw, rs, i, &s1, &s2);
		rs->xdp_final[i] = s1;
	}
	rs->replaced = true;
}

/* fw_rules_split(), with nothing for stage 1 when the backend has none. */
static uint32_t split(struct fw *fw, struct fw_ruleset *rs)
{
	uint32_t n = fw_rules_split(rs, fw->entries);

	if (fw->xdp_stage)
		return n;
	for (uint32_t i = 0; i < rs->count; i++)
		rs->rules[i].in_xdp = false;
	return 0;
}

/*
 * Put entries[0..n) on every port (each port's list serves all its
 * queues); on failure put back restore's on those done.
 */
static int set_lists(struct fw *fw, uint32_t n, struct fw_ruleset *restore)
{
	const struct fwd_queue *fwd = &fw->queues[0].fwd;
	uint32_t p;
	int err = 0;

	for (p = 0; p < fwd->nports && !err; p++)
		err = xskx_filter_set(fwd->ports[p].port, fw->entries, n);
	if (!err)
		return 0;
	if (restore) {
		uint32_t old_n = split(fw, restore);

		for (uint32_t q = 0; q + 1 < p; q++)
			xskx_filter_set(fwd->ports[q].port, fw->entries, old_n);
	}
	return err;
}

/* With a drops capture: each rule's comment, before any queue can see rs. */
static int write_notes(const struct fw *fw, struct fw_ruleset *rs)
{
	if (!fw->capture_drops || rs->drop_notes)
		return 0;
	rs->drop_notes = calloc(rs->count ? rs->count : 1, FW_DROP_NOTE_MAX);
	if (!rs->drop_notes)
		return -ENOMEM;
	for (uint32_t i = 0; i < rs->count; i++) {
		char text[160];

		fw_rule_format(&rs->rules[i], text, sizeof(text));
		snprintf(rs->drop_notes + (size_t)i * FW_DROP_NOTE_MAX,
			 FW_DROP_NOTE_MAX, "line %u: %s", rs->rules[i].line,
			 text);
	}
	return 0;
}

/* A row of hits per queue, before any queue can see rs. */
static int size_hits(const struct fw *fw, struct fw_ruleset *rs)
{
	struct fw_counter *hits;

	if (rs->hit_rows >= fw->nqueues)
		return 0;
	hits = calloc((size_t)fw->nqueues * (rs->count + 1), sizeof(*hits));
	if (!hits)
		return -ENOMEM;
	free(rs->hits);
	rs->hits = hits;
	rs->hit_rows = fw->nqueues;
	return 0;
}

int fw_open(struct fw *fw, const struct fwd_config *cfg, uint32_t nqueues,
	    struct fw_ruleset *rules)
{
	uint32_t n;
	int err;

	*fw = (struct fw){ .rules = rules, .published = rules,
			   .xdp_stage = !cfg->drops, .capture_drops = !!cfg->drops };
	if (!nqueues || nqueues > FWD_MAX_QUEUES)
		return -EINVAL;
	fw->entries = calloc(FW_MAX_RULES, sizeof(*fw->entries));
	fw->queues = calloc(nqueues, sizeof(*fw->queues));
	if (!fw->entries || !fw->queues)
		return -ENOMEM;
	fw->nqueues = nqueues;
	err = size_hits(fw, rules);
	if (!err)
		err = write_notes(fw, rules);
	for (uint32_t k = 0; k < nqueues && !err; k++) {
		struct fw_queue *q = &fw->queues[k];
		struct fwd_config c = *cfg;

		*q = (struct fw_queue){ .fw = fw, .row = k, .in_use = rules,
					.adopted = rules };
		c.queue_id = cfg->queue_id + k;
		c.filter = judge_batch;
		c.filter_ctx = q;
		err = fwd_open(&q->fwd, &c);
		if (!err && cfg->drops &&
		    !(q->drops = capture_writer_take_ring(cfg->drops)))
			err = -EINVAL; /* the writer has a ring per queue */
	}
	if (err)
		return err;
	n = split(fw, rules);
	take_xdp_base(fw, rules);
	err = set_lists(fw, n, NULL);
	if (err == -EOPNOTSUPP) {
		/* Every rule is in stage 2 as well: same verdicts, later. */
		fw->xdp_stage = false;
		split(fw, rules);
		err = 0;
	}
	return err;
}

int fw_step(struct fw_queue *q)
{
	struct fw_ruleset *next = __atomic_load_n(&q->fw->published,
						  __ATOMIC_ACQUIRE);

	if (next != q->in_use) {
		q->in_use = next;
		/* Release: this queue's counts of the old set are final. */
		__atomic_store_n(&q->adopted, next, __ATOMIC_RELEASE);
	}
	return fwd_step(&q->fwd);
}

static void add_stage1(const struct fw *fw, const struct fw_ruleset *rs,
		       struct fw_counter *total)
{
	for (uint32_t i = 0; i < rs->count; i++) {
		struct fw_counter s1, s2;

		fw_rule_counts(fw, rs, i, &s1, &s2);
		total->packets += s1.packets;
		total->bytes += s1.bytes;
	}
}

int fw_install(struct fw *fw, struct fw_ruleset *rules,
	       struct fw_ruleset **old)
{
	struct fw_ruleset *prev = fw->rules;
	uint32_t n;
	int err;

	err = size_hits(fw, rules);
	if (!err)
		err = write_notes(fw, rules);
	if (err)
		return err;
	rules->id_base = prev->id_base ? 0 : FW_MAX_RULES;
	n = split(fw, rules);
	take_xdp_base(fw, rules);
	err = fw->xdp_stage ? set_lists(fw, n, prev) : 0;
	if (err)
		return err;
	freeze_xdp(fw, prev);
	add_stage1(fw, prev, &fw->stage1_retired);
	fw->rules = rules;
	__atomic_store_n(&fw->published, rules, __ATOMIC_RELEASE);
	*old = prev;
	return 0;
}

bool fw_adopted(const struct fw *fw)
{
	for (uint32_t k = 0; k < fw->nqueues; k++)
		if (__atomic_load_n(&fw->queues[k].adopted, __ATOMIC_ACQUIRE) !=
		    fw->rules)
			return false;
	return true;
}

static void counter_add(struct fw_counter *sum, const struct fw_counter *c)
{
	struct fw_counter one;

	counter_read(c, &one);
	sum->packets += one.packets;
	sum->bytes += one.bytes;
}

void fw_rule_counts(const struct fw *fw, const struct fw_ruleset *rs,
		    uint32_t i, struct fw_counter *stage1,
		    struct fw_counter *stage2)
{
	*stage1 = (struct fw_counter){ 0 };
	*stage2 = (struct fw_counter){ 0 };
	for (uint32_t r = 0; r < rs->hit_rows; r++)
		counter_add(stage2, &rs->hits[r * (rs->count + 1) + i]);
	if (rs->replaced) {
		*stage1 = rs->xdp_final[i];
	} else if (i < rs->count && rs->rules[i].in_xdp) {
		struct xskx_filter_counters now;

		xdp_counts(fw, rs->id_base + i, &now);
		stage1->packets = now.packets - rs->xdp_base[i].packets;
		stage1->bytes = now.bytes - rs->xdp_base[i].bytes;
	}
}

void fw_stage1_total(const struct fw *fw, struct fw_counter *total)
{
	*total = fw->stage1_retired;
	add_stage1(fw, fw->rules, total);
}

void fw_stage2_read(const struct fw *fw, struct fw_stage2 *s)
{
	*s = (struct fw_stage2){ 0 };
	for (uint32_t q = 0; q < fw->nqueues; q++) {
		const struct fw_stage2 *one = &fw->queues[q].stage2;

		counter_add(&s->allowed, &one->allowed);
		counter_add(&s->denied, &one->denied);
		for (uint32_t k = 0; k < FW_UNCLASSIFIED_KINDS; k++)
			counter_add(&s->unclassified[k], &one->unclassified[k]);
	}
}

void fw_finish(struct fw *fw)
{
	for (uint32_t k = 0; k < fw->nqueues; k++)
		fwd_finish(&fw->queues[k].fwd);
}

int fw_close(struct fw *fw)
{
	int err = 0;

	fw_finish(fw);
	for (uint32_t k = 0; fw->queues && k < fw->nqueues; k++) {
		int close_err = fwd_close(&fw->queues[k].fwd);

		if (!err)
			err = close_err;
	}
	fw_rules_free(fw->rules);
	free(fw->entries);
	free(fw->queues);
	*fw = (struct fw){ 0 };
	return err;
}
