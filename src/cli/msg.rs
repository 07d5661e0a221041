//! `ringbar msg WORD`: tells every running bar and `--waybar` instance of this user to
//! act, for Waybar's `on-click` and compositor key bindings.

use std::process::ExitCode;

use crate::app::paths;
use crate::events::control::{self, Message};

pub fn send(command: Message) -> ExitCode {
    let Some(runtime_dir) = paths::runtime_dir() else {
        eprintln!("ringbar: XDG_RUNTIME_DIR is not set, so no running ringbar can be found");
        return ExitCode::FAILURE;
    };
    let word = command.word();
    match control::send(&runtime_dir, command) {
        Ok(delivery) if !delivery.found() => {
            eprintln!(
                "ringbar: no ringbar is running for this user (no instance answered in {})",
                runtime_dir.join("ringbar").display()
            );
            ExitCode::FAILURE
        }
        Ok(delivery) if delivery.refused > 0 => {
            eprintln!(
                "ringbar: a running ringbar is too busy to take `{word}` (its queue stayed \
                 full): try again"
            );
            ExitCode::FAILURE
        }
        Ok(delivery) => {
            if delivery.queued > 0 {
                eprintln!(
                    "ringbar: a running ringbar is busy: `{word}` waits in its queue and is \
                     carried out when it gets to it"
                );
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("ringbar: cannot reach the running ringbar: {err}");
            ExitCode::FAILURE
        }
    }
}
