// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A run's capture writers (capture_run.h). */
#include <inttypes.h>
#include <stdio.h>

#include "capture_run.h"

static int open_one(struct capture_writer **w, const struct capture_opts *c,
		    const char *flag, const char *path,
		    enum capture_format format, uint32_t rings,
		    const char *program)
{
	const struct capture_writer_opts o = {
		.program = program,
		.flag = flag,
		.path = path,
		.format = format,
		.rings = rings,
		.slots = c->slots,
		.snaplen = c->snaplen,
	};

	return capture_writer_open(w, &o);
}

int capture_run_open(struct capture_run *r, const struct capture_opts *c,
		     bool write_out, uint32_t rings, const char *program)
{
	int err = 0;

	*r = (struct capture_run){ .out_used = write_out && c->out,
				   .drops_used = !!c->drops };
	if (r->out_used)
		err = open_one(&r->out, c, "--pcap-out", c->out, CAPTURE_PCAP,
			       rings, program);
	if (!err && r->drops_used)
		err = open_one(&r->drops, c, "--pcap-drops", c->drops,
			       CAPTURE_PCAPNG, rings, program);
	return err;
}

static int close_one(struct capture_writer **w, struct capture_writer_stats *s,
		     const char *flag, const char *path, const char *program)
{
	int err;

	if (!*w)
		return 0;
	err = capture_writer_close(*w, s);
	*w = NULL;
	fprintf(stderr,
		"%s: %s %s: wrote %" PRIu64 " frames; not written: %" PRIu64
		" (the queue was full), %" PRIu64 " (after a failed write)\n",
		program, flag, path, s->written, s->queue_full, s->unwritten);
	return err;
}

int capture_run_close(struct capture_run *r, const struct capture_opts *c,
		      const char *program)
{
	int err = close_one(&r->out, &r->out_stats, "--pcap-out", c->out,
			    program);
	int drops_err = close_one(&r->drops, &r->drops_stats, "--pcap-drops",
				  c->drops, program);

	return err ? err : drops_err;
}

static void json_one(struct json *j, const char *key, const char *path,
		     const struct capture_writer_stats *s)
{
	json_object(j, key);
	json_str(j, "path", path);
	json_u64(j, "written", s->written);
	json_u64(j, "queue_full", s->queue_full);
	json_u64(j, "unwritten", s->unwritten);
	json_object_end(j);
}

void capture_run_json(struct json *j, const struct capture_run *r,
		      const struct capture_opts *c)
{
	if (!r->out_used && !r->drops_used)
		return;
	json_object(j, "captures");
	json_u64(j, "snaplen", c->snaplen);
	json_u64(j, "queue", c->slots);
	if (r->out_used)
		json_one(j, "forwarded", c->out, &r->out_stats);
	if (r->drops_used)
		json_one(j, "drops", c->drops, &r->drops_stats);
	json_object_end(j);
}
