//! Talk: personal tells and qtells, says, kibitzes and whispers, channel tells and
//! shouts, all as [`Event::Chat`].

use crate::events::{Chat, ChatKind, Event};
use crate::icc::datagram::Datagram;
use crate::icc::numbers::*;
use crate::icc::parse::fields::titles_of;
use crate::icc::parse::reader::IccReader;

impl IccReader {
    pub(super) fn chat(
        &mut self,
        kind: ChatKind,
        from: &str,
        titles: &str,
        game: Option<u32>,
        text: &str,
    ) -> Event {
        Event::Chat(Chat {
            kind,
            from: from.to_string(),
            titles: titles_of(titles),
            rating: None,
            game,
            text: text.to_string(),
        })
    }

    pub(super) fn personal_tell(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (playername titles ^Y{tell string^Y} type); qtells have no type.
        let (Some(from), Some(text)) = (dg.field(0), dg.field(2)) else {
            return self.warn(dg, "too few fields");
        };
        let kind = match (dg.code, dg.num::<u32>(3)) {
            (DG_PERSONAL_TELL, Some(0)) => ChatKind::Say,
            _ => ChatKind::Tell,
        };
        let ev = self.chat(kind, from, dg.field(1).unwrap_or_default(), None, text);
        out.push(ev);
    }

    pub(super) fn kibitz(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (gamenumber playername titles kib/whi ^Y{kib string^Y})
        let (Some(game), Some(from), Some(text)) = (dg.num::<u32>(0), dg.field(1), dg.field(4))
        else {
            return self.warn(dg, "too few fields");
        };
        let kind = if dg.flag(3).unwrap_or(true) {
            ChatKind::Kibitz
        } else {
            ChatKind::Whisper
        };
        let ev = self.chat(
            kind,
            from,
            dg.field(2).unwrap_or_default(),
            Some(game),
            text,
        );
        out.push(ev);
    }

    pub(super) fn channel_tell(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (channel playername titles ^Y{tell string^Y} type)
        let (Some(ch), Some(from), Some(text)) = (dg.num::<u32>(0), dg.field(1), dg.field(3))
        else {
            return self.warn(dg, "too few fields");
        };
        let ev = self.chat(
            ChatKind::Channel(ch),
            from,
            dg.field(2).unwrap_or_default(),
            None,
            text,
        );
        out.push(ev);
    }

    pub(super) fn shout(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (playername titles type ^Y{shout string^Y})
        let (Some(from), Some(text)) = (dg.field(0), dg.field(3)) else {
            return self.warn(dg, "too few fields");
        };
        let kind = match dg.num::<u32>(2) {
            Some(1) => ChatKind::Emote,
            Some(2) => ChatKind::CShout,
            _ => ChatKind::Shout,
        };
        let ev = self.chat(kind, from, dg.field(1).unwrap_or_default(), None, text);
        out.push(ev);
    }
}
