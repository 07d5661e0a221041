//! The module lists (`modules_left`, …) into modules, and the groups in them: `group/NAME`
//! stands for its table's `modules`, each made once however often it is listed.

use std::rc::Rc;

use serde::Deserialize;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

use super::group_table::GroupTable;
use super::parse_state::Parse;
use super::MAX_MODULES_PER_GROUP;
use crate::modules::group::{is_group, Group, Node};
use crate::modules::{self, Layout, Module};

/// How deep groups may nest.
const MAX_GROUP_DEPTH: usize = 8;
/// The most modules one part of a bar holds, its groups' members counted: groups that
/// each list the next many times would otherwise multiply.
const MAX_MODULES_PER_PART: usize = 4 * MAX_MODULES_PER_GROUP;

/// One part of a bar (left, centre or right): its modules, and how they are arranged.
#[derive(Clone, Default)]
pub(super) struct Part {
    modules: Vec<Rc<dyn Module>>,
    nodes: Vec<Node>,
}

impl Part {
    pub(super) fn layout([left, center, right]: [Part; 3]) -> Layout {
        Layout {
            left: left.modules,
            center: center.modules,
            right: right.modules,
            arranged: [left.nodes, center.nodes, right.nodes],
        }
    }
}

/// `[group.NAME]` tables, read on their own; their lists are made where a bar lists them.
pub(super) fn group_tables(
    parse: &mut Parse<'_>,
    table: &mut DeTable<'_>,
) -> Vec<(String, GroupTable)> {
    let Some(groups) = table.remove("group") else {
        return Vec::new();
    };
    let span = groups.span();
    let DeValue::Table(groups) = groups.into_inner() else {
        let message = "`group` holds one table per group: [group.NAME]".to_owned();
        parse.at(span, message);
        return Vec::new();
    };
    let mut read = Vec::new();
    for (key, value) in groups {
        let name = format!("group/{}", key.get_ref());
        if !is_group(&name) {
            let message = format!("{name:?}: a group's name is letters, digits, `-` and `_`");
            parse.at(key.span(), message);
            continue;
        }
        match GroupTable::deserialize(ValueDeserializer::from(value)) {
            Ok(group) => read.push((name, group)),
            Err(err) => parse.located(err),
        }
    }
    read
}

/// A module list: each name made into its module once, a group into its members.
pub(super) fn module_list(parse: &mut Parse<'_>, list: Vec<Spanned<String>>) -> Part {
    let mut part = Part::default();
    part.nodes = entries(parse, list, &mut part.modules, &mut Vec::new());
    part
}

/// The entries of one list; `within` holds the groups being expanded (a group that
/// lists itself, directly or not, is an error).
fn entries(
    parse: &mut Parse<'_>,
    list: Vec<Spanned<String>>,
    modules: &mut Vec<Rc<dyn Module>>,
    within: &mut Vec<String>,
) -> Vec<Node> {
    if let Some(extra) = list.get(MAX_MODULES_PER_GROUP) {
        let message = format!(
            "more than {MAX_MODULES_PER_GROUP} modules in one group ({} here)",
            list.len()
        );
        parse.at(extra.span(), message);
        return Vec::new();
    }
    let mut nodes = Vec::new();
    for entry in list {
        if modules.len() >= MAX_MODULES_PER_PART {
            let message = format!("more than {MAX_MODULES_PER_PART} modules in one part of a bar, the groups' members counted");
            parse.at(entry.span(), message);
            break;
        }
        let name = entry.get_ref();
        if name.starts_with("group/") {
            if let Some(node) = group(parse, &entry, modules, within) {
                nodes.push(node);
            }
            continue;
        }
        if let Some(module) = module(parse, &entry) {
            nodes.push(Node::Module(modules.len()));
            modules.push(module);
        }
    }
    nodes
}

/// A listed `group/NAME`: its table's modules, within a box of their own.
fn group(
    parse: &mut Parse<'_>,
    entry: &Spanned<String>,
    modules: &mut Vec<Rc<dyn Module>>,
    within: &mut Vec<String>,
) -> Option<Node> {
    let name = entry.get_ref();
    let problem = if within.iter().any(|outer| outer == name) {
        Some(format!(
            "{name} lists itself, through {}",
            within.join(" → ")
        ))
    } else if within.len() >= MAX_GROUP_DEPTH {
        Some(format!("groups nest deeper than {MAX_GROUP_DEPTH} here"))
    } else if !parse.groups.iter().any(|(n, _)| n == name) {
        Some(format!(
            "{name} has no table: add [group.{}] with its `modules`",
            name.strip_prefix("group/").unwrap_or(name)
        ))
    } else {
        None
    };
    if let Some(message) = problem {
        parse.at(entry.span(), message);
        return None;
    }
    let (list, group) = parse.groups.iter().find(|(n, _)| n == name).map(|(n, t)| {
        let group = Group {
            name: n["group/".len()..].to_owned(),
            orientation: t.orientation,
            drawer: t.drawer.clone(),
        };
        (t.modules.clone(), group)
    })?;
    within.push(name.clone());
    let members = entries(parse, list, modules, within);
    within.pop();
    Some(Node::Group(Rc::new(group), members))
}

/// A listed module, made once however often it is listed.
fn module(parse: &mut Parse<'_>, entry: &Spanned<String>) -> Option<Rc<dyn Module>> {
    let name = entry.get_ref();
    if let Some((_, module)) = parse.made.iter().find(|(n, _)| n == name) {
        return Some(Rc::clone(module));
    }
    if modules::is_custom(name) {
        let message = format!(
            "{name} has no table: add [custom.{}] with its `exec` (a script) or its \
             `format` (a fixed label)",
            &name["custom/".len()..]
        );
        parse.at(entry.span(), message);
        return None;
    }
    let Some(made) = modules::make(name, None) else {
        let known: Vec<&str> = modules::names().collect();
        let aliases: Vec<&str> = modules::aliases().map(|(alias, _)| alias).collect();
        let message = format!(
            "no module is called {name:?}; modules: {}, Waybar's {}, custom/NAME for a \
             script, and group/NAME for a group",
            known.join(", "),
            aliases.join(", ")
        );
        parse.at(entry.span(), message);
        return None;
    };
    match made {
        Ok(module) => {
            parse.made.push((name.clone(), Rc::clone(&module)));
            Some(module)
        }
        Err(err) => {
            parse.located(err);
            None
        }
    }
}
