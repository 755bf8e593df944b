// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* TEMPORARY: see tuning_env.h; the port object of issue 9 replaces it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log_internal.h"
#include "tuning_env.h"

bool xskx__env_kernel_features(void)
{
	const char *s = getenv("XSKX_KERNEL_FEATURES");

	return !s || strcmp(s, "0");
}

/* One NAME=VALUE item of XSKX_NAPI, len bytes at item. */
static int napi_item(const char *item, size_t len, struct xskx_napi_settings *s)
{
	static const char *const names[] = { "defer_hard_irqs",
					     "gro_flush_timeout",
					     "irq_suspend_timeout",
					     "threaded" };
	const char *eq = memchr(item, '=', len);
	unsigned long long value;
	char digits[24], *end;
	size_t name_len, i;

	name_len = eq ? (size_t)(eq - item) : len;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == name_len &&
		    !strncmp(item, names[i], name_len))
			break;
	if (!eq || i == sizeof(names) / sizeof(names[0]) ||
	    len - name_len - 1 == 0 || len - name_len - 1 >= sizeof(digits))
		goto bad;
	memcpy(digits, eq + 1, len - name_len - 1);
	digits[len - name_len - 1] = '\0';
	errno = 0;
	value = strtoull(digits, &end, 10);
	if (errno || *end || digits[0] == '-')
		goto bad;
	switch (i) {
	case 0:
		if (value > INT32_MAX)
			goto bad;
		s->defer_hard_irqs = (uint32_t)value;
		break;
	case 1:
		s->gro_flush_timeout_ns = value;
		break;
	case 2:
		s->irq_suspend_timeout_ns = value;
		break;
	default:
		if (value > 1)
			goto bad;
		s->threaded = (int)value;
	}
	return 0;
bad:
	return xskx__fail(
		-EINVAL,
		"XSKX_NAPI: '%.*s' is not one of defer_hard_irqs=N (up to 2^31-1), gro_flush_timeout=NS, irq_suspend_timeout=NS, threaded=0|1",
		(int)len, item);
}

int xskx__env_napi(struct xskx_napi_settings *s)
{
	const char *spec = getenv("XSKX_NAPI");

	if (!spec || !*spec || !xskx__env_kernel_features())
		return 0;
	*s = (struct xskx_napi_settings){ .threaded = -1 };
	while (*spec) {
		size_t len = strcspn(spec, ",");
		int err = napi_item(spec, len, s);

		if (err)
			return err;
		spec += len + (spec[len] == ',');
	}
	return 1;
}
