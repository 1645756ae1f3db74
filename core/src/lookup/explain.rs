//! Why a driver took an action, in words: the text every binding shows
//! (Python's `reason`, the C action's `reason`, C++'s `reason()`, Go's), so
//! that it is written once.

use core::fmt;

use super::driver::LookupAction;
use super::error::{AttemptError, LookupError};
use super::partitioned::MetadataAction;

/// An error with the broker's message: `Display` writes the error and,
/// after a server error, `": "` and the message (when there is one).
///
/// The drivers keep the message of the last `Failed` response
/// (`server_message()`); this is how every binding reports a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WithServerMessage<'m> {
    /// The failure (an attempt's error is `LookupError::Attempt`).
    pub error: LookupError,
    /// The broker's message of the last `Failed` response, or `""`.
    pub server_message: &'m str,
}

impl LookupError {
    /// This error with the broker's message, for display.
    #[must_use]
    pub const fn with_server_message(self, server_message: &str) -> WithServerMessage<'_> {
        WithServerMessage {
            error: self,
            server_message,
        }
    }
}

impl fmt::Display for WithServerMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)?;
        let server = matches!(self.error.attempt_error(), Some(AttemptError::Server(_)));
        if server && !self.server_message.is_empty() {
            write!(f, ": {}", self.server_message)?;
        }
        Ok(())
    }
}

/// An action with what its explanation needs; `Display` writes why the
/// driver took it, e.g. `"redirect 1 to pulsar://broker-2:6650, with the
/// response's authoritative=True"`.
///
/// Made by [`LookupAction::explain`] and [`MetadataAction::explain`]. The
/// action borrows its driver, so a caller that needs the driver's
/// `server_message()` too copies the action's strings first (the
/// `pulsar-routing-owned` crate does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explained<'m, A> {
    /// The action.
    pub action: A,
    /// The broker's message of the last `Failed` response (the driver's
    /// `server_message()`), shown after a server error; `""` for none.
    pub server_message: &'m str,
}

impl<'d> LookupAction<'d> {
    /// The action with the broker's message, to display why it was taken.
    #[must_use]
    pub const fn explain(self, server_message: &str) -> Explained<'_, Self> {
        Explained {
            action: self,
            server_message,
        }
    }
}

impl<'d> MetadataAction<'d> {
    /// The action with the broker's message, to display why it was taken.
    #[must_use]
    pub const fn explain(self, server_message: &str) -> Explained<'_, Self> {
        Explained {
            action: self,
            server_message,
        }
    }
}

/// Python's spelling of a flag, kept from the texts' first binding.
const fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn retry_reason(
    f: &mut fmt::Formatter<'_>,
    cause: AttemptError,
    attempt: u32,
    delay_ms: u64,
    server_message: &str,
) -> fmt::Result {
    let text = LookupError::Attempt(cause).with_server_message(server_message);
    write!(
        f,
        "attempt {attempt} failed ({text}); retriable, backing off {delay_ms} ms"
    )
}

impl fmt::Display for Explained<'_, LookupAction<'_>> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.action {
            LookupAction::SendLookup(s) if s.redirects > 0 => write!(
                f,
                "redirect {} to {}, with the response's authoritative={}",
                s.redirects,
                s.logical_address,
                py_bool(s.authoritative)
            ),
            LookupAction::SendLookup(s) if s.attempt <= 1 => {
                f.write_str("first lookup, at the service address, non-authoritative")
            }
            LookupAction::SendLookup(s) => write!(
                f,
                "attempt {} starts over at the service address",
                s.attempt
            ),
            LookupAction::RetryAt {
                delay_ms,
                cause,
                attempt,
                ..
            } => retry_reason(f, cause, attempt, delay_ms, self.server_message),
            LookupAction::Done(d) if d.use_proxy => write!(
                f,
                "{} owns the topic; connect through {}",
                d.logical_address, d.physical_address
            ),
            LookupAction::Done(d) => write!(f, "{} owns the topic", d.logical_address),
            LookupAction::Failed(e) => {
                write!(f, "{}", e.with_server_message(self.server_message))?;
                match e {
                    LookupError::Attempt(a) if !a.is_retriable() => f.write_str(": not retriable"),
                    LookupError::Attempt(_) => f.write_str(": retries are off"),
                    LookupError::DeadlineExceeded { .. } => Ok(()),
                }
            }
            LookupAction::Ignored(why) => write!(f, "event ignored: {why}"),
        }
    }
}

impl fmt::Display for Explained<'_, MetadataAction<'_>> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.action {
            MetadataAction::Connect { attempt, .. } => {
                write!(f, "attempt {attempt}: connect to a service host")
            }
            MetadataAction::SendPartitionedMetadata { .. } => {
                f.write_str("ask the partition count")
            }
            MetadataAction::RetryAt {
                delay_ms,
                cause,
                attempt,
                ..
            } => retry_reason(f, cause, attempt, delay_ms, self.server_message),
            MetadataAction::Done(plan) if plan.is_partitioned() => write!(
                f,
                "{} partitions: one lookup per partition",
                plan.partitions
            ),
            MetadataAction::Done(_) => f.write_str("not partitioned: one lookup of the topic"),
            // The metadata step stops on errors the topic lookup retries
            // (authentication), so "not retriable" would mislead: the error
            // alone says it.
            MetadataAction::Failed(e) => {
                write!(f, "{}", e.with_server_message(self.server_message))
            }
            MetadataAction::Ignored(why) => write!(f, "event ignored: {why}"),
        }
    }
}
