/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The few kernel types the probe reads, declared by hand. preserve_access_index makes every
 * field access a CO-RE relocation resolved against the running kernel's BTF at load time, so
 * only the names and types matter here, never the offsets or the other fields.
 */
#ifndef RINGBAR_KERNEL_H
#define RINGBAR_KERNEL_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef __u8 u8;
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;
typedef _Bool bool;
#define true 1
#define false 0

/* bpf_map_update_elem() flags */
#define BPF_ANY 0
/* A map's flags: user space may mmap() an array's values. */
#define BPF_F_MMAPABLE (1U << 10)

enum bpf_map_type {
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_LRU_HASH = 9,
	BPF_MAP_TYPE_RINGBUF = 27,
	BPF_MAP_TYPE_TASK_STORAGE = 29,
};

/* A map's flags: storage made on first use, not ahead. */
#define BPF_F_NO_PREALLOC (1U << 0)
/* bpf_task_storage_get() flags */
#define BPF_LOCAL_STORAGE_GET_F_CREATE (1ULL << 0)

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	long counter;
} atomic_long_t;

struct sched_entity {
	u64 sum_exec_runtime;
};

struct task_io_accounting {
	u64 read_bytes;
	u64 write_bytes;
};

/* Linux >= 6.2: mm->rss_stat is an array of percpu counters. */
struct percpu_counter {
	s64 count;
};

struct mm_struct {
	struct percpu_counter rss_stat[4];
};

/* Linux >= 6.18: mm->flags is a bitmap (mm_flags_t). */
struct mm_flags_bitmap {
	unsigned long __mm_flags[1];
};

struct mm_struct___flags_bitmap {
	struct mm_flags_bitmap flags;
};

/* Linux < 6.18: mm->flags is an unsigned long. */
struct mm_struct___flags_long {
	unsigned long flags;
};

typedef struct {
	unsigned int val;
} kuid_t;

typedef struct {
	unsigned int val;
} kgid_t;

struct cred {
	kuid_t uid;
	kgid_t gid;
	kuid_t suid;
	kgid_t sgid;
	kuid_t euid;
	kgid_t egid;
};

/* Linux < 6.2: mm->rss_stat is a struct of atomics. */
struct mm_rss_stat {
	atomic_long_t count[4];
};

struct mm_struct___pre62 {
	struct mm_rss_stat rss_stat;
};

struct signal_struct {
	atomic_t live;
	u64 sum_sched_runtime;
	struct task_io_accounting ioac;
};

/* The task's cgroup on the default (v2) hierarchy: its kernfs node's id is the directory's
 * inode number on a cgroup2 mount (u64 since Linux 5.5). */
struct kernfs_node {
	u64 id;
};

struct cgroup {
	struct kernfs_node *kn;
};

struct cgroup_subsys_state;

/* A task's cgroups: its v2 cgroup, and one css per controller, by controller id. */
struct css_set {
	struct cgroup_subsys_state *subsys[1];
	struct cgroup *dfl_cgrp;
};

/* CONFIG_SCHED_INFO: when the scheduler last put the task on a CPU (sched_clock ns). */
struct sched_info {
	unsigned long long last_arrival;
};

/* What every namespace has: its inode number, as stat() of /proc/PID/ns/pid gives it. */
struct ns_common {
	unsigned int inum;
};

struct pid_namespace {
	struct ns_common ns;
};

/* A pid's number in one PID namespace. */
struct upid {
	int nr;
	struct pid_namespace *ns;
};

/*
 * A pid: `level` is the depth of the PID namespace it was allocated in (0: the initial);
 * numbers[0..=level] are its numbers from the initial namespace down to that one (a
 * flexible array in the kernel, read through bpf_probe_read_kernel past its first entry).
 */
struct pid {
	unsigned int level;
	struct upid numbers[1];
};

struct task_struct {
	unsigned int __state;
	unsigned int flags;
	int exit_state;
	int pid;
	int tgid;
	u64 start_time;
	char comm[16];
	struct sched_entity se;
	struct sched_info sched_info;
	struct mm_struct *mm;
	const struct cred *cred;
	struct task_struct *group_leader;
	struct signal_struct *signal;
	struct task_io_accounting ioac;
	struct css_set *cgroups;
	struct pid *thread_pid;
};

/* Linux < 5.14 called the state field `state` and made it a long. */
struct task_struct___pre514 {
	long state;
};

/* Memory cgroups: the memory controller's css in a task's css_set. */
enum cgroup_subsys_id {
	memory_cgrp_id = 4,
};

struct cgroup_subsys_state {
	struct cgroup_subsys_state *parent;
};

struct page_counter {
	atomic_long_t usage;
	unsigned long max;
};

struct mem_cgroup {
	struct cgroup_subsys_state css;
	struct page_counter memory;
};

/* Sockets, for the network byte counts: the peer's and the local address. */
struct in6_addr {
	union {
		__u8 u6_addr8[16];
		__be32 u6_addr32[4];
	} in6_u;
};

struct sock_common {
	__be32 skc_daddr;
	__be32 skc_rcv_saddr;
	unsigned short skc_family;
	struct in6_addr skc_v6_daddr;
	struct in6_addr skc_v6_rcv_saddr;
};

struct sock {
	struct sock_common __sk_common;
};

struct seq_file;

struct bpf_iter_meta {
	struct seq_file *seq;
	u64 session_id;
	u64 seq_num;
};

struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
};

#pragma clang attribute pop

/*
 * The open-coded task iterator (Linux 6.7+): its state lives on the program's stack, as
 * the kernel's struct of three opaque words; the kfuncs are weak so that the object still
 * loads where they are missing (user space then leaves the walker out).
 */
struct bpf_iter_task {
	u64 __opaque[3];
} __attribute__((aligned(8)));

#define BPF_TASK_ITER_ALL_THREADS 1

extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task,
			     unsigned int flags) __attribute__((weak, section(".ksyms")));
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it)
	__attribute__((weak, section(".ksyms")));
extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __attribute__((weak, section(".ksyms")));
extern void bpf_rcu_read_lock(void) __attribute__((weak, section(".ksyms")));
extern void bpf_rcu_read_unlock(void) __attribute__((weak, section(".ksyms")));

/* A pointer to kernel memory of a BTF type, read-only and untrusted (Linux 6.2+). */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __attribute__((weak, section(".ksyms")));

#endif
