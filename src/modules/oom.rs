//! `oom`: `OOM: chrome 3.2G` for `show_for_s` seconds after the kernel's OOM killer ended
//! a process (the name and the memory it held), with the CSS class `oom`; hidden
//! otherwise. Its tooltip is the monitor's report, which lists the latest kills.

use std::rc::Rc;

use serde::Deserialize;

use super::ModuleKind;
use super::{Input, Module, Status, Table};
use crate::render::oom::write_victim;
use crate::text::Plain;

/// How long the notice stays by default, in seconds.
const DEFAULT_SHOW_FOR_S: u32 = 60;
/// At most a day.
const MAX_SHOW_FOR_S: u32 = 86_400;

struct Oom {
    show_for_ms: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Given {
    show_for_s: Option<u32>,
}

/// The `oom` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "oom",
    make,
    waybar: None,
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let show_for_s = match table {
        Some(table) => Given::deserialize(table)?.show_for_s,
        None => None,
    }
    .unwrap_or(DEFAULT_SHOW_FOR_S);
    if show_for_s > MAX_SHOW_FOR_S {
        return Err(serde::de::Error::custom(format!(
            "show_for_s = {show_for_s}: at most {MAX_SHOW_FOR_S} (a day)"
        )));
    }
    Ok(Rc::new(Oom {
        show_for_ms: u64::from(show_for_s) * 1000,
    }))
}

impl Module for Oom {
    fn name(&self) -> &str {
        "oom"
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let sample = input.sample;
        if self.show_for_ms == 0 {
            return None;
        }
        let kill = sample.oom_kills.recent(sample.unix_ms, self.show_for_ms)?;
        out.push_str("OOM: ");
        write_victim(&mut Plain(out), kill);
        Some(Status {
            class: Some("oom"),
            ..Status::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::model::record::COMM_LEN;
    use crate::model::OomKill;
    use crate::modules::tests::{input, text_of};
    use crate::sample::Sample;

    fn comm(name: &str) -> [u8; COMM_LEN] {
        let mut comm = [0; COMM_LEN];
        comm[..name.len()].copy_from_slice(name.as_bytes());
        comm
    }

    #[test]
    fn shown_for_its_time_after_a_kill() {
        let mut sample = Sample {
            unix_ms: 1_000_000,
            ..Sample::default()
        };
        assert_eq!(text_of("oom", &sample), (String::new(), None));
        sample.oom_kills.push(OomKill {
            pid: 7,
            comm: comm("chrome"),
            rss_bytes: 3_435_973_837, // 3.2 GiB
            memcg: true,
            unix_ms: 1_000_000 - 60_000,
            ..OomKill::default()
        });
        let (text, status) = text_of("oom", &sample);
        assert_eq!(text, "OOM: chrome 3.2G");
        assert_eq!(status.and_then(|s| s.class), Some("oom"));
        sample.unix_ms += 1;
        assert_eq!(text_of("oom", &sample).1, None, "after 60 s");

        let text = "modules_right = [\"oom\"]\n[oom]\nshow_for_s = 120\n";
        let config = crate::config::parse(text, std::path::Path::new("c.toml")).expect("valid");
        let mut out = String::new();
        let longer = &config.modules.right[0];
        assert!(longer.text(&input(&sample), &mut out).is_some(), "120 s");
        let too_long = "[oom]\nshow_for_s = 86401\n";
        assert!(crate::config::parse(too_long, std::path::Path::new("c.toml")).is_err());
    }

    #[test]
    fn a_hidden_victim_says_only_that_a_kill_happened() {
        let mut sample = Sample::default();
        sample.oom_kills.push(OomKill {
            memcg: true,
            hidden: true,
            ..OomKill::default()
        });
        assert_eq!(text_of("oom", &sample).0, "OOM: a process (another user's)");
    }
}
