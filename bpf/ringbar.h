/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The wire format between the BPF probe and ringbar, shared by bpf/ringbar.bpf.c and mirrored
 * field by field in src/model/record.rs (both sides assert the sizes below).
 */
#ifndef RINGBAR_H
#define RINGBAR_H

#define RINGBAR_COMM_LEN 16

/* ringbar_task.flags */
#define RINGBAR_TASK_KTHREAD 1u
/*
 * The task's IO is the reader's business only by the kernel's ptrace read rule, as far as
 * the probe can evaluate it: the task's real, effective and saved uids and gids all equal
 * the reading process's, and its mm (if any) is dumpable. Not set means /proc/PID/io would
 * let the reader in; root and CAP_SYS_PTRACE are exempted in user space.
 */
#define RINGBAR_TASK_PRIVATE 4u
/*
 * With hide_private_io set (the probe service, which any local user may read through),
 * the iterator leaves a private task's IO out of its record altogether and sets this
 * flag: the reader gets no number to misuse. Same bit as the /proc fallback's "/proc
 * refused this task's io".
 */
#define RINGBAR_TASK_IO_HIDDEN 2u
/*
 * The record has network bytes (sent or received): user space reads the net_* fields
 * only where it is set, which leaves most records' last cache line unread.
 */
#define RINGBAR_TASK_NET 0x10u
/*
 * ringbar_exit.flags: the group has been freed; this is its final report and no other
 * will follow, so userspace can forget the group at once.
 */
#define RINGBAR_EXIT_FREED 8u

/*
 * ringbar_oom.flags: the record in the exits ring buffer is a struct ringbar_oom, not a
 * struct ringbar_exit (same size; tgid, flags, comm, uid, gid and ns_tgid at the same
 * offsets).
 */
#define RINGBAR_RECORD_OOM 0x100u
/* ringbar_oom.flags: a cgroup's memory limit was hit (memcg OOM), not the whole machine's. */
#define RINGBAR_OOM_MEMCG 0x200u
/*
 * ringbar_oom.flags: an older kernel (6.1) named the victim by its pid alone; only tgid,
 * time_ns, limit_pages and the flags are set.
 */
#define RINGBAR_OOM_PID_ONLY 0x400u

/* How many PID namespaces below the initial one an exit report names its group in. */
#define RINGBAR_NS_LEVELS 4

/*
 * A thread group's pid in one PID namespace below the initial one: the namespace's inode
 * number (as stat() of /proc/PID/ns/pid gives it) and the group's tgid there. ns is 0
 * where the group has no pid at that depth, or the probe could not tell it.
 */
struct ringbar_ns_tgid {
	__u32 ns;
	__u32 tgid;
};

/*
 * One record per task (thread), written by the task iterator on every sample.
 * state is the kernel's task_state_index(): 0 R, 1 S, 2 D, 3 T, 4 t, 5 X, 6 Z, 7 P, 8 I.
 * The group_dead_* fields are the totals of threads of this group that already exited
 * (signal_struct); they are the same in every thread of a group.
 */
struct ringbar_task {
	__u64 leader_start_ns;        /* group leader's start_time, CLOCK_MONOTONIC ns */
	__u64 cpu_ns;                 /* se.sum_exec_runtime of this thread */
	__u64 group_dead_cpu_ns;      /* signal->sum_sched_runtime */
	__u64 read_bytes;             /* ioac of this thread (storage IO, as /proc/PID/io) */
	__u64 write_bytes;
	__u64 group_dead_read_bytes;  /* signal->ioac */
	__u64 group_dead_write_bytes;
	__u64 rss_pages;              /* mm file + anon + shmem pages, 0 without an mm */
	__u32 tgid;
	__u32 pid;
	__u32 flags;
	__u32 state;
	char comm[RINGBAR_COMM_LEN];  /* the thread group leader's comm */
	__u64 cgroup_id;              /* the task's cgroup v2 directory inode, 0 if unknown */
	__u64 blocked_ns;             /* in D: ns since it last ran; 0 otherwise or unknown */
	/*
	 * Bytes through inet sockets: this thread's, and for a group leader also those of
	 * the group's exited threads, so that the group's figure is the sum over its
	 * threads; and of those the ones to or from this machine itself. 0 where the probe
	 * cannot count them, or hides them as IO.
	 */
	__u64 net_sent_bytes;
	__u64 net_received_bytes;
	__u64 net_local_sent_bytes;
	__u64 net_local_received_bytes;
};

/*
 * One record per thread group that died, sent through the ring buffer by the exit hook.
 * The hook runs in the dying task, not in a reader, so it records the task's own uid and
 * gid, and RINGBAR_TASK_PRIVATE when its ids are mixed or it was not dumpable: the probe
 * service applies the ptrace read rule for each of its readers from these.
 */
struct ringbar_exit {
	__u64 leader_start_ns;
	__u64 cpu_ns;                 /* whole group, final */
	__u64 read_bytes;
	__u64 write_bytes;
	__u32 tgid;
	__u32 flags;
	char comm[RINGBAR_COMM_LEN];
	__u32 uid;
	__u32 gid;
	__u64 net_sent_bytes;         /* the whole group's, final */
	__u64 net_received_bytes;
	__u64 net_local_sent_bytes;
	__u64 net_local_received_bytes;
	/*
	 * The group's tgid in the PID namespaces 1 to RINGBAR_NS_LEVELS deep that it lives
	 * in (tgid above is the initial namespace's): a reader in a container's namespace
	 * gets the reports of its own namespace only, by its own pids.
	 */
	struct ringbar_ns_tgid ns_tgid[RINGBAR_NS_LEVELS];
};

/*
 * One process the kernel's OOM killer chose to kill (oom/mark_victim), sent through
 * the exits ring buffer with RINGBAR_RECORD_OOM set. uid, gid and RINGBAR_TASK_PRIVATE are
 * the victim's, as in struct ringbar_exit.
 */
struct ringbar_oom {
	__u64 leader_start_ns;
	__u64 rss_pages;              /* the victim's file + anon + shmem pages when killed */
	__u64 time_ns;                /* CLOCK_MONOTONIC ns of the choice */
	__u64 limit_pages;            /* memcg OOM: the limit of the cgroup at its limit; else 0 */
	__u32 tgid;
	__u32 flags;
	char comm[RINGBAR_COMM_LEN];
	__u32 uid;
	__u32 gid;
	__u64 reserved[4];            /* where struct ringbar_exit has its network bytes */
	struct ringbar_ns_tgid ns_tgid[RINGBAR_NS_LEVELS]; /* as in struct ringbar_exit */
};

#define RINGBAR_TASK_SIZE 144
#define RINGBAR_EXIT_SIZE 128
#define RINGBAR_OOM_SIZE 128

#endif
