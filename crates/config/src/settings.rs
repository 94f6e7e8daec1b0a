//! One declaration per setting: the [`settings!`] macro declares a section's keys once,
//! each with its type, default, optional legal range and doc comment, and makes from that
//! the section's struct (serde: unknown keys refused, missing keys defaulted), its
//! `Default`, its range check (the dotted key spelled from the section's and the field's
//! names) and its reference rows ([`Setting`]: key, default as text, range, doc), which
//! `wily ics keys` prints and `tests/it/config_docs.rs` holds against `docs/`.
//! Checks that tie keys together stay in `validate.rs`.

use super::sections::Config;
use std::path::PathBuf;

/// One setting as the reference lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// The dotted key (`engine.threads`).
    pub key: &'static str,
    /// The default as it would be written in `config.toml` (`64`, `"wild fr"`, `[]`), or
    /// `unset` for an optional key without one.
    pub default: String,
    /// The legal values, lowest and highest, when the key has a range.
    pub range: Option<(String, String)>,
    /// The field's doc comment on one line.
    pub doc: String,
}

/// How a default value is written in a reference row: as in a TOML file.
pub trait DefaultText {
    fn default_text(&self) -> String;
}

macro_rules! shown_by_display {
    ($($t:ty),*) => {$(
        impl DefaultText for $t {
            fn default_text(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
shown_by_display!(bool, u8, u16, u32, u64, usize, i32, i64);

impl DefaultText for String {
    fn default_text(&self) -> String {
        format!("{self:?}")
    }
}

impl DefaultText for PathBuf {
    fn default_text(&self) -> String {
        format!("{:?}", self.display().to_string())
    }
}

impl<T: DefaultText> DefaultText for Option<T> {
    fn default_text(&self) -> String {
        match self {
            None => "unset".into(),
            Some(v) => v.default_text(),
        }
    }
}

impl<T: DefaultText> DefaultText for Vec<T> {
    fn default_text(&self) -> String {
        let items: Vec<String> = self.iter().map(DefaultText::default_text).collect();
        format!("[{}]", items.join(", "))
    }
}

impl DefaultText for ics::Dialect {
    fn default_text(&self) -> String {
        match self {
            ics::Dialect::Fics => "\"fics\"",
            ics::Dialect::Icc => "\"icc\"",
        }
        .into()
    }
}

/// The doc comment's lines as one line.
pub(crate) fn one_line(doc: &str) -> String {
    doc.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The range problem of one value, worded as every range check of the settings words it.
pub(crate) fn out_of_range<T: PartialOrd + std::fmt::Display>(
    key: &str,
    v: &T,
    range: &std::ops::RangeInclusive<T>,
    out: &mut Vec<(String, String)>,
) {
    if !range.contains(v) {
        out.push((
            key.to_string(),
            format!(
                "must be between {} and {} (got {v})",
                range.start(),
                range.end()
            ),
        ));
    }
}

/// Declares one section of the settings:
///
/// ```text
/// settings! {
///     /// `[engine]`
///     pub struct EngineSection in "engine" {
///         /// Search threads.
///         threads: usize = 1, range 1..=256;
///         /// Think on the opponent's time.
///         ponder: bool = true;
///     }
///     tables {
///         /// A nested table or array of tables: in the struct, not a row of its own.
///         decline: DeclineMessages = DeclineMessages::default();
///     }
/// }
/// ```
///
/// Every setting needs a doc comment (it is the row's doc). The `tables` part is optional.
macro_rules! settings {
    (
        $(#[doc = $sdoc:literal])*
        pub struct $name:ident in $section:literal {
            $(
                #[doc = $doc1:literal] $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $def:expr $(, range $range:expr)?;
            )*
        }
        $(tables {
            $(
                $(#[doc = $tdoc:literal])*
                $tfield:ident : $tty:ty = $tdef:expr;
            )*
        })?
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Debug, Clone, serde::Deserialize, PartialEq)]
        #[serde(deny_unknown_fields, default)]
        pub struct $name {
            $(#[doc = $doc1] $(#[doc = $doc])* pub $field: $ty,)*
            $($($(#[doc = $tdoc])* pub $tfield: $tty,)*)?
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $($field: $def,)*
                    $($($tfield: $tdef,)*)?
                }
            }
        }

        impl $name {
            /// The section's name in the settings file.
            pub const SECTION: &'static str = $section;

            /// The reference rows of this section's keys, in the struct's order.
            pub fn settings() -> Vec<$crate::settings::Setting> {
                let d = $name::default();
                vec![$({
                    #[allow(unused_mut, unused_assignments)]
                    let mut range: Option<(String, String)> = None;
                    $(
                        let r: std::ops::RangeInclusive<$ty> = $range;
                        range = Some((r.start().to_string(), r.end().to_string()));
                    )?
                    $crate::settings::Setting {
                        key: concat!($section, ".", stringify!($field)),
                        default: $crate::settings::DefaultText::default_text(&d.$field),
                        range,
                        doc: $crate::settings::one_line(concat!($doc1 $(, "\n", $doc)*)),
                    }
                }),*]
            }

            /// The keys whose values are outside their range, as (dotted key, message).
            pub fn range_problems(&self) -> Vec<(String, String)> {
                #[allow(unused_mut)]
                let mut out = Vec::new();
                $($(
                    $crate::settings::out_of_range(
                        concat!($section, ".", stringify!($field)),
                        &self.$field,
                        &$range,
                        &mut out,
                    );
                )?)*
                out
            }
        }
    };
}
pub(crate) use settings;

impl Config {
    /// The reference rows of every key declared with [`settings!`], section by section in
    /// the file's order (`[opponents]`, `[strength]`, `[[accounts]]`, the seek ads and the
    /// decline messages are declared by hand and not listed).
    pub fn settings() -> Vec<Setting> {
        use super::sections::*;
        use super::{
            HooksSection, PublicSection, ServiceSection, TourneySection, WatchSection, WebSection,
        };
        [
            ServerSection::settings(),
            LocalSection::settings(),
            SeekSection::settings(),
            AcceptSection::settings(),
            EngineSection::settings(),
            TalkSection::settings(),
            ObserveSection::settings(),
            WatchSection::settings(),
            OperatorsSection::settings(),
            PathsSection::settings(),
            LogSection::settings(),
            ServiceSection::settings(),
            WebSection::settings(),
            TourneySection::settings(),
            HooksSection::settings(),
            PublicSection::settings(),
        ]
        .concat()
    }

    /// [`Config::settings`] as a Markdown table (`wily ics keys`): key, default, range
    /// (`lowest to highest`, or empty) and doc, one row a key.
    pub fn settings_table() -> String {
        let mut out =
            String::from("| key | default | range | meaning |\n| --- | --- | --- | --- |\n");
        for s in Config::settings() {
            let range = s
                .range
                .map(|(lo, hi)| format!("{lo} to {hi}"))
                .unwrap_or_default();
            let cell = |t: &str| t.replace('|', "\\|");
            out.push_str(&format!(
                "| `{}` | `{}` | {} | {} |\n",
                s.key,
                cell(&s.default),
                range,
                cell(&s.doc)
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn rows_name_their_section_and_key_once() {
        let rows = Config::settings();
        let mut keys: Vec<&str> = rows.iter().map(|r| r.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), rows.len(), "a key is listed twice");
        let threads = rows.iter().find(|r| r.key == "engine.threads").unwrap();
        assert_eq!(threads.default, "1");
        assert_eq!(threads.range, Some(("1".into(), "256".into())));
        assert_eq!(threads.doc, "Search threads.");
        let host = rows.iter().find(|r| r.key == "server.host").unwrap();
        assert_eq!(
            (host.default.as_str(), host.range.as_ref()),
            ("\"freechess.org\"", None)
        );
        let notes = rows.iter().find(|r| r.key == "server.notes").unwrap();
        assert_eq!(notes.default, "unset");
        let top = rows.iter().find(|r| r.key == "watch.top").unwrap();
        assert_eq!(top.default, r#"["standard", "blitz"]"#);
        // Nested tables are not rows of their own.
        assert!(!keys.contains(&"seek.ads") && !keys.contains(&"accept.decline"));
        for r in &rows {
            assert!(
                !r.doc.is_empty() && !r.doc.contains("  "),
                "{}: {:?}",
                r.key,
                r.doc
            );
        }
    }

    #[test]
    fn the_table_has_a_row_per_key() {
        let table = Config::settings_table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), Config::settings().len() + 2);
        assert_eq!(lines[0], "| key | default | range | meaning |");
        assert!(
            lines.contains(&"| `engine.threads` | `1` | 1 to 256 | Search threads. |"),
            "{table}"
        );
        assert!(lines.contains(&"| `engine.ponder` | `true` |  | Think on the opponent's time. |"));
    }

    #[test]
    fn every_default_lies_in_its_range() {
        for r in Config::settings() {
            if let Some((lo, hi)) = &r.range {
                let (v, lo, hi): (i64, i64, i64) = (
                    r.default.parse().unwrap(),
                    lo.parse().unwrap(),
                    hi.parse().unwrap(),
                );
                assert!(lo <= v && v <= hi, "{}: {v} outside {lo} to {hi}", r.key);
            }
        }
    }

    #[test]
    fn a_value_out_of_range_is_named_with_its_range() {
        // The wording docs/bot.md quotes.
        let e = Config::parse("[talk]\nwhisper = 9\n", Path::new("config.toml")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "settings file config.toml:\n  talk.whisper: must be between 0 and 6 (got 9)"
        );
        // Both ends are legal values.
        for ok in ["[web]\nstall_secs = 2\n", "[web]\nstall_secs = 3600\n"] {
            assert!(Config::parse(ok, Path::new("t.toml")).is_ok(), "{ok}");
        }
        let e = Config::parse("[web]\nstall_secs = 3601\n", Path::new("t.toml")).unwrap_err();
        assert!(
            e.to_string()
                .contains("web.stall_secs: must be between 2 and 3600 (got 3601)"),
            "{e}"
        );
    }
}
