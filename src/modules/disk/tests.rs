use super::*;
use crate::model::Value;
use crate::modules::tests::{default_module, input};
use crate::modules::Level;
use crate::sample::readings::Readings;
use crate::sample::Sample;
use crate::text::Plain;

fn space(total: u64, used: u64, available: u64) -> Value<Space> {
    Value::Known(Space {
        total,
        used,
        available,
    })
}

fn mount(path: &str, space: Value<Space>) -> Mount {
    Mount {
        path: path.to_owned(),
        filesystem: "ext4".to_owned(),
        source: "/dev/vda1".to_owned(),
        space,
    }
}

/// A sample whose disk reading is `reading`, as the sampler would hand it over.
fn sample_with(reading: DiskReading) -> Sample {
    struct Fixed(DiskReading);
    impl Reader for Fixed {
        fn key(&self) -> &str {
            "disk"
        }
        fn empty(&self) -> Box<dyn Reading> {
            Box::new(self.0.clone())
        }
        fn read(&mut self, _now_ns: u64, _out: &mut dyn Reading) {}
    }
    let readers: Vec<Box<dyn Reader>> = vec![Box::new(Fixed(reading))];
    Sample {
        readings: Readings::of(&readers),
        ..Sample::default()
    }
}

fn reading() -> DiskReading {
    DiskReading {
        mounts: vec![
            mount("/", space(100 << 30, 40 << 30, 55 << 30)),
            mount("/home", space(400 << 30, 340 << 30, 40 << 30)),
            mount("/mnt/<nfs>", Value::Failed),
        ],
        devices: vec![
            Device {
                name: "nvme0n1".to_owned(),
                read_per_second: Some(2.0 * 1024.0 * 1024.0),
                write_per_second: Some(512.0),
            },
            Device {
                name: "sda".to_owned(),
                read_per_second: None,
                write_per_second: None,
            },
        ],
    }
}

#[test]
fn the_fullest_mount_is_shown_with_its_level() {
    let sample = sample_with(reading());
    let module = default_module("disk");
    let mut text = String::new();
    let status = module.text(&input(&sample), &mut text).expect("shown");
    // /home: 340 of 400 GiB used, as Waybar counts it (df: 340 of 380 usable, 90 %).
    assert_eq!(text, "DISK 85%");
    assert_eq!(status.level, Level::Warning);
    let expected = 340.0 * 100.0 / 400.0;
    assert!((status.percentage.expect("a share") - expected).abs() < 1e-9);

    let table = "modules_right = [\"disk\"]\n[disk]\ncritical = 85\n\
                 format = \"{path} {filesystem} {used}/{total} {free} {percentage_free}% r {read} w {write}\"";
    let config = crate::config::parse(table, std::path::Path::new("c.toml")).expect("valid");
    let module = config.modules.right[0].clone();
    text.clear();
    let status = module.text(&input(&sample), &mut text).expect("shown");
    assert_eq!(text, "/home ext4 340G/400G 40G 10% r 2.0M/s w 512B/s");
    assert_eq!(status.level, Level::Critical);
    let table = "modules_right = [\"disk\"]\n[disk]\nformat = \"{percentage_used:>4}%|{percentage_free:03}\"";
    let config = crate::config::parse(table, std::path::Path::new("c.toml")).expect("valid");
    text.clear();
    config.modules.right[0].text(&input(&sample), &mut text);
    assert_eq!(text, "  85%|010", "fmt's number specs");
}

#[test]
fn hidden_without_a_mounted_mount_point_or_a_reading() {
    let module = default_module("disk");
    let mut text = String::new();
    assert_eq!(module.text(&input(&Sample::default()), &mut text), None);
    let unreadable = DiskReading {
        mounts: vec![mount("/", Value::Failed)],
        devices: Vec::new(),
    };
    assert_eq!(
        module.text(&input(&sample_with(unreadable)), &mut text),
        None
    );
    assert_eq!(
        module.text(&input(&sample_with(DiskReading::default())), &mut text),
        None
    );
}

