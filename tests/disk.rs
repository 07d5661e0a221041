//! The `disk` module on a real filesystem: an ext4 image on a loop device, mounted, filled,
//! unmounted and mounted again, checked against statvfs as `df` reports it and against the
//! loop device's own counters in /sys/block. Needs root (mount, losetup; CI is root).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::*;
use ringbar::modules::disk::DiskReading;
use ringbar::sample::readings::{Reader, Readings, Roots};
use serde_json::Value as Json;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program).args(args).output().expect(program);
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// An ext4 filesystem on a loop device, mounted at `dir/mnt`; unmounted and detached
/// when dropped.
struct LoopMount {
    dir: tempfile::TempDir,
    /// `loop3`.
    device: String,
}

impl LoopMount {
    fn new() -> LoopMount {
        let dir = tempfile::tempdir().expect("tempdir");
        let image = dir.path().join("fs.img");
        std::fs::File::create(&image)
            .and_then(|f| f.set_len(64 << 20))
            .expect("image");
        let image = image.to_str().expect("UTF-8 path");
        run("mkfs.ext4", &["-q", "-F", image]);
        let device = run("losetup", &["--find", "--show", image]);
        let device = device.trim().trim_start_matches("/dev/").to_owned();
        let mount = LoopMount { dir, device };
        std::fs::create_dir(mount.path()).expect("mount point");
        mount.mount();
        mount
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join("mnt")
    }

    fn path_str(&self) -> String {
        self.path().display().to_string()
    }

    fn mount(&self) {
        run(
            "mount",
            &[&format!("/dev/{}", self.device), &self.path_str()],
        );
    }

    fn unmount(&self) {
        run("umount", &[&self.path_str()]);
    }

    /// Sectors written, from the device's own counters (block/stat.rst: the 7th field).
    fn sectors_written(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/sys/block/{}/stat", self.device))
            .expect("device stat");
        stat.split_whitespace()
            .nth(6)
            .and_then(|f| f.parse().ok())
            .expect("sectors written")
    }
}

impl Drop for LoopMount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.path()).status();
        let _ = Command::new("losetup")
            .args(["-d", &format!("/dev/{}", self.device)])
            .status();
    }
}

/// `df`'s size, used and available bytes for `path`.
fn df(path: &Path) -> (u64, u64, u64) {
    let out = run(
        "df",
        &[
            "-B1",
            "--output=size,used,avail",
            path.to_str().expect("path"),
        ],
    );
    let numbers: Vec<u64> = out
        .lines()
        .nth(1)
        .expect("a row")
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect();
    (numbers[0], numbers[1], numbers[2])
}

/// The disk module of `config` (a `[disk]` table) and its reader on this machine.
fn reader(table: &str) -> Box<dyn Reader> {
    let text = format!("modules_right = [\"disk\"]\n[disk]\n{table}");
    let config = ringbar::config::parse(&text, Path::new("config.toml")).expect("valid");
    let module = config.modules.right[0].clone();
    module.reader(&Roots::system()).expect("disk has a reader")
}

fn take(reader: &mut Box<dyn Reader>, readings: &mut Readings, now_ns: u64) -> DiskReading {
    readings.read(std::slice::from_mut(reader), now_ns, true);
    readings
        .get::<DiskReading>("disk")
        .expect("its reading")
        .clone()
}

#[test]
fn a_loop_mounted_filesystem_as_df_and_the_device_counters_report_it() {
    require_root();
    let fs = LoopMount::new();
    let table = format!(
        "mounts = [{:?}, \"/ringbar-nowhere\"]\ndevices = [{:?}]",
        fs.path_str(),
        fs.device
    );
    let mut reader = reader(&table);
    let mut readings = Readings::of(std::slice::from_ref(&reader));

    let before_sectors = fs.sectors_written();
    let first = take(&mut reader, &mut readings, 1_000_000_000);
    assert_eq!(first.mounts.len(), 1, "the missing mount point is left out");
    let mount = &first.mounts[0];
    assert_eq!(
        (mount.filesystem.as_str(), mount.path.clone()),
        ("ext4", fs.path_str())
    );
    assert_eq!(mount.source, format!("/dev/{}", fs.device));
    let space = mount.space.known().expect("statvfs");
    assert_eq!((space.total, space.used, space.available), df(&fs.path()));

    // Fill it with 20 MiB, on the device for sure.
    let mut file = std::fs::File::create(fs.path().join("fill")).expect("create");
    let chunk = vec![0x5au8; 1 << 20];
    for _ in 0..20 {
        file.write_all(&chunk).expect("write");
    }
    file.sync_all().expect("fsync");
    drop(file);
    run("sync", &["-f", &fs.path_str()]);

    // One second of the reader's clock: the rate is the bytes themselves.
    let second = take(&mut reader, &mut readings, 2_000_000_000);
    let after_sectors = fs.sectors_written();
    let space = second.mounts[0].space.known().expect("statvfs");
    assert_eq!((space.total, space.used, space.available), df(&fs.path()));
    assert!(space.used >= first.mounts[0].space.known().expect("known").used + (20 << 20));
    let written = second.devices[0].write_per_second.expect("a rate") as u64;
    let device_total = (after_sectors - before_sectors) * 512;
    assert!(
        (20 << 20..=device_total).contains(&written),
        "{written} bytes: at least the 20 MiB written, at most the device's {device_total}"
    );

    // Unmounted, it leaves the reading; mounted again, it is back (the mount table is
    // read again when the kernel says it changed).
    fs.unmount();
    let gone = take(&mut reader, &mut readings, 3_000_000_000);
    assert!(gone.mounts.is_empty(), "{gone:?}");
    fs.mount();
    let back = take(&mut reader, &mut readings, 4_000_000_000);
    assert_eq!(back.mounts.len(), 1);
    assert_eq!(
        back.mounts[0].space.known().expect("statvfs").used,
        space.used
    );
}

