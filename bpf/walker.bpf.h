/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The walker: every task's record in one program run, for ringbar's sample on Linux 6.7+.
 * Part of bpf/ringbar.bpf.c (included near its end), whose fill_task() writes each record.
 */
#ifndef RINGBAR_WALKER_BPF_H
#define RINGBAR_WALKER_BPF_H

/*
 * The walker's output: one record per task, in a map user space maps into its memory.
 * Its size is set before loading; tasks past it are only counted, and user space reads
 * that sample through the iterator instead.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ringbar_task);
} walked SEC(".maps");

/*
 * Whose view the walker writes: the context of its run (BPF_PROG_TEST_RUN's ctx_in),
 * which the kernel refuses when it is shorter than what the program reads. The bar
 * passes its own ids; the probe service passes its client's, from SO_PEERCRED, which the
 * client cannot forge. Nobody else holds the program.
 */
struct walk_reader {
	__u32 uid;
	__u32 gid;
};

/*
 * The same records as dump_task, for every task of the caller's PID namespace, in one run
 * (BPF_PROG_TEST_RUN from the reading process, or from the probe service for a client):
 * the open-coded task iterator follows the kernel's task list under RCU, without the
 * iterator's pid lookups, reference counts and seq_file round per task, which cost most
 * of a sample with thousands of tasks.
 * It walks every task of the machine, so it runs only for a caller in the initial PID
 * namespace, which sees them all in /proc; elsewhere it returns WALK_REFUSED and user
 * space reads through the iterator, which keeps to the reader's namespace. (The service
 * offers walks only to clients in its own namespace.)
 * Returns the tasks found, written or not.
 */
#define WALK_REFUSED 0xffffffffu

/*
 * The count starts from a global the program never writes (always 0): from a constant,
 * the verifier would follow the count (0, 1, 2, ...) as part of each turn's state and
 * check the loop's body more often (5,900 instructions verified, against 3,300).
 * The record is filled inline: as a function of its own (1,900 instructions verified, in
 * the same time on Linux 6.18) the call cost 7 to 9 ns a task, about 30 us a sample at
 * 3,300 tasks.
 */
__u64 walk_first_slot;

SEC("syscall")
int walk_tasks(struct walk_reader *ctx)
{
	struct task_struct *me = bpf_get_current_task_btf();
	struct bpf_iter_task it;
	struct task_struct *t;
	__u64 reader = ((__u64)ctx->gid << 32) | ctx->uid;
	__u64 n = walk_first_slot;

	if (!me->thread_pid || me->thread_pid->level != 0)
		return WALK_REFUSED;

	bpf_rcu_read_lock();
	bpf_iter_task_new(&it, NULL, BPF_TASK_ITER_ALL_THREADS);
	while ((t = bpf_iter_task_next(&it))) {
		__u32 slot;
		struct ringbar_task *rec;

		/* The walk starts at CPU 0's idle task, which the task iterator leaves out. */
		if (t->pid == 0)
			continue;
		slot = n++;
		rec = bpf_map_lookup_elem(&walked, &slot);
		if (rec)
			fill_task(rec, t, reader);
	}
	bpf_iter_task_destroy(&it);
	bpf_rcu_read_unlock();
	return n;
}

#endif
