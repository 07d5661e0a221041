// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringbar's probe: a task iterator that writes one struct ringbar_task per task when
 * userspace reads it, and an exit hook that reports thread groups dying between two reads.
 * Nothing runs on context switches.
 */
#include "kernel.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "ringbar.h"

char LICENSE[] SEC("license") = "GPL";

_Static_assert(sizeof(struct ringbar_task) == RINGBAR_TASK_SIZE, "ringbar_task size");
_Static_assert(sizeof(struct ringbar_exit) == RINGBAR_EXIT_SIZE, "ringbar_exit size");
_Static_assert(sizeof(struct ringbar_oom) == RINGBAR_OOM_SIZE, "ringbar_oom size");
_Static_assert(__builtin_offsetof(struct ringbar_oom, tgid) == __builtin_offsetof(struct ringbar_exit, tgid) &&
	       __builtin_offsetof(struct ringbar_oom, ns_tgid) == __builtin_offsetof(struct ringbar_exit, ns_tgid) &&
	       __builtin_offsetof(struct ringbar_oom, flags) == __builtin_offsetof(struct ringbar_exit, flags) &&
	       __builtin_offsetof(struct ringbar_oom, uid) == __builtin_offsetof(struct ringbar_exit, uid),
	       "ringbar_oom shares ringbar_exit's header fields");

/* include/linux/sched.h; stable values, and the bits only newer kernels have stay clear on older ones. */
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_NOLOAD 0x0400
#define TASK_RTLOCK_WAIT 0x1000
#define TASK_FROZEN 0x8000
#define TASK_IDLE (TASK_UNINTERRUPTIBLE | TASK_NOLOAD)
#define TASK_REPORT 0x007f
#define TASK_REPORT_IDLE (TASK_REPORT + 1)
/* task_state_index() of a task in uninterruptible sleep (D) */
#define TASK_STATE_D 2
#define PF_KTHREAD 0x00200000

/* enum mm_counter_type */
#define MM_FILEPAGES 0
#define MM_ANONPAGES 1
#define MM_SHMEMPAGES 3

/* Set by the probe service before loading: see RINGBAR_TASK_IO_HIDDEN. */
const volatile __u32 hide_private_io = 0;

/* About 3,800 exit reports (136 bytes each with the ring buffer's header) between reads. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 512 * 1024);
} exits SEC(".maps");

/* Never used: instances only so that the skeleton generates the records' Rust definitions,
 * which src/probe checks the model's mirror against at compile time. */
struct ringbar_task ringbar_task_format = {};
struct ringbar_exit ringbar_exit_format = {};
struct ringbar_oom ringbar_oom_format = {};

/*
 * Groups whose exit report was private though their ids were not mixed (not dumpable):
 * when the group is freed its mm is gone, so its final report looks it up here.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u8);
} undumpable_groups SEC(".maps");

/* Exit reports that did not fit in the ring buffer; userspace logs when it grows. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} exits_lost SEC(".maps");

/* The network byte counts, which fill_task and the exit reports read. */
#include "net.bpf.h"

/* PID namespaces: the reader's pids, and an exit report's. */
#include "pidns.bpf.h"

/*
 * fls() of at most 8 bits, as task_state_index() returns it, without a branch (with a
 * branch per bit the verifier checked the rest of the record once for each state it could
 * give): three halvings, each a shift by 0 or by half the width left. For y < 2^(2k),
 * (y + 2^(2k) - 2^k) >> 2k is 1 if y >= 2^k, else 0. Seven adds and shifts where a sum
 * over the eight bits took three operations a bit, 4 ns a task.
 */
static __always_inline __u32 fls8(__u32 x)
{
	__u32 byte = x & 0xff;
	__u32 high4 = ((byte + 0xf0) >> 8) << 2;
	__u32 nibble = byte >> high4;
	__u32 high2 = ((nibble + 0xc) >> 4) << 1;
	__u32 pair = nibble >> high2;
	__u32 high1 = (pair + 2) >> 2;

	return high4 + high2 + high1 + (pair >> high1);
}

/*
 * The programs' task pointers are trusted BTF pointers: fields are read with direct,
 * CO-RE-relocated loads (the verifier turns them into fault-safe PROBE_MEM loads), which
 * costs a fraction of a bpf_probe_read_kernel() call per field.
 */

