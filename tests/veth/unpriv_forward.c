// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "unpriv_forward.h"

#define BURST 64

void peer_fail(const char *what, int err)
{
	fprintf(stderr, "%s: %s: %d (%s)\n", program_invocation_short_name,
		what, err, xskx_last_error());
	exit(1);
}

void peer_expect_refused(const char *what, int err, int want, const char *word)
{
	if (err != want || !strstr(xskx_last_error(), word)) {
		fprintf(stderr, "%s: %s: %d, wanted %d naming '%s' (%s)\n",
			program_invocation_short_name, what, err, want, word,
			xskx_last_error());
		exit(1);
	}
}

void peer_check_credentials(const char *capeff)
{
	char line[128], eff[32] = "";
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		peer_fail("/proc/self/status", -errno);
	while (fgets(line, sizeof(line), f))
		sscanf(line, "CapEff: %31s", eff);
	fclose(f);
	if (getuid() == 0 || geteuid() == 0 || strcmp(eff, capeff)) {
		fprintf(stderr,
			"%s: uid %u, CapEff %s, wanted %s: not dropped\n",
			program_invocation_short_name, (unsigned)geteuid(), eff,
			capeff);
		exit(1);
	}
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void say_where_they_went(struct xskx_socket *sock,
				struct xskx_umem *umem, uint32_t done,
				uint32_t count)
{
	struct xskx_socket_info info = { 0 };
	struct xskx_frame_census c;
	struct xskx_stats st;

	xskx_socket_info(sock, &info);
	xskx_socket_stats(sock, &st);
	xskx_umem_census(umem, &c);
	fprintf(stderr,
		"%s: queue %u: %u of %u; rx_dropped %llu fill_empty %llu ring_full %llu invalid %llu; pool %u fill %u nic %u\n",
		program_invocation_short_name, info.queue_id, done, count,
		(unsigned long long)st.rx_dropped,
		(unsigned long long)st.rx_fill_ring_empty_descs,
		(unsigned long long)st.rx_ring_full,
		(unsigned long long)st.rx_invalid_descs, c.pool, c.fill, c.nic);
}

/* TX completes on later calls: reclaim until no frame is out, ~1 s. */
static void wait_tx_completed(struct xskx_socket *sock, struct xskx_umem *umem)
{
	for (int i = 0; i < 1000 && xskx_tx_reclaim(sock) >= 0; i++) {
		struct xskx_frame_census c;

		xskx_umem_census(umem, &c);
		if (!c.tx && !c.comp)
			break;
		usleep(1000);
	}
}

uint32_t peer_forward(struct xskx_socket *sock, struct xskx_umem *umem,
		      uint32_t count, int ms, peer_rx_check check, void *ctx)
{
	uint64_t deadline = now_ms() + (uint64_t)ms;
	struct xskx_pkt pkts[BURST];
	uint32_t done = 0;

	while (done < count && now_ms() < deadline) {
		int n = xskx_rx_burst(sock, pkts, BURST);

		if (n < 0)
			peer_fail("rx", n);
		if (check)
			check(pkts, n, ctx);
		for (int sent = 0; sent < n;) {
			int t = xskx_tx_burst(sock, pkts + sent,
					      (uint32_t)(n - sent));

			if (t < 0)
				peer_fail("tx", t);
			sent += t;
			if (sent < n && now_ms() >= deadline)
				peer_fail("tx: no room in time", -ETIMEDOUT);
		}
		done += (uint32_t)n;
		if (!n)
			xskx_socket_poll(sock, POLLIN, 10);
	}
	if (done < count)
		say_where_they_went(sock, umem, done, count);
	wait_tx_completed(sock, umem);
	return done;
}
