use super::*;
use crate::model::app::Label;

const S: u64 = 1_000_000_000;
/// 2026-11-23 14:00:00 UTC, in ms.
const T0: u64 = 1_795_442_400_000;

fn label(name: &str) -> Label {
    Label::new(name.as_bytes())
}

/// A point whose CPU is `cpu` %, caused by `pid` named `name`.
fn cpu(cpu: f32, pid: u32, name: &str) -> Point {
    let mut p = Point::empty();
    p.values[0] = cpu;
    p.culprits[0] = Culprit {
        pid,
        name: label(name),
    };
    p
}

fn cpu_values(h: &History) -> Vec<Option<f32>> {
    h.values(Metric::Cpu).collect()
}

#[test]
fn the_ring_is_ten_minutes_of_seconds_and_its_size_is_fixed() {
    let h = History::default();
    assert_eq!(SECONDS, 600);
    assert_eq!(
        History::BYTES,
        SECONDS * std::mem::size_of::<Bucket>() + std::mem::size_of::<Names>()
    );
    assert_eq!(std::mem::size_of::<Bucket>(), 72, "72 bytes a second");
    assert_eq!(History::BYTES, 47_312, "and 4 KiB of names");
    assert_eq!(h.filled(), 0);
    assert_eq!(h.values(Metric::Cpu).count(), 0);
    assert_eq!(h.peak(Metric::Cpu), None);
}

#[test]
fn fast_samples_fold_into_one_second_keeping_the_highest_and_its_culprit() {
    let mut h = History::default();
    for (i, (value, pid, name)) in [(10.0, 1, "a"), (97.0, 2, "cargo"), (40.0, 3, "b")]
        .into_iter()
        .enumerate()
    {
        h.record(T0 + 100 * i as u64, S / 10, &cpu(value, pid, name));
    }
    assert_eq!(h.filled(), 1);
    assert_eq!(h.last(Metric::Cpu), Some(97.0));
    let peak = h.peak(Metric::Cpu).expect("a peak");
    assert_eq!((peak.value, peak.unix_s), (97.0, T0 / 1000));
    assert_eq!((peak.culprit.pid, peak.culprit.name), (2, label("cargo")));
    assert_eq!(h.last(Metric::Memory), None, "no memory value was given");
}

#[test]
fn the_peak_is_the_highest_second_and_of_equals_the_latest() {
    let mut h = History::default();
    let values = [5.0, 60.0, 20.0, 60.0, 1.0];
    for (i, v) in values.into_iter().enumerate() {
        h.record(T0 + 1000 * i as u64, S, &cpu(v, 10 + i as u32, "p"));
    }
    let peak = h.peak(Metric::Cpu).expect("a peak");
    assert_eq!(
        (peak.value, peak.unix_s, peak.culprit.pid),
        (60.0, T0 / 1000 + 3, 13)
    );
    let tail: Vec<_> = cpu_values(&h).into_iter().rev().take(5).collect();
    assert_eq!(
        tail,
        [Some(1.0), Some(60.0), Some(20.0), Some(60.0), Some(5.0)]
    );
}

#[test]
fn wraps_around_forgetting_what_is_older_than_ten_minutes() {
    let mut h = History::default();
    // A spike in the first second, then 15 minutes of calm.
    h.record(T0, S, &cpu(99.0, 7, "spike"));
    for i in 1..900u64 {
        h.record(T0 + i * 1000, S, &cpu(1.0 + (i % 3) as f32, 8, "calm"));
    }
    assert_eq!(h.filled(), SECONDS);
    let values = cpu_values(&h);
    assert_eq!(values.len(), SECONDS);
    assert!(
        values.iter().all(|v| v.is_some_and(|v| v < 4.0)),
        "spike gone"
    );
    let peak = h.peak(Metric::Cpu).expect("a peak");
    assert_eq!(peak.culprit.name, label("calm"));
    assert_eq!(h.first_second(), Some(T0 / 1000 + 899 - 599));
    assert_eq!(values.last(), Some(&Some(1.0 + (899 % 3) as f32)));
}

