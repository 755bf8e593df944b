/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The run's two flags, set from signal handlers and read by every thread:
 * stop (SIGINT, SIGTERM, or a thread that failed) and reload (SIGHUP, for
 * programs that ask for it).
 */
#ifndef XSKX_EXAMPLES_SIGNALS_H
#define XSKX_EXAMPLES_SIGNALS_H

#include <stdbool.h>

/* SIGINT and SIGTERM request a stop; with reload, SIGHUP requests one. */
void signals_catch(bool reload);

void signals_request_stop(void);
bool signals_stop_requested(void);

/* A reload stays requested until the program says it is done. */
bool signals_reload_requested(void);
void signals_reload_done(void);

#endif /* XSKX_EXAMPLES_SIGNALS_H */
