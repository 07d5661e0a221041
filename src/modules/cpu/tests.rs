use super::cores::CoreUsage;
use crate::model::{CpuReading, Value};
use crate::modules::tests::text_of;
use crate::modules::Level;
use crate::sample::Sample;

#[test]
fn text_and_level() {
    let mut sample = Sample::default();
    let (text, status) = text_of("cpu", &sample);
    assert_eq!(text, "CPU –");
    assert_eq!(status.map(|s| s.percentage), Some(None));
    let s = &mut sample.processes;
    s.interval_ns = 1_000_000_000;
    s.online_cpus = 2;
    s.cpu_busy_ns = 1_500_000_000;
    let (text, status) = text_of("cpu", &sample);
    assert_eq!(text, "CPU 75%");
    let status = status.expect("shown");
    assert_eq!(
        (status.level, status.percentage),
        (Level::Warning, Some(75.0))
    );
    sample.hardware.cpu = CpuReading {
        celsius: Value::Known(54.4),
        average_mhz: Value::Known(2050.0),
        highest_mhz: Value::Known(3000.0),
        lowest_mhz: Value::Known(1000.0),
        hardware_max_mhz: Some(4700.0),
        nominal_mhz: None,
    };
    assert_eq!(text_of("cpu", &sample).0, "CPU 75% 54°C 2.0GHz");
    sample.hardware.cpu.celsius = Value::Failed;
    sample.hardware.cpu.average_mhz = Value::Failed;
    assert_eq!(
        text_of("cpu", &sample).0,
        "CPU 75% –°C –GHz",
        "a failed sensor shows as –"
    );
}

#[test]
fn decimals_from_the_table() {
    let mut sample = Sample::default();
    let s = &mut sample.processes;
    s.interval_ns = 1_000_000_000;
    s.online_cpus = 2;
    s.cpu_busy_ns = 247_000_000;
    let make = |table: &str| {
        let table = toml::de::ValueDeserializer::parse(table).expect("toml");
        crate::modules::make("cpu", Some(table)).expect("registered")
    };
    let text = |table: &str| {
        let module = make(table).expect("valid");
        let mut out = String::new();
        module.text(&crate::modules::tests::input(&sample), &mut out);
        out
    };
    assert_eq!(text("{}"), "CPU 12%");
    assert_eq!(text("{ decimals = 1 }"), "CPU 12.3%");
    assert_eq!(text("{ decimals = 2, warning = 5 }"), "CPU 12.35%");
    for wrong in [
        "{ decimals = 3 }",
        "{ decimals = -1 }",
        "{ decimals = \"one\" }",
    ] {
        assert!(make(wrong).is_err(), "{wrong}");
    }
}

/// Two CPUs busy 1.5 s of a 2 s interval's 4 (37.5 %), the load, and the frequencies.
fn busy_sample() -> Sample {
    let mut sample = Sample::default();
    let s = &mut sample.processes;
    s.interval_ns = 2_000_000_000;
    s.online_cpus = 2;
    s.cpu_busy_ns = 1_500_000_000;
    s.load = Some(crate::model::LoadAverage([0.5, 1.25, 2.0]));
    sample.hardware.cpu = CpuReading {
        celsius: Value::Known(54.4),
        average_mhz: Value::Known(2054.0),
        highest_mhz: Value::Known(3001.0),
        lowest_mhz: Value::Known(1199.0),
        hardware_max_mhz: Some(4700.0),
        nominal_mhz: None,
    };
    sample
}

#[test]
fn waybars_fields_and_specs() {
    use crate::modules::tests::{configured, input};
    let module = configured(
        "cpu",
        "format = \"{usage}% {usage:3}% {load} {load15:.1f} \
         {min_frequency}/{avg_frequency}/{max_frequency} GHz\"\n",
    );
    let mut out = String::new();
    let status = module.text(&input(&busy_sample()), &mut out);
    // Waybar truncates the usage and rounds each frequency up to 10 MHz.
    assert_eq!(out, "37%  37% 0.5 2.0 1.2/2.06/3.01 GHz");
    assert_eq!(status.expect("shown").level, Level::Normal);

    // No cpufreq (a virtual machine): Waybar's fields take /proc/cpuinfo's clock, and
    // ringbar's own label shows no frequency.
    let mut virtual_machine = busy_sample();
    let cpu = &mut virtual_machine.hardware.cpu;
    (cpu.average_mhz, cpu.highest_mhz, cpu.lowest_mhz) =
        (Value::Absent, Value::Absent, Value::Absent);
    cpu.nominal_mhz = Some([2600.0, 2600.0, 2600.0]);
    let mut out = String::new();
    let frequencies = configured("cpu", "format = \"{min_frequency}/{avg_frequency}\"\n");
    frequencies.text(&input(&virtual_machine), &mut out);
    assert_eq!(out, "2.6/2.6");
    assert_eq!(text_of("cpu", &virtual_machine).0, "CPU 38% 54°C");
}

