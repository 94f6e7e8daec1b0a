//! Registered accounts of the local server: the plain-text accounts file
//! (`handle password [flags]`, one account a line, `#` comments) and lookups, and
//! [`Accounts`], the accounts' part of the server's state (the registered accounts,
//! and what the server keeps by handle across sessions: follow lists and finger notes),
//! whose handlers are in this folder (`follow.rs`, `notes.rs`, `login.rs`).
//!
//! Flags: `C` or `computer` (a computer account: `(C)` after the name and the
//! `--** X is a computer **--` notice in challenges), `admin` (`*` in `who`),
//! titles (`GM`, `IM`, `FM`, `WGM`, `WIM`, `WFM`, `TD`), and `rating=N` (the
//! starting rating in every category). Passwords are kept in memory only and
//! never formatted into logs (`Account`'s `Debug` masks them).

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// The accounts' part of the server state.
pub struct Accounts {
    /// The registered accounts.
    pub list: Vec<Account>,
    /// Follow lists by lower-case handle (`follow.rs`); kept when the player logs out
    /// (lasker keeps them in the account).
    pub follow_lists: HashMap<String, Vec<String>>,
    /// Finger notes by lower-case handle (`notes.rs`); kept when the player logs out.
    pub notes: HashMap<String, Vec<String>>,
}

impl Accounts {
    pub fn new(list: Vec<Account>) -> Accounts {
        Accounts {
            list,
            follow_lists: HashMap::new(),
            notes: HashMap::new(),
        }
    }

    /// The registered account with this handle (any case).
    pub fn get(&self, name: &str) -> Option<&Account> {
        self.list
            .iter()
            .find(|a| a.handle.eq_ignore_ascii_case(name))
    }
}

/// One registered account.
#[derive(Clone, PartialEq, Eq)]
pub struct Account {
    /// The handle, with the capitalisation the server shows.
    pub handle: String,
    password: String,
    /// Shown as `(C)` and announced in challenges.
    pub computer: bool,
    /// Shown with `*` in `who`.
    pub admin: bool,
    /// Titles shown after the name (`GM`, `IM`, ...).
    pub titles: Vec<String>,
    /// Starting rating in every category (none: `----` until a rated game).
    pub rating: Option<u32>,
}

impl fmt::Debug for Account {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Account")
            .field("handle", &self.handle)
            .field("password", &"***")
            .field("computer", &self.computer)
            .field("admin", &self.admin)
            .field("titles", &self.titles)
            .field("rating", &self.rating)
            .finish()
    }
}

impl Account {
    /// A plain account with no flags.
    pub fn new(handle: &str, password: &str) -> Account {
        Account {
            handle: handle.to_string(),
            password: password.to_string(),
            computer: false,
            admin: false,
            titles: Vec::new(),
            rating: None,
        }
    }

    /// The same account flagged as a computer.
    pub fn computer(mut self) -> Account {
        self.computer = true;
        self
    }

    /// The same account with a starting rating.
    pub fn with_rating(mut self, rating: u32) -> Account {
        self.rating = Some(rating);
        self
    }

    /// Whether `given` is this account's password (exact match).
    pub fn password_matches(&self, given: &str) -> bool {
        // Compare every byte so the time taken does not depend on the prefix.
        let a = self.password.as_bytes();
        let b = given.as_bytes();
        let mut diff = a.len() ^ b.len();
        for (i, x) in a.iter().enumerate() {
            diff |= usize::from(x ^ b.get(i).copied().unwrap_or(0));
        }
        diff == 0
    }

    /// Title suffix as FICS prints it after a name: `(C)`, `(GM)`, `(*)`.
    pub fn title_suffix(&self) -> String {
        let mut s = String::new();
        if self.admin {
            s.push_str("(*)");
        }
        for t in &self.titles {
            s.push('(');
            s.push_str(t);
            s.push(')');
        }
        if self.computer {
            s.push_str("(C)");
        }
        s
    }
}

/// A problem with one line of an accounts file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountLineError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong (never contains the password).
    pub reason: String,
}

