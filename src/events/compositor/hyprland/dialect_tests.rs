//! The dialect chosen by version and by reply, and the focus requests in each.

use super::*;
use crate::events::compositor::hyprland::is_special;

#[test]
fn the_dialect_follows_the_version() {
    let v = |json: &str| Dialect::from_version(json.as_bytes());
    assert_eq!(
        v(r#"{"branch": "", "version": "0.57.0", "tag": "v0.57.0"}"#),
        Dialect::Lua
    );
    assert_eq!(
        v(r#"{"version": "0.58.1", "tag": "v0.58.1-4-gabc"}"#),
        Dialect::Lua
    );
    assert_eq!(v(r#"{"version": "1.0.0"}"#), Dialect::Lua);
    assert_eq!(
        v(r#"{"version": "0.56.2", "tag": "v0.56.2"}"#),
        Dialect::Legacy
    );
    // Releases before the `version` field: the tag.
    assert_eq!(
        v(r#"{"branch": "main", "tag": "v0.41.2-3-gabcdef"}"#),
        Dialect::Legacy
    );
    assert_eq!(v(r#"{"tag": "v0.57.0-12-g1234"}"#), Dialect::Lua);
    // Nothing readable: the newest dialect.
    assert_eq!(v("garbage"), Dialect::Lua);
    assert_eq!(v(r#"{"tag": "unknown"}"#), Dialect::Lua);
    assert_eq!(version(br#"{"version": "0.57.0"}"#), Some((0, 57)));
}

#[test]
fn wrong_dialect_replies_are_recognised() {
    let lua_note = "[string \"return hl.dispatch(workspace 2)\"]:1: ')' expected near '2'\n\n \
                    → Note: dispatch in lua is a shorthand for hl.dispatch(...), your syntax \
                    might need to be updated.";
    assert!(Dialect::Legacy.misunderstood(lua_note));
    assert!(!Dialect::Legacy.misunderstood("ok"));
    assert!(Dialect::Lua.misunderstood("Invalid dispatcher"));
    assert!(!Dialect::Lua.misunderstood("ok"));
    assert_eq!(Dialect::Lua.other(), Dialect::Legacy);
}

fn ws(id: i64, name: &str) -> Workspace {
    Workspace {
        id,
        name: name.into(),
        special: is_special(id, name),
        ..Workspace::default()
    }
}

#[test]
fn focus_requests_in_both_dialects() {
    let lua = |w: &Workspace| Dialect::Lua.focus_workspace(w);
    let legacy = |w: &Workspace| Dialect::Legacy.focus_workspace(w);
    assert_eq!(
        lua(&ws(3, "3")).as_deref(),
        Some("/dispatch hl.dsp.focus({ workspace = 3 })")
    );
    assert_eq!(
        legacy(&ws(3, "web")).as_deref(),
        Some("/dispatch workspace 3")
    );
    assert_eq!(
        lua(&ws(-1338, "chat")).as_deref(),
        Some(r#"/dispatch hl.dsp.focus({ workspace = "name:chat" })"#)
    );
    assert_eq!(
        legacy(&ws(-1338, "chat")).as_deref(),
        Some("/dispatch workspace name:chat")
    );
    assert_eq!(
        lua(&ws(-98, "special:term")).as_deref(),
        Some(r#"/dispatch hl.dsp.workspace.toggle_special("term")"#)
    );
    assert_eq!(
        lua(&ws(-99, "special:special")).as_deref(),
        Some(r#"/dispatch hl.dsp.workspace.toggle_special("special")"#)
    );
    assert_eq!(
        lua(&ws(-99, "special")).as_deref(),
        Some("/dispatch hl.dsp.workspace.toggle_special()")
    );
    assert_eq!(
        legacy(&ws(-98, "special:term")).as_deref(),
        Some("/dispatch togglespecialworkspace term")
    );
    assert_eq!(
        legacy(&ws(-99, "special")).as_deref(),
        Some("/dispatch togglespecialworkspace")
    );
}

#[test]
fn hostile_names_stay_inside_the_lua_string() {
    let evil = "x\" }) os.execute(\"rm -rf ~\") --\\\n]]";
    let request = Dialect::Lua
        .focus_workspace(&ws(-1339, evil))
        .expect("request");
    let literal = request
        .strip_prefix("/dispatch hl.dsp.focus({ workspace = \"")
        .and_then(|r| r.strip_suffix("\" })"))
        .expect("one string literal");
    // Inside the literal: no quote, backslash only as a decimal escape, no newline.
    assert!(!literal.contains('"') && !literal.contains('\n'));
    assert!(literal.contains("\\034") && literal.contains("\\092") && literal.contains("\\010"));
    // The escapes decode back to the name (bytes, so UTF-8 survives too).
    let decode = |lit: &str| {
        let bytes = lit.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\\' {
                let digits = std::str::from_utf8(&bytes[i + 1..i + 4]).expect("digits");
                out.push(digits.parse::<u8>().expect("a byte"));
                i += 4;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).expect("utf-8")
    };
    assert_eq!(decode(literal), format!("name:{evil}"));
    let unicode = lua_string("é 1");
    assert_eq!(unicode, "\"\\195\\169 1\"");
    // Legacy cannot write a NUL; nobody can write a name past the request limit.
    assert_eq!(Dialect::Legacy.focus_workspace(&ws(-1339, "a\0b")), None);
    assert_eq!(
        Dialect::Lua.focus_workspace(&ws(-1339, &"\"".repeat(3000))),
        None
    );
}
