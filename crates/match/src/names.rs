//! Engine names as c-chess-cli gives them: `name=` when set, otherwise the name the
//! engine sends (UCI `id name`, xboard `feature myname`), read by starting it once before
//! the match. An engine that does not answer keeps its program's file name. Names are
//! made unique afterwards (later duplicates get `-2`, `-3`, ...).

use super::config::EngineSpec;
use super::engine::process::Registry;
use super::engine::Engine;
use super::settings::MatchSettings;
use std::sync::Arc;

/// Later duplicates of a name get `-2`, `-3`, ...
pub fn make_unique(specs: &mut [EngineSpec]) {
    for i in 1..specs.len() {
        let base = specs[i].name.clone();
        let mut n = 2;
        while specs[..i].iter().any(|s| s.name == specs[i].name) {
            specs[i].name = format!("{base}-{n}");
            n += 1;
        }
    }
}

/// The name `spec`'s engine gives itself, if it starts and says one.
pub fn id_name(spec: &EngineSpec, variant: super::config::Variant) -> Option<String> {
    let registry = Registry::default();
    let engine = Engine::start(Arc::new(spec.clone()), &registry, None, variant).ok()?;
    let name = engine.id_name().map(str::trim).map(str::to_string);
    engine.close();
    name.filter(|n| !n.is_empty())
}

/// Names every engine without `name=` by its own name (see the module), then makes the
/// names unique.
pub fn from_engines(settings: &mut MatchSettings) {
    let variant = settings.variant;
    for spec in settings.engines.iter_mut().filter(|s| !s.name_given) {
        match id_name(spec, variant) {
            Some(n) => spec.name = n,
            None => eprintln!(
                "warning: engine {} sent no name; it is called by its file name",
                spec.name
            ),
        }
    }
    make_unique(&mut settings.engines);
}
