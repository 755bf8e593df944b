/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The library's messages name the API's options ("use
 * XSKX_SOCKET_MULTI_BUFFER"); a program's user knows its flags. One table
 * says, for each such phrase, what each program's command line calls it,
 * and the programs' messages (run.c) pass through it.
 */
#ifndef XSKX_EXAMPLES_API_WORDS_H
#define XSKX_EXAMPLES_API_WORDS_H

#include <stddef.h>

enum api_words_program {
	API_WORDS_BENCH,
	API_WORDS_L2FWD,
	API_WORDS_FW,
	API_WORDS_PROGRAMS,
};

/* Which program's flags the messages use (once, at start). */
void api_words_use(enum api_words_program program);

/*
 * msg with each phrase of the table replaced by the program's words, into
 * buf (cut short to size); returns buf.
 */
const char *api_words_translate(const char *msg, char *buf, size_t size);

#endif /* XSKX_EXAMPLES_API_WORDS_H */
