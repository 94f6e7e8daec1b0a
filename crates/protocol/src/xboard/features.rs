//! The answer to `protover 2`: `feature` lines announcing what wily supports, and the
//! engine options xboard shows in its settings dialog (`feature option="..."`): the
//! xboard rows of `protocol/options.rs`'s table, in its order.

use uci::options::{Opt, Value, OPTIONS};

/// Every line sent in answer to `protover 2`, ending with `feature done=1`.
/// `current` gives each option's value in use, shown as its default.
pub fn feature_lines(current: impl Fn(Opt) -> Value) -> Vec<String> {
    let mut lines = vec![
        "feature done=0".to_string(),
        format!(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 \
             sigterm=0 reuse=1 analyze=1 myname=\"wily {}\" variants=\"normal,fischerandom\" colors=0 \
             ics=1 name=1 pause=0 nps=1 debug=1 memory=1 smp=1 exclude=0 egt=\"syzygy\"",
            env!("CARGO_PKG_VERSION")
        ),
    ];
    for o in OPTIONS.iter().filter(|o| o.xboard.is_some()) {
        let text = o.xboard_text(&current(o.opt));
        lines.push(format!("feature option=\"{text}\""));
    }
    lines.push("feature done=1".to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_features_present() {
        let at_default = |opt: Opt| {
            let row = OPTIONS.iter().find(|o| o.opt == opt).expect("a row");
            row.default_value()
        };
        let all = feature_lines(at_default).join("\n");
        for f in [
            "ping=1",
            "setboard=1",
            "usermove=1",
            "time=1",
            "draw=1",
            "analyze=1",
            "myname=",
            "variants=\"normal,fischerandom\"",
            "colors=0",
            "ics=1",
            "name=1",
            "nps=1",
            "memory=1",
            "smp=1",
            "sigint=0",
            "sigterm=0",
            "reuse=1",
            "done=1",
            "Hash (MB) -spin 64",
            "egt=\"syzygy\"",
            "Syzygy probe depth -spin 1",
            "Strength (Elo, 0 off) -spin 0 0 2600",
            "Resign threshold (pawns) -spin 9 0 100",
            "Noise (nodes) -spin 100000 0 1000000000",
            "Clear Hash -button",
        ] {
            assert!(all.contains(f), "{f} missing");
        }
        assert!(all.ends_with("feature done=1"));
        // Only the xboard rows, each once.
        let shown = all.matches("feature option=").count();
        assert_eq!(shown, OPTIONS.iter().filter(|o| o.xboard.is_some()).count());
        assert!(!all.contains("UCI_"), "{all}");
    }
}