#[test]
fn slow_samples_fill_every_second_of_their_interval() {
    let mut h = History::default();
    h.record(T0, S / 10, &cpu(10.0, 1, "a"));
    // The interval changes to 2 s: one sample covers two seconds.
    h.record(T0 + 2000, 2 * S, &cpu(30.0, 1, "a"));
    h.record(T0 + 4000, 2 * S, &cpu(50.0, 1, "a"));
    // And back to 250 ms: four samples in one second.
    for i in 1..=4 {
        h.record(T0 + 4000 + 250 * i, S / 4, &cpu(20.0, 1, "a"));
    }
    let tail: Vec<_> = cpu_values(&h).into_iter().rev().take(6).collect();
    assert_eq!(
        tail,
        [
            Some(20.0),
            Some(50.0),
            Some(50.0),
            Some(30.0),
            Some(30.0),
            Some(10.0)
        ]
    );
    assert_eq!(h.filled(), 6);
}

#[test]
fn a_long_interval_fills_no_more_than_its_span_and_a_suspend_leaves_a_gap() {
    let mut h = History::default();
    h.record(T0, S, &cpu(10.0, 1, "a"));
    // Resumed 60 s later: the monotonic interval was 1 s, the rest is a gap.
    h.record(T0 + 60_000, S, &cpu(20.0, 1, "a"));
    let tail: Vec<_> = cpu_values(&h).into_iter().rev().take(61).collect();
    assert_eq!(tail[0], Some(20.0));
    assert!(tail[1..60].iter().all(Option::is_none));
    assert_eq!(tail[60], Some(10.0));
    // A sample that measured 20 minutes fills the whole ring, not more.
    h.record(T0 + 2_000_000, 1200 * S, &cpu(5.0, 1, "a"));
    assert_eq!(h.filled(), SECONDS);
    assert_eq!(h.peak(Metric::Cpu).map(|p| p.value), Some(5.0));
}

#[test]
fn a_clock_going_back_folds_a_little_and_restarts_for_more() {
    let mut h = History::default();
    h.record(T0 + 10_000, S, &cpu(10.0, 1, "a"));
    h.record(T0 + 9_000, S, &cpu(30.0, 2, "b"));
    assert_eq!(h.filled(), 1);
    assert_eq!(h.latest(), Some(T0 / 1000 + 10));
    assert_eq!(h.last(Metric::Cpu), Some(30.0));
    h.record(T0, S, &cpu(5.0, 3, "c"));
    assert_eq!(h.filled(), 1, "started afresh");
    assert_eq!(h.latest(), Some(T0 / 1000));
    assert_eq!(h.peak(Metric::Cpu).map(|p| p.culprit.pid), Some(3));
}

#[test]
fn a_point_of_a_snapshot_takes_the_top_rows_as_culprits() {
    use crate::model::process::tests::{comm as pcomm, thread};
    use crate::model::{Memory, Model};
    let mut m = Model::new(4096, 2);
    let mut spin = thread(100, 100, 0, 0);
    spin.comm = pcomm("spin");
    let mut hog = thread(200, 200, 1, 0);
    hog.comm = pcomm("hog");
    hog.rss_pages = 256;
    m.update(S, &[spin, hog], &[], None, None);
    let first = Point::of(m.snapshot(), None, None);
    assert!(first.values[0].is_nan(), "no rates in the first sample");
    spin.cpu_ns = S / 2;
    hog.write_bytes = 1 << 20;
    spin.net_received_bytes = 3000;
    spin.net_sent_bytes = 1000;
    spin.flags |= crate::model::record::TASK_NET;
    let memory = Memory {
        total: 8 << 30,
        available: 6 << 30,
        ..Memory::default()
    };
    m.update(2 * S, &[spin, hog], &[], Some(memory), None);
    m.rank(false);
    let p = Point::of(m.snapshot(), Some(37.0), None);
    assert_eq!(p.values, [25.0, 25.0, (1 << 20) as f32, 4000.0, 37.0]);
    assert_eq!(p.culprits[0].name, label("spin"));
    assert_eq!(p.culprits[1].name, label("hog"));
    assert_eq!(p.culprits[2].pid, 200);
    assert_eq!(p.culprits[3].name, label("spin"), "the network's busiest");
    assert!(p.culprits[4].is_none(), "no GPU users list: no culprit");

    // The GPU's culprit is its busiest user, under the name its row shows.
    use crate::model::gpu_process::GpuProcess;
    let mut blender = GpuProcess {
        pid: 300,
        busy_percent: Some(31.5),
        ..GpuProcess::default()
    };
    blender.comm[..7].copy_from_slice(b"blender");
    let p = Point::of(m.snapshot(), Some(37.0), Some(&blender));
    assert_eq!(
        (p.culprits[4].pid, p.culprits[4].name),
        (300, label("blender"))
    );
    // One that holds memory but used no GPU time is no culprit of the busy share.
    blender.busy_percent = Some(0.0);
    assert!(Point::of(m.snapshot(), Some(37.0), Some(&blender)).culprits[4].is_none());
    blender.busy_percent = None;
    assert!(Point::of(m.snapshot(), Some(37.0), Some(&blender)).culprits[4].is_none());
}

