//! One declaration per setting: the [`settings!`] macro declares a section's keys once,
//! each with its type, default, optional legal range and doc comment, and makes from that
//! the section's struct (serde: unknown keys refused, missing keys defaulted), its
//! `Default`, its range check (the dotted key spelled from the section's and the field's
//! names) and its reference rows ([`Setting`]: key, default as text, range, doc), which
//! `wily ics keys` prints and `tests/it/config_docs.rs` holds against `docs/`.
//!
//! A crate of its own, below the crates that declare settings: the bot's settings file
//! (`config`) and the opponent classes' values (`lists`, which the xboard route reads
//! too); `ics` shows its `Dialect` as a default. Checks that tie keys together stay with
//! the settings (`config`'s `validate.rs`).
//!
//! May depend on: nothing of wily. The crate map is `docs/modules.md`.

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

/// A section (or a nested table) whose keys have reference rows: each `settings!` section,
/// and an array of them (`[[accounts]]`: the rows of one entry).
pub trait Rows {
    fn rows() -> Vec<Setting>;
}

impl<T: Rows> Rows for Vec<T> {
    fn rows() -> Vec<Setting> {
        T::rows()
    }
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

/// The doc comment's lines as one line.
pub fn one_line(doc: &str) -> String {
    doc.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The range problem of one value, worded as every range check of the settings words it.
pub fn out_of_range<T: PartialOrd + std::fmt::Display>(
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
///         /// A nested table or array of tables: in the struct, not a row of its own;
///         /// with `rows`, the rows of its type (declared with `settings!` too, its
///         /// section named as the nested path, `"accept.decline"`) follow this
///         /// section's.
///         decline: DeclineMessages = DeclineMessages::default(), rows DeclineMessages;
///     }
/// }
/// ```
///
/// Every setting needs a doc comment (it is the row's doc). The `tables` part is optional.
/// The struct derives `serde::Deserialize`: the declaring crate depends on `serde`.
#[macro_export]
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
                $tfield:ident : $tty:ty = $tdef:expr $(, rows $rty:ty)?;
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
            pub fn settings() -> Vec<$crate::Setting> {
                let d = $name::default();
                #[allow(unused_mut)]
                let mut rows = vec![$({
                    #[allow(unused_mut, unused_assignments)]
                    let mut range: Option<(String, String)> = None;
                    $(
                        let r: std::ops::RangeInclusive<$ty> = $range;
                        range = Some((r.start().to_string(), r.end().to_string()));
                    )?
                    $crate::Setting {
                        key: concat!($section, ".", stringify!($field)),
                        default: $crate::DefaultText::default_text(&d.$field),
                        range,
                        doc: $crate::one_line(concat!($doc1 $(, "\n", $doc)*)),
                    }
                }),*];
                $($($(rows.extend(<$rty as $crate::Rows>::rows());)?)*)?
                rows
            }

            /// The keys whose values are outside their range, as (dotted key, message).
            pub fn range_problems(&self) -> Vec<(String, String)> {
                #[allow(unused_mut)]
                let mut out = Vec::new();
                $($(
                    $crate::out_of_range(
                        concat!($section, ".", stringify!($field)),
                        &self.$field,
                        &$range,
                        &mut out,
                    );
                )?)*
                out
            }
        }

        impl $crate::Rows for $name {
            fn rows() -> Vec<$crate::Setting> {
                $name::settings()
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    settings! {
        /// `[inner]`
        pub struct Inner in "outer.inner" {
            /// A word.
            word: String = "hi".into();
        }
    }

    settings! {
        /// `[outer]`
        pub struct Outer in "outer" {
            /// How many.
            /// On two lines.
            count: u32 = 4, range 1..=9;
            /// Maybe.
            maybe: Option<u32> = None;
        }
        tables {
            /// Rows of their own.
            inner: Inner = Inner::default(), rows Inner;
            /// No rows.
            plain: Vec<u32> = Vec::new();
        }
    }

    #[test]
    fn a_section_gives_its_rows_then_its_tables_rows() {
        let rows = <Vec<Outer> as Rows>::rows();
        let keys: Vec<&str> = rows.iter().map(|r| r.key).collect();
        assert_eq!(keys, ["outer.count", "outer.maybe", "outer.inner.word"]);
        assert_eq!(rows[0].default, "4");
        assert_eq!(rows[0].range, Some(("1".into(), "9".into())));
        assert_eq!(rows[0].doc, "How many. On two lines.");
        assert_eq!(rows[1].default, "unset");
        assert_eq!(rows[2].default, "\"hi\"");
    }

    #[test]
    fn a_section_reads_defaults_refuses_unknown_keys_and_checks_ranges() {
        let o: Outer = toml::from_str("count = 12\n[inner]\n").unwrap();
        assert_eq!((o.count, o.inner.word.as_str()), (12, "hi"));
        assert_eq!(
            o.range_problems(),
            [(
                "outer.count".to_string(),
                "must be between 1 and 9 (got 12)".to_string()
            )]
        );
        assert!(toml::from_str::<Outer>("cuont = 1\n").is_err());
        assert!(Outer::default().range_problems().is_empty());
        assert!(Inner::default().range_problems().is_empty());
        assert_eq!((Outer::SECTION, Inner::SECTION), ("outer", "outer.inner"));
    }
}
