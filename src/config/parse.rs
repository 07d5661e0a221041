//! Config text to a [`Config`], with every problem found, not only the first: a syntax
//! error ends the reading, but after that each module table, each bar key and each entry
//! of the module lists is judged on its own.

use std::path::Path;
use std::rc::Rc;

use serde::Deserialize;
use toml::de::{DeTable, DeValue, Deserializer, ValueDeserializer};
use toml::Spanned;

use super::bars::{BarSpec, BarTable, OutputMatch, MAX_BARS};
use super::clicks;
use super::label_shape::{self, LabelShape};
use super::lists::{self, Part};
use super::parse_state::Parse;
use super::rotate::{self, Rotate};
use super::{Config, ConfigError, Settings, REPLACED};
use crate::modules::{self, Layout};

/// Parses config text; `path` is only used in messages. Every problem found, in the
/// order of the file's parts (syntax, module tables, bar keys, module lists).
pub fn parse_all(text: &str, path: &Path) -> Result<Config, Vec<ConfigError>> {
    let document =
        DeTable::parse(text).map_err(|err| vec![ConfigError::located(path, text, err)])?;
    let span = document.span();
    let mut table = document.into_inner();
    let mut parse = Parse {
        text,
        path,
        errors: Vec::new(),
        made: Vec::new(),
        rotated: Vec::new(),
        shaped: Vec::new(),
        groups: Vec::new(),
    };
    for (old, instead) in REPLACED {
        if let Some((key, _)) = table.get_key_value(old) {
            parse.at(key.span(), instead.to_owned());
        }
    }
    for old in REPLACED.map(|(old, _)| old) {
        table.remove(old);
    }
    let bar_tables = bar_tables(&mut parse, &mut table);
    custom_tables(&mut parse, &mut table);
    parse.groups = lists::group_tables(&mut parse, &mut table);
    module_tables(&mut parse, &mut table);
    let mut settings = settings(&mut parse, span, table);
    let top = [
        std::mem::take(&mut settings.modules_left),
        std::mem::take(&mut settings.modules_center),
        std::mem::take(&mut settings.modules_right),
    ]
    .map(|list| lists::module_list(&mut parse, list));
    let rotated = std::mem::take(&mut parse.rotated);
    let shaped = std::mem::take(&mut parse.shaped);
    let bars = match bar_tables.is_empty() {
        true => vec![bar_spec(
            &settings,
            BarTable::default(),
            Part::layout(top),
            &rotated,
            &shaped,
        )],
        false => bar_tables
            .into_iter()
            .map(|bar| {
                let mut list = |own: Option<Vec<Spanned<String>>>, top: &Part| {
                    own.map_or_else(|| top.clone(), |own| lists::module_list(&mut parse, own))
                };
                let layout = Part::layout([
                    list(bar.modules_left.clone(), &top[0]),
                    list(bar.modules_center.clone(), &top[1]),
                    list(bar.modules_right.clone(), &top[2]),
                ]);
                bar_spec(&settings, bar, layout, &rotated, &shaped)
            })
            .collect(),
    };
    if !parse.errors.is_empty() {
        return Err(parse.errors);
    }
    let modules = every_module(&bars);
    // A table of its own is read whether or not a bar lists the module.
    let net_include_local = parse
        .made
        .iter()
        .find_map(|(_, m)| m.sampling().and_then(|s| s.net_include_local));
    let mut sensors = settings.sensors;
    sensors.skip_gpus = !modules
        .all()
        .any(|m| crate::modules::shows_gpus(m.as_ref()));
    let takes_samples = modules
        .all()
        .any(|m| crate::modules::uses_samples(m.as_ref()));
    Ok(Config {
        bars,
        modules,
        interval_ms: settings.interval_ms,
        kernel_threads: settings.kernel_threads,
        group_by: settings.group_by,
        net_include_local: net_include_local.unwrap_or(false),
        sensors,
        takes_samples,
        compositor: settings.compositor,
    })
}

/// `[[bar]]`: each table read on its own; its module lists are made later.
fn bar_tables(parse: &mut Parse<'_>, table: &mut DeTable<'_>) -> Vec<BarTable> {
    let Some(bars) = table.remove("bar") else {
        return Vec::new();
    };
    let span = bars.span();
    let DeValue::Array(list) = bars.into_inner() else {
        parse.at(
            span,
            "`bar` is a list of tables: write each as [[bar]]".to_owned(),
        );
        return Vec::new();
    };
    if list.len() > MAX_BARS {
        parse.at(span, format!("more than {MAX_BARS} [[bar]] tables"));
        return Vec::new();
    }
    let mut read = Vec::new();
    for value in list {
        match BarTable::deserialize(ValueDeserializer::from(value)) {
            Ok(bar) => read.push(bar),
            Err(err) => parse.located(err),
        }
    }
    read
}

/// A bar from its table, the top level's keys where it has none.
fn bar_spec(
    top: &Settings,
    bar: BarTable,
    modules: Layout,
    rotated: &[(String, Rotate)],
    shaped: &[(String, LabelShape)],
) -> BarSpec {
    let output = bar.output.as_ref().or(top.output.as_ref());
    BarSpec {
        output: OutputMatch::of(&output.map(|o| o.names()).unwrap_or_default()),
        position: bar.position.unwrap_or(top.position),
        layer: bar.layer.unwrap_or(top.layer),
        height: bar.height.unwrap_or(top.height),
        width: bar.width.unwrap_or(top.width),
        margin_top: bar.margin_top.unwrap_or(top.margin_top),
        margin_bottom: bar.margin_bottom.unwrap_or(top.margin_bottom),
        margin_left: bar.margin_left.unwrap_or(top.margin_left),
        margin_right: bar.margin_right.unwrap_or(top.margin_right),
        spacing: bar.spacing.unwrap_or(top.spacing),
        rotate: bar.rotate.unwrap_or(top.rotate),
        rotated_modules: rotated.to_vec(),
        shaped_modules: shaped.to_vec(),
        modules,
    }
}

