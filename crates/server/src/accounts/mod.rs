//! Who uses the local server: the registered accounts file, aliases, the follow list, the login dialogue and each connected session.

pub(crate) mod aliases;
pub(crate) mod follow;
pub(crate) mod login;
pub(crate) mod notes;
pub(crate) mod session;
pub(crate) mod store;