/// `ringbar` with `config` as its config.toml and `args`.
fn ringbar_with(config: &str, args: &[&str]) -> Command {
    let home = tempfile::tempdir().expect("home").keep();
    let dir = home.join(".config/ringbar");
    std::fs::create_dir_all(&dir).expect("config dir");
    std::fs::write(dir.join("config.toml"), config).expect("config");
    let mut command = Command::new(RINGBAR);
    command
        .args(args)
        .env("HOME", &home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("XDG_STATE_HOME");
    command
}

#[test]
fn once_json_and_waybar_show_the_disk() {
    require_root();
    let fs = LoopMount::new();
    let config = format!(
        "modules_left = []\nmodules_center = []\nmodules_right = [\"disk\"]\n\
         [disk]\nmounts = [{:?}]\nwarning = 50\n",
        fs.path_str()
    );
    // About two thirds full: past the warning.
    std::fs::write(fs.path().join("fill"), vec![1u8; 40 << 20]).expect("fill");
    run("sync", &["-f", &fs.path_str()]);
    let out = ringbar_with(&config, &["--once", "--json", "--interval-ms", "200"])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Json = serde_json::from_slice(&out.stdout).expect("JSON");
    let (size, used, available) = df(&fs.path());
    let mount = &doc["disk"]["mounts"][0];
    assert_eq!(mount["path"], fs.path_str().as_str());
    assert_eq!(mount["total_bytes"], size);
    assert_eq!(mount["used_bytes"], used);
    assert_eq!(mount["available_bytes"], available);
    // Waybar's share: used of the whole size, cut to a whole percent.
    let percent = (used * 100 / size) as f64;
    assert!((50.0..90.0).contains(&percent), "{percent}% full");
    let module = &doc["modules"][0];
    assert_eq!(module["text"], format!("DISK {percent}%").as_str());
    assert_eq!(module["level"], "warning");
    // The machine's own disks, rates after the second sample.
    let devices = doc["disk"]["devices"].as_array().expect("devices");
    assert!(
        devices
            .iter()
            .all(|d| d["read_bytes_per_second"].is_number()),
        "{devices:?}"
    );

    let text = ringbar_with(&config, &["--once", "--interval-ms", "200"])
        .output()
        .expect("run");
    let text = String::from_utf8(text.stdout).expect("UTF-8");
    assert!(
        text.starts_with(&format!("DISK {percent}%\nDisk  read ")),
        "{text}"
    );
    assert!(
        text.contains(&format!("\n  {}  ext4  ", fs.path_str())),
        "{text}"
    );

    let mut waybar = ringbar_with(&config, &["--waybar"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start");
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(
        waybar.stdout.take().expect("piped"),
    ));
    let line: Json =
        serde_json::from_str(&lines.next().expect("a line").expect("read")).expect("JSON");
    let _ = waybar.kill();
    let _ = waybar.wait();
    assert_eq!(line["text"], format!("DISK {percent}%").as_str());
    assert_eq!(line["class"], serde_json::json!(["warning"]));
    assert!(
        line["tooltip"].as_str().expect("tooltip").contains("ext4"),
        "{line}"
    );
}

#[test]
fn a_missing_mount_point_hides_the_module_and_says_so_once() {
    let out = ringbar_with(
        "modules_left = []\nmodules_center = []\nmodules_right = [\"disk\"]\n\
         [disk]\nmounts = [\"/ringbar-nowhere\"]\n",
        &["--once", "--json", "--interval-ms", "200"],
    )
    .output()
    .expect("run");
    assert!(out.status.success());
    let doc: Json = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["modules"][0]["visible"], false);
    assert_eq!(doc["disk"]["mounts"], serde_json::json!([]));
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        log.matches("/ringbar-nowhere is not a mount point").count(),
        1,
        "{log}"
    );
}