/// The first bar's modules as listed, then each module of the others that is not
/// there yet, in its group.
fn every_module(bars: &[BarSpec]) -> Layout {
    let mut every = bars.first().map(|b| b.modules.clone()).unwrap_or_default();
    // Not drawn: its parts are lists of modules, without groups.
    every.arranged = Default::default();
    for bar in bars.iter().skip(1) {
        for (group, from) in [
            (0, &bar.modules.left),
            (1, &bar.modules.center),
            (2, &bar.modules.right),
        ] {
            for module in from {
                if every.all().any(|m| Rc::ptr_eq(m, module)) {
                    continue;
                }
                let into = match group {
                    0 => &mut every.left,
                    1 => &mut every.center,
                    _ => &mut every.right,
                };
                into.push(module.clone());
            }
        }
    }
    every
}

/// A module table's click keys, taken out of it; a wrong one is reported, and none are used.
fn take_clicks(parse: &mut Parse<'_>, table: &mut Spanned<DeValue<'_>>) -> modules::Clicks {
    clicks::take(table, parse.path).unwrap_or_else(|(span, message)| {
        parse.at(span, message);
        modules::Clicks::default()
    })
}

/// `[custom.NAME]`: the script modules' tables, each made into `custom/NAME`.
fn custom_tables(parse: &mut Parse<'_>, table: &mut DeTable<'_>) {
    let Some(custom) = table.remove("custom") else {
        return;
    };
    let span = custom.span();
    let DeValue::Table(scripts) = custom.into_inner() else {
        let message = "`custom` holds one table per script module: [custom.NAME]".to_owned();
        parse.at(span, message);
        return;
    };
    for (key, mut value) in scripts {
        let name = format!("custom/{}", key.get_ref());
        if !modules::is_custom(&name) {
            let message =
                format!("{name:?}: a script module's name is letters, digits, `-` and `_`");
            parse.at(key.span(), message);
            continue;
        }
        let rotation = rotate::take(&mut value);
        // A script module cuts its own text to `max-length`.
        let shape = label_shape::take(&mut value, false, false);
        let clicks = take_clicks(parse, &mut value);
        match modules::custom::make(&name, ValueDeserializer::from(value), clicks) {
            Ok(module) => {
                parse.rotation(module.name(), rotation);
                parse.shape(module.name(), shape);
                parse.made.push((name, module));
            }
            Err(err) => parse.located(err),
        }
    }
}

/// Each module reads its own table (`[cpu]`); what remains are the bar's keys.
fn module_tables(parse: &mut Parse<'_>, table: &mut DeTable<'_>) {
    let module_keys: Vec<String> = table
        .keys()
        .map(|key| key.get_ref().to_string())
        .filter(|key| modules::is_module(key))
        .collect();
    for name in module_keys {
        let Some(mut value) = table.remove(name.as_str()) else {
            continue;
        };
        let rotation = rotate::take(&mut value);
        let shape = label_shape::take(
            &mut value,
            !modules::reads_own(&name, "max-length"),
            !modules::reads_own(&name, "tooltip"),
        );
        let clicks = take_clicks(parse, &mut value);
        match modules::make_listed(&name, Some(ValueDeserializer::from(value)), clicks) {
            Some(Ok(module)) => {
                parse.rotation(module.name(), rotation);
                parse.shape(module.name(), shape);
                parse.made.push((name, module));
            }
            Some(Err(err)) => parse.located(err),
            None => {}
        }
    }
}

/// The bar's keys. When they do not read as a whole, each key is read alone, so that
/// every wrong one is named; the module lists that read are still checked.
fn settings(parse: &mut Parse<'_>, span: std::ops::Range<usize>, table: DeTable<'_>) -> Settings {
    let whole = Settings::deserialize(Deserializer::from(Spanned::new(
        span.clone(),
        table.clone(),
    )));
    let first = match whole {
        Ok(settings) => return settings,
        Err(err) => err,
    };
    let mut merged = Settings::default();
    let before = parse.errors.len();
    for (key, value) in table {
        let mut one = DeTable::new();
        let name = key.get_ref().to_string();
        one.insert(key, value);
        match Settings::deserialize(Deserializer::from(Spanned::new(span.clone(), one))) {
            Ok(read) => match name.as_str() {
                "modules_left" => merged.modules_left = read.modules_left,
                "modules_center" => merged.modules_center = read.modules_center,
                "modules_right" => merged.modules_right = read.modules_right,
                _ => {}
            },
            Err(err) => settings_error(parse, err),
        }
    }
    if parse.errors.len() == before {
        settings_error(parse, first);
    }
    merged
}

fn settings_error(parse: &mut Parse<'_>, err: toml::de::Error) {
    let mut err = ConfigError::located(parse.path, parse.text, err);
    // The bar's own keys only: an unknown key inside [sensors] is not a module's.
    if err.message.starts_with("unknown field") && err.message.contains("`modules_left`") {
        let tables: Vec<String> = modules::names().map(|n| format!("`[{n}]`")).collect();
        err.message = format!(
            "{}, or a module table: {}; or a bar of its own in a [[bar]] table",
            err.message,
            tables.join(", ")
        );
    }
    parse.errors.push(err);
}