/*
 * The task as a plain read-only pointer, to read its fields through: the verifier then no
 * longer asks at each pointer field whether the kernel vouches for it, each time a search
 * of the kernel's whole BTF by type name (three quarters of the probe's load time).
 * Helpers that need the task itself (its storage) still get the task. For the hooks that
 * run once an event: every load through it is a fault-checked one, a few instructions more,
 * which fill_task() (every task, every sample) does not take. Before Linux 6.2, which
 * lacks the cast, the task itself.
 */
static __always_inline struct task_struct *fields_of(struct task_struct *task)
{
	if (bpf_ksym_exists(bpf_rdonly_cast))
		return bpf_rdonly_cast(task, bpf_core_type_id_kernel(struct task_struct));
	return task;
}

/* Mirrors the kernel's task_state_index(): frozen and rtlock waits are D, TASK_IDLE is I. */
static __always_inline __u32 task_state(struct task_struct *t)
{
	__u32 raw, state;

	if (bpf_core_field_exists(t->__state))
		raw = t->__state;
	else
		raw = ((struct task_struct___pre514 *)t)->state;

	state = (raw | (__u32)t->exit_state) & TASK_REPORT;
	if ((raw & TASK_IDLE) == TASK_IDLE)
		state = TASK_REPORT_IDLE;
	if (raw & (TASK_RTLOCK_WAIT | TASK_FROZEN))
		state = TASK_UNINTERRUPTIBLE;
	return fls8(state);
}

static __always_inline __u64 clamp_pages(s64 v)
{
	return v > 0 ? (__u64)v : 0;
}

/* Resident pages (file + anon + shmem), as /proc/PID/statm's second field counts them. */
static __always_inline __u64 rss_pages(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	if (!mm)
		return 0;
	if (bpf_core_field_exists(((struct mm_struct___pre62 *)mm)->rss_stat)) {
		struct mm_struct___pre62 *old = (void *)mm;

		return clamp_pages(old->rss_stat.count[MM_FILEPAGES].counter) +
		       clamp_pages(old->rss_stat.count[MM_ANONPAGES].counter) +
		       clamp_pages(old->rss_stat.count[MM_SHMEMPAGES].counter);
	}
	/* The percpu counters' shared part: off by at most the per-CPU batches. */
	return clamp_pages(mm->rss_stat[MM_FILEPAGES].count) +
	       clamp_pages(mm->rss_stat[MM_ANONPAGES].count) +
	       clamp_pages(mm->rss_stat[MM_SHMEMPAGES].count);
}

static __always_inline __u32 task_flags(struct task_struct *t)
{
	return (t->flags & PF_KTHREAD) ? RINGBAR_TASK_KTHREAD : 0;
}

#define MMF_DUMPABLE_MASK 3ul
#define SUID_DUMP_USER 1ul

static __always_inline unsigned long mm_flags(struct mm_struct *mm)
{
	if (bpf_core_field_exists(((struct mm_struct___flags_bitmap *)mm)->flags.__mm_flags))
		return ((struct mm_struct___flags_bitmap *)mm)->flags.__mm_flags[0];
	return ((struct mm_struct___flags_long *)mm)->flags;
}

/*
 * Whether the reader (the process reading the iterator: ringbar) may not read this task's
 * /proc/PID/io. The kernel's rule (ptrace_may_access, PTRACE_MODE_READ_FSCREDS): all of
 * the task's uids and gids equal the caller's, and a task with an mm is dumpable.
 */
static __always_inline bool task_private(struct task_struct *t, __u32 reader_uid, __u32 reader_gid)
{
	const struct cred *cred = t->cred;
	struct mm_struct *mm = t->mm;

	if (cred->uid.val != reader_uid || cred->euid.val != reader_uid ||
	    cred->suid.val != reader_uid || cred->gid.val != reader_gid ||
	    cred->egid.val != reader_gid || cred->sgid.val != reader_gid)
		return true;
	return mm && (mm_flags(mm) & MMF_DUMPABLE_MASK) != SUID_DUMP_USER;
}

/*
 * How long a task in D has been off the CPU: since the scheduler last put it on one
 * (sched_info.last_arrival, CONFIG_SCHED_INFO), in sched_clock time, which follows
 * CLOCK_MONOTONIC to within milliseconds. A task that ran between two samples has a
 * short one even though it was in D at both. 0 where the kernel does not keep it.
 */
static __always_inline __u64 blocked_ns(struct task_struct *t)
{
	__u64 now, last;

	if (!bpf_core_field_exists(t->sched_info.last_arrival))
		return 0;
	last = t->sched_info.last_arrival;
	if (!last)
		return 0;
	now = bpf_ktime_get_ns();
	return now > last ? now - last : 1;
}

