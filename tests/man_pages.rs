//! ringbar(5), `docs/man/ringbar.5.scd`, documents every config key the code knows, and
//! no other. The keys come from the config parser itself: it refuses an unknown key with
//! serde's "unknown field `x`, expected one of `a`, `b`, …", so a table's keys are what
//! it says about `zzz_unknown`. The man page gives each table a `## [NAME]` heading (the
//! bar's own keys: `## Top-level keys`) with one `*key* = default` line per key.
//! Needs no root and no probe: it only parses text.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ringbar::config::{self, Config};

/// The key no table has.
const UNKNOWN: &str = "zzz_unknown";
/// The heading of the bar's own keys, the table with the empty path.
const TOP_LEVEL: &str = "Top-level keys";
/// The script table probed, and how the man page names it.
const SCRIPT_TABLE: &str = "custom.x";
const SCRIPT_HEADING: &str = "custom.NAME";
/// The group table probed, and how the man page names it.
const GROUP_TABLE: &str = "group.x";
const GROUP_HEADING: &str = "group.NAME";

fn man_page() -> (PathBuf, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/man/ringbar.5.scd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    (path, text)
}

/// Config text that sets `key = value` in `table` ("" is the top level); a script table
/// gets the `exec` it needs, a group table its `modules`.
fn config_text(table: &str, line: &str) -> String {
    match table {
        "" => format!("{line}\n"),
        _ if table.starts_with(SCRIPT_TABLE) && !line.starts_with("exec ") => {
            format!("[{table}]\nexec = \"true\"\n{line}\n")
        }
        GROUP_TABLE if line.starts_with("modules ") => format!("[{table}]\n{line}\n"),
        GROUP_TABLE => format!("[{table}]\nmodules = []\n{line}\n"),
        _ if table.starts_with(GROUP_TABLE) => {
            format!("[{GROUP_TABLE}]\nmodules = []\n[{table}]\n{line}\n")
        }
        _ => format!("[{table}]\n{line}\n"),
    }
}

/// The keys serde lists in an unknown-field message: "expected `a`", "expected `a` or
/// `b`", "expected one of `a`, `b`, …", "there are no fields". The top level's message
/// goes on with ", or a module table: `[cpu]`, …", which is cut off.
fn expected_keys(message: &str) -> Option<BTreeSet<String>> {
    let rest = message
        .split_once(&format!("unknown field `{UNKNOWN}`, "))?
        .1;
    if rest.starts_with("there are no fields") {
        return Some(BTreeSet::new());
    }
    let list = rest.strip_prefix("expected ")?;
    let list = list.split(", or a module table").next().unwrap_or(list);
    Some(
        list.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect(),
    )
}

/// What the parser says about an unknown key in `table`.
enum Answer {
    /// A table of named keys.
    Keys(BTreeSet<String>),
    /// Refused otherwise: not a table of named keys (the parser's message).
    NoTable(String),
    /// Taken: the table ignores unknown keys, so its keys cannot be known.
    Accepted,
}

fn ask(table: &str) -> Answer {
    let text = config_text(table, &format!("{UNKNOWN} = 1"));
    match config::parse(&text, Path::new("c.toml")) {
        Ok(_) => Answer::Accepted,
        Err(err) => match expected_keys(&err.message) {
            Some(keys) => Answer::Keys(keys),
            None => Answer::NoTable(err.message),
        },
    }
}

/// The man page's name of a table path: `custom.x` is `custom.NAME`, `group.x` is
/// `group.NAME`.
fn heading_of(table: &str) -> String {
    if table.is_empty() {
        return TOP_LEVEL.to_owned();
    }
    for (probed, heading) in [(SCRIPT_TABLE, SCRIPT_HEADING), (GROUP_TABLE, GROUP_HEADING)] {
        if let Some(rest) = table.strip_prefix(probed) {
            return format!("{heading}{rest}");
        }
    }
    table.to_owned()
}

/// A table the code reads.
struct CodeTable {
    keys: BTreeSet<String>,
    /// For a module that takes no table: what the parser said about `[NAME]`.
    refusal: Option<String>,
}