#[test]
fn downsampling_keeps_each_columns_highest_and_its_gaps() {
    let mut h = History::default();
    let mut columns = [None; 4];
    assert_eq!(h.downsample(Metric::Cpu, 600, &mut columns), (0, 0));
    for i in 0..8u64 {
        if i != 2 && i != 3 {
            h.record(T0 + 1000 * i, S, &cpu(i as f32, 1, "a"));
        }
    }
    assert_eq!(h.downsample(Metric::Cpu, 600, &mut columns), (4, 8));
    assert_eq!(columns, [Some(1.0), None, Some(5.0), Some(7.0)]);
    let mut wide = [Some(-1.0); 20];
    assert_eq!(
        h.downsample(Metric::Cpu, 600, &mut wide),
        (8, 8),
        "a column a second"
    );
    assert_eq!(wide[..3], [Some(0.0), Some(1.0), None]);
    assert_eq!(wide[8], Some(-1.0), "columns past the span untouched");
    assert_eq!(
        h.downsample(Metric::Cpu, 3, &mut wide),
        (3, 3),
        "the last 3 s"
    );
    assert_eq!(wide[..3], [Some(5.0), Some(6.0), Some(7.0)]);
}

#[test]
fn has_values_per_metric() {
    let mut h = History::default();
    assert!(!h.has_values(Metric::Cpu));
    h.record(T0, S, &cpu(0.0, 1, "a"));
    assert!(h.has_values(Metric::Cpu));
    assert!(!h.has_values(Metric::Gpu));
    assert_eq!(h.count(Metric::Cpu), 1);
}

#[test]
fn culprits_keep_the_name_their_row_showed_however_long() {
    let mut h = History::default();
    h.record(T0, S, &cpu(99.0, 7, "qemu-system-x86_64"));
    let peak = h.peak(Metric::Cpu).expect("a peak");
    assert_eq!(peak.culprit.name.as_bytes(), b"qemu-system-x86_64");
}

#[test]
fn past_the_name_slots_names_nobody_refers_to_give_way_and_none_is_ever_wrong() {
    let mut h = History::default();
    // 600 seconds, each with a name of its own: far more names than slots.
    for i in 0..SECONDS as u64 {
        h.record(
            T0 + 1000 * i,
            S,
            &cpu(1.0 + i as f32 / 1000.0, 1 + i as u32, &format!("n{i}")),
        );
    }
    // Every second still holds its value; a culprit it names is its own, or none.
    for i in 0..SECONDS as u64 {
        let bucket = h.bucket(T0 / 1000 + i).expect("bucket");
        let culprit = h.culprit(bucket.culprits[0]);
        assert!(
            culprit.is_none()
                || culprit
                    == Culprit {
                        pid: 1 + i as u32,
                        name: label(&format!("n{i}"))
                    },
            "second {i}: {culprit:?}"
        );
    }
    // The newest seconds kept theirs.
    let peak = h.peak(Metric::Cpu).expect("a peak");
    assert_eq!(peak.culprit.name, label("n599"));
    // Once the old seconds have left the ring, their names' slots are taken first.
    for i in 0..SECONDS as u64 {
        let second = T0 + 1000 * (SECONDS as u64 + i);
        h.record(second, S, &cpu(50.0, 9, if i % 2 == 0 { "a" } else { "b" }));
    }
    let peak = h.peak(Metric::Cpu).expect("a peak");
    assert_eq!((peak.culprit.pid, peak.culprit.name), (9, label("b")));
}
