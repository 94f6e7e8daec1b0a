//! The login conversation as a pure state machine: it reads login events and says what to
//! send (the handle, the password only in answer to a `password:` prompt, an empty line
//! at `Press return ...`) and when login is done or has failed for good.
//!
//! A line saying the account is already logged in decides nothing by itself: FICS and
//! lasker print `**** X is already logged in - kicking them out. ****` and carry on with
//! the new login (the old session is closed), while other servers refuse. What follows
//! decides: the session starting means logged in; a new `login:` prompt, a goodbye or a
//! closed connection means refused, with that line as the reason.

use std::fmt;

use crate::events::{Event, Prompt};

/// A password that never shows in `Debug` output or logs.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    pub fn new(s: impl Into<String>) -> Password {
        Password(s.into())
    }
    /// The clear text, for the one line that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"********\"")
    }
}

/// How to log in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Login {
    /// A registered account.
    Registered { handle: String, password: Password },
    /// `guest`: the server assigns a name (`GuestXXXX`) or lets us in unregistered.
    Guest,
    /// An unregistered name of our choosing (servers that allow it play it unrated).
    Unregistered { name: String },
}

impl Login {
    /// The name typed at the `login:` prompt.
    pub fn login_name(&self) -> &str {
        match self {
            Login::Registered { handle, .. } => handle,
            Login::Guest => "guest",
            Login::Unregistered { name } => name,
        }
    }
}

/// Why login failed. Every one of these is final for the given credentials: retrying at
/// once would fail the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginFailure {
    /// `**** Invalid password! ****`
    BadPassword { handle: String },
    /// The server refused the name, or asked for something we cannot give.
    Refused { text: String },
}

impl fmt::Display for LoginFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoginFailure::BadPassword { handle } => {
                write!(f, "the server rejected the password for {handle}")
            }
            LoginFailure::Refused { text } => write!(f, "the server refused the login: {text}"),
        }
    }
}

/// What the login flow wants done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Send this line; `secret` lines are masked in every log.
    Send {
        line: String,
        secret: bool,
    },
    /// Logged in as `handle`.
    Done {
        handle: String,
        guest: bool,
    },
    Failed(LoginFailure),
}

/// The login state machine.
#[derive(Debug)]
pub struct LoginFlow {
    login: Login,
    names_sent: u32,
    password_sent: bool,
    return_sent: bool,
    offered_name: Option<String>,
    guest_name: Option<String>,
    /// An "already logged in" line seen, waiting for what follows to decide.
    already: Option<String>,
    finished: bool,
    /// Lines typed at the first `login:` prompt before the name (ICC's
    /// `level2settings=...`).
    preamble: Vec<String>,
    /// `login:` prompts the server may print again after a preamble line.
    reprompts_allowed: u32,
}

impl LoginFlow {
    pub fn new(login: Login) -> LoginFlow {
        LoginFlow {
            login,
            names_sent: 0,
            password_sent: false,
            return_sent: false,
            offered_name: None,
            guest_name: None,
            already: None,
            finished: false,
            preamble: Vec::new(),
            reprompts_allowed: 0,
        }
    }

    /// A flow that types `lines` at the first `login:` prompt before the name (ICC reads
    /// `level2settings=...` there and waits for the name again, perhaps with a new prompt,
    /// which is then not taken for a refusal).
    pub fn with_preamble(login: Login, lines: Vec<String>) -> LoginFlow {
        let mut f = LoginFlow::new(login);
        f.preamble = lines;
        f
    }

    /// Feeds one event; returns every line to send and the outcome, in order (the
    /// preamble lines come before the name).
    pub fn on_event_all(&mut self, ev: &Event) -> Vec<Step> {
        let mut steps = Vec::new();
        if !self.finished
            && matches!(ev, Event::Prompt(Prompt::Login))
            && self.names_sent == 0
            && !self.preamble.is_empty()
        {
            let lines = std::mem::take(&mut self.preamble);
            self.reprompts_allowed = u32::try_from(lines.len()).unwrap_or(u32::MAX);
            steps.extend(lines.into_iter().map(|line| Step::Send {
                line,
                secret: false,
            }));
        }
        steps.extend(self.on_event(ev));
        steps
    }

