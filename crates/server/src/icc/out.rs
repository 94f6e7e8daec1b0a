//! Datagrams out of the local server's ICC dialect: a small builder for one DG's fields
//! (framed by the shared codec in `ics::icc`), the [`View`] of the server every ICC
//! renderer reads, and how names, titles and ratings are written inside DGs. Whether a
//! client asked for a DG is the connections' (`Net::dg_on` in `core.rs`).

use crate::accounts::store::Accounts;
use crate::core::Net;
use crate::games::ratings::Category;
use crate::games::Games;
use crate::offers::Offers;
use ics::icc::Datagram;

/// One DG being built: its number and fields, in order, framed and quoted by the shared
/// codec ([`Datagram::encode`]) so the server and wily's client agree byte for byte.
#[derive(Debug, Clone)]
pub struct Dg(Datagram);

impl Dg {
    pub fn new(code: u16) -> Dg {
        Dg(Datagram::new(code))
    }

    pub fn code(&self) -> u16 {
        self.0.code
    }

    /// A word (the codec braces one that is empty or holds blanks).
    pub fn word(mut self, w: impl Into<String>) -> Dg {
        self.0.fields.push(w.into());
        self
    }

    pub fn num(self, n: impl std::fmt::Display) -> Dg {
        self.word(n.to_string())
    }

    pub fn flag(self, b: bool) -> Dg {
        self.word(if b { "1" } else { "0" })
    }

    /// A string field (titles, FEN, a result description): `{...}` on the wire.
    pub fn braced(self, text: impl Into<String>) -> Dg {
        self.word(text)
    }

    /// Free text (tells, kibitzes, explanations), control characters dropped; the codec
    /// quotes it `{...}`, or `^Y{...^Y}` when it holds braces.
    pub fn quoted(self, text: impl Into<String>) -> Dg {
        let t: String = text.into().chars().filter(|c| !c.is_control()).collect();
        self.word(t)
    }

    /// The DG as sent.
    pub fn render(&self) -> String {
        String::from_utf8_lossy(&self.0.encode()).into_owned()
    }
}

/// The ICC rating-type word of a game category.
pub fn rating_type(cat: Category, chess960: bool) -> &'static str {
    if chess960 {
        return "Wild";
    }
    match cat {
        Category::Lightning => "Bullet",
        Category::Blitz => "Blitz",
        Category::Standard | Category::Untimed => "Standard",
    }
}

/// What the ICC renderers read: the server's parts, lent for one rendering (the core
/// makes one with `Core::icc_view`). Every renderer in this folder is a method of it and
/// returns the text for the caller to send.
pub struct View<'a> {
    pub net: &'a Net,
    pub accounts: &'a Accounts,
    pub games: &'a Games,
    pub offers: &'a Offers,
    /// The server is stopping (a game's result then says so).
    pub shutting_down: bool,
}

/// `(GM)(C)` as shown after a name, as ICC's titles field words it: `GM C`.
pub fn titles_words(marks: &str) -> String {
    marks
        .split(['(', ')'])
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

impl View<'_> {
    /// ICC's titles of a handle: its account's marks, `U` for an unregistered player.
    pub fn titles(&self, name: &str) -> String {
        if let Some(a) = self.accounts.get(name) {
            return titles_words(&a.title_suffix());
        }
        "U".into()
    }

    /// A handle's rating in a category and ICC's note on it (0 none, 2 established).
    pub fn rating(&self, name: &str, cat: Category) -> (u32, u8) {
        match self
            .games
            .ratings
            .get(&name.to_ascii_lowercase())
            .and_then(|r| r.get(cat))
        {
            Some(r) => (r, 2),
            None => (0, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_quoting() {
        let d = Dg::new(31)
            .word("Sparring")
            .braced("C")
            .quoted("hello {there}\x07")
            .num(1);
        assert_eq!(
            d.render(),
            "\x19(31 Sparring C \x19{hello {there}\x19} 1\x19)"
        );
        assert_eq!(
            Dg::new(26).quoted("two words").render(),
            "\x19(26 {two words}\x19)"
        );
        assert_eq!(Dg::new(0).word("").render(), "\x19(0 {}\x19)");
        assert_eq!(titles_words("(*)(GM)(C)"), "* GM C");
        assert_eq!(titles_words(""), "");
    }
}
