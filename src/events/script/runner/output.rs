//! From a script's output to the module's state: the lines kept from a run, read and made
//! safe for Pango, and the state set (and reported) when it changes.

use gtk4::pango;

use super::log::{printable, REASON_CHARS};
use super::{Mode, ScriptRunner, MAX_LINE};
use crate::events::script::lines::Line;
use crate::events::script::{markup, parse_line, ScriptOutput, ScriptState};

/// Which lines of a run's output are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Keep {
    /// The latest line (continuous scripts).
    Latest,
    /// The latest line that is not blank (JSON interval runs).
    LatestFilled,
    /// The first three: text, tooltip and class (plain interval runs).
    FirstThree,
    /// All of them, up to [`MAX_LINE`] bytes in all (`ScriptConfig::whole_output`).
    Whole,
}

impl Keep {
    pub(super) fn of(mode: Mode, json: bool, whole: bool) -> Keep {
        match (mode, json, whole) {
            (Mode::Continuous, _, _) => Keep::Latest,
            (_, true, _) => Keep::LatestFilled,
            (_, false, true) => Keep::Whole,
            (_, false, false) => Keep::FirstThree,
        }
    }
}

/// The output kept from a run, as [`Keep`] says.
#[derive(Default)]
pub(super) struct Collected {
    latest: Vec<u8>,
    latest_cut: bool,
    /// `latest` is newer than the state.
    fresh: bool,
    first: Vec<(Vec<u8>, bool)>,
    /// The bytes in `first`.
    first_bytes: usize,
}

impl Collected {
    pub(super) fn add(&mut self, line: Line<'_>, keep: Keep) {
        let blank = line.bytes.iter().all(u8::is_ascii_whitespace);
        match keep {
            Keep::Latest | Keep::LatestFilled if keep == Keep::Latest || !blank => {
                self.latest.clear();
                self.latest.extend_from_slice(line.bytes);
                self.latest_cut = line.cut;
                self.fresh = true;
            }
            Keep::FirstThree if self.first.len() < 3 => {
                self.first.push((line.bytes.to_vec(), line.cut));
            }
            Keep::Whole if !self.first.last().is_some_and(|(_, cut)| *cut) => {
                self.first_bytes += line.bytes.len() + 1;
                match self.first_bytes > MAX_LINE {
                    // Longer than a line may be: as a line cut, and nothing more kept.
                    true => self.first.push((Vec::new(), true)),
                    false => self.first.push((line.bytes.to_vec(), line.cut)),
                }
            }
            _ => {}
        }
    }
}

impl ScriptRunner {
    /// Continuous mode: shows the latest line if it is new.
    pub(super) fn apply_fresh(&self, id: u64) -> bool {
        if self.mode != Mode::Continuous {
            return self.with_run(id, |_| ()).is_some();
        }
        let state = self.with_run(id, |run| {
            let c = &mut run.collected;
            std::mem::take(&mut c.fresh).then(|| (c.latest.clone(), c.latest_cut))
        });
        match state {
            None => false,
            Some(None) => true,
            Some(Some((line, cut))) => {
                let state = self.state_of(&line, cut);
                self.set_state(state);
                true
            }
        }
    }

    /// What output `line` makes the module show.
    pub(super) fn state_of(&self, line: &[u8], cut: bool) -> ScriptState {
        if cut {
            let reason = format!("an output line is longer than {} KiB", MAX_LINE / 1024);
            return ScriptState::Failed { reason };
        }
        match parse_line(line, self.json) {
            Ok(output) if output.text.is_empty() => ScriptState::Hidden,
            Ok(mut output) => {
                self.pango_safe(&mut output);
                ScriptState::Output(output)
            }
            Err(reason) => ScriptState::Failed { reason },
        }
    }

    /// Escapes what Pango would refuse (see the module docs of `script`): the structure is
    /// checked by `format`, the values only Pango knows.
    fn pango_safe(&self, output: &mut ScriptOutput) {
        if self.config.escapes() {
            return;
        }
        let mut refused = None;
        let fields = [
            (Some(&mut output.text), false),
            (output.tooltip.as_mut(), true),
            (output.alt.as_mut(), false),
        ];
        for (field, multiline) in fields {
            let Some(field) = field else { continue };
            let markup = field.contains(['<', '&']) && markup::check(field, multiline).is_ok();
            if let Err(err) = markup.then(|| pango::parse_markup(field, '\0')).transpose() {
                refused = Some(err.to_string());
                let mut escaped = String::new();
                crate::text::push_escaped(&mut escaped, field);
                *field = escaped;
            }
        }
        let mut inner = self.inner.borrow_mut();
        match refused {
            Some(err) if !inner.markup_logged => {
                inner.markup_logged = true;
                drop(inner);
                let err = printable(err.as_bytes(), REASON_CHARS);
                tracing::info!("custom/{}: markup shown as text: {err}", self.name);
            }
            None => inner.markup_logged = false,
            Some(_) => {}
        }
    }

    /// The state an interval run's output makes.
    pub(super) fn interval_state(&self, collected: &Collected) -> ScriptState {
        if self.json {
            return self.state_of(&collected.latest, collected.latest_cut);
        }
        if collected.first.iter().any(|(_, cut)| *cut) {
            return self.state_of(&[], true);
        }
        let lines: Vec<&[u8]> = collected.first.iter().map(|(l, _)| l.as_slice()).collect();
        // The whole output as one line of text, or the text, tooltip and class lines.
        let between = if self.keep == Keep::Whole {
            b' '
        } else {
            b'\n'
        };
        self.state_of(&lines.join(&between), false)
    }

    pub(super) fn fail(&self, reason: String) {
        self.set_state(ScriptState::Failed { reason });
    }

    pub(super) fn set_state(&self, state: ScriptState) {
        if *self.state.borrow() == state || self.stopped() {
            return;
        }
        if let ScriptState::Failed { reason } = &state {
            self.log.borrow_mut().line("", reason.as_bytes());
        }
        self.state.replace(state.clone());
        (self.on_update)(&state);
    }
}
