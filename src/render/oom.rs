//! The OOM kills: a tooltip section listing the latest ones, newest first, with how long
//! ago each happened, and their JSON form.
//!
//! ```text
//! OOM kills  3 since ringbar started
//!     12 s ago  chrome 3.2G · pid 4242 · cgroup limit 4.0G
//!    5 min ago  a process (another user's) · whole machine
//! ```

use std::fmt::Write;

use serde_json::{json, Value as Json};

use super::{header, name, name_string, write_bytes};
use crate::model::OomKill;
use crate::sample::Sample;
use crate::text::Sink;

/// The victim as the bar's notice names it: `chrome 3.2G`, or only that there was one
/// when the reader's /proc hides it, or `pid 4242` when no sample saw it (a kernel
/// such as 6.1 names the victim by its pid alone).
pub fn write_victim(sink: &mut dyn Sink, kill: &OomKill) {
    if kill.hidden {
        sink.out().push_str("a process (another user's)");
    } else if kill.comm[0] == 0 {
        let _ = write!(sink.out(), "pid {}", kill.pid);
    } else {
        name(sink, &kill.comm);
        sink.out().push(' ');
        write_bytes(sink.out(), kill.rss_bytes as f64);
    }
}

/// The section, if there was a kill since ringbar started; nothing otherwise.
pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    let kills = &sample.oom_kills;
    if kills.total() == 0 {
        return;
    }
    header(sink, "OOM kills");
    let _ = writeln!(sink.out(), "{} since ringbar started", kills.total());
    for kill in kills.newest_first() {
        let mut age = String::new();
        write_age(&mut age, sample.unix_ms.saturating_sub(kill.unix_ms));
        let _ = write!(sink.out(), "{age:>12}  ");
        write_victim(sink, kill);
        if !kill.hidden && kill.comm[0] != 0 {
            let _ = write!(sink.out(), " · pid {}", kill.pid);
        }
        if !kill.memcg {
            sink.out().push_str(" · whole machine");
        } else if kill.limit_bytes > 0 {
            sink.out().push_str(" · cgroup limit ");
            write_bytes(sink.out(), kill.limit_bytes as f64);
        } else {
            sink.out().push_str(" · cgroup limit");
        }
        sink.out().push('\n');
    }
}

/// `12 s ago`, `5 min ago`, `3 h ago`, `2 d ago`.
fn write_age(out: &mut String, ms: u64) {
    let s = ms / 1000;
    let _ = match s {
        0..=119 => write!(out, "{s} s ago"),
        120..=7199 => write!(out, "{} min ago", s / 60),
        7200..=172_799 => write!(out, "{} h ago", s / 3600),
        _ => write!(out, "{} d ago", s / 86_400),
    };
}

/// `oom_kills` of `--json`: the kills kept, newest first; a hidden victim's pid, name and
/// size are null.
pub fn json(sample: &Sample) -> Json {
    let kills: Vec<Json> = sample
        .oom_kills
        .newest_first()
        .map(|kill| {
            let shown = !kill.hidden;
            json!({
                "time_unix_ms": kill.unix_ms,
                "pid": shown.then_some(kill.pid),
                "name": shown.then(|| name_string(&kill.comm)),
                "rss_bytes": shown.then_some(kill.rss_bytes),
                "cgroup": kill.memcg,
                "limit_bytes": (kill.limit_bytes > 0).then_some(kill.limit_bytes),
            })
        })
        .collect();
    json!({ "total": sample.oom_kills.total(), "latest": kills })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::record::COMM_LEN;
    use crate::text::{Markup, Plain};

    fn sample() -> Sample {
        let mut sample = Sample {
            unix_ms: 10_000_000,
            ..Sample::default()
        };
        let mut comm = [0u8; COMM_LEN];
        comm[..9].copy_from_slice(b"<chrome>&");
        sample.oom_kills.push(OomKill {
            memcg: false,
            hidden: true,
            unix_ms: 10_000_000 - 300_000,
            ..OomKill::default()
        });
        sample.oom_kills.push(OomKill {
            pid: 4242,
            comm,
            rss_bytes: 3_435_973_837,
            memcg: true,
            limit_bytes: 4 << 30,
            unix_ms: 10_000_000 - 12_400,
            hidden: false,
        });
        sample
    }

    #[test]
    fn newest_first_with_ages_and_kinds() {
        let mut out = String::new();
        write(&mut Plain(&mut out), &sample());
        assert_eq!(
            out,
            "OOM kills  2 since ringbar started\n\
             \x20   12 s ago  <chrome>& 3.2G · pid 4242 · cgroup limit 4.0G\n\
             \x20  5 min ago  a process (another user's) · whole machine\n"
        );
        let mut markup = String::new();
        write(&mut Markup(&mut markup), &sample());
        assert!(markup.contains("&lt;chrome&gt;&amp; 3.2G"), "{markup}");
        let mut none = String::new();
        write(&mut Plain(&mut none), &Sample::default());
        assert_eq!(none, "");
    }

    #[test]
    fn json_leaves_a_hidden_victim_out() {
        let doc = json(&sample());
        assert_eq!(doc["total"], 2);
        assert_eq!(doc["latest"][0]["name"], "<chrome>&");
        assert_eq!(doc["latest"][0]["pid"], 4242);
        assert_eq!(doc["latest"][0]["cgroup"], true);
        assert_eq!(doc["latest"][0]["limit_bytes"], 4u64 << 30);
        assert_eq!(doc["latest"][1]["pid"], Json::Null);
        assert_eq!(doc["latest"][1]["name"], Json::Null);
        assert_eq!(doc["latest"][1]["cgroup"], false);
        assert_eq!(doc["latest"][1]["time_unix_ms"], 10_000_000 - 300_000);
    }
}
