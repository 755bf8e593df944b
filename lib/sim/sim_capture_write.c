// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A port's capture file: what it transmits, written as pcap with libpcap's
 * dumper (nanosecond timestamps, link type Ethernet), inside the NIC's work
 * like the sink callback, under the machine lock.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "sim_capture_write.h"
#include "sim_internal.h"
#include "sim_lock.h"

/* libpcap's largest snapshot length: no frame a port sends is cut. */
#define CAPTURE_SNAPLEN 262144

struct sim_capture_out {
	pcap_t *dead; /* no device: the dumper's link type and precision */
	pcap_dumper_t *dumper;
	char *path;
	enum xskx_sim_capture_clock clock;
	bool stack;
};

static void capture_out_free(struct sim_capture_out *c)
{
	if (c->dead)
		pcap_close(c->dead);
	free(c->path);
	free(c);
}

static int check_opts(const struct xskx_sim_port *port,
		      const struct xskx_sim_capture_opts *o)
{
	if (!o->path)
		return xskx__fail(-EINVAL,
				  "port %s: capture: path names no file",
				  port->name);
	if (o->clock != XSKX_SIM_CAPTURE_CLOCK_REALTIME &&
	    o->clock != XSKX_SIM_CAPTURE_CLOCK_COUNT)
		return xskx__fail(-EINVAL,
				  "port %s: capture %s: clock %d is unknown",
				  port->name, o->path, (int)o->clock);
	if (port->peer)
		return xskx__fail(
			-EINVAL,
			"port %s: capture %s: the port has a wire, its frames go to port %s; capture on a port without one",
			port->name, o->path, port->peer->name);
	if (port->capture)
		return xskx__fail(
			-EINVAL,
			"port %s: capture %s: the port writes to %s already; close it first (xskx_sim_port_capture_close)",
			port->name, o->path, port->capture->path);
	return 0;
}

static int capture_out_open(struct sim_capture_out *c, const char *port_name)
{
	int err;

	c->dead = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, CAPTURE_SNAPLEN, PCAP_TSTAMP_PRECISION_NANO);
	if (!c->dead)
		return -ENOMEM;
	errno = 0;
	c->dumper = pcap_dump_open(c->dead, c->path);
	if (c->dumper)
		return 0;
	err = errno ? -errno : -EIO;
	return xskx__fail(err, "port %s: capture %s: %s", port_name, c->path,
			  pcap_geterr(c->dead));
}

XSKX_API int
xskx_sim_port_capture_open(struct xskx_sim_port *port,
			   const struct xskx_sim_capture_opts *opts)
{
	struct xskx_sim_capture_opts o;
	struct sim_capture_out *c;
	int err;

	if (!port)
		return xskx__fail(-EINVAL,
				  "xskx_sim_port_capture_open: port is NULL");
	err = XSKX_OPTS_COPY(&o, opts, xskx_sim_capture_opts);
	if (err)
		return err;
	xskx__sim_lock(port->sim);
	err = check_opts(port, &o);
	xskx__sim_unlock(port->sim);
	if (err)
		return err;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->path = strdup(o.path);
	c->clock = o.clock;
	c->stack = o.stack;
	err = c->path ? capture_out_open(c, port->name) : -ENOMEM;
	if (err) {
		capture_out_free(c);
		return err;
	}
	xskx__sim_lock(port->sim);
	/* Checked again: another thread may have opened one meanwhile. */
	err = check_opts(port, &o);
	if (!err)
		port->capture = c;
	xskx__sim_unlock(port->sim);
	if (err) {
		pcap_dump_close(c->dumper);
		capture_out_free(c);
	}
	return err;
}

static struct timeval stamp(const struct sim_capture_out *c, uint64_t k)
{
	struct timespec now;

	/* With nanosecond precision, the dumper reads tv_usec as nanoseconds. */
	if (c->clock == XSKX_SIM_CAPTURE_CLOCK_COUNT)
		return (struct timeval){ .tv_sec = (time_t)(k / 1000000),
					 .tv_usec = (suseconds_t)(k % 1000000 *
								  1000) };
	clock_gettime(CLOCK_REALTIME, &now);
	return (struct timeval){ .tv_sec = now.tv_sec,
				 .tv_usec = (suseconds_t)now.tv_nsec };
}

void xskx__sim_capture_write(struct xskx_sim_port *port,
			     enum xskx_sim_sink_kind kind, const uint8_t *data,
			     uint32_t len)
{
	struct sim_capture_out *c = port->capture;
	struct pcap_pkthdr h;

	if (!c || (kind == XSKX_SIM_SINK_STACK && !c->stack))
		return;
	h = (struct pcap_pkthdr){
		.ts = stamp(c, sim_counter(&port->stats.capture_frames)),
		.caplen = len,
		.len = len,
	};
	pcap_dump((u_char *)c->dumper, &h, data);
	sim_count(&port->stats.capture_frames, 1);
}

/* Flush and close c's file: 0, or -EIO when a write failed. */
static int capture_out_close(struct sim_capture_out *c, const char *port_name)
{
	FILE *f = pcap_dump_file(c->dumper);
	bool failed = pcap_dump_flush(c->dumper) || ferror(f);

	pcap_dump_close(c->dumper);
	if (failed)
		return xskx__fail(
			-EIO,
			"port %s: capture %s: a write failed (disk full?): the file is incomplete",
			port_name, c->path);
	return 0;
}

XSKX_API int xskx_sim_port_capture_close(struct xskx_sim_port *port)
{
	struct sim_capture_out *c;
	int err;

	if (!port)
		return xskx__fail(-EINVAL,
				  "xskx_sim_port_capture_close: port is NULL");
	xskx__sim_lock(port->sim);
	c = port->capture;
	port->capture = NULL;
	xskx__sim_unlock(port->sim);
	if (!c)
		return xskx__fail(-ENOENT, "port %s: no capture is open",
				  port->name);
	err = capture_out_close(c, port->name);
	capture_out_free(c);
	return err;
}

void xskx__sim_capture_drop(struct xskx_sim_port *port)
{
	if (!port->capture)
		return;
	capture_out_close(port->capture, port->name);
	capture_out_free(port->capture);
	port->capture = NULL;
}
