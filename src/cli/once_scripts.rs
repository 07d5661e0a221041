//! `--once` and the script modules: each script runs as the bar would start it
//! (`exec-if` first, then `exec`), all at once, and what each first says is what `--once`
//! prints. A script that says nothing within [`DEADLINE`] is stopped and shows nothing.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use gtk4::glib;

use crate::events::script::runner::ScriptRunner;
use crate::events::script::ScriptState;
use crate::modules::{Module, Scripts};

/// How long `--once` waits for its scripts, together.
pub const DEADLINE: Duration = Duration::from_secs(5);

/// What each script module of `modules` first said, by module name.
pub fn first_states(modules: &[Rc<dyn Module>]) -> Scripts {
    let mut scripted: Vec<(&str, _)> = Vec::new();
    for module in modules {
        if let Some(config) = module.widget().script() {
            if !scripted.iter().any(|(name, _)| *name == module.name()) {
                scripted.push((module.name(), config.clone()));
            }
        }
    }
    if scripted.is_empty() {
        return Scripts::new();
    }
    let context = glib::MainContext::new();
    let run = || {
        let states = Rc::new(RefCell::new(Scripts::new()));
        let runners: Vec<Rc<ScriptRunner>> = scripted
            .into_iter()
            .map(|(name, config)| {
                let (sink, key) = (states.clone(), name.to_owned());
                let short = name.trim_start_matches("custom/");
                ScriptRunner::start(short, config, move |state: &ScriptState| {
                    if *state != ScriptState::Starting {
                        sink.borrow_mut()
                            .entry(key.clone())
                            .or_insert_with(|| state.clone());
                    }
                })
            })
            .collect();
        super::iterate::iterate_until(&context, DEADLINE, || {
            states.borrow().len() >= runners.len()
        });
        for runner in &runners {
            if !states
                .borrow()
                .contains_key(&format!("custom/{}", runner.name()))
            {
                tracing::warn!("custom/{}: said nothing within {DEADLINE:?}", runner.name());
            }
            runner.stop();
        }
        states.take()
    };
    context.with_thread_default(run).unwrap_or_else(|err| {
        tracing::warn!("scripts not run: {err}");
        Scripts::new()
    })
}
