//! The level-2 datagram numbers of ICC's protocol description (`formats.txt`, appendix 2),
//! as constants and as a table of names, and the `level2settings=` bit string that turns a
//! set of them on at the login prompt.
//!
//! Some numbers are not datagrams but switches that change others (`DG_MOVE_ALGEBRAIC` to
//! `DG_MOVE_CLOCK` add fields to `DG_SEND_MOVES`; `DG_MATCH_ASSESSMENT` adds fields to
//! `DG_MATCH`); they are turned on the same way.

pub const DG_WHO_AM_I: u16 = 0;
pub const DG_PLAYER_ARRIVED: u16 = 1;
pub const DG_PLAYER_LEFT: u16 = 2;
pub const DG_BULLET: u16 = 3;
pub const DG_BLITZ: u16 = 4;
pub const DG_STANDARD: u16 = 5;
pub const DG_WILD: u16 = 6;
pub const DG_BUGHOUSE: u16 = 7;
pub const DG_TIMESTAMP: u16 = 8;
pub const DG_TITLES: u16 = 9;
pub const DG_OPEN: u16 = 10;
pub const DG_STATE: u16 = 11;
pub const DG_GAME_STARTED: u16 = 12;
pub const DG_GAME_RESULT: u16 = 13;
pub const DG_EXAMINED_GAME_IS_GONE: u16 = 14;
pub const DG_MY_GAME_STARTED: u16 = 15;
pub const DG_MY_GAME_RESULT: u16 = 16;
pub const DG_MY_GAME_ENDED: u16 = 17;
pub const DG_STARTED_OBSERVING: u16 = 18;
pub const DG_STOP_OBSERVING: u16 = 19;
pub const DG_PLAYERS_IN_MY_GAME: u16 = 20;
pub const DG_OFFERS_IN_MY_GAME: u16 = 21;
pub const DG_TAKEBACK: u16 = 22;
pub const DG_BACKWARD: u16 = 23;
pub const DG_SEND_MOVES: u16 = 24;
pub const DG_MOVE_LIST: u16 = 25;
pub const DG_KIBITZ: u16 = 26;
pub const DG_PEOPLE_IN_MY_CHANNEL: u16 = 27;
pub const DG_CHANNEL_TELL: u16 = 28;
pub const DG_MATCH: u16 = 29;
pub const DG_MATCH_REMOVED: u16 = 30;
pub const DG_PERSONAL_TELL: u16 = 31;
pub const DG_SHOUT: u16 = 32;
pub const DG_MOVE_ALGEBRAIC: u16 = 33;
pub const DG_MOVE_SMITH: u16 = 34;
pub const DG_MOVE_TIME: u16 = 35;
pub const DG_MOVE_CLOCK: u16 = 36;
pub const DG_BUGHOUSE_HOLDINGS: u16 = 37;
pub const DG_SET_CLOCK: u16 = 38;
pub const DG_FLIP: u16 = 39;
pub const DG_ISOLATED_BOARD: u16 = 40;
pub const DG_REFRESH: u16 = 41;
pub const DG_ILLEGAL_MOVE: u16 = 42;
pub const DG_MY_RELATION_TO_GAME: u16 = 43;
pub const DG_PARTNERSHIP: u16 = 44;
pub const DG_SEES_SHOUTS: u16 = 45;
pub const DG_CHANNELS_SHARED: u16 = 46;
pub const DG_MY_VARIABLE: u16 = 47;
pub const DG_MY_STRING_VARIABLE: u16 = 48;
pub const DG_JBOARD: u16 = 49;
pub const DG_SEEK: u16 = 50;
pub const DG_SEEK_REMOVED: u16 = 51;
pub const DG_MY_RATING: u16 = 52;
pub const DG_SOUND: u16 = 53;
pub const DG_PLAYER_ARRIVED_SIMPLE: u16 = 55;
pub const DG_MSEC: u16 = 56;
pub const DG_BUGHOUSE_PASS: u16 = 57;
pub const DG_IP: u16 = 58;
pub const DG_CIRCLE: u16 = 59;
pub const DG_ARROW: u16 = 60;
pub const DG_MORETIME: u16 = 61;
pub const DG_PERSONAL_TELL_ECHO: u16 = 62;
pub const DG_SUGGESTION: u16 = 63;
pub const DG_NOTIFY_ARRIVED: u16 = 64;
pub const DG_NOTIFY_LEFT: u16 = 65;
pub const DG_NOTIFY_OPEN: u16 = 66;
pub const DG_NOTIFY_STATE: u16 = 67;
pub const DG_MY_NOTIFY_LIST: u16 = 68;
pub const DG_LOGIN_FAILED: u16 = 69;
pub const DG_FEN: u16 = 70;
pub const DG_TOURNEY_MATCH: u16 = 71;
pub const DG_GAMELIST_BEGIN: u16 = 72;
pub const DG_GAMELIST_ITEM: u16 = 73;
pub const DG_IDLE: u16 = 74;
pub const DG_ACK_PING: u16 = 75;
pub const DG_RATING_TYPE_KEY: u16 = 76;
pub const DG_GAME_MESSAGE: u16 = 77;
pub const DG_UNACCENTED: u16 = 78;
pub const DG_STRINGLIST_BEGIN: u16 = 79;
pub const DG_STRINGLIST_ITEM: u16 = 80;
pub const DG_DUMMY_RESPONSE: u16 = 81;
pub const DG_CHANNEL_QTELL: u16 = 82;
pub const DG_PERSONAL_QTELL: u16 = 83;
pub const DG_SET_BOARD: u16 = 84;
pub const DG_MATCH_ASSESSMENT: u16 = 85;
pub const DG_LOG_PGN: u16 = 86;
pub const DG_NEW_MY_RATING: u16 = 87;
pub const DG_LOSERS: u16 = 88;
pub const DG_UNCIRCLE: u16 = 89;
pub const DG_UNARROW: u16 = 90;
pub const DG_WSUGGEST: u16 = 91;
pub const DG_TEMPORARY_PASSWORD: u16 = 93;
pub const DG_MESSAGELIST_BEGIN: u16 = 94;
pub const DG_MESSAGELIST_ITEM: u16 = 95;
pub const DG_LIST: u16 = 96;
pub const DG_SJI_AD: u16 = 97;
pub const DG_RETRACT: u16 = 99;
pub const DG_MY_GAME_CHANGE: u16 = 100;
pub const DG_POSITION_BEGIN: u16 = 101;
pub const DG_ALLOW_GUESS: u16 = 102;
pub const DG_TOURNEY: u16 = 103;
pub const DG_REMOVE_TOURNEY: u16 = 104;
pub const DG_DIALOG_START: u16 = 105;
pub const DG_DIALOG_DATA: u16 = 106;
pub const DG_DIALOG_DEFAULT: u16 = 107;
pub const DG_DIALOG_END: u16 = 108;
pub const DG_DIALOG_RELEASE: u16 = 109;
pub const DG_POSITION_BEGIN2: u16 = 110;
pub const DG_PAST_MOVE: u16 = 111;
pub const DG_PGN_TAG: u16 = 112;
pub const DG_IS_VARIATION: u16 = 113;
pub const DG_PASSWORD: u16 = 114;
pub const DG_BANNER: u16 = 115;
pub const DG_WILD_KEY: u16 = 116;
pub const DG_FORM_FEEDBACK: u16 = 117;
pub const DG_KEY_VERSION: u16 = 119;
pub const DG_SWITCH_SERVERS: u16 = 120;
pub const DG_CRAZYHOUSE: u16 = 121;
pub const DG_PLUGIN_TRUSTED: u16 = 122;
pub const DG_SPEAK: u16 = 123;
pub const DG_SET2: u16 = 124;
pub const DG_FIVEMINUTE: u16 = 125;
pub const DG_ONEMINUTE: u16 = 126;
pub const DG_QIMPART: u16 = 127;
pub const DG_MUGSHOT: u16 = 128;
pub const DG_TRANSLATIONOKAY: u16 = 129;
pub const DG_CLIENT_TRUST_LEVEL: u16 = 130;
pub const DG_UID: u16 = 131;
pub const DG_KNOWS_FISCHER_RANDOM: u16 = 132;
pub const DG_CHECKERS: u16 = 133;
pub const DG_WEB_AUTH: u16 = 134;
pub const DG_ICCLOGBOTENTRY: u16 = 135;
pub const DG_COMMAND: u16 = 136;
pub const DG_TOURNEY_GAME_STARTED: u16 = 137;
pub const DG_TOURNEY_GAME_ENDED: u16 = 138;
pub const DG_MY_TURN: u16 = 139;
pub const DG_CORRESPONDENCE_RATING: u16 = 140;
pub const DG_DISABLE_PREMOVE: u16 = 141;
pub const DG_PSTAT: u16 = 142;
pub const DG_BOARDINFO: u16 = 143;
pub const DG_MOVE_LAG: u16 = 144;
pub const DG_FIFTEENMINUTE: u16 = 145;
pub const DG_PHRASELIST_UPDATE: u16 = 146;
pub const DG_PHRASELIST_ITEM: u16 = 147;
pub const DG_MENU_SPEAK: u16 = 148;
pub const DG_THREEMINUTE: u16 = 149;
pub const DG_FORTYFIVEMINUTE: u16 = 150;
pub const DG_CHESS960: u16 = 151;
pub const DG_COUNTRY: u16 = 152;
pub const DG_FEATURES: u16 = 153;
pub const DG_ERROR: u16 = 154;
pub const DG_GROUP_INFO: u16 = 155;
pub const DG_CHANNEL_INFO: u16 = 156;
pub const DG_CLIENT_INFO: u16 = 158;
pub const DG_ZRATING: u16 = 159;
pub const DG_CORRESPONDENCE_MOVE: u16 = 160;
pub const DG_CORRESPONDENCE_GAME: u16 = 161;
pub const DG_NO_CORRESPONDENCE_GAME: u16 = 162;
pub const DG_LIST_HEAD: u16 = 163;
pub const DG_LIST_END: u16 = 164;
pub const DG_LIST_ITEM: u16 = 165;
pub const DG_LIST_ADDED: u16 = 166;
pub const DG_LIST_REMOVED: u16 = 167;
pub const DG_FAIL: u16 = 168;
pub const DG_NOTE: u16 = 169;
pub const DG_FIELD: u16 = 170;
pub const DG_RATING: u16 = 171;
pub const DG_END_PROFILE: u16 = 172;
pub const DG_PSTAT2: u16 = 173;
pub const DG_EXAMINERS_IN_GAME: u16 = 174;
pub const DG_POOL_JOINED: u16 = 175;
pub const DG_POOL_LEFT: u16 = 176;
pub const DG_25_5: u16 = 177;
pub const DG_LOGIN_LIST_FRIENDS: u16 = 178;
pub const DG_LOGIN_LIST_ALIASES: u16 = 179;
pub const DG_LOGIN_LIST_MESSAGES: u16 = 180;
pub const DG_LOGIN_LIST_ROOMS: u16 = 181;
pub const DG_LOGIN_LIST_ADJOURNED_GAMES: u16 = 182;
pub const DG_LOGIN_LIST_LIBRARY_GAMES: u16 = 183;
pub const DG_LOGIN_LIST_HISTORY_GAMES: u16 = 184;
pub const DG_LOGIN_LIST_LIST_CENSORS: u16 = 185;
pub const DG_AUTH_URL: u16 = 186;
pub const DG_PGN: u16 = 187;
pub const DG_IN_CHANNEL: u16 = 188;

