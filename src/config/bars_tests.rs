//! `[[bar]]`: outputs, inheritance from the top level, the modules every bar shares, and
//! the errors a bar table can have.

use std::path::Path;
use std::rc::Rc;

use super::label_shape::LabelShape;
use super::*;

fn parse_str(text: &str) -> Result<Config, ConfigError> {
    parse(text, Path::new("config.toml"))
}

fn names(list: &[Rc<dyn crate::modules::Module>]) -> Vec<&str> {
    list.iter().map(|m| m.name()).collect()
}

#[test]
fn outputs_match_by_name_and_exclusion() {
    let all = OutputMatch::of(&[]);
    assert!(all.is_everywhere() && all.matches("DP-1"));
    let star = OutputMatch::of(&["*".to_owned()]);
    assert!(star.is_everywhere() && star.matches("HDMI-A-1"));
    let two = OutputMatch::of(&["DP-1".to_owned(), "DP-2".to_owned()]);
    assert!(two.matches("DP-2") && !two.matches("DP-3") && !two.is_everywhere());
    let not_one = OutputMatch::of(&["!eDP-1".to_owned()]);
    assert!(not_one.matches("DP-1") && !not_one.matches("eDP-1"));
    assert!(!not_one.is_everywhere());
}

#[test]
fn bar_tables_inherit_the_top_level_and_share_modules() {
    let config = parse_str(
        "height = 30\nmargin_top = 2\nmodules_right = [\"cpu\", \"clock\"]\n\
         [[bar]]\noutput = \"HEADLESS-1\"\nposition = \"left\"\nwidth = 64\n\
         modules_left = [\"workspaces\"]\nmodules_center = []\n\
         [[bar]]\noutput = [\"*\", \"!HEADLESS-1\"]\nlayer = \"overlay\"\n\
         modules_left = [\"memory\", \"cpu\"]\nmodules_right = [\"clock\"]\n[cpu]\nwarning = 50\n",
    )
    .expect("valid");
    assert_eq!(config.bars.len(), 2);
    let (left, top) = (&config.bars[0], &config.bars[1]);
    assert!(left.vertical() && !top.vertical());
    assert!(left.output.matches("HEADLESS-1") && !left.output.matches("HEADLESS-2"));
    assert!(top.output.matches("HEADLESS-2") && !top.output.matches("HEADLESS-1"));
    assert_eq!(
        (left.position, left.width, left.height),
        (Position::Left, 64, 30)
    );
    assert_eq!(
        (top.position, top.layer, top.margin_top),
        (Position::Top, Layer::Overlay, 2)
    );
    assert_eq!(left.layer, Layer::Top);
    // Lists a bar leaves out are the top level's.
    assert_eq!(names(&left.modules.left), ["workspaces"]);
    assert!(left.modules.center.is_empty());
    assert_eq!(names(&left.modules.right), ["cpu", "clock"]);
    assert_eq!(names(&top.modules.left), ["memory", "cpu"]);
    assert_eq!(
        names(&top.modules.center),
        ["clock"],
        "the top level's centre"
    );
    // A module two bars list is one module, with its one table.
    assert!(Rc::ptr_eq(&left.modules.right[0], &top.modules.left[1]));
    // Every module once, in the first bar's order, then the others' new ones.
    assert_eq!(names(&config.modules.left), ["workspaces", "memory"]);
    assert_eq!(names(&config.modules.center), Vec::<&str>::new());
    assert_eq!(names(&config.modules.right), ["cpu", "clock"]);
}

#[test]
fn without_bar_tables_one_bar_goes_everywhere_and_may_be_vertical() {
    let config = parse_str("position = \"right\"\nwidth = 80\noutput = \"DP-1\"\n").expect("valid");
    assert_eq!(config.bars.len(), 1);
    let bar = &config.bars[0];
    assert_eq!((bar.position, bar.width), (Position::Right, 80));
    assert!(bar.output.matches("DP-1") && !bar.output.matches("DP-2"));
}

#[test]
fn rotate_turns_a_bars_labels_or_one_modules_over_the_bars() {
    let config = parse_str(
        "rotate = 270\nmodules_left = [\"clock\", \"cpu\", \"custom/up\"]\n\
         [clock]\nrotate = 90\n[custom.up]\nexec = \"true\"\nrotate = 0\n\
         [[bar]]\nposition = \"left\"\n[[bar]]\nrotate = 180\n",
    )
    .expect("valid");
    let (first, second) = (&config.bars[0], &config.bars[1]);
    // The top level's for the first bar, the table's own for the second.
    assert_eq!(first.rotate_of("cpu"), Rotate::ThreeQuarters);
    assert_eq!(second.rotate_of("cpu"), Rotate::Half);
    // A module's own, on every bar; 0 keeps a module upright on a turned bar.
    for bar in [first, second] {
        assert_eq!(bar.rotate_of("clock"), Rotate::Quarter);
        assert_eq!(bar.rotate_of("custom/up"), Rotate::None);
    }
    assert!(Rotate::Quarter.is_sideways() && !Rotate::Half.is_sideways());
    // The module reads the rest of its table.
    let plain = parse_str("").expect("valid");
    assert_eq!(plain.bars[0].rotate_of("clock"), Rotate::None);
}

