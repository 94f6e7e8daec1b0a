//! The settings reference: every key declared with `settings!` (the `settings` crate),
//! section by section in the file's order, as rows ([`Config::settings`]) and as the
//! Markdown table `wily ics keys` prints ([`Config::settings_table`]);
//! `tests/it/config_docs.rs` holds them against `docs/`.

use super::sections::Config;

impl Config {
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