    /// The connection closed before login finished: the refusal an "already logged in"
    /// line announced, if there was one.
    pub fn on_closed(&mut self) -> Option<LoginFailure> {
        if self.finished {
            return None;
        }
        let text = self.already.take()?;
        self.finished = true;
        Some(LoginFailure::Refused { text })
    }

    /// True when this login replaced an older session of the account.
    pub fn replaced_session(&self) -> bool {
        self.already.is_some()
    }

    /// True once the flow has reported `Done` or `Failed`.
    pub fn finished(&self) -> bool {
        self.finished
    }

    fn fail(&mut self, f: LoginFailure) -> Option<Step> {
        self.finished = true;
        Some(Step::Failed(f))
    }

    fn done(&mut self, handle: String, unregistered: bool) -> Option<Step> {
        self.finished = true;
        let guest =
            unregistered || !matches!(self.login, Login::Registered { .. }) || self.return_sent;
        Some(Step::Done { handle, guest })
    }

    /// The name we are logged in under, as far as we know.
    fn current_name(&self) -> String {
        self.offered_name
            .clone()
            .or_else(|| self.guest_name.clone())
            .unwrap_or_else(|| self.login.login_name().to_string())
    }

    /// Feeds one event; returns what to do, if anything.
    pub fn on_event(&mut self, ev: &Event) -> Option<Step> {
        if self.finished {
            return None;
        }
        match ev {
            Event::Prompt(Prompt::Login) => {
                if let Some(text) = self.already.take() {
                    return self.fail(LoginFailure::Refused { text });
                }
                if self.names_sent > 0 && self.reprompts_allowed > 0 && !self.password_sent {
                    // The server printed the prompt again after a preamble line; the name
                    // already sent answers it.
                    self.reprompts_allowed -= 1;
                    return None;
                }
                if self.names_sent > 0 {
                    let text = if self.password_sent {
                        return self.fail(LoginFailure::BadPassword {
                            handle: self.login.login_name().to_string(),
                        });
                    } else {
                        "the server asked for the login name again".to_string()
                    };
                    return self.fail(LoginFailure::Refused { text });
                }
                self.names_sent += 1;
                Some(Step::Send {
                    line: self.login.login_name().to_string(),
                    secret: false,
                })
            }
            Event::Prompt(Prompt::Password) => match &self.login {
                Login::Registered { password, .. }
                    if self.names_sent > 0 && !self.password_sent =>
                {
                    self.password_sent = true;
                    Some(Step::Send {
                        line: password.expose().to_string(),
                        secret: true,
                    })
                }
                Login::Registered { handle, .. } if self.password_sent => {
                    let handle = handle.clone();
                    self.fail(LoginFailure::BadPassword { handle })
                }
                _ => self.fail(LoginFailure::Refused {
                    text: format!(
                        "{} is a registered name and no password was given",
                        self.login.login_name()
                    ),
                }),
            },
            Event::Prompt(Prompt::PressReturn { name }) => {
                if self.return_sent {
                    return None;
                }
                if let Login::Registered { handle, .. } = &self.login {
                    tracing::warn!(%handle, "ics: the server does not know this handle; entering unregistered");
                }
                self.return_sent = true;
                self.offered_name = Some(name.clone());
                Some(Step::Send {
                    line: String::new(),
                    secret: false,
                })
            }
            Event::GuestName { name } => {
                self.guest_name = Some(name.clone());
                None
            }
            Event::InvalidPassword => {
                let handle = self.login.login_name().to_string();
                self.fail(LoginFailure::BadPassword { handle })
            }
            Event::SessionReplaced { text } => {
                tracing::info!(%text, "ics: this login replaces an older session of the account");
                self.already = Some(text.clone());
                None
            }
            Event::LoginRefused { text } if text.contains("already logged in") => {
                self.already = Some(text.clone());
                None
            }
            Event::LoginRefused { text } => {
                let text = text.clone();
                self.fail(LoginFailure::Refused { text })
            }
            Event::SessionStarted { name, unregistered } => {
                let name = name.clone();
                self.done(name, *unregistered)
            }
            Event::Prompt(Prompt::Command) if self.password_sent || self.return_sent => {
                let name = self.current_name();
                self.done(name, false)
            }
            Event::Goodbye => {
                let text = self
                    .already
                    .take()
                    .unwrap_or_else(|| "the server closed the session".into());
                self.fail(LoginFailure::Refused { text })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registered() -> Login {
        Login::Registered {
            handle: "AlphaBot".into(),
            password: Password::new("s3cret"),
        }
    }

    fn run(flow: &mut LoginFlow, events: &[Event]) -> Vec<Step> {
        events.iter().filter_map(|e| flow.on_event(e)).collect()
    }

    #[test]
    fn a_preamble_goes_before_the_name_and_a_second_prompt_is_no_refusal() {
        let mut f = LoginFlow::with_preamble(registered(), vec!["level2settings=1".into()]);
        let steps = f.on_event_all(&Event::Prompt(Prompt::Login));
        let lines: Vec<&str> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Send { line, .. } => Some(line.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(lines, ["level2settings=1", "AlphaBot"]);
        assert!(f.on_event_all(&Event::Prompt(Prompt::Login)).is_empty());
        let steps = f.on_event_all(&Event::Prompt(Prompt::Password));
        assert!(matches!(&steps[..], [Step::Send { secret: true, .. }]));
        let steps = f.on_event_all(&Event::SessionStarted {
            name: "AlphaBot".into(),
            unregistered: false,
        });
        assert!(matches!(&steps[..], [Step::Done { .. }]));
        // Without a preamble a second prompt is still a refusal.
        let mut f = LoginFlow::new(registered());
        f.on_event_all(&Event::Prompt(Prompt::Login));
        let steps = f.on_event_all(&Event::Prompt(Prompt::Login));
        assert!(matches!(&steps[..], [Step::Failed(_)]));
    }

    #[test]
    fn password_is_masked_in_debug() {
        let s = format!("{:?}", registered());
        assert!(!s.contains("s3cret") && s.contains("********"));
    }

    #[test]
    fn registered_login() {
        let mut f = LoginFlow::new(registered());
        let steps = run(
            &mut f,
            &[
                Event::Prompt(Prompt::Login),
                Event::NameRegistered {
                    name: "AlphaBot".into(),
                },
                Event::Prompt(Prompt::Password),
                Event::Prompt(Prompt::Command),
            ],
        );
        assert_eq!(
            steps,
            vec![
                Step::Send {
                    line: "AlphaBot".into(),
                    secret: false
                },
                Step::Send {
                    line: "s3cret".into(),
                    secret: true
                },
                Step::Done {
                    handle: "AlphaBot".into(),
                    guest: false
                },
            ]
        );
        assert!(f.finished());
    }

    #[test]
    fn password_only_after_our_name() {
        let mut f = LoginFlow::new(registered());
        assert_eq!(
            f.on_event(&Event::Prompt(Prompt::Password)),
            Some(Step::Failed(LoginFailure::Refused {
                text: "AlphaBot is a registered name and no password was given".into()
            }))
        );
    }

    #[test]
    fn bad_password_both_shapes() {
        let mut f = LoginFlow::new(registered());
        let steps = run(
            &mut f,
            &[
                Event::Prompt(Prompt::Login),
                Event::Prompt(Prompt::Password),
                Event::InvalidPassword,
            ],
        );
        assert_eq!(
            steps.last(),
            Some(&Step::Failed(LoginFailure::BadPassword {
                handle: "AlphaBot".into()
            }))
        );
        let mut f = LoginFlow::new(registered());
        let steps = run(
            &mut f,
            &[
                Event::Prompt(Prompt::Login),
                Event::Prompt(Prompt::Password),
                Event::Prompt(Prompt::Login),
            ],
        );
        assert_eq!(
            steps.last(),
            Some(&Step::Failed(LoginFailure::BadPassword {
                handle: "AlphaBot".into()
            }))
        );
    }

    #[test]
    fn guest_with_assigned_name() {
        let mut f = LoginFlow::new(Login::Guest);
        let steps = run(
            &mut f,
            &[
                Event::Prompt(Prompt::Login),
                Event::GuestName {
                    name: "GuestWLRM".into(),
                },
                Event::Prompt(Prompt::PressReturn {
                    name: "GuestWLRM".into(),
                }),
                Event::SessionStarted {
                    name: "GuestWLRM".into(),
                    unregistered: true,
                },
            ],
        );
        assert_eq!(
            steps,
            vec![
                Step::Send {
                    line: "guest".into(),
                    secret: false
                },
                Step::Send {
                    line: String::new(),
                    secret: false
                },
                Step::Done {
                    handle: "GuestWLRM".into(),
                    guest: true
                },
            ]
        );
    }

    #[test]
    fn unregistered_without_session_line() {
        let mut f = LoginFlow::new(Login::Unregistered {
            name: "Visitor".into(),
        });
        let steps = run(
            &mut f,
            &[
                Event::Prompt(Prompt::Login),
                Event::Prompt(Prompt::PressReturn {
                    name: "Visitor".into(),
                }),
                Event::Prompt(Prompt::Command),
            ],
        );
        assert_eq!(
            steps.last(),
            Some(&Step::Done {
                handle: "Visitor".into(),
                guest: true
            })
        );
    }

    #[test]
    fn refused_name() {
        let mut f = LoginFlow::new(Login::Unregistered { name: "x".into() });
        let steps = run(
            &mut f,
            &[
                Event::Prompt(Prompt::Login),
                Event::LoginRefused {
                    text: "A name should be at least three characters long!".into(),
                },
            ],
        );
        assert!(matches!(
            steps.last(),
            Some(Step::Failed(LoginFailure::Refused { .. }))
        ));
        assert_eq!(f.on_event(&Event::Prompt(Prompt::Login)), None);
    }

    #[test]
    fn a_login_that_replaces_an_older_session_goes_on() {
        let kick = "**** AlphaBot is already logged in - kicking them out. ****";
        let mut f = LoginFlow::new(registered());
        let steps = run(
            &mut f,
            &[
                Event::Prompt(Prompt::Login),
                Event::Prompt(Prompt::Password),
                Event::SessionReplaced { text: kick.into() },
                Event::SessionStarted {
                    name: "AlphaBot".into(),
                    unregistered: false,
                },
            ],
        );
        assert_eq!(
            steps.last(),
            Some(&Step::Done {
                handle: "AlphaBot".into(),
                guest: false
            })
        );
        assert!(f.replaced_session());
        assert_eq!(f.on_closed(), None);
    }

    #[test]
    fn already_logged_in_then_refused_by_what_follows() {
        let sorry = "Sorry, \"Visitor\" is already logged in.  Try again.";
        // A new login prompt after the line: refused, with the line as the reason.
        let mut f = LoginFlow::new(Login::Unregistered {
            name: "Visitor".into(),
        });
        let steps = run(
            &mut f,
            &[
                Event::Prompt(Prompt::Login),
                Event::LoginRefused { text: sorry.into() },
                Event::Prompt(Prompt::Login),
            ],
        );
        assert_eq!(
            steps.last(),
            Some(&Step::Failed(LoginFailure::Refused { text: sorry.into() }))
        );
        // The server closing the connection after the line (lasker, unregistered names).
        let lasker = "*** Sorry Visitor is already logged in ***";
        let mut f = LoginFlow::new(Login::Unregistered {
            name: "Visitor".into(),
        });
        run(
            &mut f,
            &[
                Event::Prompt(Prompt::Login),
                Event::LoginRefused {
                    text: lasker.into(),
                },
            ],
        );
        assert!(!f.finished());
        assert_eq!(
            f.on_closed(),
            Some(LoginFailure::Refused {
                text: lasker.into()
            })
        );
        assert!(f.finished());
        // Without such a line a closed connection is not a refusal.
        let mut f = LoginFlow::new(registered());
        run(&mut f, &[Event::Prompt(Prompt::Login)]);
        assert_eq!(f.on_closed(), None);
    }
}
