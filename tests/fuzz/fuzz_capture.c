// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The capture reader (xskx_sim_port_add_capture_source(), libpcap beneath
 * it): the input is a whole capture file, handed over by path (a memfd).
 * Whatever the bytes, the call returns 0 or a negative errno and never
 * crashes; a capture it accepts is replayed through a port whose hook sends
 * every frame back out (XDP_TX) to the port's capture, and every frame
 * arrives within the port's limits and is written: source_packets, xdp_tx
 * and capture_frames agree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "fuzz.h"

#define FUZZ_MTU 1500
#define FUZZ_MAX_FRAME (FUZZ_MTU + 22)
#define FUZZ_POLLS 100000

static void quiet(enum xskx_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

static enum xskx_xdp_verdict send_back(uint8_t *data, uint32_t len,
				       uint32_t queue, void *ctx)
{
	(void)data;
	(void)queue;
	(void)ctx;
	FUZZ_CHECK(len >= 14 && len <= FUZZ_MAX_FRAME, "a %u-byte frame", len);
	return XSKX_XDP_TX;
}

/* A memfd holding the bytes, and its path in /proc/self/fd. */
static int memfd_with(const uint8_t *data, size_t size, char *path)
{
	int fd = memfd_create("fuzz-capture", 0);

	FUZZ_CHECK(fd >= 0, "memfd_create: %d", errno);
	FUZZ_CHECK(write(fd, data, size) == (ssize_t)size, "short write");
	snprintf(path, 64, "/proc/self/fd/%d", fd);
	return fd;
}

static void replay(struct xskx_sim *sim, struct xskx_sim_port *port)
{
	struct xskx_sim_port_stats st;

	for (int i = 0; i < FUZZ_POLLS && xskx_sim_sources_active(sim); i++)
		FUZZ_CHECK(xskx_sim_poll(sim) >= 0, "poll failed");
	FUZZ_CHECK(!xskx_sim_sources_active(sim), "the replay did not end");
	FUZZ_CHECK(!xskx_sim_port_stats(port, &st), "stats");
	FUZZ_CHECK(st.source_packets > 0, "an accepted capture sent nothing");
	FUZZ_CHECK(st.xdp_tx == st.source_packets &&
			   st.capture_frames == st.source_packets,
		   "%llu sent, %llu sent back, %llu written",
		   (unsigned long long)st.source_packets,
		   (unsigned long long)st.xdp_tx,
		   (unsigned long long)st.capture_frames);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .mtu = FUZZ_MTU);
	char in[64], out[64];
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = in);
	XSKX_OPTS(xskx_sim_capture_opts, cap, .path = out,
		  .clock = XSKX_SIM_CAPTURE_CLOCK_COUNT);
	struct xskx_sim_port *port;
	struct xskx_sim *sim;
	int in_fd, out_fd, err;

	xskx_set_log(quiet, NULL);
	in_fd = memfd_with(data, size, in);
	out_fd = memfd_with(NULL, 0, out);
	FUZZ_CHECK(!xskx_sim_create(&sim, &sim_opts), "sim");
	FUZZ_CHECK(!xskx_sim_port_create(sim, &port_opts, &port), "port");
	FUZZ_CHECK(!xskx_sim_port_set_xdp(port, send_back, NULL), "hook");
	err = xskx_sim_port_add_capture_source(port, &src);
	FUZZ_CHECK(err == 0 || err == -EINVAL || err == -EMSGSIZE ||
			   err == -ENOMEM || err == -EFBIG,
		   "returned %d", err);
	if (!err) {
		FUZZ_CHECK(!xskx_sim_port_capture_open(port, &cap), "capture");
		replay(sim, port);
		FUZZ_CHECK(!xskx_sim_port_capture_close(port), "close");
	}
	FUZZ_CHECK(!xskx_sim_destroy(sim), "destroy");
	close(in_fd);
	close(out_fd);
	return 0;
}
