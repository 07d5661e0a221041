use super::*;
use crate::model::hardware::GpuDriver;

const SECOND: u64 = 1_000_000_000;

fn owner(pid: u32, name: &str) -> Owner {
    let mut comm = [0; COMM_LEN];
    comm[..name.len()].copy_from_slice(name.as_bytes());
    Owner {
        pid,
        start_ns: u64::from(pid) * 10,
        comm,
    }
}

fn gpus() -> Vec<Gpu> {
    vec![
        Gpu::new("card0", GpuDriver::I915, "0000:00:02.0"),
        Gpu::new("nvidia0", GpuDriver::Nvidia, "0000:01:00.0"),
        Gpu::new("card1", GpuDriver::Amdgpu, "0000:03:00.0"),
    ]
}

fn i915(client: u64, render_ns: u64, video_ns: u64, resident_mib: u64) -> DrmFdinfo {
    DrmFdinfo::parse(
        format!(
            "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t{client}\n\
             drm-resident-system0:\t{resident_mib} MiB\n\
             drm-engine-render:\t{render_ns} ns\ndrm-engine-video:\t{video_ns} ns\n\
             drm-engine-capacity-video:\t2\n"
        )
        .as_bytes(),
    )
}

fn rows(gpu: &Gpu) -> Vec<(u32, Option<f64>, Option<u64>)> {
    gpu.processes
        .rows()
        .iter()
        .map(|p| (p.pid, p.busy_percent, p.memory_bytes))
        .collect()
}

#[test]
fn engine_time_becomes_the_busiest_engines_share() {
    let mut gpus = gpus();
    let mut usage = DrmUsage::default();
    usage.begin();
    usage.add_fd(SECOND, 0, owner(10, "game"), 5, &i915(1, 0, 0, 64));
    usage.finish(&mut gpus);
    assert_eq!(rows(&gpus[0]), [(10, None, Some(64 << 20))], "no delta yet");

    // 2 s: render busy 0.5 s (25 %), video 3 s over its two engines (75 %).
    usage.begin();
    usage.add_fd(
        3 * SECOND,
        0,
        owner(10, "game"),
        5,
        &i915(1, SECOND / 2, 3 * SECOND, 64),
    );
    usage.finish(&mut gpus);
    assert_eq!(rows(&gpus[0]), [(10, Some(75.0), Some(64 << 20))]);
    assert!(gpus[1].processes.is_empty() && gpus[2].processes.is_empty());
}

#[test]
fn xe_cycles_over_the_gpu_timestamp() {
    let xe = |cycles: u64, total: u64| {
        DrmFdinfo::parse(
            format!(
                "drm-driver: xe\ndrm-client-id: 3\ndrm-cycles-rcs: {cycles}\n\
                 drm-total-cycles-rcs: {total}\ndrm-cycles-ccs: {cycles}\n\
                 drm-total-cycles-ccs: {total}\ndrm-engine-capacity-ccs: 4\n"
            )
            .as_bytes(),
        )
    };
    // The wall time plays no part: 1000 of 4000 cycles is 25 % however long it took.
    assert_eq!(busy_share(&xe(0, 1000), &xe(1000, 5000), 0), Some(25.0));
    assert_eq!(
        busy_share(&xe(0, 1000), &xe(1000, 1000), SECOND),
        None,
        "no cycles"
    );
}

