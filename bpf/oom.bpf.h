/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The probe's OOM kill hooks, part of bpf/ringbar.bpf.c (included at its end, after the
 * exits ring buffer, exits_lost and the task helpers it uses): one struct ringbar_oom per
 * victim into the exits ring buffer.
 */
#ifndef RINGBAR_OOM_BPF_H
#define RINGBAR_OOM_BPF_H

/*
 * OOM kills: the oom/mark_victim tracepoint fires once per victim, in the task that ran
 * the OOM killer, after SIGKILL was sent and before the victim's memory is reaped. Newer
 * kernels (6.18) pass the victim task; older ones (6.1) its pid alone. (fentry and kprobes on
 * oom_kill_process(), which would also see its struct oom_control, are not available
 * everywhere: no kprobes in some kernel builds, no fentry in some sandboxes.)
 *
 * A cgroup's OOM or the machine's: the tracepoint does not say. The cgroup whose limit was
 * hit is the one the OOM killer ran for, and its usage stands at its limit (the charge that
 * failed was at most a THP's 512 pages, and reclaim found nothing more), so the walk below
 * looks for a memory cgroup at its limit, from the given task up. A global OOM at the very
 * moment one of those cgroups happens to sit at its own limit would be reported as that
 * cgroup's.
 */
#define OOM_LIMIT_SLACK_PAGES 1024
#define OOM_MAX_CGROUP_DEPTH 16
/* PAGE_COUNTER_MAX with 4 KiB pages: no limit. */
#define PAGE_COUNTER_NO_LIMIT (0x7fffffffffffffffUL >> 12)

/* The limit in pages of the memory cgroup at its limit on t's path to the root, or 0. */
static __always_inline __u64 memcg_at_limit(struct task_struct *t)
{
	int id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	struct cgroup_subsys_state *css = NULL;
	struct css_set *cset = BPF_CORE_READ(t, cgroups);

	if (!cset || id < 0 || id >= 64)
		return 0;
	bpf_probe_read_kernel(&css, sizeof(css),
			      (void *)cset + bpf_core_field_offset(struct css_set, subsys) + id * sizeof(css));
	for (int depth = 0; depth < OOM_MAX_CGROUP_DEPTH && css; depth++) {
		/* css is a mem_cgroup's first member. */
		struct mem_cgroup *memcg = (void *)css;
		unsigned long max = BPF_CORE_READ(memcg, memory.max);
		long usage = BPF_CORE_READ(memcg, memory.usage.counter);

		if (max < PAGE_COUNTER_NO_LIMIT && usage + OOM_LIMIT_SLACK_PAGES >= (long)max)
			return max;
		css = BPF_CORE_READ(css, parent);
	}
	return 0;
}

static __always_inline struct ringbar_oom *reserve_oom(void)
{
	struct ringbar_oom *o = bpf_ringbuf_reserve(&exits, sizeof(*o), 0);

	if (!o) {
		__u32 zero = 0;
		__u64 *lost = bpf_map_lookup_elem(&exits_lost, &zero);

		if (lost)
			__sync_fetch_and_add(lost, 1);
		return NULL;
	}
	__builtin_memset(o, 0, sizeof(*o));
	o->flags = RINGBAR_RECORD_OOM;
	o->time_ns = bpf_ktime_get_ns();
	return o;
}

static __always_inline void oom_cgroup(struct ringbar_oom *o, struct task_struct *t)
{
	o->limit_pages = memcg_at_limit(t);
	if (o->limit_pages)
		o->flags |= RINGBAR_OOM_MEMCG;
}

/* Newer kernels (6.18): mark_victim(struct task_struct *task, uid_t uid). */
SEC("tp_btf/mark_victim")
int BPF_PROG(oom_victim_task, struct task_struct *task, __u32 uid)
{
	struct task_struct *victim = fields_of(task);
	struct task_struct *leader = victim->group_leader;
	struct ringbar_oom *o = reserve_oom();

	if (!o)
		return 0;
	o->tgid = victim->tgid;
	if (leader->thread_pid)
		fill_ns_tgid(o->ns_tgid, leader->thread_pid);
	o->uid = victim->cred->uid.val;
	o->gid = victim->cred->gid.val;
	o->flags |= task_flags(victim);
	if (task_private(victim, o->uid, o->gid))
		o->flags |= RINGBAR_TASK_PRIVATE;
	o->leader_start_ns = leader->start_time;
	o->rss_pages = rss_pages(victim);
	__builtin_memcpy(o->comm, leader->comm, sizeof(o->comm));
	oom_cgroup(o, victim);
	bpf_ringbuf_submit(o, 0);
	return 0;
}

/*
 * Older kernels (6.1): mark_victim(int pid). The victim's name and size come from userspace's
 * last sample; its cgroup is found from the task that ran the OOM killer, which for a
 * cgroup's OOM is one charging that cgroup. Its ns_tgid stays empty, so a reader in a
 * container's PID namespace does not get it.
 */
SEC("tp_btf/mark_victim")
int BPF_PROG(oom_victim_pid, int pid)
{
	struct ringbar_oom *o = reserve_oom();

	if (!o)
		return 0;
	o->tgid = pid;
	o->flags |= RINGBAR_OOM_PID_ONLY;
	oom_cgroup(o, bpf_get_current_task_btf());
	bpf_ringbuf_submit(o, 0);
	return 0;
}

#endif
