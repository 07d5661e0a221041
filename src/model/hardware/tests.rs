use super::*;

#[test]
fn swap_counters_and_rates() {
    let text = b"nr_free_pages 100\npswpin 10\npswpout 30\npswpinx 99\n";
    let before = SwapCounters::parse(text).expect("parses");
    assert_eq!(
        before,
        SwapCounters {
            pages_in: 10,
            pages_out: 30
        }
    );
    let after = SwapCounters {
        pages_in: 20,
        pages_out: 30,
    };
    let rates = before.rates(after, 500_000_000, 4096).expect("rates");
    assert_eq!(rates.in_per_second, 20.0 * 4096.0);
    assert_eq!(rates.out_per_second, 0.0);
    // Backwards counters are no activity, a zero interval is no rate.
    let backwards = after.rates(before, 1_000_000_000, 4096).expect("rates");
    assert_eq!(backwards.in_per_second, 0.0);
    assert_eq!(before.rates(after, 0, 4096), None);
    assert_eq!(SwapCounters::parse(b"pswpin 1\n"), None);
    assert_eq!(SwapCounters::parse(b"pswpin x\npswpout 1\n"), None);
}

#[test]
fn busy_from_idle_residency() {
    let at = |s: u64, idle_ms: u64| IdleSample {
        at_ns: s * 1_000_000_000,
        idle_ms,
    };
    assert_eq!(at(10, 5000).busy_percent_until(at(12, 6500)), Some(25.0));
    assert_eq!(at(10, 5000).busy_percent_until(at(12, 5000)), Some(100.0));
    // Idle a hair longer than the wall clock: clamped, not negative.
    assert_eq!(at(10, 5000).busy_percent_until(at(11, 6003)), Some(0.0));
    assert_eq!(at(10, 5000).busy_percent_until(at(11, 10)), None);
    assert_eq!(at(10, 5000).busy_percent_until(at(10, 5000)), None);
}

#[test]
fn fuzz_regression_busy_never_exceeds_100() {
    // Found by fuzz/fuzz_targets/sysfs.rs: 100.00000000000001 before the clamp.
    let before = IdleSample {
        at_ns: 132_230_303_476_341,
        idle_ms: 0,
    };
    let after = IdleSample {
        at_ns: 7_277_817_485_112_922_179,
        idle_ms: 0,
    };
    assert_eq!(before.busy_percent_until(after), Some(100.0));
}

#[test]
fn throttle_names_in_bit_order() {
    let mut throttle = Throttle::default();
    assert!(throttle.is_empty());
    throttle.set(3);
    throttle.set(0);
    assert_eq!(throttle.names().collect::<Vec<_>>(), ["pl1", "thermal"]);
}

#[test]
fn label_gpu_is_configured_or_busiest() {
    let mut hw = Hardware::default();
    assert_eq!(hw.label_gpu(), None);
    let mut igpu = Gpu::new("card0", GpuDriver::I915, "0000:00:02.0");
    igpu.reading.busy_percent = Value::Known(12.0);
    let mut dgpu = Gpu::new("card1", GpuDriver::Amdgpu, "0000:03:00.0");
    dgpu.reading.busy_percent = Value::Failed;
    hw.gpus = vec![igpu, dgpu];
    assert_eq!(hw.label_gpu().map(|g| g.card.as_str()), Some("card0"));
    hw.gpus[1].reading.busy_percent = Value::Known(40.0);
    assert_eq!(hw.label_gpu().map(|g| g.card.as_str()), Some("card1"));
    hw.configured_gpu = Some(0);
    assert_eq!(hw.label_gpu().map(|g| g.card.as_str()), Some("card0"));
    assert!(hw.gpus[1].is_named("0000:03:00.0"));
    assert!(hw.gpus[1].is_named("card1"));
    assert!(!hw.gpus[1].is_named("card0"));
}