/*
 * The task's cgroup on the default hierarchy (cgroup v2), as the inode number of its
 * directory: user space names it once. Plain loads through the task's css_set, which the
 * iterator holds stable (the task is RCU-protected while it runs); 0 if any link is missing.
 */
static __always_inline __u64 task_cgroup_id(struct task_struct *t)
{
	struct css_set *cset = t->cgroups;
	struct cgroup *cgrp;
	struct kernfs_node *kn;

	if (!cset)
		return 0;
	cgrp = cset->dfl_cgrp;
	if (!cgrp)
		return 0;
	kn = cgrp->kn;
	if (!kn)
		return 0;
	return kn->id;
}

/*
 * One task's record. `reader` is bpf_get_current_uid_gid() of the process reading: the
 * records are its view. Sets every field (the walker's slots hold the last sample's).
 */
static __always_inline void fill_task(struct ringbar_task *rec, struct task_struct *t, __u64 reader)
{
	struct task_struct *leader = t->group_leader;
	struct signal_struct *sig = t->signal;
	__u32 flags = task_flags(t);
	struct net_counts net;

	rec->tgid = t->tgid;
	rec->pid = t->pid;
	rec->leader_start_ns = leader->start_time;
	if (task_private(t, (__u32)reader, (__u32)(reader >> 32)))
		flags |= RINGBAR_TASK_PRIVATE;
	/* Root may read every task's io; nobody else learns a private task's here. */
	if (hide_private_io && (flags & RINGBAR_TASK_PRIVATE) && (__u32)reader != 0)
		flags |= RINGBAR_TASK_IO_HIDDEN;
	rec->flags = flags;
	rec->state = task_state(t);
	rec->blocked_ns = rec->state == TASK_STATE_D ? blocked_ns(t) : 0;
	rec->cpu_ns = t->se.sum_exec_runtime;
	rec->group_dead_cpu_ns = sig->sum_sched_runtime;
	rec->rss_pages = rss_pages(t);
	if (bpf_core_field_exists(t->ioac) && !(flags & RINGBAR_TASK_IO_HIDDEN)) {
		rec->read_bytes = t->ioac.read_bytes;
		rec->write_bytes = t->ioac.write_bytes;
		rec->group_dead_read_bytes = sig->ioac.read_bytes;
		rec->group_dead_write_bytes = sig->ioac.write_bytes;
	} else {
		rec->read_bytes = 0;
		rec->write_bytes = 0;
		rec->group_dead_read_bytes = 0;
		rec->group_dead_write_bytes = 0;
	}
	__builtin_memcpy(rec->comm, leader->comm, sizeof(rec->comm));
	rec->cgroup_id = task_cgroup_id(t);
	net_of(t, &net);
	if (flags & RINGBAR_TASK_IO_HIDDEN)
		__builtin_memset(&net, 0, sizeof(net));
	rec->net_sent_bytes = net.sent;
	rec->net_received_bytes = net.received;
	rec->net_local_sent_bytes = net.local_sent;
	rec->net_local_received_bytes = net.local_received;
	if (net.sent | net.received)
		rec->flags = flags | RINGBAR_TASK_NET;
}

SEC("iter/task")
int dump_task(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;
	struct ringbar_task rec = {};

	struct pid *reader = bpf_get_current_task_btf()->thread_pid;
	__u32 tgid, pid;

	/* The iterator calls once more at the end without a task. */
	if (!t || !reader)
		return 0;
	/* In a container's namespace: that namespace's pids, and no task outside it. */
	if (reader->level) {
		struct upid mine;

		if (upid_at(reader, reader->level, &mine) ||
		    !seen_by_reader(t, reader->level, mine.ns, &tgid, &pid))
			return 0;
	}
	/* The iterator runs in the reading process: its ids are the reader's. */
	fill_task(&rec, t, bpf_get_current_uid_gid());
	if (reader->level) {
		rec.tgid = tgid;
		rec.pid = pid;
	}
	bpf_seq_write(ctx->meta->seq, &rec, sizeof(rec));
	return 0;
}