/// Every table the code reads, by man page heading; and what could not be asked. Tables
/// nested in a table (`[sensors]`, `[sensors.cpu_temperature]`) are found by asking each
/// key as a table.
fn code_tables() -> (BTreeMap<String, CodeTable>, Vec<String>) {
    let mut tables = BTreeMap::new();
    let mut problems = Vec::new();
    assert!(
        ringbar::modules::is_custom("custom/x"),
        "custom/NAME is no longer a script module: update this test"
    );
    let mut queue: Vec<String> = vec![
        String::new(),
        SCRIPT_TABLE.to_owned(),
        GROUP_TABLE.to_owned(),
    ];
    let modules: Vec<&str> = ringbar::modules::names().collect();
    assert!(!modules.is_empty(), "no module registered");
    queue.extend(modules.iter().map(|name| (*name).to_owned()));
    while let Some(table) = queue.pop() {
        let is_module = modules.contains(&table.as_str());
        match ask(&table) {
            Answer::Keys(keys) => {
                for key in &keys {
                    let child = match table.as_str() {
                        "" => key.clone(),
                        _ => format!("{table}.{key}"),
                    };
                    let already = modules.contains(&child.as_str()) || queue.contains(&child);
                    if !already && matches!(ask(&child), Answer::Keys(_)) {
                        queue.push(child);
                    }
                }
                let refusal = None;
                tables.insert(heading_of(&table), CodeTable { keys, refusal });
            }
            // A module that takes no table still has a heading, with no key under it.
            Answer::NoTable(message) if is_module => {
                let (keys, refusal) = (BTreeSet::new(), Some(message));
                tables.insert(heading_of(&table), CodeTable { keys, refusal });
            }
            Answer::NoTable(message) => problems.push(format!(
                "[{}]: the parser no longer lists its keys; it says: {message}",
                heading_of(&table)
            )),
            Answer::Accepted => problems.push(format!(
                "[{}] accepts the unknown key `{UNKNOWN}`, so its keys cannot be read from \
                 the parser",
                heading_of(&table)
            )),
        }
    }
    (tables, problems)
}

/// One `*key* = default` line of the man page.
struct Definition {
    key: String,
    default: String,
    line: usize,
}

/// `*key* = default` at the start of a line.
fn definition(line: &str) -> Option<(String, String)> {
    let (key, default) = line.strip_prefix('*')?.split_once("* = ")?;
    let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    (!key.is_empty() && key.chars().all(name_char))
        .then(|| (key.to_owned(), default.trim().to_owned()))
}

/// The man page's tables: `## [NAME]` and `## Top-level keys` headings with the
/// definitions under each (literal blocks skipped); and what is wrong with its layout.
fn man_tables(text: &str) -> (BTreeMap<String, Vec<Definition>>, Vec<String>) {
    let mut tables: BTreeMap<String, Vec<Definition>> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut current: Option<String> = None;
    let mut literal = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim_start().starts_with("```") {
            literal = !literal;
            continue;
        }
        if literal {
            continue;
        }
        if let Some(heading) = line.strip_prefix("## ") {
            let heading = heading.trim();
            let table = heading.strip_prefix('[').and_then(|h| h.strip_suffix(']'));
            current = match table {
                Some(name) => Some(name.to_owned()),
                None if heading == TOP_LEVEL => Some(TOP_LEVEL.to_owned()),
                None => None,
            };
            if let Some(name) = &current {
                if tables.insert(name.clone(), Vec::new()).is_some() {
                    problems.push(format!("line {number}: a second heading for [{name}]"));
                }
            }
            continue;
        }
        if line.starts_with("# ") {
            current = None;
            continue;
        }
        let Some((key, default)) = definition(line) else {
            continue;
        };
        match &current {
            None => problems.push(format!(
                "line {number}: `*{key}* =` outside a table's section"
            )),
            Some(name) => {
                let keys = tables.entry(name.clone()).or_default();
                if keys.iter().any(|d| d.key == key) {
                    problems.push(format!("line {number}: [{name}] documents `{key}` twice"));
                }
                keys.push(Definition {
                    key,
                    default,
                    line: number,
                });
            }
        }
    }
    (tables, problems)
}

fn list(keys: &BTreeSet<String>) -> String {
    let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    keys.join(", ")
}

