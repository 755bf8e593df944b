// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The deny list API: every request is checked here, once for both
 * backends, and turned into the operations of lib/filter_internal.h. One
 * lock serialises the changes of every device, so that an add or a delete,
 * which read the list before changing it, never interleaves with another
 * change: this is the control path, never the packets'.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "backend.h"
#include "filter_internal.h"
#include "log_internal.h"
#include "port_internal.h"
#include "prefix.h"

static pthread_mutex_t filter_lock = PTHREAD_MUTEX_INITIALIZER;

bool xskx__filter_same_key(const struct xskx_filter_entry *a,
			   const struct xskx_filter_entry *b)
{
	return a->field == b->field && a->prefix.family == b->prefix.family &&
	       a->prefix.len == b->prefix.len &&
	       !memcmp(a->prefix.addr, b->prefix.addr, sizeof(a->prefix.addr));
}

XSKX_BACKEND_API bool xskx__prefix_covers(const struct xskx_prefix *p,
					  const uint8_t *addr)
{
	unsigned int whole = p->len / 8, rest = p->len % 8;

	if (memcmp(p->addr, addr, whole))
		return false;
	return !rest ||
	       !((p->addr[whole] ^ addr[whole]) & (uint8_t)(0xff00 >> rest));
}

/* Field, family, length, address: the order xskx_filter_list() reports. */
static int compare_entries(const void *pa, const void *pb)
{
	const struct xskx_filter_entry *a = pa, *b = pb;

	if (a->field != b->field)
		return a->field < b->field ? -1 : 1;
	if (a->prefix.family != b->prefix.family)
		return a->prefix.family < b->prefix.family ? -1 : 1;
	if (a->prefix.len != b->prefix.len)
		return a->prefix.len < b->prefix.len ? -1 : 1;
	return memcmp(a->prefix.addr, b->prefix.addr, sizeof(a->prefix.addr));
}

static const char *field_name(enum xskx_filter_field field)
{
	return field == XSKX_FILTER_SRC ? "source" : "destination";
}

static int check_entry(const struct xskx_filter_entry *e, const char *what)
{
	if (e->field != XSKX_FILTER_SRC && e->field != XSKX_FILTER_DST)
		return xskx__fail(
			-EINVAL,
			"filter %s: field %d is neither XSKX_FILTER_SRC nor XSKX_FILTER_DST",
			what, (int)e->field);
	if (e->rule_id >= XSKX_FILTER_MAX_RULES)
		return xskx__fail(
			-EINVAL,
			"filter %s: rule id %u is out of range (0 to %u)", what,
			e->rule_id, XSKX_FILTER_MAX_RULES - 1);
	return xskx__prefix_check(&e->prefix);
}

static int check_list(const struct xskx_filter_entry *entries, uint32_t n)
{
	struct xskx_filter_entry *sorted;
	uint32_t per_field[2] = { 0 };
	char what[32];
	int err = 0;

	for (uint32_t i = 0; i < n && !err; i++) {
		snprintf(what, sizeof(what), "entry %u", i);
		err = check_entry(&entries[i], what);
		if (!err &&
		    ++per_field[entries[i].field] > XSKX_FILTER_MAX_ENTRIES)
			err = xskx__fail(-ENOSPC,
					 "filter set: more than %u %s prefixes",
					 XSKX_FILTER_MAX_ENTRIES,
					 field_name(entries[i].field));
	}
	if (err || n < 2)
		return err;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return xskx__fail(-ENOMEM, "filter set: out of memory");
	memcpy(sorted, entries, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_entries);
	for (uint32_t i = 1; i < n && !err; i++) {
		char text[64];

		if (!xskx__filter_same_key(&sorted[i - 1], &sorted[i]))
			continue;
		xskx_prefix_format(&sorted[i].prefix, text, sizeof(text));
		err = xskx__fail(-EINVAL,
				 "filter set: %s prefix %s is listed twice",
				 field_name(sorted[i].field), text);
	}
	free(sorted);
	return err;
}

/* Takes the lock; on success the caller ends with finish(). */
static int begin(struct xskx_port *port, const char *what,
		 struct xskx_filter_dev *dev)
{
	int err;

	if (!port)
		return xskx__fail(-EINVAL, "filter %s: port is NULL", what);
	if (!port->ops->filter_begin)
		return xskx__fail(
			-EOPNOTSUPP,
			"filter %s: the %s backend has no XDP deny list", what,
			port->ops->name);
	pthread_mutex_lock(&filter_lock);
	err = port->ops->filter_begin(port, dev);
	if (err)
		pthread_mutex_unlock(&filter_lock);
	return err;
}

static int finish(struct xskx_filter_dev *dev, int ret)
{
	if (dev->ops->end)
		dev->ops->end(dev);
	pthread_mutex_unlock(&filter_lock);
	return ret;
}

