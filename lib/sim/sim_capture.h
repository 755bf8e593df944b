/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Captures on the simulated NIC: a capture file read whole into memory
 * (sim_capture_read.c, with libpcap), replayed by a traffic source
 * (sim_source.c), and the file a port's transmitted frames are written to
 * (sim_capture_write.c).
 */
#ifndef XSKX_SIM_CAPTURE_H
#define XSKX_SIM_CAPTURE_H

#include <stdint.h>
#include <xskx-sim/sim.h>

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

/* Add a source replaying cap (taken over, freed with the source). */
int xskx__sim_source_add_capture(struct xskx_sim_port *port,
				 struct sim_capture *cap,
				 const struct xskx_sim_capture_source_opts *o);

/* sim_capture_write.c: the port's capture file, if open, takes a frame. */
void xskx__sim_capture_write(struct xskx_sim_port *port,
			     enum xskx_sim_sink_kind kind, const uint8_t *data,
			     uint32_t len);
/* Close the port's capture file, if open, at destroy: a failure is logged. */
void xskx__sim_capture_drop(struct xskx_sim_port *port);

#endif /* XSKX_SIM_CAPTURE_H */