#[test]
fn a_client_shared_by_fds_and_processes_counts_once() {
    let mut gpus = gpus();
    let mut usage = DrmUsage::default();
    for (t, busy) in [(1, 0), (2, SECOND / 10)] {
        usage.begin();
        // The parent holds the client through fds 5 and 9, a forked child through 5.
        usage.add_fd(
            t * SECOND,
            0,
            owner(10, "parent"),
            5,
            &i915(7, busy, 0, 100),
        );
        usage.add_fd(
            t * SECOND,
            0,
            owner(10, "parent"),
            9,
            &i915(7, busy, 0, 100),
        );
        usage.add_fd(t * SECOND, 0, owner(11, "child"), 5, &i915(7, busy, 0, 100));
        // The child's own client.
        usage.add_fd(
            t * SECOND,
            0,
            owner(11, "child"),
            6,
            &i915(8, busy * 2, 0, 1),
        );
        usage.finish(&mut gpus);
    }
    assert_eq!(
        rows(&gpus[0]),
        [
            (11, Some(20.0), Some(1 << 20)),
            (10, Some(10.0), Some(100 << 20))
        ]
    );
    assert_eq!(usage.clients(), 2);
    // The same client id on another GPU is another client.
    usage.begin();
    usage.add_fd(3 * SECOND, 2, owner(10, "parent"), 12, &i915(7, 0, 0, 2));
    usage.finish(&mut gpus);
    assert_eq!(rows(&gpus[2]), [(10, None, Some(2 << 20))]);
    assert!(gpus[0].processes.is_empty());
    assert_eq!(
        usage.clients(),
        1,
        "clients not read in a tick are forgotten"
    );
}

#[test]
fn clients_of_one_process_add_up_and_counters_going_back_are_held() {
    let mut gpus = gpus();
    let mut usage = DrmUsage::default();
    let tick = |usage: &mut DrmUsage, gpus: &mut [Gpu], t: u64, a: u64, b: u64| {
        usage.begin();
        usage.add_fd(t * SECOND, 0, owner(10, "x"), 5, &i915(1, a, 0, 1));
        usage.add_fd(t * SECOND, 0, owner(10, "x"), 6, &i915(2, b, 0, 1));
        usage.finish(gpus);
        rows(&gpus[0])
    };
    tick(&mut usage, &mut gpus, 1, 0, 0);
    let both = tick(&mut usage, &mut gpus, 2, SECOND / 2, SECOND * 3 / 4);
    assert_eq!(
        both,
        [(10, Some(100.0), Some(2 << 20))],
        "125 % clamps to 100"
    );
    // Client 1 goes back to 0.1 s: held at 0.5 s, so no busy time (not a wrap to 2^64).
    let back = tick(&mut usage, &mut gpus, 3, SECOND / 10, SECOND);
    assert_eq!(back, [(10, Some(25.0), Some(2 << 20))]);
    // It catches up: only what passes the held 0.5 s counts.
    let caught_up = tick(&mut usage, &mut gpus, 4, SECOND * 6 / 10, SECOND);
    assert_eq!(caught_up[0].1.map(|p| (p * 10.0).round()), Some(100.0));
}

#[test]
fn the_list_keeps_the_five_busiest_then_the_largest() {
    let mut list = GpuProcesses::default();
    for pid in 1..=8u32 {
        list.offer(GpuProcess {
            pid,
            busy_percent: (pid % 2 == 0).then_some(f64::from(pid)),
            memory_bytes: Some(u64::from(100 - pid)),
            ..GpuProcess::default()
        });
    }
    let pids: Vec<u32> = list.rows().iter().map(|p| p.pid).collect();
    assert_eq!(
        pids,
        [8, 6, 4, 2, 1],
        "busy first; then by memory among the idle"
    );
}

#[test]
fn clients_find_their_gpu_by_pci_slot() {
    let gpus = gpus();
    assert_eq!(gpu_of(PciSlot::parse("0000:03:00.0"), &gpus), Some(2));
    assert_eq!(
        gpu_of(PciSlot::parse("0000:01:00.0"), &gpus),
        None,
        "NVML's"
    );
    assert_eq!(gpu_of(PciSlot::parse("0000:09:00.0"), &gpus), None);
    assert_eq!(gpu_of(None, &gpus), None, "two DRM GPUs: cannot tell");
    assert_eq!(gpu_of(None, &gpus[..2]), Some(0), "the only DRM GPU");
}