#[test]
fn ringbar_5_documents_every_config_key_and_no_other() {
    let (path, text) = man_page();
    let (code, mut problems) = code_tables();
    let (man, layout) = man_tables(&text);
    problems.extend(layout);
    for name in ringbar::modules::names() {
        if !man.contains_key(name) {
            problems.push(format!("module `{name}` has no `## [{name}]` heading"));
        }
    }
    for (table, code_table) in &code {
        let (code_keys, refusal) = (&code_table.keys, &code_table.refusal);
        let Some(definitions) = man.get(table) else {
            problems.push(format!(
                "[{table}] has no heading; its keys in the code: {}",
                list(code_keys)
            ));
            continue;
        };
        let man_keys: BTreeSet<String> = definitions.iter().map(|d| d.key.clone()).collect();
        // A nested table is documented by its own heading, or by a line, or both.
        let nested = |key: &String| {
            let child = match table.as_str() {
                TOP_LEVEL => key.clone(),
                _ => format!("{table}.{key}"),
            };
            code.contains_key(&child) && man.contains_key(&child)
        };
        let missing: BTreeSet<String> = code_keys
            .iter()
            .filter(|key| !man_keys.contains(*key) && !nested(key))
            .cloned()
            .collect();
        let extra: BTreeSet<String> = man_keys.difference(code_keys).cloned().collect();
        if !missing.is_empty() {
            problems.push(format!(
                "[{table}]: in the code, not in the man page: {}",
                list(&missing)
            ));
        }
        if !extra.is_empty() {
            let said = match refusal {
                Some(message) => {
                    format!(" (the module takes no table; `[{table}]` gets: {message})")
                }
                None => String::new(),
            };
            problems.push(format!(
                "[{table}]: in the man page, not in the code: {}{said}",
                list(&extra)
            ));
        }
    }
    for table in man.keys().filter(|table| !code.contains_key(*table)) {
        problems.push(format!(
            "[{table}] has a heading, but the code has no such table"
        ));
    }
    assert!(
        problems.is_empty(),
        "{} and the config code disagree:\n  {}",
        path.display(),
        problems.join("\n  ")
    );
}

/// Each documented default is a value the parser takes in its table; the bar's own keys
/// must also give exactly the config the defaults give.
#[test]
fn ringbar_5_defaults_are_accepted_and_the_bars_keys_are_the_real_ones() {
    let (path, text) = man_page();
    let (man, _) = man_tables(&text);
    let defaults = format!("{:?}", Config::default());
    let mut problems = Vec::new();
    for (heading, definitions) in &man {
        let table = match heading.as_str() {
            TOP_LEVEL => String::new(),
            other => other
                .replace(SCRIPT_HEADING, SCRIPT_TABLE)
                .replace(GROUP_HEADING, GROUP_TABLE),
        };
        for d in definitions.iter().filter(|d| d.default != "unset") {
            let config_line = format!("{} = {}", d.key, d.default);
            let config_text = config_text(&table, &config_line);
            match config::parse(&config_text, Path::new("c.toml")) {
                Err(err) => problems.push(format!(
                    "line {}: [{heading}] `{config_line}` is refused: {}",
                    d.line, err.message
                )),
                Ok(config) if table.is_empty() && format!("{config:?}") != defaults => problems
                    .push(format!(
                        "line {}: `{config_line}` is not the default; the default config is \
                         {defaults}",
                        d.line
                    )),
                Ok(_) => {}
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{}: wrong defaults:\n  {}",
        path.display(),
        problems.join("\n  ")
    );
}

#[test]
fn ringbar_5_example_is_a_valid_config() {
    let (path, text) = man_page();
    let section = text
        .split_once("\n# EXAMPLE\n")
        .map(|(_, rest)| rest)
        .expect("an EXAMPLE section");
    let example = section
        .split("```")
        .nth(1)
        .expect("a literal block in EXAMPLE");
    if let Err(errors) = config::parse_all(example, &path) {
        let problems: Vec<String> = errors.iter().map(|e| e.problem()).collect();
        panic!("the example is refused:\n  {}", problems.join("\n  "));
    }
}

#[test]
fn serde_messages_are_read_in_each_form() {
    let keys = |message: &str| expected_keys(message).map(|k| k.into_iter().collect::<Vec<_>>());
    let unknown = format!("unknown field `{UNKNOWN}`, ");
    assert_eq!(keys(&format!("{unknown}there are no fields")), Some(vec![]));
    assert_eq!(
        keys(&format!("{unknown}expected `a`")),
        Some(vec!["a".into()])
    );
    assert_eq!(
        keys(&format!("{unknown}expected `a-b` or `c`")),
        Some(vec!["a-b".into(), "c".into()])
    );
    assert_eq!(
        keys(&format!(
            "{unknown}expected one of `a`, `b_c`, `d`, or a module table: `[cpu]`, `[gpu]`"
        )),
        Some(vec!["a".into(), "b_c".into(), "d".into()])
    );
    assert_eq!(keys("invalid type: integer `1`, expected a string"), None);
    assert_eq!(
        definition("*exec-if* = unset"),
        Some(("exec-if".into(), "unset".into()))
    );
    assert_eq!(definition("\t*exec-if* = unset"), None);
    assert_eq!(definition("*not a key* = 1"), None);
}
