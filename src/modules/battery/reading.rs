//! Batteries as the kernel's power_supply class reports them
//! (`/sys/class/power_supply/BAT*`), and what several of them add up to: the battery
//! module's reading.

use crate::model::Value;

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
/// (µAh) and current (µA) instead is converted with its voltage.
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
    /// `cycle_count`: the full charge and discharge cycles it has been through.
    pub cycles: Value<f64>,
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

/// `Clone` by hand: a derived `clone_from` clones the whole value and drops the old one,
/// allocating, where this copies into the name the target already has. The sample's
/// hand-over to the main loop relies on it. Destructured, so that a new field must be
/// added here.
impl Clone for Battery {
    fn clone(&self) -> Self {
        let mut battery = Battery::default();
        battery.clone_from(self);
        battery
    }

    fn clone_from(&mut self, source: &Self) {
        let Battery {
            name,
            status,
            capacity,
            energy_now_wh,
            energy_full_wh,
            energy_full_design_wh,
            power_w,
            cycles,
        } = source;
        self.name.clone_from(name);
        self.status = *status;
        self.capacity = *capacity;
        self.energy_now_wh = *energy_now_wh;
        self.energy_full_wh = *energy_full_wh;
        self.energy_full_design_wh = *energy_full_design_wh;
        self.power_w = *power_w;
        self.cycles = *cycles;
    }
}

/// The system batteries (not a mouse's or a phone's) at one tick, empty on a desktop;
/// and whether the mains adapter is online (`None` without one).
#[derive(Debug, Default, PartialEq)]
pub struct Batteries(pub Vec<Battery>, pub Option<bool>);

impl Clone for Batteries {
    fn clone(&self) -> Self {
        Batteries(self.0.clone(), self.1)
    }

    /// Vec::clone_from calls the elements' clone_from on the ones both have.
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
        self.1 = source.1;
    }
}