impl fmt::Display for AccountLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "accounts line {}: {}", self.line, self.reason)
    }
}

/// Whether `name` is a valid handle: 3 to 17 ASCII letters.
pub fn valid_handle(name: &str) -> bool {
    (3..=17).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphabetic())
}

/// Parse the text of an accounts file. Malformed lines are returned as errors
/// next to the accounts that did parse (the caller logs them and goes on).
pub fn parse_accounts(text: &str) -> (Vec<Account>, Vec<AccountLineError>) {
    let mut accounts: Vec<Account> = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(handle), Some(password)) = (words.next(), words.next()) else {
            errors.push(AccountLineError {
                line: i + 1,
                reason: "expected `handle password [flags]`".into(),
            });
            continue;
        };
        if !valid_handle(handle) {
            errors.push(AccountLineError {
                line: i + 1,
                reason: format!("`{handle}` is not a valid handle (3-17 letters)"),
            });
            continue;
        }
        if handle.len() >= 5 && handle[..5].eq_ignore_ascii_case("guest") {
            errors.push(AccountLineError {
                line: i + 1,
                reason: format!("`{handle}`: names starting with guest are reserved"),
            });
            continue;
        }
        if accounts
            .iter()
            .any(|a| a.handle.eq_ignore_ascii_case(handle))
        {
            errors.push(AccountLineError {
                line: i + 1,
                reason: format!("`{handle}` is listed twice; the first entry is kept"),
            });
            continue;
        }
        let mut acc = Account::new(handle, password);
        let mut bad = None;
        for flag in words.flat_map(|w| w.split(',')).filter(|w| !w.is_empty()) {
            let upper = flag.to_ascii_uppercase();
            match upper.as_str() {
                "C" | "COMPUTER" => acc.computer = true,
                "ADMIN" | "*" => acc.admin = true,
                "GM" | "IM" | "FM" | "WGM" | "WIM" | "WFM" | "TD" | "CM" | "NM" => {
                    acc.titles.push(upper)
                }
                _ => {
                    if let Some(v) = upper.strip_prefix("RATING=") {
                        match v.parse::<u32>() {
                            Ok(r) if r <= 9999 => acc.rating = Some(r),
                            _ => bad = Some(format!("bad rating `{flag}`")),
                        }
                    } else {
                        bad = Some(format!("unknown flag `{flag}`"));
                    }
                }
            }
        }
        if let Some(reason) = bad {
            errors.push(AccountLineError {
                line: i + 1,
                reason,
            });
            continue;
        }
        accounts.push(acc);
    }
    (accounts, errors)
}

/// Read and parse an accounts file.
pub fn load_accounts(path: &Path) -> std::io::Result<(Vec<Account>, Vec<AccountLineError>)> {
    let bytes = std::fs::read(path)?;
    Ok(parse_accounts(&String::from_utf8_lossy(&bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_flags_comments_and_reports_bad_lines() {
        let text = "# test accounts\nAlphaBot secret C\nBetaBot pw GM rating=1800 # titled\n\
                    x short\nGammaBot\nDelta pw bogus\nalphabot again\nGuestABCD pw\n";
        let (acc, errs) = parse_accounts(text);
        assert_eq!(acc.len(), 2);
        assert!(acc[0].computer);
        assert!(acc[0].password_matches("secret"));
        assert!(!acc[0].password_matches("secret2"));
        assert!(!acc[0].password_matches("secre"));
        assert_eq!(acc[1].titles, vec!["GM".to_string()]);
        assert_eq!(acc[1].rating, Some(1800));
        assert_eq!(acc[1].title_suffix(), "(GM)");
        let lines: Vec<usize> = errs.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![4, 5, 6, 7, 8]);
        for e in &errs {
            assert!(!e.to_string().contains("again"), "password leaked: {e}");
        }
    }

    #[test]
    fn debug_masks_password() {
        let a = Account::new("AlphaBot", "hunter2");
        assert!(!format!("{a:?}").contains("hunter2"));
    }
}
