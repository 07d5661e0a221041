use crate::model::Memory;
use crate::modules::tests::{configured, input, text_of};
use crate::modules::{Level, Module, Status};
use crate::sample::Sample;
use crate::text::Plain;

fn sample() -> Sample {
    let mut sample = Sample::default();
    sample.processes.memory = Some(Memory {
        total: 16 << 30,
        available: (16 << 30) - 5_905_580_032, // 5.5 GiB used
        swap_total: 2 << 30,
        swap_free: 3 << 29,
    });
    sample
}

fn shown(module: &dyn Module, sample: &Sample) -> (String, Option<Status>) {
    let mut out = String::new();
    let status = module.text(&input(sample), &mut out);
    (out, status)
}

#[test]
fn text_and_level() {
    let mut sample = Sample::default();
    assert_eq!(text_of("memory", &sample).0, "MEM –");
    sample.processes.memory = Some(Memory {
        total: 8 << 30,
        available: 2 << 30,
        swap_total: 0,
        swap_free: 0,
    });
    let (text, status) = text_of("memory", &sample);
    assert_eq!(text, "MEM 6.0G/8.0G");
    let status = status.expect("shown");
    assert_eq!(
        (status.level, status.percentage),
        (Level::Normal, Some(75.0))
    );
}

#[test]
fn waybars_fields_units_and_number_specs() {
    let module = configured(
        "memory",
        "format = \"{percentage}% {used:0.1f}/{total}G {avail:.2f} swap {swapUsed}/{swapTotal} \
         {swapPercentage}% {swapState}\"\n",
    );
    let (text, status) = shown(&*module, &sample());
    // 5.5 of 16 GiB is 34.37 %: Waybar's integer share is 34.
    assert_eq!(text, "34% 5.5/16G 10.50 swap 0.5/2 25% On");
    assert_eq!(status.expect("shown").level, Level::Normal);
    let mebibytes = configured("memory", "format = \"{used:5}\"\nunit = \"MiB\"\n");
    assert_eq!(shown(&*mebibytes, &sample()).0, " 5632");
    let unknown = "modules_right = [\"memory\"]\n[memory]\nformat = \"{used:x}\"\n";
    let err = crate::config::parse(unknown, std::path::Path::new("c.toml")).expect_err("spec");
    assert!(err.message.contains("{used:x}"), "{}", err.message);
}

#[test]
fn the_levels_format_and_icons_and_the_users_tooltip() {
    let module = configured(
        "memory",
        "warning = 30\ncritical = 90\nformat = \"{icon} {percentage}\"\n\
         format-warning = \"! {percentage}\"\nformat-icons = [\"a\", \"b\", \"c\", \"d\"]\n\
         tooltip-format = \"{used:.1f} GiB <used>\"\n",
    );
    let (text, status) = shown(&*module, &sample());
    assert_eq!(text, "! 34");
    assert_eq!(status.expect("shown").level, Level::Warning);
    assert!(!module.history_graphs());
    let mut tooltip = String::new();
    module.tooltip(&mut Plain(&mut tooltip), &input(&sample()));
    assert_eq!(tooltip, "5.5 GiB <used>");
    let calm = configured(
        "memory",
        "format = \"{icon} {percentage}\"\nformat-icons = [\"a\", \"b\", \"c\", \"d\"]\n",
    );
    assert_eq!(shown(&*calm, &sample()).0, "b 34");
    assert!(calm.history_graphs(), "the monitor's report stays");
}

#[test]
fn format_alt_is_switched_by_a_left_click() {
    use crate::modules::{Action, Button};
    let module = configured(
        "memory",
        "format = \"M {percentage}%\"\nformat-alt = \"USED {used:0.1f}G\"\n",
    );
    let sample = sample();
    assert_eq!(shown(&*module, &sample).0, "M 34%");
    assert_eq!(module.action(Button::Left), Some(Action::Redraw));
    assert_eq!(shown(&*module, &sample).0, "USED 5.5G");
    module.action(Button::Left);
    assert_eq!(shown(&*module, &sample).0, "M 34%");
}
