//! The pressure reader on a fake /proc, and the reading's report section and JSON.

use super::reader::PressureReader;
use super::*;
use crate::model::Value;
use crate::sample::readings::{Reader, Reading, Roots};
use crate::sensors::fixtures::write;
use crate::text::Plain;

#[test]
fn the_reader_reads_a_fake_proc_and_its_report_section() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "proc/pressure/cpu",
        "some avg10=1.50 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
    );
    write(
        root,
        "proc/pressure/memory",
        "some avg10=23.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=4.00 avg60=0.00 avg300=0.00 total=0\n",
    );
    let roots = Roots {
        sys: root.join("sys"),
        proc: root.join("proc"),
    };
    let mut reader = PressureReader::new("pressure", &roots);
    let mut reading = reader.empty();
    reader.read(1, reading.as_mut());
    let read = |reading: &dyn Reading| {
        *(reading as &dyn std::any::Any)
            .downcast_ref::<Pressure>()
            .expect("pressure")
    };
    let pressure = read(reading.as_ref());
    assert_eq!(pressure.cpu.known().map(|s| s.some), Some(1.5));
    assert_eq!(pressure.memory.known().and_then(|s| s.full), Some(4.0));
    assert_eq!(pressure.io, Value::Absent, "no file, no reading");
    let mut out = String::new();
    pressure.write_report(&mut Plain(&mut out));
    assert_eq!(out, "Pressure  cpu 1.5% · mem 23.0% full 4.0%\n");
    assert_eq!(
        pressure.json(),
        serde_json::json!({"cpu": {"some_percent": 1.5, "full_percent": 0.0},
                           "memory": {"some_percent": 23.0, "full_percent": 4.0}})
    );

    write(root, "proc/pressure/memory", "garbage\n");
    reader.read(2, reading.as_mut());
    let pressure = read(reading.as_ref());
    assert_eq!(pressure.memory, Value::Failed);
    assert_eq!(pressure.json()["memory"], serde_json::Value::Null);

    // A kernel without PSI: nothing read, no section.
    let mut reader = PressureReader::new(
        "pressure",
        &Roots {
            sys: root.join("none"),
            proc: root.join("none"),
        },
    );
    reader.read(1, reading.as_mut());
    let mut out = String::new();
    read(reading.as_ref()).write_report(&mut Plain(&mut out));
    assert_eq!(out, "");
}
