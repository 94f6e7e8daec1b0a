//! Running the bot: the app and its accounts, the async driver with reconnection, the service (reload, watchdog, health, metrics, logging), the published status and the offline local run.

pub mod app;
pub mod driver;
pub mod health;
pub mod local;
pub mod logging;
pub mod metrics;
pub mod reconnect;
pub mod service;
pub mod status;
pub mod watchdog;
