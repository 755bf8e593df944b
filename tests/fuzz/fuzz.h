/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the fuzz targets share: the libFuzzer entry point they define, a
 * check that aborts (libFuzzer and the replay driver report an abort as a
 * crash and keep the input), and a reader that takes fuzz bytes in order and
 * gives zeros once they run out.
 */
#ifndef XSKX_FUZZ_H
#define XSKX_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The property failed: say which and where, then crash. */
#define FUZZ_CHECK(cond, ...)                                                 \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, \
				__LINE__, #cond);                              \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			abort();                                               \
		}                                                             \
	} while (0)

struct fuzz_in {
	const uint8_t *data;
	size_t size, pos;
};

static inline uint64_t fuzz_bytes(struct fuzz_in *in, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++) {
		v <<= 8;
		if (in->pos < in->size)
			v |= in->data[in->pos++];
	}
	return v;
}

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	return (uint8_t)fuzz_bytes(in, 1);
}

static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
	return (uint16_t)fuzz_bytes(in, 2);
}

static inline uint32_t fuzz_u32(struct fuzz_in *in)
{
	return (uint32_t)fuzz_bytes(in, 4);
}

static inline uint64_t fuzz_u64(struct fuzz_in *in)
{
	return fuzz_bytes(in, 8);
}

static inline size_t fuzz_left(const struct fuzz_in *in)
{
	return in->pos < in->size ? in->size - in->pos : 0;
}

#endif /* XSKX_FUZZ_H */
