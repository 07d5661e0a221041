//! Waybar configs read as Waybar reads them: includes (merged, expanded, capped), the
//! first JSON value only.

use super::*;

/// `count` files, each including the next `fan_out` times; the last one has a module.
fn chain(dir: &Path, count: usize, fan_out: usize) -> PathBuf {
    for i in 0..count {
        let body = if i + 1 == count {
            r#"{"clock": {"format": "{:%H:%M}"}}"#.to_owned()
        } else {
            let next = format!("\"{}.jsonc\"", i + 1);
            format!(
                r#"{{"include": [{}], "layer": "top"}}"#,
                vec![next; fan_out].join(",")
            )
        };
        std::fs::write(dir.join(format!("{i}.jsonc")), body).expect("write");
    }
    dir.join("0.jsonc")
}

#[test]
fn each_included_file_is_read_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let first = chain(dir.path(), 8, 8);
    let mut loader = Loader::default();
    let config = loader.load(&first, 0).expect("loads");
    assert_eq!(loader.loaded.len(), 8, "8 files, each read once");
    assert_eq!(config["clock"]["format"], "{:%H:%M}");
    assert_eq!(config["layer"], "top");
}

#[test]
fn the_includes_followed_in_all_are_capped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let first = chain(dir.path(), 8, 40);
    let mut loader = Loader::default();
    loader.load(&first, 0).expect("the top file reads");
    let capped = |loader: &Loader, what: &str| loader.notes.iter().any(|n| n.contains(what));
    assert!(
        capped(&loader, "more than 256 includes in all"),
        "{:?}",
        loader.notes
    );
    let loop_file = dir.path().join("loop.jsonc");
    std::fs::write(&loop_file, r#"{"include": "loop.jsonc", "height": 20}"#).expect("write");
    let mut loader = Loader::default();
    let config = loader.load(&loop_file, 0).expect("a loop reads");
    assert_eq!(config["height"], 20);
    assert!(capped(&loader, "nest deeper than 8"), "{:?}", loader.notes);
}

#[test]
fn includes_expand_variables_home_and_wildcards_and_merge_nested_keys() {
    let dir = tempfile::tempdir().expect("tempdir");
    let parts = dir.path().join("parts");
    std::fs::create_dir(&parts).expect("mkdir");
    std::fs::write(
        parts.join("a-modules.jsonc"),
        r#"{"clock": {"format": "{:%H}", "interval": 5}, "cpu": {"interval": 2}}"#,
    )
    .expect("write");
    std::fs::write(
        parts.join("b-modules.jsonc"),
        r#"{"memory": {}, "cpu": {"interval": 9}}"#,
    )
    .expect("write");
    std::fs::write(parts.join("other.txt"), "not json").expect("write");
    let top = dir.path().join("config.jsonc");
    std::fs::write(
        &top,
        r#"{
            // Waybar users write these, with HOME or a variable of their own.
            "include": ["$RINGBAR_TEST_PARTS/*-modules.jsonc", "${RINGBAR_TEST_PARTS}/gone.jsonc",
                        "$HOME/nowhere/*.jsonc"],
            "clock": {"format": "{:%H:%M}"},
        }"#,
    )
    .expect("write");
    std::env::set_var("RINGBAR_TEST_PARTS", &parts);
    let mut loader = Loader::default();
    let config = loader.load(&top, 0).expect("loads");
    assert_eq!(
        config["clock"]["format"], "{:%H:%M}",
        "the including file wins"
    );
    assert_eq!(config["clock"]["interval"], 5, "nested keys merge");
    assert_eq!(
        config["cpu"]["interval"], 2,
        "the first include wins over the second"
    );
    assert!(config["memory"].is_object());
    let noted = |what: &str| loader.notes.iter().any(|n| n.contains(what));
    assert!(
        noted("gone.jsonc") && noted("no such file"),
        "{:?}",
        loader.notes
    );
    assert!(noted("matches no file"), "{:?}", loader.notes);
    assert_eq!(
        variables(
            "a/$NO_SUCH_RINGBAR_VAR/b${NO_SUCH_RINGBAR_VAR}c$",
            process_env
        ),
        "a//bc$"
    );
}

/// The home folder of [`test_env`].
static HOME: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// A session with HOME set and XDG_CONFIG_HOME not.
fn test_env(name: &str) -> Option<String> {
    (name == "HOME").then(|| HOME.get().map(|h| h.display().to_string()))?
}

#[test]
fn relative_and_xdg_includes_are_found_where_waybar_looks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = HOME.get_or_init(|| dir.path().to_path_buf());
    let waybar = home.join(".config/waybar");
    std::fs::create_dir_all(waybar.join("themes")).expect("mkdir");
    // From the home folder (the session's working folder), and from Waybar's folders.
    std::fs::write(waybar.join("modules.json"), r#"{"cpu": {"interval": 3}}"#).expect("write");
    std::fs::write(
        waybar.join("themes/m.jsonc"),
        r#"{"memory": {"interval": 4}}"#,
    )
    .expect("write");
    let top = waybar.join("config.jsonc");
    std::fs::write(
        &top,
        r#"{"include": [".config/waybar/modules.json", "$XDG_CONFIG_HOME/waybar/themes/m.jsonc",
                        "themes/m.jsonc"], "clock": {}}"#,
    )
    .expect("write");
    let mut loader = Loader {
        env: test_env,
        ..Loader::default()
    };
    let config = loader.load(&top, 0).expect("loads");
    assert_eq!(config["cpu"]["interval"], 3, "{:?}", loader.notes);
    assert_eq!(config["memory"]["interval"], 4, "{:?}", loader.notes);
    assert!(loader.notes.is_empty(), "{:?}", loader.notes);
    assert_eq!(
        variables("$XDG_CONFIG_HOME/waybar", test_env),
        format!("{}/.config/waybar", home.display()),
        "XDG_CONFIG_HOME's default"
    );
}

#[test]
fn only_the_first_json_value_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("config");
    for text in [
        "{\"height\": 30, \"s\": \"a } in a string\"} }",
        "[{\"height\": 30, \"s\": \"a } in a string\"}],\n",
        "// a comment with a }\n{\"height\": 30, /* } */ \"s\": \"a } in a string\"}\n}\n",
    ] {
        std::fs::write(&path, text).expect("write");
        let mut loader = Loader::default();
        let config = loader.load(&path, 0).expect(text);
        let bar = if config.is_array() {
            &config[0]
        } else {
            &config
        };
        assert_eq!(bar["height"], 30, "{text}");
        assert!(
            loader
                .notes
                .iter()
                .any(|n| n.contains("after the first JSON value")),
            "{text}: {:?}",
            loader.notes
        );
    }
    std::fs::write(&path, "{\"height\": 30").expect("write");
    assert!(Loader::default().load(&path, 0).is_err(), "no value ends");
}
