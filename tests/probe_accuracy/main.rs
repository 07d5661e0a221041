//! The real probe, loaded into the running kernel, checked against /proc with real
//! processes; and the /proc fallback collector held to the same checks (each test runs
//! once per source: `probe::…` and `proc_fallback::…`). Needs root.

#[path = "../common/mod.rs"]
mod common;

mod agreement;
mod cpu;
mod frozen;
mod memory_io;
mod names_states;
mod network;
mod pid_namespace;
mod threads;
mod walker;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use ringbar::model::{Row, Snapshot, TaskState, TopList};
use ringbar::records::collector::Collector;

use cpu::a_spinning_thread_matches_its_schedstat_and_the_total_matches_proc_stat;
use cpu::short_lived_children_count_in_total_cpu_and_never_show_as_zombies;
use frozen::a_frozen_task_is_a_d_row;
use memory_io::a_400_mb_process_is_in_the_memory_top_5_with_its_statm_rss;
use memory_io::a_steady_writer_is_in_the_io_top_5_at_its_proc_io_rate;
use names_states::a_hostile_name_is_cut_to_15_bytes_and_kept_intact;
use names_states::an_exec_shows_the_new_name_in_the_next_sample;
use names_states::an_unreaped_child_is_a_zombie_row_after_two_samples;
use names_states::each_task_state_is_the_letter_proc_shows;
use threads::kernel_threads_are_listed_only_when_included;
use threads::ten_thousand_threads_are_all_counted;

/// Where a collector's task records come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Probe,
    Proc,
}

fn collector(source: Source, kernel_threads: bool) -> Collector {
    require_root();
    match source {
        Source::Probe => Collector::with_probe(kernel_threads).expect("the BPF probe loads"),
        Source::Proc => Collector::with_proc(kernel_threads),
    }
}

/// One `#[test]` per source for each check.
macro_rules! against_both_sources {
    ($($check:ident),* $(,)?) => {
        mod probe {
            $(#[test] fn $check() { super::$check(super::Source::Probe) })*
        }
        mod proc_fallback {
            $(#[test] fn $check() { super::$check(super::Source::Proc) })*
        }
    };
}

against_both_sources!(
    a_spinning_thread_matches_its_schedstat_and_the_total_matches_proc_stat,
    a_400_mb_process_is_in_the_memory_top_5_with_its_statm_rss,
    a_steady_writer_is_in_the_io_top_5_at_its_proc_io_rate,
    an_exec_shows_the_new_name_in_the_next_sample,
    an_unreaped_child_is_a_zombie_row_after_two_samples,
    each_task_state_is_the_letter_proc_shows,
    short_lived_children_count_in_total_cpu_and_never_show_as_zombies,
    a_frozen_task_is_a_d_row,
    kernel_threads_are_listed_only_when_included,
    a_hostile_name_is_cut_to_15_bytes_and_kept_intact,
    ten_thousand_threads_are_all_counted,
);

fn sample(c: &mut Collector) -> Snapshot {
    c.sample().expect("sample");
    *c.snapshot()
}

fn find<const N: usize>(list: &TopList<N>, tgid: u32) -> Option<&Row> {
    list.rows().iter().find(|r| r.tgid == tgid)
}

fn is_kernel_thread(pid: u32) -> bool {
    const PF_KTHREAD: u64 = 0x0020_0000;
    let flags: u64 = stat_fields(pid)
        .and_then(|f| f[6].parse().ok())
        .unwrap_or(0);
    flags & PF_KTHREAD != 0
}

fn all_rows(s: &Snapshot) -> Vec<Row> {
    let mut rows: Vec<Row> = s.top_cpu.rows().to_vec();
    rows.extend_from_slice(s.top_memory.rows());
    rows.extend_from_slice(s.top_io.rows());
    rows.extend(s.stuck.rows().map(|(_, r)| *r));
    rows
}

fn zombie_rows(s: &Snapshot) -> Vec<(u32, String)> {
    s.stuck
        .rows()
        .filter(|(state, _)| *state == TaskState::Zombie)
        .map(|(_, r)| (r.tgid, name(&r.comm)))
        .collect()
}

/// A directory on a real filesystem: tmpfs writes are not storage IO.
fn disk_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("io-test");
    fs::create_dir_all(&dir).expect("create io test dir");
    dir
}
