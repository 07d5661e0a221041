//! The bar and its script modules: one runner per `custom/NAME`, its states drawn as they
//! change, clicks and scrolls running the module's commands.

use std::rc::Rc;

use gtk4::glib;

use super::app::App;
use crate::events::script::runner::{self, ScriptRunner};
use crate::events::script::ScriptState;
use crate::modules::{custom, Button, Update};

impl App {
    /// Starts a runner for every script module of the config. A runner whose module kept
    /// its name and settings goes on as it was (a reload neither restarts its script nor
    /// resets its backoff); the others are stopped.
    pub(super) fn start_scripts(self: &Rc<Self>) {
        runner::adopt_orphans();
        let mut old: Vec<Rc<ScriptRunner>> = self.runners.borrow_mut().drain(..).collect();
        self.script_states.borrow_mut().clear();
        let config = self.config.borrow();
        let mut started: Vec<String> = Vec::new();
        for module in config.modules.all() {
            let Some(script) = module.script() else {
                continue;
            };
            let name = module.name().to_owned();
            if started.contains(&name) {
                continue; // listed twice: one script feeds both places
            }
            started.push(name.clone());
            let short = module.name().trim_start_matches("custom/");
            if let Some(at) = old
                .iter()
                .position(|r| r.name() == short && r.config() == script)
            {
                let runner = old.swap_remove(at);
                self.script_states.borrow_mut().insert(name, runner.state());
                self.runners.borrow_mut().push(runner);
                continue;
            }
            self.script_states
                .borrow_mut()
                .insert(name.clone(), ScriptState::Starting);
            let on_update = glib::clone!(
                #[weak(rename_to = app)]
                self,
                move |state: &ScriptState| {
                    app.script_states
                        .borrow_mut()
                        .insert(name.clone(), state.clone());
                    app.render_where(|update| update == Update::Script);
                }
            );
            let runner = ScriptRunner::start(short, script.clone(), on_update);
            self.runners.borrow_mut().push(runner);
        }
        for runner in old {
            runner.stop();
        }
    }

    /// Runs the command of script module `name` for `button`.
    pub(super) fn run_script_action(&self, name: &str, button: Button) {
        let short = name.trim_start_matches("custom/");
        let runners = self.runners.borrow();
        let Some(runner) = runners.iter().find(|r| r.name() == short) else {
            return;
        };
        if let Some(command) = custom::command(runner.config(), button) {
            runner.run_action(command);
        }
    }
}
