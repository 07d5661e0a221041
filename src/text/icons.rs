//! `format-icons`, as Waybar reads it: icons chosen by percentage, by state, or both.

use std::collections::BTreeMap;

use serde::Deserialize;

/// `format-icons`: one icon set, or icon sets by a state (a script's `alt`, a port, a status) (with `default`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum FormatIcons {
    Icons(Icons),
    ByAlt(BTreeMap<String, Icons>),
}

/// One icon, or icons from low to high percentage.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Icons {
    One(String),
    Ladder(Vec<String>),
}

impl FormatIcons {
    /// Waybar's choice: the set for `alt` (else `default`), then the entry for the
    /// percentage, in steps of `100 / n` (the last one from there up); "" if none.
    pub fn icon(&self, percentage: Option<f64>, alt: Option<&str>) -> &str {
        let alt = alt.filter(|alt| !alt.is_empty());
        self.icon_among(percentage, alt.as_slice())
    }

    /// [`FormatIcons::icon`] with the set of the first of `alts` there is one for (the
    /// battery's `discharging-warning`, then `discharging`, then `warning`).
    pub fn icon_among(&self, percentage: Option<f64>, alts: &[&str]) -> &str {
        let percent = percent_integer(percentage).clamp(0, i64::from(u32::MAX)) as u32;
        self.icon_scaled(percent, 100, alts)
    }

    /// The entry for the count `count` itself (the first for none, the last from the
    /// end of the list up): Waybar's choice for the scratchpad's windows.
    pub fn icon_by_count(&self, count: usize) -> &str {
        match self {
            FormatIcons::Icons(Icons::Ladder(ladder)) if !ladder.is_empty() => {
                &ladder[count.min(ladder.len() - 1)]
            }
            other => other.icon_scaled(0, 100, &[]),
        }
    }

    /// [`FormatIcons::icon_among`] for `value` on a scale from 0 to `top` (the
    /// temperature's up to its critical threshold), in steps of `top / n`.
    pub fn icon_scaled(&self, value: u32, top: u32, alts: &[&str]) -> &str {
        let icons = match self {
            FormatIcons::Icons(icons) => Some(icons),
            FormatIcons::ByAlt(by_alt) => alts
                .iter()
                .find_map(|alt| by_alt.get(*alt))
                .or_else(|| by_alt.get("default")),
        };
        match icons {
            None => "",
            Some(Icons::One(icon)) => icon,
            Some(Icons::Ladder(ladder)) if ladder.is_empty() => "",
            Some(Icons::Ladder(ladder)) => {
                let step = (top as usize / ladder.len()).max(1);
                let index = value as usize / step;
                &ladder[index.min(ladder.len() - 1)]
            }
        }
    }
}

/// The percentage as Waybar shows it: rounded, 0 when there is none.
pub fn percent_integer(percentage: Option<f64>) -> i64 {
    // `as` saturates, and NaN becomes 0.
    percentage.map_or(0, |p| p.round() as i64)
}