#[test]
fn bad_bar_tables_are_located() {
    for (text, line, says) in [
        ("[[bar]]\nposition = \"middle\"\n", 2, "unknown variant"),
        ("[[bar]]\nwidth = 0\n", 2, "not between 1 and 500"),
        ("[[bar]]\ncolour = 1\n", 2, "unknown field"),
        (
            "[[bar]]\nmodules_left = [\"nope\"]\n",
            2,
            "no module is called",
        ),
        ("bar = 3\n", 1, "[[bar]]"),
        ("[[bar]]\noutput = 4\n", 2, ""),
        (
            "[[bar]]\nrotate = 45\n",
            2,
            "rotate 45 is not 0, 90, 180 or 270",
        ),
        ("[cpu]\nrotate = \"left\"\n", 2, "invalid type"),
        (
            "[custom.x]\nexec = \"true\"\nrotate = -90\n",
            3,
            "rotate -90",
        ),
    ] {
        let err = parse_str(text).expect_err(text);
        assert_eq!(err.line, Some(line), "{text}: {err}");
        assert!(err.message.contains(says), "{text}: {err}");
    }
    let many = "[[bar]]\n".repeat(super::bars::MAX_BARS + 1);
    let err = parse_str(&many).expect_err("too many");
    assert!(err.message.contains("more than 16"), "{err}");
}

#[test]
fn waybars_label_sizes_are_any_modules_and_a_modules_own_cut_stays_its_own() {
    let config = parse_str(
        "modules_left = [\"clock\", \"media\", \"custom/up\"]\n\
         [clock]\nmax-length = 6\nmin-length = 8\nalign = 0.5\n\
         [media]\nmax-length = 10\nalign = 1\n\
         [custom.up]\nexec = \"true\"\nmax-length = 4\nmin-length = 3\n",
    )
    .expect("valid");
    let bar = &config.bars[0];
    assert_eq!(
        bar.shape_of("clock"),
        LabelShape {
            max_chars: Some(6),
            min_chars: Some(8),
            align: Some(0.5),
            ..LabelShape::default()
        }
    );
    // media and scripts cut their own text to max-length: they keep the key.
    assert_eq!(
        bar.shape_of("media"),
        LabelShape {
            max_chars: None,
            min_chars: None,
            align: Some(1.0),
            ..LabelShape::default()
        }
    );
    assert_eq!(bar.shape_of("custom/up").max_chars, None);
    assert_eq!(bar.shape_of("custom/up").min_chars, Some(3));
    assert_eq!(bar.shape_of("cpu"), LabelShape::default());
    // `tooltip = false` on any module; a script module keeps its own.
    let config = parse_str(
        "modules_left = [\"disk\", \"custom/up\"]\n[disk]\ntooltip = false\n\
         [custom.up]\nexec = \"true\"\ntooltip = false\n",
    )
    .expect("valid");
    assert_eq!(config.bars[0].shape_of("disk").tooltip, Some(false));
    assert_eq!(config.bars[0].shape_of("custom/up").tooltip, None);
    // `cursor` on any module, scripts too: Waybar's booleans or a name.
    let config = parse_str(
        "modules_left = [\"cpu\", \"disk\", \"custom/up\"]\n[cpu]\ncursor = true\n\
         [disk]\ncursor = \"help\"\n[custom.up]\nexec = \"true\"\ncursor = false\n",
    )
    .expect("valid");
    let cursor = |module: &str| config.bars[0].shape_of(module).cursor;
    assert_eq!(cursor("cpu").as_deref(), Some("pointer"));
    assert_eq!(cursor("disk").as_deref(), Some("help"));
    assert_eq!(cursor("custom/up").as_deref(), Some("default"));
    for (text, says) in [
        (
            "[clock]\nalign = 1.5\n",
            "`align` 1.5 is not from 0 (left) to 1 (right)",
        ),
        ("[clock]\nmax-length = -1\n", "`max-length`"),
        ("[cpu]\nmin-length = \"wide\"\n", "`min-length`"),
        ("[disk]\ntooltip = \"no\"\n", "`tooltip`"),
        ("[disk]\ncursor = 60\n", "`cursor`: true (a hand)"),
    ] {
        let errors = parse_str(text).expect_err(text);
        let message = errors.to_string();
        assert!(message.contains(says), "{text}: {message}");
    }
}

#[test]
fn spacing_is_a_bars_own_or_the_top_levels() {
    assert_eq!(parse_str("").expect("valid").bars[0].spacing, 14);
    let config =
        parse_str("spacing = 3\n[[bar]]\noutput = \"A\"\n[[bar]]\noutput = \"B\"\nspacing = 0\n")
            .expect("valid");
    let spacings: Vec<u32> = config.bars.iter().map(|b| b.spacing).collect();
    assert_eq!(spacings, [3, 0]);
    assert!(parse_str("spacing = -1\n").is_err());
}