/// Every number the description lists, with its name, in numeric order.
pub const NAMES: &[(u16, &str)] = &[
    (0, "DG_WHO_AM_I"),
    (1, "DG_PLAYER_ARRIVED"),
    (2, "DG_PLAYER_LEFT"),
    (3, "DG_BULLET"),
    (4, "DG_BLITZ"),
    (5, "DG_STANDARD"),
    (6, "DG_WILD"),
    (7, "DG_BUGHOUSE"),
    (8, "DG_TIMESTAMP"),
    (9, "DG_TITLES"),
    (10, "DG_OPEN"),
    (11, "DG_STATE"),
    (12, "DG_GAME_STARTED"),
    (13, "DG_GAME_RESULT"),
    (14, "DG_EXAMINED_GAME_IS_GONE"),
    (15, "DG_MY_GAME_STARTED"),
    (16, "DG_MY_GAME_RESULT"),
    (17, "DG_MY_GAME_ENDED"),
    (18, "DG_STARTED_OBSERVING"),
    (19, "DG_STOP_OBSERVING"),
    (20, "DG_PLAYERS_IN_MY_GAME"),
    (21, "DG_OFFERS_IN_MY_GAME"),
    (22, "DG_TAKEBACK"),
    (23, "DG_BACKWARD"),
    (24, "DG_SEND_MOVES"),
    (25, "DG_MOVE_LIST"),
    (26, "DG_KIBITZ"),
    (27, "DG_PEOPLE_IN_MY_CHANNEL"),
    (28, "DG_CHANNEL_TELL"),
    (29, "DG_MATCH"),
    (30, "DG_MATCH_REMOVED"),
    (31, "DG_PERSONAL_TELL"),
    (32, "DG_SHOUT"),
    (33, "DG_MOVE_ALGEBRAIC"),
    (34, "DG_MOVE_SMITH"),
    (35, "DG_MOVE_TIME"),
    (36, "DG_MOVE_CLOCK"),
    (37, "DG_BUGHOUSE_HOLDINGS"),
    (38, "DG_SET_CLOCK"),
    (39, "DG_FLIP"),
    (40, "DG_ISOLATED_BOARD"),
    (41, "DG_REFRESH"),
    (42, "DG_ILLEGAL_MOVE"),
    (43, "DG_MY_RELATION_TO_GAME"),
    (44, "DG_PARTNERSHIP"),
    (45, "DG_SEES_SHOUTS"),
    (46, "DG_CHANNELS_SHARED"),
    (47, "DG_MY_VARIABLE"),
    (48, "DG_MY_STRING_VARIABLE"),
    (49, "DG_JBOARD"),
    (50, "DG_SEEK"),
    (51, "DG_SEEK_REMOVED"),
    (52, "DG_MY_RATING"),
    (53, "DG_SOUND"),
    (55, "DG_PLAYER_ARRIVED_SIMPLE"),
    (56, "DG_MSEC"),
    (57, "DG_BUGHOUSE_PASS"),
    (58, "DG_IP"),
    (59, "DG_CIRCLE"),
    (60, "DG_ARROW"),
    (61, "DG_MORETIME"),
    (62, "DG_PERSONAL_TELL_ECHO"),
    (63, "DG_SUGGESTION"),
    (64, "DG_NOTIFY_ARRIVED"),
    (65, "DG_NOTIFY_LEFT"),
    (66, "DG_NOTIFY_OPEN"),
    (67, "DG_NOTIFY_STATE"),
    (68, "DG_MY_NOTIFY_LIST"),
    (69, "DG_LOGIN_FAILED"),
    (70, "DG_FEN"),
    (71, "DG_TOURNEY_MATCH"),
    (72, "DG_GAMELIST_BEGIN"),
    (73, "DG_GAMELIST_ITEM"),
    (74, "DG_IDLE"),
    (75, "DG_ACK_PING"),
    (76, "DG_RATING_TYPE_KEY"),
    (77, "DG_GAME_MESSAGE"),
    (78, "DG_UNACCENTED"),
    (79, "DG_STRINGLIST_BEGIN"),
    (80, "DG_STRINGLIST_ITEM"),
    (81, "DG_DUMMY_RESPONSE"),
    (82, "DG_CHANNEL_QTELL"),
    (83, "DG_PERSONAL_QTELL"),
    (84, "DG_SET_BOARD"),
    (85, "DG_MATCH_ASSESSMENT"),
    (86, "DG_LOG_PGN"),
    (87, "DG_NEW_MY_RATING"),
    (88, "DG_LOSERS"),
    (89, "DG_UNCIRCLE"),
    (90, "DG_UNARROW"),
    (91, "DG_WSUGGEST"),
    (93, "DG_TEMPORARY_PASSWORD"),
    (94, "DG_MESSAGELIST_BEGIN"),
    (95, "DG_MESSAGELIST_ITEM"),
    (96, "DG_LIST"),
    (97, "DG_SJI_AD"),
    (99, "DG_RETRACT"),
    (100, "DG_MY_GAME_CHANGE"),
    (101, "DG_POSITION_BEGIN"),
    (102, "DG_ALLOW_GUESS"),
    (103, "DG_TOURNEY"),
    (104, "DG_REMOVE_TOURNEY"),
    (105, "DG_DIALOG_START"),
    (106, "DG_DIALOG_DATA"),
    (107, "DG_DIALOG_DEFAULT"),
    (108, "DG_DIALOG_END"),
    (109, "DG_DIALOG_RELEASE"),
    (110, "DG_POSITION_BEGIN2"),
    (111, "DG_PAST_MOVE"),
    (112, "DG_PGN_TAG"),
    (113, "DG_IS_VARIATION"),
    (114, "DG_PASSWORD"),
    (115, "DG_BANNER"),
    (116, "DG_WILD_KEY"),
    (117, "DG_FORM_FEEDBACK"),
    (119, "DG_KEY_VERSION"),
    (120, "DG_SWITCH_SERVERS"),
    (121, "DG_CRAZYHOUSE"),
    (122, "DG_PLUGIN_TRUSTED"),
    (123, "DG_SPEAK"),
    (124, "DG_SET2"),
    (125, "DG_FIVEMINUTE"),
    (126, "DG_ONEMINUTE"),
    (127, "DG_QIMPART"),
    (128, "DG_MUGSHOT"),
    (129, "DG_TRANSLATIONOKAY"),
    (130, "DG_CLIENT_TRUST_LEVEL"),
    (131, "DG_UID"),
    (132, "DG_KNOWS_FISCHER_RANDOM"),
    (133, "DG_CHECKERS"),
    (134, "DG_WEB_AUTH"),
    (135, "DG_ICCLOGBOTENTRY"),
    (136, "DG_COMMAND"),
    (137, "DG_TOURNEY_GAME_STARTED"),
    (138, "DG_TOURNEY_GAME_ENDED"),
    (139, "DG_MY_TURN"),
    (140, "DG_CORRESPONDENCE_RATING"),
    (141, "DG_DISABLE_PREMOVE"),
    (142, "DG_PSTAT"),
    (143, "DG_BOARDINFO"),
    (144, "DG_MOVE_LAG"),
    (145, "DG_FIFTEENMINUTE"),
    (146, "DG_PHRASELIST_UPDATE"),
    (147, "DG_PHRASELIST_ITEM"),
    (148, "DG_MENU_SPEAK"),
    (149, "DG_THREEMINUTE"),
    (150, "DG_FORTYFIVEMINUTE"),
    (151, "DG_CHESS960"),
    (152, "DG_COUNTRY"),
    (153, "DG_FEATURES"),
    (154, "DG_ERROR"),
    (155, "DG_GROUP_INFO"),
    (156, "DG_CHANNEL_INFO"),
    (157, "DG_CHECKERS"),
    (158, "DG_CLIENT_INFO"),
    (159, "DG_ZRATING"),
    (160, "DG_CORRESPONDENCE_MOVE"),
    (161, "DG_CORRESPONDENCE_GAME"),
    (162, "DG_NO_CORRESPONDENCE_GAME"),
    (163, "DG_LIST_HEAD"),
    (164, "DG_LIST_END"),
    (165, "DG_LIST_ITEM"),
    (166, "DG_LIST_ADDED"),
    (167, "DG_LIST_REMOVED"),
    (168, "DG_FAIL"),
    (169, "DG_NOTE"),
    (170, "DG_FIELD"),
    (171, "DG_RATING"),
    (172, "DG_END_PROFILE"),
    (173, "DG_PSTAT2"),
    (174, "DG_EXAMINERS_IN_GAME"),
    (175, "DG_POOL_JOINED"),
    (176, "DG_POOL_LEFT"),
    (177, "DG_25_5"),
    (178, "DG_LOGIN_LIST_FRIENDS"),
    (179, "DG_LOGIN_LIST_ALIASES"),
    (180, "DG_LOGIN_LIST_MESSAGES"),
    (181, "DG_LOGIN_LIST_ROOMS"),
    (182, "DG_LOGIN_LIST_ADJOURNED_GAMES"),
    (183, "DG_LOGIN_LIST_LIBRARY_GAMES"),
    (184, "DG_LOGIN_LIST_HISTORY_GAMES"),
    (185, "DG_LOGIN_LIST_LIST_CENSORS"),
    (186, "DG_AUTH_URL"),
    (187, "DG_PGN"),
    (188, "DG_IN_CHANNEL"),
];

