//! The answer to `protover 2`: `feature` lines announcing what wily supports, and the
//! engine options xboard shows in its settings dialog (`feature option="..."`).

/// Engine option names as xboard shows them (also accepted by `option NAME=VALUE`).
pub const OPT_HASH: &str = "Hash (MB)";
pub const OPT_THREADS: &str = "Threads";
pub const OPT_PONDER: &str = "Ponder";
pub const OPT_DRAW: &str = "Draw score (cp)";
pub const OPT_RESIGN: &str = "Resign threshold (pawns)";
pub const OPT_WHISPER: &str = "Whisper level";
pub const OPT_KIBITZ: &str = "Kibitz level";
pub const OPT_NOISE: &str = "Noise (nodes)";
pub const OPT_CLEAR: &str = "Clear Hash";
pub const OPT_SYZYGY_DEPTH: &str = "Syzygy probe depth";
pub const OPT_SYZYGY_50: &str = "Syzygy 50-move rule";

/// Current values shown as option defaults.
pub struct OptionValues {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub draw_score: i32,
    pub resign: i32,
    pub whisper: u8,
    pub kibitz: u8,
    pub noise: u64,
    pub syzygy_depth: i32,
    pub syzygy_50: bool,
}

/// Every line sent in answer to `protover 2`, ending with `feature done=1`.
pub fn feature_lines(v: &OptionValues) -> Vec<String> {
    let mut lines = vec![
        "feature done=0".to_string(),
        format!(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 \
             sigterm=0 reuse=1 analyze=1 myname=\"wily {}\" variants=\"normal,fischerandom\" colors=0 \
             ics=1 name=1 pause=0 nps=1 debug=1 memory=1 smp=1 exclude=0 egt=\"syzygy\"",
            env!("CARGO_PKG_VERSION")
        ),
    ];
    let opts = [
        format!("{OPT_HASH} -spin {} 1 65536", v.hash_mb),
        format!("{OPT_THREADS} -spin {} 1 256", v.threads),
        format!("{OPT_PONDER} -check {}", u8::from(v.ponder)),
        format!("{OPT_DRAW} -spin {} -1000 1000", v.draw_score),
        format!("{OPT_RESIGN} -spin {} 0 100", v.resign),
        format!("{OPT_WHISPER} -spin {} 0 6", v.whisper),
        format!("{OPT_KIBITZ} -spin {} 0 6", v.kibitz),
        format!("{OPT_NOISE} -spin {} 0 1000000000", v.noise),
        format!("{OPT_SYZYGY_DEPTH} -spin {} 1 100", v.syzygy_depth),
        format!("{OPT_SYZYGY_50} -check {}", u8::from(v.syzygy_50)),
        format!("{OPT_CLEAR} -button"),
    ];
    for o in opts {
        lines.push(format!("feature option=\"{o}\""));
    }
    lines.push("feature done=1".to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_features_present() {
        let v = OptionValues {
            hash_mb: 64,
            threads: 1,
            ponder: false,
            draw_score: 0,
            resign: 9,
            whisper: 0,
            kibitz: 0,
            noise: 0,
            syzygy_depth: 1,
            syzygy_50: true,
        };
        let all = feature_lines(&v).join("\n");
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
        ] {
            assert!(all.contains(f), "{f} missing");
        }
        assert!(all.ends_with("feature done=1"));
    }
}
