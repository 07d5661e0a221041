//! The pressure module: PSI lines, and the text and level.

use super::*;
use crate::model::Value;
use crate::modules::tests::text_of;
use crate::modules::Level;
use crate::sample::Sample;

#[test]
fn pressure_lines() {
    let text = b"some avg10=12.50 avg60=3.00 avg300=1.00 total=123\n\
                 full avg10=2.25 avg60=0.00 avg300=0.00 total=45\n";
    assert_eq!(
        Stall::parse(text),
        Some(Stall {
            some: 12.5,
            full: Some(2.25)
        })
    );
    let old_cpu = b"some avg10=0.10 avg60=0.00 avg300=0.00 total=9\n";
    assert_eq!(
        Stall::parse(old_cpu),
        Some(Stall {
            some: 0.1,
            full: None
        })
    );
    assert_eq!(Stall::parse(b""), None);
    assert_eq!(Stall::parse(b"some avg10=nan total=1\n"), None);
    assert_eq!(Stall::parse(b"some avg10=250.0 total=1\n"), None);
    assert_eq!(Stall::parse(b"some avg60=1.0\n"), None);
    assert_eq!(Stall::parse(&[0xff, 0xfe]), None);
}

#[test]
fn shown_only_past_the_threshold() {
    let calm = Stall {
        some: 2.0,
        full: Some(0.0),
    };
    let mut pressure = Pressure {
        cpu: Value::Known(calm),
        memory: Value::Known(calm),
        io: Value::Failed,
    };
    let mut sample = Sample::default();
    sample.readings.insert("pressure", Box::new(pressure));
    assert_eq!(text_of("pressure", &sample).1, None);
    pressure.memory = Value::Known(Stall {
        some: 23.4,
        full: Some(5.0),
    });
    pressure.io = Value::Known(Stall {
        some: 41.0,
        full: None,
    });
    sample.readings.insert("pressure", Box::new(pressure));
    let (text, status) = text_of("pressure", &sample);
    assert_eq!(text, "PSI mem 23% io 41%");
    let status = status.expect("shown");
    assert_eq!(
        (status.level, status.percentage),
        (Level::Critical, Some(41.0))
    );
}
