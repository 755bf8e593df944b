/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The parts of the netdev generic netlink family (uapi linux/netdev.h)
 * that xskx uses. Debian 12's headers (6.1) predate all of it; the values
 * are the kernel's ABI and never change.
 */
#ifndef XSKX_KERNEL_NETDEV_FAMILY_H
#define XSKX_KERNEL_NETDEV_FAMILY_H

#define NETDEV_FAMILY "netdev" /* kernel 6.3+ */
#define NETDEV_VERSION 1

/* Commands. */
#define NETDEV_CMD_DEV_GET 1
#define NETDEV_CMD_QUEUE_GET 10 /* 6.8+ */
#define NETDEV_CMD_NAPI_GET 11	/* 6.8+ */
#define NETDEV_CMD_NAPI_SET 14	/* 6.13+ */

/* dev-get */
#define NETDEV_A_DEV_IFINDEX 1
#define NETDEV_A_DEV_XDP_FEATURES 3
#define NETDEV_A_DEV_XDP_ZC_MAX_SEGS 4
#define NETDEV_A_DEV_XDP_RX_METADATA_FEATURES 5
#define NETDEV_A_DEV_XSK_FEATURES 6 /* 6.8+: NETDEV_XSK_FLAGS_TX_* */
#define NETDEV_A_DEV_MAX 6

/* queue-get: a queue is (ifindex, type, id); it names the NAPI serving it. */
#define NETDEV_A_QUEUE_ID 1
#define NETDEV_A_QUEUE_IFINDEX 2
#define NETDEV_A_QUEUE_TYPE 3
#define NETDEV_A_QUEUE_NAPI_ID 4
#define NETDEV_A_QUEUE_MAX 7
#define NETDEV_QUEUE_TYPE_RX 0

/* napi-get, napi-set */
#define NETDEV_A_NAPI_IFINDEX 1
#define NETDEV_A_NAPI_ID 2
#define NETDEV_A_NAPI_PID 4		  /* the NAPI thread's, when threaded */
#define NETDEV_A_NAPI_DEFER_HARD_IRQS 5	  /* u32, 6.13+ */
#define NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT 6 /* uint, ns, 6.13+ */
#define NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT 7 /* uint, ns, 6.13+ */
#define NETDEV_A_NAPI_THREADED 8	    /* u32 0/1, 6.17+ */
#define NETDEV_A_NAPI_MAX 8

#endif /* XSKX_KERNEL_NETDEV_FAMILY_H */