#[test]
fn tooltip_json_and_report() {
    let sample = sample_with(reading());
    let mut out = String::new();
    default_module("disk").tooltip(&mut Plain(&mut out), &input(&sample));
    assert_eq!(
        out,
        "Disk  read 2.0M/s · write 512B/s\n\
         \x20 /  ext4  55G free of 100G · 40% used\n\
         \x20 /home  ext4  40G free of 400G · 85% used\n\
         \x20 /mnt/<nfs>  ext4  unreadable\n\
         \x20 r   2.0M/s  w   512B/s  nvme0n1\n\
         \x20 r        –  w        –  sda\n"
    );
    let table = "modules_right = [\"disk\"]\n[disk]\n\
                 tooltip-format = \"{path}: {free} free of {total}\\n{percentage_used}% <used>\"";
    let config = crate::config::parse(table, std::path::Path::new("c.toml")).expect("valid");
    let mut markup = String::new();
    let mut sink = crate::text::Markup(&mut markup);
    config.modules.right[0].tooltip(&mut sink, &input(&sample));
    assert_eq!(
        markup, "/home: 40G free of 400G\n85% &lt;used&gt;",
        "tooltip-format"
    );
    let mut markup = String::new();
    default_module("disk").tooltip(&mut crate::text::Markup(&mut markup), &input(&sample));
    assert!(markup.contains("/mnt/&lt;nfs&gt;"), "{markup}");

    let mut report = String::new();
    crate::render::report::write(&mut Plain(&mut report), &sample);
    assert!(report.contains("\nDisk  read 2.0M/s"), "{report}");

    let json = crate::sinks::json::document(&input(&sample), &[]);
    let disk = &json["disk"];
    assert_eq!(disk["mounts"][1]["path"], "/home");
    assert_eq!(disk["mounts"][1]["used_bytes"], 340u64 << 30);
    assert_eq!(disk["mounts"][1]["available_bytes"], 40u64 << 30);
    assert_eq!(disk["mounts"][2]["total_bytes"], serde_json::Value::Null);
    assert_eq!(disk["devices"][0]["read_bytes_per_second"], 2097152.0);
    assert_eq!(
        disk["devices"][1]["write_bytes_per_second"],
        serde_json::Value::Null
    );
    assert!(
        crate::sinks::json::document(&input(&Sample::default()), &[])
            .get("disk")
            .is_none()
    );
}

#[test]
fn config_errors_name_the_problem() {
    let error = |table: &str| {
        let text = format!("[disk]\n{table}");
        crate::config::parse(&text, std::path::Path::new("c.toml"))
            .expect_err("refused")
            .to_string()
    };
    assert!(error("mounts = [\"home\"]").contains("\"home\" is not an absolute path"));
    assert!(error("mounts = []").contains("at least one mount point"));
    assert!(error("format = \"{percent}\"").contains("no {percent} in a format here"));
    assert!(error("devices = [\"/dev/sda\"]").contains("is not a block device name"));
    assert!(error("warning = 120").contains("not a percentage"));
    assert!(error("size = 1").contains("unknown field"));
}

#[cfg(feature = "app")]
mod reader {
    use std::path::Path;

    use super::super::reader::DiskReader;
    use super::*;

    const DISKSTATS: &str = "\
 254       0 vda 100 0 2000 0 50 0 4000 0 0 0 0 0 0 0 0 0 0
 254       1 vda1 90 0 1800 0 40 0 3600 0 0 0 0 0 0 0 0 0 0
   7       0 loop0 5 0 10 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 253       0 zram0 1 0 8 0 1 0 8 0 0 0 0 0 0 0 0 0 0
 259       0 nvme0n1 10 0 100 0 10 0 100 0 0 0 0 0 0 0 0 0 0
";

    /// A fake root: /proc/self/mountinfo lists `/` and `dir` (both real, for statvfs)
    /// and a mount point that is not there; /sys/block has the whole disks.
    fn fake_root(dir: &Path) -> Roots {
        let proc = dir.join("proc");
        std::fs::create_dir_all(proc.join("self")).expect("proc");
        let mountinfo = format!(
            "22 1 254:1 / / rw - ext4 /dev/vda1 rw\n\
             40 22 7:0 / {} rw - ext2 /dev/loop0 rw\n",
            dir.display()
        );
        std::fs::write(proc.join("self/mountinfo"), mountinfo).expect("mountinfo");
        std::fs::write(proc.join("diskstats"), DISKSTATS).expect("diskstats");
        for disk in ["vda", "loop0", "zram0", "nvme0n1"] {
            std::fs::create_dir_all(dir.join("sys/block").join(disk)).expect("sys");
        }
        Roots {
            sys: dir.join("sys"),
            proc,
        }
    }

