//! Rates for records read one after another over a walk that takes time (the /proc walk):
//! each process's deltas, counted from one read of it to the next, given as over the
//! sample's interval. A pass of its own, so that sources whose records all share the
//! sample's time (the probe) pay nothing for it.

use super::Model;
use crate::model::net::NetBytes;

impl Model {
    /// Rescales the deltas [`Model::update_read_at`] took, where the records said when each
    /// was read, and sums them again.
    pub(super) fn rescale_to_own_intervals(&mut self) {
        let (processes, nets, read_times) = self.current.parts_mut();
        if read_times.is_empty() {
            return;
        }
        let snap = &mut self.snapshot;
        let interval_ns = snap.interval_ns;
        let mut cursor = 0;
        let (mut cpu, mut read, mut write, mut net) = (0u64, 0u64, 0u64, NetBytes::default());
        for (p, &now) in processes.iter_mut().zip(read_times) {
            let net_slot = p.net_slot();
            let then = self
                .previous
                .position_after(&p.key(), &mut cursor)
                .and_then(|at| self.previous.read_ns(at));
            if let Some(then) = then {
                let rescale = |delta| over_interval(delta, now.saturating_sub(then), interval_ns);
                p.cpu_delta_ns = rescale(p.cpu_delta_ns);
                p.read_delta = rescale(p.read_delta);
                p.write_delta = rescale(p.write_delta);
                if net_slot != 0 {
                    nets[net_slot].delta = nets[net_slot].delta.map(rescale);
                }
            }
            cpu = cpu.saturating_add(p.cpu_delta_ns);
            read = read.saturating_add(p.read_delta);
            write = write.saturating_add(p.write_delta);
            if net_slot != 0 {
                net.add(nets[net_slot].delta);
            }
        }
        (
            snap.cpu_busy_ns,
            snap.read_bytes,
            snap.write_bytes,
            snap.net,
        ) = (cpu, read, write, net);
    }
}

/// A count made over `own_ns`, as it would be over `interval_ns` at the same rate.
fn over_interval(count: u64, own_ns: u64, interval_ns: u64) -> u64 {
    if own_ns == 0 {
        return count;
    }
    let scaled = u128::from(count) * u128::from(interval_ns) / u128::from(own_ns);
    u64::try_from(scaled).unwrap_or(u64::MAX)
}
