//! `[[accounts]]`: several server accounts run by one `wily ics` process. Each entry
//! names its own server (defaults: `[server]`), handle, password variable, opponent
//! lists, seek ads, engine budget (threads, hash) and finger notes; everything else comes from the rest
//! of the file. All accounts share the one learning store (`paths.learning`). The entry's
//! shape, [`AccountSection`], is in `sections.rs` with the other sections.

use super::sections::{AccountSection, Config};
use std::path::Path;

impl AccountSection {
    /// The settings this account runs with: `base` with this entry's keys put in.
    pub fn apply(&self, base: &Config) -> Config {
        let mut c = base.clone();
        c.accounts.clear();
        c.server.local = false;
        c.server.handle = self.handle.clone();
        if let Some(h) = &self.host {
            c.server.host = h.clone();
        }
        if let Some(p) = self.port {
            c.server.port = p;
        }
        c.server.password = None;
        c.server.password_env = self.password_env.clone();
        if let Some(l) = &self.lists {
            c.paths.lists = l.clone();
        }
        if let Some(ads) = &self.seek_ads {
            c.seek.ads = ads.clone();
        }
        if let Some(t) = self.threads {
            c.engine.threads = t;
        }
        if let Some(h) = self.hash_mb {
            c.engine.hash_mb = h;
        }
        if let Some(n) = &self.notes {
            c.server.notes = Some(n.clone());
        }
        c
    }

    /// Makes a relative `lists` folder relative to `base`.
    pub fn resolve(&mut self, base: &Path) {
        if let Some(l) = &mut self.lists {
            if l.is_relative() {
                *l = base.join(&*l);
            }
        }
    }
}
