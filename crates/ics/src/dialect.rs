//! The differences between FICS-lineage servers and ICC that the protocol layer needs:
//! prompt, the setup commands sent after login, the quiet `set` form, the prefix that
//! bypasses aliases, the keep-alive command, and whether timeseal applies.

/// A server dialect: the one type for it in wily, from the settings file's
/// `server.dialect = "fics"|"icc"` (the serde form) to the connection and the local server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// FICS and the servers of its lineage (lasker, rpblc, wily's own local server).
    #[default]
    Fics,
    /// The Internet Chess Club.
    Icc,
}

impl Dialect {
    /// The command prompt the server prints (after `iset defprompt 1` on FICS).
    pub fn prompt(&self) -> &'static str {
        match self {
            Dialect::Fics => "fics% ",
            Dialect::Icc => "aics% ",
        }
    }

    /// Whether timeseal is on by default (FICS's timeseal v1; ICC uses its own scheme).
    pub fn default_timeseal(&self) -> bool {
        matches!(self, Dialect::Fics)
    }

    /// A `set` that does not echo a confirmation where the server has such a form.
    pub fn set(&self, var: &str, value: &str) -> String {
        match self {
            Dialect::Fics => format!("set {var} {value}"),
            Dialect::Icc => format!("set-quietly {var} {value}"),
        }
    }

    /// An interface variable (`iset` on FICS; ICC has no such command, it uses `set`).
    pub fn iset(&self, var: &str, value: &str) -> String {
        match self {
            Dialect::Fics => format!("iset {var} {value}"),
            Dialect::Icc => format!("set-quietly {var} {value}"),
        }
    }

    /// A command written so the server does not expand the account's aliases.
    pub fn no_alias(&self, command: &str) -> String {
        match self {
            Dialect::Fics => format!("${command}"),
            Dialect::Icc => format!("/{command}"),
        }
    }

    /// A harmless command that resets the server's idle timer and always gets a reply.
    pub fn keepalive_command(&self) -> &'static str {
        match self {
            Dialect::Fics => "date",
            Dialect::Icc => "date",
        }
    }

    /// The commands sent once after login, in order: interface variables first, then
    /// user variables, `iset lock 1` last. A refusal of any of them is logged, never fatal.
    pub fn setup_commands(&self, interface: &str) -> Vec<String> {
        self.setup_commands_with(interface, &[])
    }

    /// As [`Dialect::setup_commands`], with more interface variables (`("fr", "1")` for a
    /// computer account open to Chess960) sent before `iset lock 1`, which would refuse
    /// them. FICS resets interface variables at every login, so they go out at every
    /// login. ICC has no such variables: they are not sent there.
    pub fn setup_commands_with(&self, interface: &str, ivars: &[(String, String)]) -> Vec<String> {
        let mut v = self.base_setup(interface);
        if *self == Dialect::Fics {
            let at = v.len().saturating_sub(1);
            for (i, (var, value)) in ivars.iter().enumerate() {
                v.insert(at + i, self.iset(var, value));
            }
        }
        v
    }

    fn base_setup(&self, interface: &str) -> Vec<String> {
        match self {
            Dialect::Fics => vec![
                self.set("style", "12"),
                self.iset("ms", "1"),
                self.iset("nowrap", "1"),
                self.iset("defprompt", "1"),
                self.iset("pendinfo", "1"),
                self.iset("seekinfo", "1"),
                self.iset("seekremove", "1"),
                self.set("interface", interface),
                self.set("seek", "0"),
                self.set("open", "1"),
                self.set("bell", "0"),
                self.iset("lock", "1"),
            ],
            Dialect::Icc => vec![
                self.set("style", "12"),
                self.set("prompt", "1"),
                self.set("wrap", "0"),
                self.set("interface", interface),
                self.set("seek", "0"),
                self.set("open", "1"),
                self.set("bell", "0"),
            ],
        }
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Dialect, String> {
        match s.to_ascii_lowercase().as_str() {
            "fics" => Ok(Dialect::Fics),
            "icc" => Ok(Dialect::Icc),
            other => Err(format!(
                "unknown server dialect {other:?} (expected fics or icc)"
            )),
        }
    }
}

/// As the settings reference shows it (`"fics"`, `"icc"`).
impl settings::DefaultText for Dialect {
    fn default_text(&self) -> String {
        match self {
            Dialect::Fics => "\"fics\"",
            Dialect::Icc => "\"icc\"",
        }
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fics_setup_order() {
        let s = Dialect::Fics.setup_commands("wily 0.1.0");
        assert_eq!(s.first().map(String::as_str), Some("set style 12"));
        assert_eq!(s.last().map(String::as_str), Some("iset lock 1"));
        assert!(s.contains(&"set interface wily 0.1.0".to_string()));
        for c in [
            "iset ms 1",
            "iset nowrap 1",
            "iset defprompt 1",
            "iset pendinfo 1",
            "iset seekinfo 1",
            "iset seekremove 1",
            "set seek 0",
            "set open 1",
            "set bell 0",
        ] {
            assert!(s.contains(&c.to_string()), "{c}");
        }
    }

    #[test]
    fn extra_ivariables_go_before_the_lock() {
        let extra = vec![("fr".to_string(), "1".to_string())];
        let s = Dialect::Fics.setup_commands_with("wily", &extra);
        let n = s.len();
        assert_eq!(s[n - 2], "iset fr 1");
        assert_eq!(s[n - 1], "iset lock 1");
        let icc = Dialect::Icc.setup_commands_with("wily", &extra);
        assert!(!icc.iter().any(|c| c.contains("fr")), "{icc:?}");
    }

    #[test]
    fn icc_forms() {
        assert_eq!(Dialect::Icc.prompt(), "aics% ");
        assert_eq!(Dialect::Icc.set("style", "12"), "set-quietly style 12");
        assert_eq!(Dialect::Icc.no_alias("tell x hi"), "/tell x hi");
        assert_eq!(Dialect::Fics.no_alias("tell x hi"), "$tell x hi");
        assert!(Dialect::Icc
            .setup_commands("wily")
            .iter()
            .all(|c| c.starts_with("set-quietly ")));
        assert!(!Dialect::Icc.default_timeseal() && Dialect::Fics.default_timeseal());
        assert_eq!("ICC".parse::<Dialect>(), Ok(Dialect::Icc));
        assert!("x".parse::<Dialect>().is_err());
    }
}
