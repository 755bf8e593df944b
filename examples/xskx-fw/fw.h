/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * xskx-fw's firewall core: xskx-l2fwd's forwarding core between two ports
 * (one UMEM, no copy) with a verdict on every packet, in two stages:
 *
 *   stage 1  the XDP program of each port drops packets of the rules
 *            fw_rules_split() picked (deny by prefix), counted per rule
 *   stage 2  here, on what the program redirected: xskx_pkt_parse(), the
 *            first matching rule (or the default) allows — forwarded to the
 *            other port — or denies — the frame goes back to the pool
 *
 * Each forwarding queue (a queue id of both ports, its own UMEM) has its
 * own thread running fw_step() on it; another thread may replace the rule
 * set at any time with fw_install() and read every counter. All queues
 * judge with the one installed set.
 *
 * The reload guarantee, across queues: fw_install() publishes the new set
 * with a single pointer store that every queue reads before each batch, so
 *   - each batch is judged by one set, whole;
 *   - a batch any queue starts after fw_install() returned is judged by the
 *     new set (a batch already under way finishes with the old one);
 *   - no queue ever goes back to an older set;
 *   - fw_adopted() turns true only once every queue has judged with the
 *     new set (or is about to): only then are the old set's counters final
 *     and may it be freed.
 * Stage 1 switches in the ports' XDP programs, which all queues share.
 */
#ifndef XSKX_FW_H
#define XSKX_FW_H

#include "fwd.h"
#include "rules.h"

/* Why stage 2 could not classify a packet (it got the default). */
enum fw_unclassified {
	FW_UNCLASSIFIED_NOT_IP = 0,
	FW_UNCLASSIFIED_FRAGMENT,
	FW_UNCLASSIFIED_TRUNCATED,
	FW_UNCLASSIFIED_MALFORMED,
	FW_UNCLASSIFIED_KINDS,
};

extern const char *const fw_unclassified_names[FW_UNCLASSIFIED_KINDS];

/* Stage 2's totals over every rule set; written by the queue's thread. */
struct fw_stage2 {
	struct fw_counter allowed;
	struct fw_counter denied;
	struct fw_counter unclassified[FW_UNCLASSIFIED_KINDS];
};

struct fw;

/* One forwarding queue, stepped by one thread. */
struct fw_queue {
	struct fwd_queue fwd;
	struct fw *fw;
	uint32_t row; /* its row of every set's hits: its index in fw->queues */
	/* The set this queue judges with; adopted says so (__atomic). */
	struct fw_ruleset *in_use;
	struct fw_ruleset *adopted;
	struct fw_stage2 stage2;
	/* what stage 2 denies is copied here with its rule, or NULL */
	struct capture_ring *drops;
};

struct fw {
	struct fw_queue *queues;
	uint32_t nqueues;
	/* The set last installed: the controlling thread's, freed by fw_close. */
	struct fw_ruleset *rules;
	/* Handed to every queue (__atomic). */
	struct fw_ruleset *published;
	/* Stage-1 drops of rule sets replaced since (controlling thread). */
	struct fw_counter stage1_retired;
	struct xskx_filter_entry *entries; /* scratch for fw_rules_split */
	/*
	 * false when the backend has no XDP deny list (xskx_filter_set says
	 * -EOPNOTSUPP), or with a drops capture: every rule then runs in
	 * stage 2 alone.
	 */
	bool xdp_stage;
	bool capture_drops; /* cfg->drops was given */
};

/*
 * Open nqueues (1..FWD_MAX_QUEUES) forwarding queues on cfg's ports, queue
 * ids cfg->queue_id.. (cfg->filter is set here), and install rules in both
 * stages. With cfg->drops (a writer with a ring per queue), every rule runs
 * in stage 2, so that each packet denied reaches user space and is copied
 * to the writer with its rule ("line N: RULE", or the default and why) as
 * its comment; fw owns rules from then on, even on failure. Returns 0 or a
 * negative errno (xskx_last_error() says why); either way fw_close()
 * undoes it.
 */
int fw_open(struct fw *fw, const struct fwd_config *cfg, uint32_t nqueues,
	    struct fw_ruleset *rules);

/*
 * On queue q's thread: adopt a newly installed rule set if there is one,
 * then one fwd_step().
 */
int fw_step(struct fw_queue *q);

/*
 * Replace the rule set: the XDP programs' deny lists (xskx_filter_set, on
 * each port: a packet meets the old list or the new one), then the
 * user-space set, which every queue adopts before its next batch.
 * On success fw owns rules and *old is the previous set, to be freed by the
 * caller once fw_adopted() says so. On failure nothing changed (the lists
 * already replaced are put back) and the caller keeps rules.
 */
int fw_install(struct fw *fw, struct fw_ruleset *rules,
	       struct fw_ruleset **old);

/* Every queue judges with the set fw_install() installed last. */
bool fw_adopted(const struct fw *fw);

/*
 * Rule i of rs (i == rs->count: the default): what stage 1 dropped (summed
 * over the ports, from rs's install to its replacement: final once
 * fw_install() replaced it) and what stage 2 matched (final once
 * fw_adopted() says every queue moved on, or they stopped), each summed over the queues. Summed
 * over every set, each packet either stage judged counts once.
 */
void fw_rule_counts(const struct fw *fw, const struct fw_ruleset *rs,
		    uint32_t i, struct fw_counter *stage1,
		    struct fw_counter *stage2);

/* Stage 1's drops, over every rule set so far. */
void fw_stage1_total(const struct fw *fw, struct fw_counter *total);

/* Stage 2's totals, summed over the queues. */
void fw_stage2_read(const struct fw *fw, struct fw_stage2 *s);

/* fwd_finish() on every queue, once their threads have stopped. */
void fw_finish(struct fw *fw);

/*
 * Give back held packets (fw_finish), close every queue's sockets (the
 * last detaches the XDP program) and free the rule set. Returns 0 or the
 * first negative errno.
 */
int fw_close(struct fw *fw);

#endif /* XSKX_FW_H */
