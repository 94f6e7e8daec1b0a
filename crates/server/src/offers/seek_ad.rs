//! One seek ad on the local server, as a value, with its lasker ad line and FICS `<s>`
//! line. The server's handling of seeks is in `offers/seeks.rs`.

use crate::conn::Sid;
use crate::games::ratings::Category;
use cozy_chess::Color;

/// One seek ad.
#[derive(Debug, Clone)]
pub struct Seek {
    pub id: u32,
    pub owner: Sid,
    pub name: String,
    pub rating: Option<u32>,
    pub registered: bool,
    pub computer: bool,
    pub base: u32,
    pub inc: u32,
    pub rated: bool,
    pub color: Option<Color>,
    pub category: Category,
    /// A Chess960 ad (`seek ... fr` or `wild fr`).
    pub chess960: bool,
    /// A manual ad (`m`): an answer is a match request to the owner, who may decline.
    pub manual: bool,
}

impl Seek {
    /// The lasker ad line.
    pub fn ad_line(&self) -> String {
        format!(
            "{:3} {:4} {:<17} {:3} {:3} {:<7} {:<10}",
            self.id,
            self.rating.unwrap_or(0),
            self.name,
            self.base,
            self.inc,
            if self.rated { "rated" } else { "unrated" },
            self.variant_name()
        )
    }

    /// The game type as ads show it: `blitz`, or lasker's `fischerandom`.
    fn variant_name(&self) -> &'static str {
        if self.chess960 {
            "fischerandom"
        } else {
            self.category.name()
        }
    }

    /// The FICS `<s>` line.
    pub fn s_line(&self) -> String {
        let mut ti = 0u32;
        if !self.registered {
            ti |= 0x1;
        }
        if self.computer {
            ti |= 0x2;
        }
        let rt = match self.rating {
            Some(r) => format!("{r} "),
            None => "0P".into(),
        };
        let c = match self.color {
            Some(Color::White) => 'W',
            Some(Color::Black) => 'B',
            None => '?',
        };
        format!(
            "<s> {} w={} ti={:02X} rt={} t={} i={} r={} tp={} c={} rr=0-9999 a={} f=f",
            self.id,
            self.name,
            ti,
            rt,
            self.base,
            self.inc,
            if self.rated { 'r' } else { 'u' },
            self.variant_name(),
            c,
            if self.manual { 'f' } else { 't' }
        )
    }
}
