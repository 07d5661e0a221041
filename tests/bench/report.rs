//! The report: markdown for `target/bench/report.md`, the same rows as a plain table on
//! stdout; and the small statistics and machine facts it is made of.

use std::fmt::Write as _;
use std::process::Command;

#[derive(Default)]
pub struct Report {
    pub markdown: String,
}

impl Report {
    pub fn heading(&mut self, text: &str) {
        println!("\n{text}");
        let _ = writeln!(self.markdown, "\n### {text}\n");
    }

    pub fn table(&mut self, header: &[&str], rows: &[Vec<String>]) {
        let widths: Vec<usize> = (0..header.len())
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([header[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: Vec<String>| {
            cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect::<Vec<_>>()
                .join("  ")
        };
        println!("{}", line(header.iter().map(|h| h.to_string()).collect()));
        for row in rows {
            println!("{}", line(row.clone()));
        }
        // A blank line first: a table right after a paragraph would be read as part of it.
        let _ = writeln!(self.markdown, "\n| {} |", header.join(" | "));
        let _ = writeln!(self.markdown, "|{}", "---|".repeat(header.len()));
        for row in rows {
            let _ = writeln!(self.markdown, "| {} |", row.join(" | "));
        }
    }

    pub fn note(&mut self, text: &str) {
        println!("{text}");
        let _ = writeln!(self.markdown, "\n{text}");
    }
}

pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

pub fn percentile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values[((values.len() - 1) as f64 * q).round() as usize]
}

fn sh(command: &str) -> String {
    let out = Command::new("sh")
        .args(["-c", command])
        .output()
        .expect("run sh");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

pub fn machine() -> String {
    format!(
        "{} · {} CPUs · {} · {} · Linux {}",
        sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'"),
        sh("nproc"),
        sh("awk '/MemTotal/ { printf \"%.0f GiB RAM\", $2 / 1048576 }' /proc/meminfo"),
        sh(". /etc/os-release && echo \"$PRETTY_NAME\""),
        sh("uname -r"),
    )
}
