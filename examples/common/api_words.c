// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The library's words for its options, in each program's flags (api_words.h). */
#include <stdio.h>
#include <string.h>

#include "api_words.h"

struct api_phrase {
	const char *api; /* as the library's messages write it */
	/* each program's words for it; NULL: leave the phrase as it is */
	const char *program[API_WORDS_PROGRAMS];
};

/* clang-format off */
static const struct api_phrase phrases[] = {
	{ "use copy_mode XSKX_COPY_AUTO or XSKX_COPY_FORCE",
	  { [API_WORDS_BENCH] = "leave out -z (zero-copy where there is one), or use -c (copy mode)" } },
	{ "open with xdp_mode XSKX_XDP_GENERIC, or set xdp_fallback",
	  { [API_WORDS_BENCH] = "use -S (generic XDP), or leave out -N (native, generic where it fails)",
	    [API_WORDS_L2FWD] = "use -S (generic XDP)",
	    [API_WORDS_FW] = "use -S (generic XDP)" } },
	{ "use XSKX_SOCKET_MULTI_BUFFER, or lower the MTU",
	  { [API_WORDS_BENCH] = "use -F (multi-buffer), or lower the MTU",
	    [API_WORDS_L2FWD] = "use -F (multi-buffer), or lower the MTU",
	    [API_WORDS_FW] = "use -F (multi-buffer), or lower the MTU" } },
	{ "(or set XSKX_UMEM_UNALIGNED)",
	  { [API_WORDS_BENCH] = "(or use -u, unaligned chunks)" } },
	{ "or create the UMEM without XSKX_UMEM_HUGEPAGES",
	  { [API_WORDS_BENCH] = "or leave out --hugepages" } },
	{ "create the UMEM with at least",
	  { [API_WORDS_BENCH] = "raise --frames to at least",
	    [API_WORDS_L2FWD] = "raise -f (--frames) to at least",
	    [API_WORDS_FW] = "raise -f (--frames) to at least" } },
	{ "frame_size",
	  { [API_WORDS_BENCH] = "-f (--frame-size)" } },
	{ "create the UMEM with tx_metadata_len 0",
	  { [API_WORDS_BENCH] = "leave out --tx-checksum" } },
	{ "leave the flag out and let the device compute checksums",
	  { [API_WORDS_BENCH] = "leave out --tx-checksum" } },
	{ "tx_kick_batch",
	  { [API_WORDS_BENCH] = "--tx-kick-batch",
	    [API_WORDS_L2FWD] = "--tx-kick-batch",
	    [API_WORDS_FW] = "--tx-kick-batch" } },
	{ "tx_kick_usec",
	  { [API_WORDS_BENCH] = "--tx-kick-usec",
	    [API_WORDS_L2FWD] = "--tx-kick-usec",
	    [API_WORDS_FW] = "--tx-kick-usec" } },
	{ "(tx_size)",
	  { [API_WORDS_BENCH] = "(--tx-size)",
	    [API_WORDS_L2FWD] = "(the library's default)",
	    [API_WORDS_FW] = "(the library's default)" } },
};
/* clang-format on */

static enum api_words_program words_of = API_WORDS_BENCH;

void api_words_use(enum api_words_program program)
{
	words_of = program;
}

/* The phrase of the table that starts at s, or NULL. */
static const struct api_phrase *phrase_at(const char *s)
{
	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
		if (phrases[i].program[words_of] &&
		    !strncmp(s, phrases[i].api, strlen(phrases[i].api)))
			return &phrases[i];
	return NULL;
}

const char *api_words_translate(const char *msg, char *buf, size_t size)
{
	size_t len = 0;

	while (*msg && len + 1 < size) {
		const struct api_phrase *p = phrase_at(msg);

		if (p) {
			len += (size_t)snprintf(buf + len, size - len, "%s",
						p->program[words_of]);
			msg += strlen(p->api);
		} else {
			buf[len++] = *msg++;
		}
	}
	buf[len < size ? len : size - 1] = '\0';
	return buf;
}
