/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A run's capture writers (capture_writer.h), as xskx-l2fwd and xskx-fw
 * open, close and report them: --pcap-out on interfaces (pcap, what the
 * queues forward) and xskx-fw's --pcap-drops (pcapng, what stage 2 denies,
 * each frame with its rule as a comment).
 */
#ifndef XSKX_EXAMPLES_CAPTURE_RUN_H
#define XSKX_EXAMPLES_CAPTURE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "capture_opts.h"
#include "capture_writer.h"
#include "json.h"

struct capture_run {
	struct capture_writer *out, *drops; /* open, or NULL */
	bool out_used, drops_used; /* opened once: stats final at close */
	struct capture_writer_stats out_stats, drops_stats;
};

/*
 * Open the writers c asks for, a ring for each of `rings` queues: out when
 * write_out (on interfaces; --sim's --pcap-out is the simulated NIC's),
 * drops when c->drops. Returns 0, or a negative errno with the message
 * printed (what was opened stays for capture_run_close).
 */
int capture_run_open(struct capture_run *r, const struct capture_opts *c,
		     bool write_out, uint32_t rings, const char *program);

/*
 * Once the queues' threads stopped: write what is queued, close the files
 * and print what each holds on stderr. Returns 0, or the first negative
 * errno (the message named the file). Safe on writers never opened.
 */
int capture_run_close(struct capture_run *r, const struct capture_opts *c,
		      const char *program);

/* The summary's "captures" member: each writer's file and counts. */
void capture_run_json(struct json *j, const struct capture_run *r,
		      const struct capture_opts *c);

#endif /* XSKX_EXAMPLES_CAPTURE_RUN_H */
