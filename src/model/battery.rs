//! Batteries as the kernel's power_supply class reports them
//! (`/sys/class/power_supply/BAT*`), and what several of them add up to.

use super::value::Value;

/// `status` of a power_supply battery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BatteryStatus {
    Charging,
    Discharging,
    Full,
    NotCharging,
    #[default]
    Unknown,
}

impl BatteryStatus {
    pub fn parse(text: &str) -> BatteryStatus {
        match text.trim() {
            "Charging" => BatteryStatus::Charging,
            "Discharging" => BatteryStatus::Discharging,
            "Full" => BatteryStatus::Full,
            "Not charging" => BatteryStatus::NotCharging,
            _ => BatteryStatus::Unknown,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BatteryStatus::Charging => "charging",
            BatteryStatus::Discharging => "discharging",
            BatteryStatus::Full => "full",
            BatteryStatus::NotCharging => "not charging",
            BatteryStatus::Unknown => "unknown",
        }
    }
}

/// One battery at one tick. Energies in Wh and power in W; a battery that reports charge
/// (µAh) and current (µA) instead is converted with its voltage. `clone_from` reuses the
/// name (see `hardware/clone.rs`).
#[derive(Debug, Default, PartialEq)]
pub struct Battery {
    /// `BAT0`.
    pub name: String,
    pub status: BatteryStatus,
    /// `capacity`, percent.
    pub capacity: Value<f64>,
    pub energy_now_wh: Value<f64>,
    pub energy_full_wh: Value<f64>,
    pub energy_full_design_wh: Value<f64>,
    /// Always positive; the status says which way it flows.
    pub power_w: Value<f64>,
}

/// All batteries together, as the module shows them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatteryTotal {
    /// Percent: the energy-weighted charge where every battery reports energies, else the
    /// mean of the capacities.
    pub capacity: f64,
    pub status: BatteryStatus,
    /// Until empty while discharging, until full while charging; `None` without a rate.
    pub seconds_left: Option<u64>,
    pub power_w: Option<f64>,
}

/// What several batteries add up to; `None` without any.
pub fn combine(batteries: &[Battery]) -> Option<BatteryTotal> {
    if batteries.is_empty() {
        return None;
    }
    let status = if batteries
        .iter()
        .any(|b| b.status == BatteryStatus::Discharging)
    {
        BatteryStatus::Discharging
    } else if batteries
        .iter()
        .any(|b| b.status == BatteryStatus::Charging)
    {
        BatteryStatus::Charging
    } else if batteries.iter().all(|b| b.status == BatteryStatus::Full) {
        BatteryStatus::Full
    } else if batteries
        .iter()
        .any(|b| b.status == BatteryStatus::NotCharging)
    {
        BatteryStatus::NotCharging
    } else {
        BatteryStatus::Unknown
    };
    // Energy-weighted where every battery reports its energies; no allocation per tick.
    let mut energy = Some((0.0, 0.0));
    for b in batteries {
        energy = match (energy, b.energy_now_wh.known(), b.energy_full_wh.known()) {
            (Some((now, full)), Some(n), Some(f)) => Some((now + n, full + f)),
            _ => None,
        };
    }
    let energy = energy.filter(|&(_, full)| full > 0.0);
    let capacity = match energy {
        Some((now, full)) => now / full * 100.0,
        None => {
            let (sum, count) = batteries
                .iter()
                .filter_map(|b| b.capacity.known())
                .fold((0.0, 0u32), |(sum, count), c| (sum + c, count + 1));
            if count == 0 {
                return None;
            }
            sum / f64::from(count)
        }
    };
    let power: f64 = batteries.iter().filter_map(|b| b.power_w.known()).sum();
    let power_w = (power > 0.0).then_some(power);
    let seconds_left = match (status, energy, power_w) {
        (BatteryStatus::Discharging, Some((now, _)), Some(w)) => Some(now / w),
        (BatteryStatus::Charging, Some((now, full)), Some(w)) => Some((full - now).max(0.0) / w),
        _ => None,
    }
    .map(|hours| (hours * 3600.0) as u64);
    Some(BatteryTotal {
        capacity: capacity.clamp(0.0, 100.0),
        status,
        seconds_left,
        power_w,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn battery(status: BatteryStatus, now: f64, full: f64, power: f64) -> Battery {
        Battery {
            name: "BAT0".to_owned(),
            status,
            capacity: Value::Known(now / full * 100.0),
            energy_now_wh: Value::Known(now),
            energy_full_wh: Value::Known(full),
            energy_full_design_wh: Value::Known(full),
            power_w: Value::Known(power),
        }
    }

    #[test]
    fn one_battery_discharging_and_charging() {
        let total =
            combine(&[battery(BatteryStatus::Discharging, 30.0, 60.0, 12.0)]).expect("a battery");
        assert_eq!(total.capacity, 50.0);
        assert_eq!(total.seconds_left, Some(9000), "30 Wh at 12 W: 2.5 h");
        let total =
            combine(&[battery(BatteryStatus::Charging, 30.0, 60.0, 20.0)]).expect("a battery");
        assert_eq!(total.seconds_left, Some(5400), "30 Wh to go at 20 W: 1.5 h");
        assert_eq!(combine(&[]), None);
        assert_eq!(
            BatteryStatus::parse("Not charging\n"),
            BatteryStatus::NotCharging
        );
        assert_eq!(BatteryStatus::parse("weird"), BatteryStatus::Unknown);
    }

    #[test]
    fn two_batteries_add_up_by_energy() {
        // A ThinkPad's internal and external battery: one idle and full, one discharging.
        let total = combine(&[
            battery(BatteryStatus::Full, 20.0, 20.0, 0.0),
            battery(BatteryStatus::Discharging, 10.0, 60.0, 10.0),
        ])
        .expect("batteries");
        assert_eq!(total.status, BatteryStatus::Discharging);
        assert_eq!(total.capacity, 30.0 / 80.0 * 100.0);
        assert_eq!(total.seconds_left, Some(3 * 3600), "30 Wh at 10 W");
        let all_full = combine(&[
            battery(BatteryStatus::Full, 20.0, 20.0, 0.0),
            battery(BatteryStatus::Full, 60.0, 60.0, 0.0),
        ])
        .expect("batteries");
        assert_eq!(
            (all_full.status, all_full.seconds_left),
            (BatteryStatus::Full, None)
        );
    }

    #[test]
    fn missing_energies_fall_back_to_capacity_and_no_time() {
        let mut b = battery(BatteryStatus::Discharging, 30.0, 60.0, 12.0);
        b.energy_now_wh = Value::Failed;
        b.capacity = Value::Known(47.0);
        let total = combine(&[b.clone()]).expect("a battery");
        assert_eq!((total.capacity, total.seconds_left), (47.0, None));
        b.capacity = Value::Absent;
        assert_eq!(combine(&[b]), None, "nothing known to show");
    }
}
