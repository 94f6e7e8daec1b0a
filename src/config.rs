//! The bot's settings file (`config.toml`).
