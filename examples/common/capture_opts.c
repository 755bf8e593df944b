// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The programs' capture flags (capture_opts.h). */
#include <string.h>

#include "capture_opts.h"
#include "cli.h"

static bool parse_pace(const char *arg, struct capture_opts *c)
{
	c->paced = true;
	if (!strcmp(arg, "asap")) {
		c->timing = XSKX_SIM_CAPTURE_ASAP;
		return true;
	}
	if (!strcmp(arg, "recorded")) {
		c->timing = XSKX_SIM_CAPTURE_RECORDED;
		return true;
	}
	if (arg[0] < '0' || arg[0] > '9')
		return cli_bad("--pcap-pace", arg,
			       "asap, recorded or frames a second");
	c->timing = XSKX_SIM_CAPTURE_RATE;
	return cli_parse_u64("--pcap-pace", arg, 1, 1000000000, &c->rate_pps);
}

bool capture_opts_parse(uint32_t k, const char *arg, struct capture_opts *c)
{
	switch (k) {
	case 0:
		c->in = arg;
		return true;
	case 1:
		c->out = arg;
		return true;
	case 2:
		return parse_pace(arg, c);
	case 4:
		c->writer_shaped = true;
		return cli_parse_u32("--pcap-snaplen", arg, 64,
				     CAPTURE_MAX_SNAPLEN, &c->snaplen);
	case 5:
		c->writer_shaped = true;
		return cli_parse_u32("--pcap-queue", arg, 1, CAPTURE_MAX_SLOTS,
				     &c->slots);
	default:
		c->looped = true;
		return cli_parse_u64("--pcap-loops", arg, 0, UINT64_MAX,
				     &c->loops);
	}
}

const char *capture_opts_misplaced(const struct capture_opts *c)
{
	if (!c->in && (c->paced || c->looped))
		return "--pcap-pace and --pcap-loops shape --pcap-in's replay";
	return NULL;
}
