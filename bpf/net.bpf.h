/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Network bytes per process: what each thread group sent and received through inet
 * sockets (TCP, UDP and the other inet protocols, IPv4 and IPv6; never UNIX sockets),
 * counted in the sending or receiving task as the call returns. Part of
 * bpf/ringbar.bpf.c (included before the task record is filled).
 *
 * Hooked at the socket layer's own tracepoints, sock/sock_send_length and
 * sock/sock_recv_length (Linux 6.3+), which every send and receive of a socket passes
 * once with its result (write, send, sendmsg, sendfile and splice, io_uring; read, recv,
 * recvmsg), whatever the protocol: the protocols' own functions miss some (MPTCP sends
 * through tcp_sendmsg_locked, not tcp_sendmsg), and a tracepoint needs no fentry/fexit,
 * which some kernels refuse (this project's test machines do). Nothing runs per packet:
 * a call moves anything from a byte to megabytes. Not seen: TCP's splice-to-pipe and
 * zero-copy receive, which bypass recvmsg.
 *
 * The counts live in the group leader's task storage, so a process's figure includes its
 * exited threads, and its exit report carries the final figure.
 */
#ifndef RINGBAR_NET_BPF_H
#define RINGBAR_NET_BPF_H

#define AF_INET 2
#define AF_INET6 10
#define MSG_PEEK 2

struct ringbar_net {
	__u64 sent;
	__u64 received;
	/* Of those, to or from this machine itself: loopback, or its own address. */
	__u64 local_sent;
	__u64 local_received;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ringbar_net);
} group_net SEC(".maps");

static __always_inline bool v4_local(__be32 peer, __be32 own)
{
	/* 127.0.0.0/8: its first byte, which comes first in network order. */
	return (peer & 0xff) == 127 || peer == own;
}

static __always_inline bool v6_local(const __be32 *peer, const __be32 *own)
{
	/* ::1, and 127.x mapped into IPv6 (::ffff:127.x.y.z) */
	if (!peer[0] && !peer[1] && !peer[2] && peer[3] == __builtin_bswap32(1))
		return true;
	if (!peer[0] && !peer[1] && peer[2] == __builtin_bswap32(0xffff) && (peer[3] & 0xff) == 127)
		return true;
	return peer[0] == own[0] && peer[1] == own[1] && peer[2] == own[2] && peer[3] == own[3];
}

/*
 * Whether the socket talks to this machine: its peer is a loopback address or its own
 * address. A socket with no peer (a datagram socket's sendto and recvfrom) counts as
 * talking to the network: the tracepoints do not pass the call's address.
 */
static __always_inline bool net_local(struct sock *sk)
{
	__be32 peer[4], own[4];

	if (sk->__sk_common.skc_family == AF_INET)
		return sk->__sk_common.skc_daddr &&
		       v4_local(sk->__sk_common.skc_daddr, sk->__sk_common.skc_rcv_saddr);
	for (int i = 0; i < 4; i++) {
		peer[i] = sk->__sk_common.skc_v6_daddr.in6_u.u6_addr32[i];
		own[i] = sk->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[i];
	}
	return (peer[0] | peer[1] | peer[2] | peer[3]) && v6_local(peer, own);
}

static __always_inline void count_net(struct sock *sk, int bytes, bool sent)
{
	struct task_struct *leader = bpf_get_current_task_btf()->group_leader;
	struct ringbar_net *net;
	__u16 family;
	bool local;

	if (bytes <= 0 || !sk)
		return;
	family = sk->__sk_common.skc_family;
	if (family != AF_INET && family != AF_INET6)
		return;
	net = bpf_task_storage_get(&group_net, leader, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!net)
		return;
	local = net_local(sk);
	/* Atomic: the group's threads add to one place. */
	if (sent) {
		__sync_fetch_and_add(&net->sent, bytes);
		if (local)
			__sync_fetch_and_add(&net->local_sent, bytes);
	} else {
		__sync_fetch_and_add(&net->received, bytes);
		if (local)
			__sync_fetch_and_add(&net->local_received, bytes);
	}
}

SEC("tp_btf/sock_send_length")
int BPF_PROG(socket_sent, struct sock *sk, int ret, int flags)
{
	count_net(sk, ret, true);
	return 0;
}

/* A peek leaves the bytes to the next read: counted then. */
SEC("tp_btf/sock_recv_length")
int BPF_PROG(socket_received, struct sock *sk, int ret, int flags)
{
	if (!(flags & MSG_PEEK))
		count_net(sk, ret, false);
	return 0;
}

/* The group's counts so far, or none (a process that never used an inet socket). */
static __always_inline struct ringbar_net *group_net_of(struct task_struct *t)
{
	return bpf_task_storage_get(&group_net, t->group_leader, 0, 0);
}

#endif
