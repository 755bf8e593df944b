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
 * One thread runs fw_step(); another may replace the rule set at any time
 * with fw_install() and read every counter. The stepping thread adopts a
 * new set between bursts: each burst is judged by one set, whole.
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

/* Stage 2's totals over every rule set; written by the stepping thread. */
struct fw_stage2 {
	struct fw_counter allowed;
	struct fw_counter denied;
	struct fw_counter unclassified[FW_UNCLASSIFIED_KINDS];
};

struct fw {
	struct fwd_queue fwd;
	/* The set last installed: the controlling thread's, freed by fw_close. */
	struct fw_ruleset *rules;
	/* Handed to the stepping thread (__atomic) ... */
	struct fw_ruleset *published;
	/* ... which judges with this one and says so in adopted (__atomic). */
	struct fw_ruleset *in_use;
	struct fw_ruleset *adopted;
	struct fw_stage2 stage2;
	/* Stage-1 drops of rule sets replaced since (controlling thread). */
	struct fw_counter stage1_retired;
	struct xskx_filter_entry *entries; /* scratch for fw_rules_split */
	/*
	 * false when the backend has no XDP deny list (xskx_filter_set says
	 * -EOPNOTSUPP): every rule then runs in stage 2 alone.
	 */
	bool xdp_stage;
};

/*
 * Open the forwarding core on cfg's ports (cfg->filter is set here) and
 * install rules in both stages; fw owns rules from then on, even on
 * failure. Returns 0 or a negative errno (xskx_last_error() says why);
 * either way fw_close() undoes it.
 */
int fw_open(struct fw *fw, const struct fwd_config *cfg,
	    struct fw_ruleset *rules);

/* Adopt a newly installed rule set if there is one, then one fwd_step(). */
int fw_step(struct fw *fw);

/*
 * Replace the rule set: the XDP programs' deny lists (xskx_filter_set, on
 * each port: a packet meets the old list or the new one), then the
 * user-space set, which the stepping thread adopts before its next burst.
 * On success fw owns rules and *old is the previous set, to be freed by the
 * caller once fw_adopted() says so. On failure nothing changed (the lists
 * already replaced are put back) and the caller keeps rules.
 */
int fw_install(struct fw *fw, struct fw_ruleset *rules,
	       struct fw_ruleset **old);

/* The stepping thread judges with the set fw_install() installed last. */
bool fw_adopted(const struct fw *fw);

/*
 * Rule i of rs (i == rs->count: the default): what stage 1 dropped (summed
 * over the ports, from rs's install to its replacement: final once
 * fw_install() replaced it) and what stage 2 matched (final once
 * fw_adopted() says the stepping thread moved on, or it stopped). Summed
 * over every set, each packet either stage judged counts once.
 */
void fw_rule_counts(const struct fw *fw, const struct fw_ruleset *rs,
		    uint32_t i, struct fw_counter *stage1,
		    struct fw_counter *stage2);

/* Stage 1's drops, over every rule set so far. */
void fw_stage1_total(const struct fw *fw, struct fw_counter *total);

void fw_stage2_read(const struct fw *fw, struct fw_stage2 *s);

/*
 * Give back held packets (fwd_finish), close the ports (detaching the XDP
 * program) and free the rule set. Returns 0 or the first negative errno.
 */
int fw_close(struct fw *fw);

#endif /* XSKX_FW_H */