    fn read(reader: &mut DiskReader, now_ns: u64, out: &mut DiskReading) {
        reader.read(now_ns, out);
    }

    #[test]
    fn mounts_devices_and_rates_from_a_fake_root() {
        let dir = tempfile::tempdir().expect("tempdir");
        let roots = fake_root(dir.path());
        let here = dir.path().display().to_string();
        let mounts = ["/".to_owned(), format!("{here}/"), "/nowhere".to_owned()];
        // The config trims the trailing slash.
        let mounts: Vec<String> = mounts
            .iter()
            .map(|m| m.trim_end_matches('/').to_owned())
            .map(|m| if m.is_empty() { "/".to_owned() } else { m })
            .collect();
        let mut reader = DiskReader::new("disk", &mounts, &[], &roots);
        let mut out = DiskReading::default();
        read(&mut reader, 1_000_000_000, &mut out);
        let paths: Vec<&str> = out.mounts.iter().map(|m| m.path.as_str()).collect();
        assert_eq!(paths, ["/", here.as_str()], "/nowhere is left out");
        assert_eq!(out.mounts[1].filesystem, "ext2");
        assert_eq!(out.mounts[1].source, "/dev/loop0");
        let truth = rustix::fs::statvfs(dir.path()).expect("statvfs");
        let space = out.mounts[1].space.known().expect("readable");
        assert_eq!(space.total, truth.f_blocks * truth.f_frsize);
        let names: Vec<&str> = out.devices.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(
            names,
            ["vda", "nvme0n1"],
            "no partition, loop or zram device"
        );
        assert_eq!(
            out.devices[0].read_per_second, None,
            "no rate before a second read"
        );

        // Half a second later vda read 1 MiB (2048 sectors) and wrote 512 bytes.
        let later = DISKSTATS.replace("vda 100 0 2000 0 50 0 4000", "vda 150 0 4048 0 51 0 4001");
        std::fs::write(roots.proc.join("diskstats"), later).expect("diskstats");
        read(&mut reader, 1_500_000_000, &mut out);
        assert_eq!(out.devices[0].read_per_second, Some(2.0 * 1024.0 * 1024.0));
        assert_eq!(out.devices[0].write_per_second, Some(1024.0));
        assert_eq!(out.devices[1].read_per_second, Some(0.0));

        // nvme0n1 goes away; a counter that went back (a device made anew) has no rate.
        let gone = "254 0 vda 1 0 8 0 1 0 8 0 0 0 0\n";
        std::fs::write(roots.proc.join("diskstats"), gone).expect("diskstats");
        read(&mut reader, 2_000_000_000, &mut out);
        assert_eq!(out.devices.len(), 1);
        assert_eq!(out.devices[0].read_per_second, None);
    }

    #[test]
    fn named_devices_are_shown_even_partitions_and_loops() {
        let dir = tempfile::tempdir().expect("tempdir");
        let roots = fake_root(dir.path());
        let named = ["loop0".to_owned(), "vda1".to_owned(), "sdz".to_owned()];
        let mut reader = DiskReader::new("disk", &["/".to_owned()], &named, &roots);
        let mut out = DiskReading::default();
        read(&mut reader, 1, &mut out);
        let names: Vec<&str> = out.devices.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(
            names,
            ["vda1", "loop0"],
            "in the kernel's order; sdz is not there"
        );
    }

    #[test]
    fn missing_files_give_an_empty_reading_and_no_panic() {
        let dir = tempfile::tempdir().expect("tempdir");
        let roots = Roots {
            sys: dir.path().join("sys"),
            proc: dir.path().join("proc"),
        };
        let mut reader = DiskReader::new("disk", &["/".to_owned()], &[], &roots);
        let mut out = DiskReading::default();
        read(&mut reader, 1, &mut out);
        read(&mut reader, 2, &mut out);
        assert_eq!(out, DiskReading::default());
    }
}
