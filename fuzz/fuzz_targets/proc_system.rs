//! System-wide procfs text: meminfo, loadavg, stat's cpu line, pressure, vmstat.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ringbar::model::hardware::SwapCounters;
use ringbar::model::procstat::parse_cpu_ticks;
use ringbar::model::{LoadAverage, Memory};
use ringbar::modules::pressure::Stall;

fuzz_target!(|text: &[u8]| {
    if let Some(memory) = Memory::parse(text) {
        assert!(memory.used() <= memory.total);
        assert!(memory.swap_used() <= memory.swap_total);
    }
    if let Some(load) = LoadAverage::parse(text) {
        assert!(load.0.iter().all(|l| l.is_finite() && *l >= 0.0));
    }
    if let Some((busy, total)) = parse_cpu_ticks(text) {
        assert!(busy <= total);
    }
    if let Some(stall) = Stall::parse(text) {
        assert!((0.0..=100.0).contains(&stall.some));
        assert!(stall.full.is_none_or(|f| (0.0..=100.0).contains(&f)));
    }
    if let Some(counters) = SwapCounters::parse(text) {
        let rates = counters.rates(SwapCounters::default(), 1, 4096);
        assert!(rates.is_some_and(|r| r.in_per_second == 0.0 && r.out_per_second == 0.0));
    }
});