/// The name of a datagram number (`DG_SEND_MOVES`), or `None` for a number the
/// description does not list.
pub fn name(code: u16) -> Option<&'static str> {
    NAMES
        .binary_search_by_key(&code, |&(n, _)| n)
        .ok()
        .map(|i| NAMES[i].1)
}

/// The number of a datagram name (`DG_SEND_MOVES` or `SEND_MOVES`, any case).
pub fn number(name: &str) -> Option<u16> {
    let n = name.trim().to_ascii_uppercase();
    let n = n.strip_prefix("DG_").unwrap_or(&n);
    NAMES
        .iter()
        .find(|(_, x)| x.strip_prefix("DG_") == Some(n))
        .map(|&(c, _)| c)
}

/// The `level2settings=` value for these numbers: a string of `0`/`1`, the leftmost
/// character for number 0, as long as the highest number needs.
pub fn level2settings(codes: &[u16]) -> String {
    let len = codes.iter().map(|&c| usize::from(c) + 1).max().unwrap_or(0);
    let mut bits = vec![b'0'; len];
    for &c in codes {
        bits[usize::from(c)] = b'1';
    }
    String::from_utf8(bits).unwrap_or_default()
}

/// The numbers a `level2settings=` bit string turns on (other characters count as 0).
pub fn parse_level2settings(bits: &str) -> Vec<u16> {
    bits.trim()
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'1')
        .filter_map(|(i, _)| u16::try_from(i).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_names_round_trip() {
        assert!(NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(name(DG_SEND_MOVES), Some("DG_SEND_MOVES"));
        assert_eq!(name(54), None);
        assert_eq!(number("send_moves"), Some(24));
        assert_eq!(number("DG_MY_TURN"), Some(139));
        assert_eq!(number("nonsense"), None);
        assert_eq!(DG_MOVE_LAG, 144);
        assert_eq!(DG_MSEC, 56);
        assert_eq!(DG_POSITION_BEGIN, 101);
    }

    #[test]
    fn settings_bits_round_trip() {
        let codes = [0, 15, 24, 56, 139];
        let s = level2settings(&codes);
        assert_eq!(s.len(), 140);
        assert_eq!(&s[..2], "10");
        assert_eq!(parse_level2settings(&s), codes.to_vec());
        assert_eq!(level2settings(&[]), "");
    }
}
