/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A capture file read whole into memory (sim_capture_read.c, with
 * libpcap), for a traffic source to replay (sim_capture_source.c,
 * sim_source.c).
 */
#ifndef XSKX_SIM_CAPTURE_READ_H
#define XSKX_SIM_CAPTURE_READ_H

#include <stdint.h>

struct sim_capture_frame {
	uint64_t offset; /* of its bytes in sim_capture.bytes */
	uint32_t len;
	uint32_t queue; /* the replaying port's RSS queue for it */
	/* Since the first frame, never less than the frame before's. */
	uint64_t due_ns;
};

struct sim_capture {
	uint8_t *bytes;
	struct sim_capture_frame *frames;
	uint32_t nframes;
};

/*
 * Read every frame of the capture at path, each at most max_len bytes,
 * for port_name's source; on a failure the log names the file and the
 * frame, and *cap holds nothing.
 */
int xskx__sim_capture_read(const char *path, uint32_t max_len,
			   const char *port_name, struct sim_capture *cap);
void xskx__sim_capture_free(struct sim_capture *cap);

#endif /* XSKX_SIM_CAPTURE_READ_H */
