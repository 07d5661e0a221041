//! Waybar's `persistent-workspaces`: workspaces a bar shows even while the compositor has
//! not made them (it makes one when its button is clicked). Read as Waybar reads it:
//! - an output's name (or `*`, for outputs not named) with a count: that many numbered
//!   workspaces, from 1 on Hyprland's first monitor and from count × n + 1 on monitor n;
//! - an output's name (or `*`) with a list of workspace names;
//! - a workspace's name with a list of outputs, or an empty list for every output.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct Persistent(BTreeMap<String, Entry>);

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Entry {
    Count(u32),
    List(Vec<Name>),
}

/// A workspace or output name; Waybar's configs give workspace numbers as numbers.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Name {
    Text(String),
    Number(i64),
}

impl Name {
    fn text(&self) -> String {
        match self {
            Name::Text(text) => text.clone(),
            Name::Number(number) => number.to_string(),
        }
    }
}

/// More than any bar shows: a count beyond it is cut to it.
const MOST: u32 = 100;

impl Persistent {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names of the workspaces `output` keeps, `monitor` being its Hyprland number.
    pub fn names(&self, output: &str, monitor: u32) -> Vec<String> {
        let output_named = self.0.contains_key(output);
        let mut names = Vec::new();
        for (key, entry) in &self.0 {
            let for_this_output = key == output || (key == "*" && !output_named);
            match entry {
                Entry::Count(count) if for_this_output => {
                    let count = (*count).min(MOST);
                    let first = u64::from(monitor) * u64::from(count) + 1;
                    names.extend((first..first + u64::from(count)).map(|n| n.to_string()));
                }
                Entry::Count(_) => {}
                Entry::List(list) if list.is_empty() => names.push(key.clone()),
                Entry::List(list) if for_this_output => names.extend(list.iter().map(Name::text)),
                Entry::List(outputs) => {
                    if outputs.iter().any(|o| o.text() == output) {
                        names.push(key.clone());
                    }
                }
            }
        }
        names.sort_unstable();
        names.dedup();
        names
    }
}
