//! The shell completions in data/completions offer what the binary takes: every option
//! `ringbar --help` lists and every `ringbar msg` word. Bash's is run for real.

use std::process::Command;

use ringbar::events::control::Message;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");

fn file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/completions")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The long options of `ringbar --help`.
fn options() -> Vec<String> {
    let out = Command::new(RINGBAR)
        .arg("--help")
        .output()
        .expect("ringbar --help");
    let help = String::from_utf8(out.stdout).expect("UTF-8");
    let mut options: Vec<String> = help
        .split_whitespace()
        .map(|word| word.trim_start_matches(|c: char| c != '-'))
        .map(|word| {
            let end = word
                .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
                .unwrap_or(word.len());
            &word[..end]
        })
        .filter(|word| word.starts_with("--") && word.len() > 2)
        .map(str::to_owned)
        .collect();
    options.sort();
    options.dedup();
    assert!(options.len() >= 8, "{options:?}");
    options
}

/// Whether `text` has `option` as a whole word (`--json`, not the start of `--jsonx`).
fn mentions(text: &str, option: &str) -> bool {
    text.match_indices(option).any(|(at, _)| {
        let next = text[at + option.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// What bash's completion offers for the words typed so far.
fn bash_offers(words: &[&str]) -> Vec<String> {
    let script = format!(
        "source {}/data/completions/ringbar.bash; COMP_WORDS=({}); COMP_CWORD={}; _ringbar; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        env!("CARGO_MANIFEST_DIR"),
        words
            .iter()
            .map(|w| format!("'{w}'"))
            .collect::<Vec<_>>()
            .join(" "),
        words.len() - 1
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_completes_options_commands_and_msg_words() {
    let mut offered = bash_offers(&["ringbar", ""]);
    offered.sort();
    for option in options() {
        assert!(
            offered.contains(&option),
            "bash does not offer {option}: {offered:?}"
        );
    }
    assert!(offered.contains(&"msg".to_owned()) && offered.contains(&"check".to_owned()));
    let words: Vec<String> = Message::ALL.iter().map(|c| c.word().to_owned()).collect();
    assert_eq!(bash_offers(&["ringbar", "msg", ""]), words);
    assert_eq!(
        bash_offers(&["ringbar", "msg", "toggle-k"]),
        ["toggle-kernel-threads"]
    );
    assert_eq!(
        bash_offers(&["ringbar", "msg", "reload", ""]),
        Vec::<String>::new()
    );
    assert_eq!(bash_offers(&["ringbar", "--w"]), ["--waybar"]);
}

#[test]
fn zsh_and_fish_know_every_option_and_msg_word() {
    for name in ["_ringbar", "ringbar.fish"] {
        let text = file(name);
        for option in options() {
            let fish_form = format!("-l {}", option.trim_start_matches("--"));
            assert!(
                mentions(&text, &option) || text.contains(&fish_form),
                "{name} lacks {option}"
            );
        }
        for command in Message::ALL {
            assert!(
                text.contains(command.word()),
                "{name} lacks msg {}",
                command.word()
            );
        }
    }
}
