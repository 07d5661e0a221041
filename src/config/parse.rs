//! Config text to a [`Config`], with every problem found, not only the first: a syntax
//! error ends the reading, but after that each module table, each bar key and each entry
//! of the module lists is judged on its own.

use std::path::Path;
use std::rc::Rc;

use serde::Deserialize;
use toml::de::{DeTable, DeValue, Deserializer, ValueDeserializer};
use toml::Spanned;

use super::{Config, ConfigError, Settings, MAX_MODULES_PER_GROUP, REPLACED};
use crate::modules::{self, Layout, Module};

/// What a parse found so far.
struct Parse<'a> {
    text: &'a str,
    path: &'a Path,
    errors: Vec<ConfigError>,
    /// The modules made, by name, so that a module listed twice is one module.
    made: Vec<(String, Rc<dyn Module>)>,
}

impl Parse<'_> {
    fn located(&mut self, err: toml::de::Error) {
        let err = ConfigError::located(self.path, self.text, err);
        self.errors.push(err);
    }

    fn at(&mut self, span: std::ops::Range<usize>, message: String) {
        let err = ConfigError::at(self.path, self.text, span, message);
        self.errors.push(err);
    }
}

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
    };
    for (old, instead) in REPLACED {
        if let Some((key, _)) = table.get_key_value(old) {
            parse.at(key.span(), instead.to_owned());
        }
    }
    for old in REPLACED.map(|(old, _)| old) {
        table.remove(old);
    }
    custom_tables(&mut parse, &mut table);
    module_tables(&mut parse, &mut table);
    let settings = settings(&mut parse, span, table);
    let modules = Layout {
        left: module_list(&mut parse, settings.modules_left),
        center: module_list(&mut parse, settings.modules_center),
        right: module_list(&mut parse, settings.modules_right),
    };
    if !parse.errors.is_empty() {
        return Err(parse.errors);
    }
    Ok(Config {
        position: settings.position,
        layer: settings.layer,
        height: settings.height,
        margin_top: settings.margin_top,
        margin_bottom: settings.margin_bottom,
        margin_left: settings.margin_left,
        margin_right: settings.margin_right,
        modules,
        interval_ms: settings.interval_ms,
        kernel_threads: settings.kernel_threads,
        group_by: settings.group_by,
        sensors: settings.sensors,
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
    for (key, value) in scripts {
        let name = format!("custom/{}", key.get_ref());
        if !modules::is_custom(&name) {
            let message =
                format!("{name:?}: a script module's name is letters, digits, `-` and `_`");
            parse.at(key.span(), message);
            continue;
        }
        match modules::custom::make(&name, ValueDeserializer::from(value)) {
            Ok(module) => parse.made.push((name, module)),
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
        let Some(value) = table.remove(name.as_str()) else {
            continue;
        };
        match modules::make(&name, Some(ValueDeserializer::from(value))) {
            Some(Ok(module)) => parse.made.push((name, module)),
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
        err.message = format!("{}, or a module table: {}", err.message, tables.join(", "));
    }
    parse.errors.push(err);
}

/// One of `modules_left`, `modules_center` and `modules_right`, made into modules.
fn module_list(parse: &mut Parse<'_>, list: Vec<Spanned<String>>) -> Vec<Rc<dyn Module>> {
    if let Some(extra) = list.get(MAX_MODULES_PER_GROUP) {
        let message = format!(
            "more than {MAX_MODULES_PER_GROUP} modules in one group ({} here)",
            list.len()
        );
        parse.at(extra.span(), message);
        return Vec::new();
    }
    let mut part = Vec::new();
    for entry in list {
        let name = entry.get_ref();
        if let Some((_, module)) = parse.made.iter().find(|(n, _)| n == name) {
            part.push(Rc::clone(module));
            continue;
        }
        if modules::is_custom(name) {
            let message = format!(
                "{name} has no table: add [custom.{}] with at least `exec`",
                &name["custom/".len()..]
            );
            parse.at(entry.span(), message);
            continue;
        }
        let Some(made) = modules::make(name, None) else {
            let known: Vec<&str> = modules::names().collect();
            let aliases: Vec<&str> = modules::aliases().map(|(alias, _)| alias).collect();
            let message = format!(
                "no module is called {name:?}; modules: {}, Waybar's {}, and custom/NAME for \
                 a script",
                known.join(", "),
                aliases.join(", ")
            );
            parse.at(entry.span(), message);
            continue;
        };
        match made {
            Ok(module) => {
                parse.made.push((name.clone(), Rc::clone(&module)));
                part.push(module);
            }
            Err(err) => parse.located(err),
        }
    }
    part
}
