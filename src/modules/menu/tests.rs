use std::collections::BTreeMap;
use std::path::Path;

use super::*;

/// Waybar's example power menu, as users copy it (GTK 3 classes, a separator).
const POWER_MENU: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<interface>
  <object class="GtkMenu" id="menu">
    <child>
      <object class="GtkMenuItem" id="suspend">
        <property name="label">Suspend</property>
      </object>
    </child>
    <child>
      <object class="GtkMenuItem" id="hibernate">
        <property name="label" translatable="yes">Hi_bernate &amp; more</property>
      </object>
    </child>
    <child>
      <object class="GtkSeparatorMenuItem" id="delimiter1"/>
    </child>
    <child>
      <object class="GtkMenuItem" id="reboot">
        <property name="label">_Reboot</property>
        <property name="use_underline">True</property>
      </object>
    </child>
    <child>
      <object class="GtkMenuItem" id="more">
        <property name="label">More</property>
        <child type="submenu">
          <object class="GtkMenu">
            <child>
              <object class="GtkCheckMenuItem" id="lock">
                <property name="label">Lock</property>
                <property name="sensitive">False</property>
              </object>
            </child>
            <child>
              <object class="GtkMenuItem" id="logout">
                <property name="label">Log out</property>
              </object>
            </child>
          </object>
        </child>
      </object>
    </child>
  </object>
</interface>
"#;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

fn actions(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    let owned = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string()));
    owned.collect()
}

#[test]
fn waybars_power_menu_reads_with_its_labels_separators_and_submenus() {
    let entries = builder_file::parse(POWER_MENU).expect("a menu");
    let item = |id: &str, label: &str, enabled: bool| MenuEntry::Item {
        id: Some(id.to_owned()),
        label: label.to_owned(),
        enabled,
        submenu: None,
    };
    assert_eq!(
        entries,
        [
            item("suspend", "Suspend", true),
            // Without use-underline an underscore is itself, doubled for GTK 4's menus.
            item("hibernate", "Hi__bernate & more", true),
            MenuEntry::Separator,
            item("reboot", "_Reboot", true),
            MenuEntry::Item {
                id: Some("more".to_owned()),
                label: "More".to_owned(),
                enabled: true,
                submenu: Some(vec![
                    item("lock", "Lock", false),
                    item("logout", "Log out", true)
                ]),
            },
        ]
    );
}

#[test]
fn a_menu_runs_the_commands_its_actions_give_and_says_which_do_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = write(dir.path(), "power.xml", POWER_MENU);
    let given = actions(&[
        ("suspend", "systemctl suspend"),
        ("logout", "loginctl terminate-user $USER"),
    ]);
    let menu = Menu::new("on-click-right", &file, given).expect("a menu");
    assert_eq!(menu.button, Button::Right);
    assert_eq!(menu.command("suspend"), Some("systemctl suspend"));
    assert_eq!(menu.command("reboot"), None);
    assert_eq!(
        menu.describe(),
        "Suspend|~Hi__bernate & more|---|~_Reboot|More>(~Lock|Log out)"
    );
}

#[test]
fn every_waybar_click_name_opens_or_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = write(dir.path(), "m.xml", POWER_MENU);
    let opened = |click: &str| Menu::new(click, &file, BTreeMap::new()).map(|m| m.button);
    assert_eq!(opened("on-click"), Ok(Button::Left));
    assert_eq!(opened("on-click-release"), Ok(Button::Left));
    assert_eq!(opened("on-click-middle"), Ok(Button::Middle));
    assert_eq!(opened("on-click-right-release"), Ok(Button::Right));
    assert_eq!(opened("on-click-backward"), Ok(Button::Back));
    assert_eq!(opened("on-click-forward"), Ok(Button::Forward));
    for refused in ["on-double-click", "on-triple-click-right", "click", ""] {
        let (key, why) = opened(refused).expect_err(refused);
        assert_eq!(key, "menu", "{refused}");
        assert!(why.contains("on-click"), "{refused}: {why}");
    }
}

#[test]
fn a_bad_menu_file_is_refused_with_the_file_and_the_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let refused = |name: &str, text: Option<&str>| {
        let path = match text {
            Some(text) => write(dir.path(), name, text),
            None => dir.path().join(name),
        };
        let (key, why) = Menu::new("on-click", &path, BTreeMap::new()).expect_err(name);
        assert_eq!(key, "menu-file", "{name}");
        assert!(why.starts_with(&path.display().to_string()), "{why}");
        why
    };
    assert!(refused("missing.xml", None).contains("No such file"));
    let broken = refused(
        "broken.xml",
        Some("<interface>\n<object class=\"GtkMenu\" id=\"menu\">\n</child>"),
    );
    assert!(broken.contains("line 3"), "{broken}");
    let no_menu = refused(
        "other.xml",
        Some("<interface><object class=\"GtkMenu\" id=\"m\"/></interface>"),
    );
    assert!(
        no_menu.contains("no object with the id \"menu\""),
        "{no_menu}"
    );
    let gtk4 = refused("gtk4.xml", Some("<interface><menu id=\"menu\"/><object class=\"GtkPopoverMenu\" id=\"menu\"/></interface>"));
    assert!(gtk4.contains("GtkPopoverMenu, not a GtkMenu"), "{gtk4}");
    let deep = "<object class=\"GtkMenu\">".repeat(40) + &"</object>".repeat(40);
    assert!(refused("deep.xml", Some(&deep)).contains("deep"));
    // An action for an entry the file does not have is a typo worth naming.
    let file = write(dir.path(), "ok.xml", POWER_MENU);
    let (key, why) =
        Menu::new("on-click", &file, actions(&[("shutdwon", "poweroff")])).expect_err("typo");
    assert_eq!(key, "menu-actions");
    assert!(why.contains("\"shutdwon\" is no entry's id"), "{why}");
}

#[test]
fn a_menu_files_path_is_taken_from_home_or_the_config_folder() {
    let home = Path::new("/home/u");
    let config = Path::new("/home/u/.config/ringbar");
    assert_eq!(file_path("~/m.xml", Some(home), config), home.join("m.xml"));
    assert_eq!(
        file_path("$HOME/a/m.xml", Some(home), config),
        home.join("a/m.xml")
    );
    assert_eq!(
        file_path("${HOME}/m.xml", Some(home), config),
        home.join("m.xml")
    );
    assert_eq!(file_path("m.xml", Some(home), config), config.join("m.xml"));
    assert_eq!(
        file_path("/etc/m.xml", Some(home), config),
        Path::new("/etc/m.xml")
    );
}
