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
 * Each thread counts in its own task storage, with plain adds: only the thread writes
 * there, so a call costs no atomic operation. When a thread exits, its counts move to the
 * group leader's `dead` counts (atomically: threads exit concurrently), so a process's
 * figure, the sum over its threads, includes its exited threads, and its exit report
 * carries the final figure.
 */
#ifndef RINGBAR_NET_BPF_H
#define RINGBAR_NET_BPF_H

#define AF_INET 2
#define AF_INET6 10
#define MSG_PEEK 2

struct net_counts {
	__u64 sent;
	__u64 received;
	/* Of those, to or from this machine itself: loopback, or its own address. */
	__u64 local_sent;
	__u64 local_received;
};

struct ringbar_net {
	/* This thread's, while it lives. */
	struct net_counts own;
	/* In a group leader's: the group's threads that exited, itself included. */
	struct net_counts dead;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ringbar_net);
} task_net SEC(".maps");

/*
 * One bit per pid, set while the task may have counts in task_net: set when it gets them,
 * cleared when it ends (a thread at its exit, once its counts moved to its leader; a
 * leader when its group is freed). The walker looks a task's counts up only where its bit
 * is set: most tasks never use an inet socket, and the lookup reads a cache line of the
 * task that nothing else in its record needs. User space sizes it to pid_max bits before
 * loading (one word when the counters are off).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} net_pids SEC(".maps");

/* Set once a task with counts had a pid past net_pids (pid_max raised after loading). */
__u32 net_pids_overflowed;

static __always_inline __u64 *net_pid_word(__u32 pid)
{
	__u32 at = pid / 64;

	return bpf_map_lookup_elem(&net_pids, &at);
}

static __always_inline void mark_net_pid(__u32 pid)
{
	__u64 *word = net_pid_word(pid);
	__u64 bit = 1ULL << (pid % 64);

	if (!word)
		net_pids_overflowed = 1;
	else if (!(*word & bit))
		__sync_fetch_and_or(word, bit);
}

static __always_inline void unmark_net_pid(__u32 pid)
{
	__u64 *word = net_pid_word(pid);
	__u64 bit = 1ULL << (pid % 64);

	if (word && (*word & bit))
		__sync_fetch_and_and(word, ~bit);
}

/* Whether the task may have counts: its bit is set, or it is past the bits. */
static __always_inline bool may_have_net(__u32 pid)
{
	__u64 *word = net_pid_word(pid);

	if (!word)
		return net_pids_overflowed;
	return *word & (1ULL << (pid % 64));
}

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
	struct task_struct *me = bpf_get_current_task_btf();
	struct net_counts *own;
	struct ringbar_net *net;
	__u16 family;

	if (bytes <= 0 || !sk)
		return;
	family = sk->__sk_common.skc_family;
	if (family != AF_INET && family != AF_INET6)
		return;
	net = bpf_task_storage_get(&task_net, me, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!net)
		return;
	/* Before the bytes are added: the walker then never skips counted bytes. */
	mark_net_pid(me->pid);
	own = &net->own;
	if (sent) {
		own->sent += bytes;
		if (net_local(sk))
			own->local_sent += bytes;
	} else {
		own->received += bytes;
		if (net_local(sk))
			own->local_received += bytes;
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

/*
 * A thread other than the leader ran exec: it took over the leader's pid, whose bit was
 * set only if the old leader had counts. Its own counts came with it.
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(net_exec, struct task_struct *p, int old_pid, struct linux_binprm *bprm)
{
	if (old_pid != p->pid && bpf_task_storage_get(&task_net, p, 0, 0))
		mark_net_pid(p->pid);
	return 0;
}

/*
 * A thread exits: its counts move to its group leader's dead counts. Taken from the
 * thread first, so that a reader between the two steps sees too little, which the next
 * sample makes up, rather than twice as much.
 */
static __always_inline void fold_thread_net(struct task_struct *t)
{
	struct ringbar_net *net = bpf_task_storage_get(&task_net, t, 0, 0);
	struct ringbar_net *leader;
	struct net_counts moved;

	if (!net)
		return;
	moved = net->own;
	__builtin_memset(&net->own, 0, sizeof(net->own));
	leader = bpf_task_storage_get(&task_net, t->group_leader, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	/* Its own counts are gone: none to look up while it is still listed. */
	if (t->group_leader != t)
		unmark_net_pid(t->pid);
	if (!leader)
		return;
	mark_net_pid(t->group_leader->pid);
	__sync_fetch_and_add(&leader->dead.sent, moved.sent);
	__sync_fetch_and_add(&leader->dead.received, moved.received);
	__sync_fetch_and_add(&leader->dead.local_sent, moved.local_sent);
	__sync_fetch_and_add(&leader->dead.local_received, moved.local_received);
}

/*
 * A task's counts for its record: its own, and for a group leader the group's exited
 * threads' too, so that the sum over a group's threads is the group's figure.
 */
static __always_inline void net_of(struct task_struct *t, struct net_counts *out)
{
	struct ringbar_net *net;

	__builtin_memset(out, 0, sizeof(*out));
	if (!may_have_net(t->pid))
		return;
	net = bpf_task_storage_get(&task_net, t, 0, 0);
	if (!net)
		return;
	*out = net->own;
	if (t->group_leader == t) {
		out->sent += net->dead.sent;
		out->received += net->dead.received;
		out->local_sent += net->dead.local_sent;
		out->local_received += net->dead.local_received;
	}
}

/* An ended group's final counts: every thread has folded its own into the leader's. */
static __always_inline void group_net_final(struct task_struct *t, struct net_counts *out)
{
	struct ringbar_net *net = bpf_task_storage_get(&task_net, t->group_leader, 0, 0);

	__builtin_memset(out, 0, sizeof(*out));
	if (net)
		*out = net->dead;
}

#endif
