//! Broker addresses copied out of responses, so a driver can keep them
//! without a heap.

use core::fmt;

/// The longest broker address a driver holds, in bytes: a 253-byte DNS
/// name with `pulsar+ssl://` and `:65535` fits with room to spare.
pub const MAX_ADDRESS_LEN: usize = 320;

/// A broker address (`pulsar://host:6650`) held inline.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Address {
    bytes: [u8; MAX_ADDRESS_LEN],
    len: usize,
}

impl Address {
    /// The empty address.
    pub const EMPTY: Self = Self {
        bytes: [0; MAX_ADDRESS_LEN],
        len: 0,
    };

    /// Copies `s`, or fails with its length if it is longer than
    /// [`MAX_ADDRESS_LEN`].
    pub fn new(s: &str) -> Result<Self, usize> {
        let mut a = Self::EMPTY;
        let dst = a.bytes.get_mut(..s.len()).ok_or(s.len())?;
        dst.copy_from_slice(s.as_bytes());
        a.len = s.len();
        Ok(a)
    }

    /// The address.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Only ever filled from a whole `&str`, so this is valid UTF-8.
        self.bytes
            .get(..self.len)
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

impl Default for Address {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One request of a lookup's redirect chain: where it went and the
/// authoritative flag it carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hop {
    /// The broker (logical) address asked.
    pub address: Address,
    /// The request's authoritative flag.
    pub authoritative: bool,
}

impl Hop {
    /// An unused slot, to fill chain storage with: `[Hop::EMPTY; 21]`.
    pub const EMPTY: Self = Self {
        address: Address::EMPTY,
        authoritative: false,
    };
}

/// The server's error message, truncated to 256 bytes at a character
/// boundary (the driver has no heap to keep more).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct MessageBuf {
    bytes: [u8; 256],
    len: usize,
}

impl MessageBuf {
    pub(crate) const EMPTY: Self = Self {
        bytes: [0; 256],
        len: 0,
    };

    pub(crate) fn set(&mut self, s: &str) {
        let mut end = s.len().min(self.bytes.len());
        while end > 0 && !s.is_char_boundary(end) {
            end -= 1;
        }
        if let (Some(dst), Some(src)) = (self.bytes.get_mut(..end), s.as_bytes().get(..end)) {
            dst.copy_from_slice(src);
            self.len = end;
        } else {
            self.len = 0;
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        self.bytes
            .get(..self.len)
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

impl fmt::Debug for MessageBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}