static __always_inline void submit_exit(struct task_struct *task, __u64 cpu_ns, __u64 read_bytes,
					__u64 write_bytes, __u32 exit_flags)
{
	struct task_struct *t = fields_of(task);
	struct task_struct *leader = t->group_leader;
	struct net_counts net;
	struct ringbar_exit *e;

	e = bpf_ringbuf_reserve(&exits, sizeof(*e), 0);
	if (!e) {
		__u32 zero = 0;
		__u64 *lost = bpf_map_lookup_elem(&exits_lost, &zero);

		if (lost)
			__sync_fetch_and_add(lost, 1);
		return;
	}
	e->tgid = t->tgid;
	report_ns_tgid(e->ns_tgid, leader, t->tgid);
	e->flags = task_flags(t) | exit_flags;
	e->uid = t->cred->uid.val;
	e->gid = t->cred->gid.val;
	if (task_private(t, e->uid, e->gid)) {
		__u32 tgid = t->tgid;
		__u8 yes = 1;

		e->flags |= RINGBAR_TASK_PRIVATE;
		if (t->mm)
			bpf_map_update_elem(&undumpable_groups, &tgid, &yes, BPF_ANY);
	} else if (!t->mm) {
		__u32 tgid = t->tgid;

		if (bpf_map_lookup_elem(&undumpable_groups, &tgid)) {
			e->flags |= RINGBAR_TASK_PRIVATE;
			bpf_map_delete_elem(&undumpable_groups, &tgid);
		}
	}
	e->leader_start_ns = leader->start_time;
	e->cpu_ns = cpu_ns;
	e->read_bytes = read_bytes;
	e->write_bytes = write_bytes;
	__builtin_memcpy(e->comm, leader->comm, sizeof(e->comm));
	group_net_final(task, &net);
	e->net_sent_bytes = net.sent;
	e->net_received_bytes = net.received;
	e->net_local_sent_bytes = net.local_sent;
	e->net_local_received_bytes = net.local_received;
	bpf_ringbuf_submit(e, 0);
}

/*
 * The exit of a group's last thread: its totals so far. Released threads are in
 * signal_struct; the exiting thread and a zombie leader are not yet. The thread still
 * has work to do after the tracepoint (on 6.18 even exit_mm()), which group_freed adds.
 */
static __always_inline int report_group_exit(struct task_struct *task)
{
	struct task_struct *t = fields_of(task);
	struct task_struct *leader = t->group_leader;
	struct signal_struct *sig = t->signal;
	__u64 cpu = sig->sum_sched_runtime + t->se.sum_exec_runtime;
	__u64 read = 0, write = 0;

	if (bpf_core_field_exists(t->ioac)) {
		read = sig->ioac.read_bytes + t->ioac.read_bytes;
		write = sig->ioac.write_bytes + t->ioac.write_bytes;
	}
	if (leader != t) {
		cpu += leader->se.sum_exec_runtime;
		if (bpf_core_field_exists(t->ioac)) {
			read += leader->ioac.read_bytes;
			write += leader->ioac.write_bytes;
		}
	}
	submit_exit(task, cpu, read, write, 0);
	return 0;
}

/*
 * Two versions of the exit hook; userspace loads the one matching the kernel's tracepoint
 * prototype (newer kernels pass group_dead, 6.1 does not).
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(exit_with_group_dead, struct task_struct *t, bool group_dead)
{
	fold_thread_net(t);
	return group_dead ? report_group_exit(t) : 0;
}

/* do_exit() has already decremented signal->live when the tracepoint fires. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(exit_without_group_dead, struct task_struct *t)
{
	struct signal_struct *sig = fields_of(t)->signal;

	fold_thread_net(t);
	return sig->live.counter == 0 ? report_group_exit(t) : 0;
}

/*
 * A dead group's leader is freed (an RCU grace period after it was reaped): every thread,
 * the leader included, has been added to signal_struct by __exit_signal(), so these are the
 * group's exact final totals. They arrive a little after the exit report; userspace counts
 * only what they add to it.
 */
SEC("tp_btf/sched_process_free")
int BPF_PROG(group_freed, struct task_struct *task)
{
	struct task_struct *t = fields_of(task);
	struct signal_struct *sig = t->signal;
	__u64 read = 0, write = 0;

	/* A thread, or an old leader replaced by exec (de_thread()), is not a group's end. */
	if (t->group_leader != t || sig->live.counter != 0)
		return 0;
	if (bpf_core_field_exists(sig->ioac)) {
		read = sig->ioac.read_bytes;
		write = sig->ioac.write_bytes;
	}
	/*
	 * Its pid was released when it was reaped; only a task given the same pid since (a
	 * whole cycle of pids within a grace period) could lose its bit, until it next sends.
	 */
	unmark_net_pid(t->pid);
	submit_exit(task, sig->sum_sched_runtime, read, write, RINGBAR_EXIT_FREED);
	return 0;
}

/* The walker, which uses fill_task above. */
#include "walker.bpf.h"

/* The OOM kill hooks, which use the helpers and maps above. */
#include "oom.bpf.h"
