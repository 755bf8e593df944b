/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The JSON the example programs print (--json, --json-lines): one writer,
 * so that every string is escaped alike and every object says which
 * program and which library wrote it.
 *
 * A document is one top-level object on one line:
 *
 *   {"program": "xskx-bench", "xskx_version": "0.1.0", "record": "summary", ...}
 *
 * Strings are escaped per RFC 8259: '"' and '\\' with a backslash, every
 * control character (below 0x20, and 0x7f) as \u00XX; valid UTF-8 passes
 * as it is and a byte that is not part of any becomes U+FFFD, so that
 * whatever bytes an interface or file name holds, the output parses.
 */
#ifndef XSKX_EXAMPLES_JSON_H
#define XSKX_EXAMPLES_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json {
	FILE *f;
	bool first; /* no member yet in the innermost object or array */
};

/*
 * Open the top-level object on f with its header: "program" (the
 * program's name), "xskx_version" (xskx_version()) and "record" (what the
 * object is: "summary", "interval", ...).
 */
void json_begin(struct json *j, FILE *f, const char *program,
		const char *record);
/* Close the top-level object, end the line and flush. */
void json_end(struct json *j);

/*
 * Members. key NULL: an element of an array (or the value after
 * json_key()). Objects and arrays nest to any depth.
 */
void json_key(struct json *j, const char *key);
void json_object(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
/* A number with `decimals` digits after the point (not finite: null). */
void json_num(struct json *j, const char *key, double v, int decimals);
void json_str(struct json *j, const char *key, const char *v);
void json_bool(struct json *j, const char *key, bool v);

/* Write s as a JSON string, quotes included. */
void json_write_string(FILE *f, const char *s);

#endif /* XSKX_EXAMPLES_JSON_H */
