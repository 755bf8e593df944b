// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The capture writer: its thread and its file (capture_writer.h). */
#include <errno.h>
#include <pcap/pcap.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture_ring.h"
#include "pcapng.h"

/* How long the writer naps when every ring is empty. */
#define WRITER_NAP_NS 200000L

struct capture_writer {
	struct capture_writer_opts o;
	struct capture_ring *rings;
	uint32_t taken;
	pcap_t *dead;	       /* CAPTURE_PCAP: the dumper's link type */
	pcap_dumper_t *dumper; /* CAPTURE_PCAP */
	FILE *file;	       /* CAPTURE_PCAPNG */
	pthread_t thread;
	bool stop; /* __atomic: the producers have stopped, drain and go */
	/* the writer thread's, read by close once it joined */
	int error; /* the first failed write's */
	uint64_t written, unwritten;
};

static int report(const struct capture_writer *w, int err, const char *what)
{
	fprintf(stderr, "%s: %s %s: %s: %s\n", w->o.program, w->o.flag,
		w->o.path, what, strerror(-err));
	return err;
}

static int open_file(struct capture_writer *w)
{
	int err;

	errno = 0;
	if (w->o.format == CAPTURE_PCAPNG) {
		w->file = fopen(w->o.path, "wb");
		if (!w->file)
			return report(w, -errno, "cannot create it");
		err = pcapng_write_header(w->file, w->o.snaplen);
		return err ? report(w, err, "cannot write its header") : 0;
	}
	w->dead = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, (int)w->o.snaplen, PCAP_TSTAMP_PRECISION_NANO);
	if (!w->dead)
		return report(w, -ENOMEM, "libpcap");
	w->dumper = pcap_dump_open(w->dead, w->o.path);
	if (!w->dumper)
		return report(w, errno ? -errno : -EIO, "cannot create it");
	return 0;
}

static int write_slot(struct capture_writer *w, const struct capture_slot *s)
{
	struct pcap_pkthdr h;
	FILE *f;

	if (w->o.format == CAPTURE_PCAPNG)
		return pcapng_write_packet(w->file, s->ts_ns, s->data,
					   s->caplen, s->len, s->note);
	/* With nanosecond precision, the dumper reads tv_usec as nanoseconds. */
	h = (struct pcap_pkthdr){
		.ts = { .tv_sec = (time_t)(s->ts_ns / 1000000000u),
			.tv_usec = (suseconds_t)(s->ts_ns % 1000000000u) },
		.caplen = s->caplen,
		.len = s->len,
	};
	errno = 0;
	pcap_dump((u_char *)w->dumper, &h, s->data);
	f = pcap_dump_file(w->dumper);
	if (!ferror(f))
		return 0;
	return errno ? -errno : -EIO;
}

/*
 * Write (or, after a failure, count) what ring r holds, freeing each slot
 * as soon as it is written so that the producer can reuse it. Returns the
 * frames taken.
 */
static uint32_t drain(struct capture_writer *w, struct capture_ring *r)
{
	/* Acquire: pairs with the producer's release of prod. */
	uint32_t prod = __atomic_load_n(&r->prod, __ATOMIC_ACQUIRE);
	uint32_t cons = r->cons, n = prod - cons;

	for (; cons != prod; cons++) {
		int err = w->error ? 0 :
				     write_slot(w, capture_ring_slot(r, cons));

		if (err) {
			w->error = err;
			report(w, err,
			       "a write failed; frames from now on are counted, not written");
		}
		if (w->error)
			w->unwritten++;
		else
			w->written++;
		/* Release: pairs with the producer's acquire of cons. */
		__atomic_store_n(&r->cons, cons + 1, __ATOMIC_RELEASE);
	}
	return n;
}

static void *writer_main(void *arg)
{
	struct capture_writer *w = arg;

	for (;;) {
		/* Read before the pass: a stop seen means every put is visible. */
		bool stopping = __atomic_load_n(&w->stop, __ATOMIC_ACQUIRE);
		uint64_t moved = 0;

		for (uint32_t k = 0; k < w->o.rings; k++)
			moved += drain(w, &w->rings[k]);
		if (moved)
			continue;
		if (stopping)
			return NULL;
		nanosleep(&(struct timespec){ .tv_nsec = WRITER_NAP_NS }, NULL);
	}
}

static int make_rings(struct capture_writer *w)
{
	/* A slot's header and data, rounded to a cache line. */
	uint64_t stride = (sizeof(struct capture_slot) + w->o.snaplen + 63) &
			  ~(uint64_t)63;

	w->rings = calloc(w->o.rings, sizeof(*w->rings));
	if (!w->rings)
		return report(w, -ENOMEM, "its queues");
	for (uint32_t k = 0; k < w->o.rings; k++) {
		struct capture_ring *r = &w->rings[k];

		r->nslots = w->o.slots;
		r->stride = (uint32_t)stride;
		r->snaplen = w->o.snaplen;
		r->slots = malloc(stride * w->o.slots);
		if (!r->slots)
			return report(w, -ENOMEM, "its queues");
	}
	return 0;
}

static void free_writer(struct capture_writer *w)
{
	for (uint32_t k = 0; w->rings && k < w->o.rings; k++)
		free(w->rings[k].slots);
	free(w->rings);
	free(w);
}

/* Flush and close the file: 0, or the error of a write or of the close. */
static int close_file(struct capture_writer *w)
{
	int err = 0;

	errno = 0;
	if (w->dumper) {
		FILE *f = pcap_dump_file(w->dumper);

		if (pcap_dump_flush(w->dumper) || ferror(f))
			err = errno ? -errno : -EIO;
		pcap_dump_close(w->dumper);
	} else if (w->file && fclose(w->file)) {
		err = errno ? -errno : -EIO;
	}
	if (w->dead)
		pcap_close(w->dead);
	return err;
}

int capture_writer_open(struct capture_writer **wp,
			const struct capture_writer_opts *o)
{
	struct capture_writer *w = calloc(1, sizeof(*w));
	int err;

	*wp = NULL;
	if (!w)
		return -ENOMEM;
	w->o = *o;
	err = make_rings(w);
	if (!err)
		err = open_file(w);
	if (!err && (err = -pthread_create(&w->thread, NULL, writer_main, w)))
		report(w, err, "cannot start its writer thread");
	if (err) {
		close_file(w);
		free_writer(w);
		return err;
	}
	*wp = w;
	return 0;
}

struct capture_ring *capture_writer_take_ring(struct capture_writer *w)
{
	return w->taken < w->o.rings ? &w->rings[w->taken++] : NULL;
}

int capture_writer_close(struct capture_writer *w,
			 struct capture_writer_stats *s)
{
	int err, close_err;

	/* Release: pairs with the writer's acquire; the puts happened before. */
	__atomic_store_n(&w->stop, true, __ATOMIC_RELEASE);
	pthread_join(w->thread, NULL);
	err = w->error;
	close_err = close_file(w);
	if (close_err && !err)
		err = report(w, close_err,
			     "flushing it failed: the file is incomplete");
	if (s) {
		*s = (struct capture_writer_stats){ .written = w->written,
						    .unwritten = w->unwritten };
		for (uint32_t k = 0; k < w->o.rings; k++)
			s->queue_full += __atomic_load_n(
				&w->rings[k].queue_full, __ATOMIC_RELAXED);
	}
	free_writer(w);
	return err;
}