#[test]
fn the_levels_format_icons_and_tooltip() {
    use crate::modules::tests::{configured, input};
    use crate::text::Plain;
    let module = configured(
        "cpu",
        "warning = 30\nformat = \"{icon}\"\nformat-warning = \"! {usage}% {icon}\"\n\
         format-icons = [\"a\", \"b\", \"c\", \"d\"]\ntooltip-format = \"load {load5}\"\n",
    );
    let sample = busy_sample();
    let mut out = String::new();
    let status = module.text(&input(&sample), &mut out).expect("shown");
    assert_eq!((out.as_str(), status.level), ("! 37% b", Level::Warning));
    let mut tooltip = String::new();
    module.tooltip(&mut Plain(&mut tooltip), &input(&sample));
    assert_eq!(tooltip, "load 1.25");
    assert!(!module.history_graphs());
    let err = crate::config::parse(
        "modules_right = [\"cpu\"]\n[cpu]\nformat = \"{usage_0}\"\n",
        std::path::Path::new("c.toml"),
    )
    .expect_err("no field");
    assert!(
        err.message.contains("no {usage_0} in a format here") && err.message.contains("{usageN}"),
        "{}",
        err.message
    );
}

#[test]
fn each_cores_share_and_icon_from_its_reading() {
    use crate::modules::tests::{configured, input};
    use crate::sample::readings::Roots;
    let module = configured(
        "cpu",
        "format = \"{usage0}% {usage1:.1f} {icon0}{icon1} [{usage2}{icon2}]\"\n\
         format-icons = [\"a\", \"b\", \"c\", \"d\"]\n",
    );
    assert!(module.reader(&Roots::system()).is_some() == cfg!(feature = "app"));
    let mut sample = busy_sample();
    let mut out = String::new();
    module.text(&input(&sample), &mut out);
    assert_eq!(out, "–% –  [–]", "before the cores' second reading");
    let cores = CoreUsage {
        percent: vec![Some(12.9), Some(99.5), None],
    };
    sample.readings.insert("cpu", Box::new(cores));
    out.clear();
    module.text(&input(&sample), &mut out);
    assert_eq!(out, "12% 99.0 ad [–]");
    // Without a core's field the cores are not read.
    let plain = configured(
        "cpu",
        "format = \"{usage}% {icon}\"\nformat-icons = [\"a\"]\n",
    );
    assert!(plain.reader(&Roots::system()).is_none());
}

#[test]
fn format_alt_is_switched_by_a_left_click_and_the_other_clicks_stay_the_monitors() {
    use crate::model::controls::Request;
    use crate::modules::{Action, Button};
    let sample = busy_sample();
    let make = |table: &str| {
        let table = toml::de::ValueDeserializer::parse(table).expect("toml");
        crate::modules::make("cpu", Some(table))
            .expect("registered")
            .expect("valid")
    };
    let text = |module: &dyn crate::modules::Module| {
        let mut out = String::new();
        module.text(&crate::modules::tests::input(&sample), &mut out);
        out
    };
    let module = make("{ format = \"C {usage}%\", format-alt = \"ALT {usage}\" }");
    assert_eq!(text(&*module), "C 37%");
    assert_eq!(module.action(Button::Left), Some(Action::Redraw));
    assert_eq!(text(&*module), "ALT 37");
    assert_eq!(
        module.action(Button::Middle),
        Some(Action::Monitor(Request::ToggleKernelThreads))
    );
    module.action(Button::Left);
    assert_eq!(text(&*module), "C 37%");
    // Without its own format, the alternative takes turns with ringbar's text.
    let module = make("{ format-alt = \"ALT {usage}\" }");
    assert!(text(&*module).starts_with("CPU 38%"), "{}", text(&*module));
    module.action(Button::Left);
    assert_eq!(text(&*module), "ALT 37");
    // Without one, a left click is the monitor's.
    assert_eq!(
        make("{}").action(Button::Left),
        Some(Action::Monitor(Request::CycleInterval))
    );
}