XSKX_API int xskx_filter_set(struct xskx_port *port,
			     const struct xskx_filter_entry *entries,
			     uint32_t n)
{
	struct xskx_filter_dev dev;
	int err;

	if (n && !entries)
		return xskx__fail(-EINVAL, "filter set: entries is NULL");
	err = check_list(entries, n);
	if (!err)
		err = begin(port, "set", &dev);
	if (err)
		return err;
	return finish(&dev, dev.ops->set(&dev, entries, n));
}

static int find(const struct xskx_filter_entry *list, uint32_t n,
		const struct xskx_filter_entry *key)
{
	for (uint32_t i = 0; i < n; i++)
		if (xskx__filter_same_key(&list[i], key))
			return (int)i;
	return -1;
}

static int add_locked(struct xskx_filter_dev *dev,
		      const struct xskx_filter_entry *entry)
{
	struct xskx_filter_entry *list, *grown;
	uint32_t n, same_field = 0;
	int at, err;

	err = dev->ops->list(dev, &list, &n);
	if (err)
		return err;
	at = find(list, n, entry);
	for (uint32_t i = 0; i < n; i++)
		same_field += list[i].field == entry->field;
	if (at < 0 && same_field >= XSKX_FILTER_MAX_ENTRIES) {
		err = xskx__fail(
			-ENOSPC,
			"filter add: the device already holds %u %s prefixes",
			XSKX_FILTER_MAX_ENTRIES, field_name(entry->field));
	} else if (dev->ops->add) {
		err = dev->ops->add(dev, entry);
	} else if (at >= 0) {
		list[at] = *entry;
		err = dev->ops->set(dev, list, n);
	} else {
		grown = realloc(list, (n + 1) * sizeof(*list));
		if (!grown) {
			err = xskx__fail(-ENOMEM, "filter add: out of memory");
		} else {
			list = grown;
			list[n] = *entry;
			err = dev->ops->set(dev, list, n + 1);
		}
	}
	free(list);
	return err;
}

XSKX_API int xskx_filter_add(struct xskx_port *port,
			     const struct xskx_filter_entry *entry)
{
	struct xskx_filter_dev dev;
	int err;

	if (!entry)
		return xskx__fail(-EINVAL, "filter add: entry is NULL");
	err = check_entry(entry, "add");
	if (!err)
		err = begin(port, "add", &dev);
	if (err)
		return err;
	return finish(&dev, add_locked(&dev, entry));
}

static int del_locked(struct xskx_filter_dev *dev,
		      const struct xskx_filter_entry *key)
{
	struct xskx_filter_entry *list;
	char text[64];
	uint32_t n;
	int at, err;

	err = dev->ops->list(dev, &list, &n);
	if (err)
		return err;
	at = find(list, n, key);
	if (at < 0) {
		xskx_prefix_format(&key->prefix, text, sizeof(text));
		err = xskx__fail(-ENOENT,
				 "filter del: no %s prefix %s in the list",
				 field_name(key->field), text);
	} else if (dev->ops->del) {
		err = dev->ops->del(dev, &list[at]);
	} else {
		list[at] = list[n - 1];
		err = dev->ops->set(dev, list, n - 1);
	}
	free(list);
	return err;
}

XSKX_API int xskx_filter_del(struct xskx_port *port,
			     enum xskx_filter_field field,
			     const struct xskx_prefix *prefix)
{
	struct xskx_filter_entry key = { .field = field };
	struct xskx_filter_dev dev;
	int err;

	if (!prefix)
		return xskx__fail(-EINVAL, "filter del: prefix is NULL");
	key.prefix = *prefix;
	err = check_entry(&key, "del");
	if (!err)
		err = begin(port, "del", &dev);
	if (err)
		return err;
	return finish(&dev, del_locked(&dev, &key));
}

XSKX_API int xskx_filter_list(struct xskx_port *port,
			      struct xskx_filter_entry *entries, uint32_t max)
{
	struct xskx_filter_entry *list;
	struct xskx_filter_dev dev;
	uint32_t n;
	int err;

	if (max && !entries)
		return xskx__fail(-EINVAL, "filter list: entries is NULL");
	err = begin(port, "list", &dev);
	if (err)
		return err;
	err = dev.ops->list(&dev, &list, &n);
	if (err)
		return finish(&dev, err);
	if (n && max) {
		qsort(list, n, sizeof(*list), compare_entries);
		memcpy(entries, list, (n < max ? n : max) * sizeof(*list));
	}
	free(list);
	return finish(&dev, (int)n);
}

XSKX_API int xskx_filter_rule_stats(struct xskx_port *port, uint32_t rule_id,
				    struct xskx_filter_counters *counters)
{
	struct xskx_filter_dev dev;
	int err;

	if (!counters)
		return xskx__fail(-EINVAL,
				  "filter rule_stats: counters is NULL");
	if (rule_id >= XSKX_FILTER_MAX_RULES)
		return xskx__fail(
			-EINVAL,
			"filter rule_stats: rule id %u is out of range (0 to %u)",
			rule_id, XSKX_FILTER_MAX_RULES - 1);
	err = begin(port, "rule_stats", &dev);
	if (err)
		return err;
	return finish(&dev, dev.ops->rule_stats(&dev, rule_id, counters));
}
