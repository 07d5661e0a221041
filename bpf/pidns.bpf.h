/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PID namespaces. A reader in a container's PID namespace knows its tasks by that
 * namespace's pids, and /proc there shows no task outside it: the iterator's records and
 * the exit reports follow the same rule. Included by ringbar.bpf.c after its maps.
 */
#ifndef RINGBAR_PIDNS_H
#define RINGBAR_PIDNS_H

/*
 * A dead group's leader has lost its pid by the time it is freed (release_task() detached
 * it), so its last report takes the pids its exit report found, saved here. Only groups
 * that live in a namespace below the initial one are saved.
 */
struct ns_tgids {
	struct ringbar_ns_tgid at[RINGBAR_NS_LEVELS];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct ns_tgids);
} dead_groups_ns_tgids SEC(".maps");

/* `pid`'s number in the namespace `level` deep (`numbers[level]`), and that namespace. */
static __always_inline int upid_at(struct pid *pid, unsigned int level, struct upid *out)
{
	unsigned long at = (unsigned long)pid + bpf_core_field_offset(struct pid, numbers) +
			   (unsigned long)level * bpf_core_type_size(struct upid);

	out->nr = 0;
	out->ns = 0;
	if (bpf_probe_read_kernel(&out->nr, sizeof(out->nr), (void *)(at + bpf_core_field_offset(struct upid, nr))))
		return -1;
	return bpf_probe_read_kernel(&out->ns, sizeof(out->ns), (void *)(at + bpf_core_field_offset(struct upid, ns)));
}

/* `pid`'s number in `ns`, `level` deep; 0 if it has none there (it lives elsewhere). */
static __always_inline __u32 pid_nr_in(struct pid *pid, unsigned int level, struct pid_namespace *ns)
{
	struct upid upid;

	if (!pid || pid->level < level || upid_at(pid, level, &upid) || upid.ns != ns)
		return 0;
	return upid.nr;
}

/*
 * The reader's view of task `t`: its tgid and pid in the namespace `level` deep that the
 * reader lives in (`ns`). False when `t` has no pid there: /proc there does not show it.
 */
static __always_inline bool seen_by_reader(struct task_struct *t, unsigned int level, struct pid_namespace *ns,
					   __u32 *tgid, __u32 *pid)
{
	*tgid = pid_nr_in(t->group_leader->thread_pid, level, ns);
	*pid = pid_nr_in(t->thread_pid, level, ns);
	return *tgid && *pid;
}

/* A group's tgid in each namespace 1 to RINGBAR_NS_LEVELS deep that it lives in. */
static __always_inline void fill_ns_tgid(struct ringbar_ns_tgid *out, struct pid *pid)
{
	unsigned int level = pid->level;

	for (unsigned int i = 1; i <= RINGBAR_NS_LEVELS; i++) {
		struct upid upid;

		if (i > level || upid_at(pid, i, &upid) || !upid.ns)
			break;
		out[i - 1].ns = BPF_CORE_READ(upid.ns, ns.inum);
		out[i - 1].tgid = upid.nr;
	}
}

/*
 * The exit report's ns_tgid, all zero where the group lives in the initial namespace
 * only. `out` is `tgid`'s; its leader's pid is gone when the group is freed, and the one
 * its exit report found is used.
 */
static __always_inline void report_ns_tgid(struct ringbar_ns_tgid *out, struct task_struct *leader, __u32 tgid)
{
	struct pid *pid = leader->thread_pid;
	struct ns_tgids *saved;

	__builtin_memset(out, 0, sizeof(struct ns_tgids));
	if (pid) {
		fill_ns_tgid(out, pid);
		if (out[0].ns)
			bpf_map_update_elem(&dead_groups_ns_tgids, &tgid, out, BPF_ANY);
		return;
	}
	saved = bpf_map_lookup_elem(&dead_groups_ns_tgids, &tgid);
	if (saved) {
		__builtin_memcpy(out, saved->at, sizeof(saved->at));
		bpf_map_delete_elem(&dead_groups_ns_tgids, &tgid);
	}
}

#endif
