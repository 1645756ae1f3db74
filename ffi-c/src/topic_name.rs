//! Topic names as the broker's `TopicName.get` parses them: the parts, the
//! derived names, the partition names and the CRC-32 bundle hash, without
//! allocating.
//!
//! `pulsar_routing_topic_name_parse` fills a caller-allocated
//! `pulsar_routing_topic_name` whose parts point into the caller's input.
//! Every other function takes that struct and parses its `input` again
//! (cheap, linear in the name), so the struct holds no private state: its
//! fields are there to be read.

use core::ffi::c_char;
use core::fmt;

use pulsar_routing_core::topic_name::{
    TopicDomain, TopicName, TopicNameRules, get_partition_index,
};

use crate::error::{enum_from_c, enum_name, enum_to_c, pulsar_routing_status};
use crate::ffi::{Out, OutBuf, write_display};
use crate::text::pulsar_routing_str;

/// Which Pulsar release's `TopicName` rules to follow: one of the
/// `PULSAR_ROUTING_TOPIC_NAME_RULES_*` values.
pub type pulsar_routing_topic_name_rules = u32;

/// The 4.x rules of a mirror commit before PIP-457, never checked against a
/// release: V1 names with a cluster are accepted, empty parts of short names
/// are dropped, and the canonical name is rebuilt with a lower-case domain.
/// For brokers old enough to accept V1 names.
pub const PULSAR_ROUTING_TOPIC_NAME_RULES_V4: pulsar_routing_topic_name_rules = 0;

/// The 5.0 development rules (PIP-457, PIP-460): V1 names and empty path
/// parts are rejected, a full name is its own canonical form (domain case
/// included), and the `topic://` and `segment://` domains exist.
pub const PULSAR_ROUTING_TOPIC_NAME_RULES_MASTER: pulsar_routing_topic_name_rules = 1;

/// The released 4.2 rules, checked against Pulsar 4.2.4 (the other
/// bindings' default; its own value so that code built against the older
/// values keeps its meaning): as `_MASTER` for V1 names, empty parts, domain
/// case and messages, with only the `persistent` and `non-persistent`
/// domains.
pub const PULSAR_ROUTING_TOPIC_NAME_RULES_PULSAR_4_2: pulsar_routing_topic_name_rules = 2;

/// The part of a topic name before `://`: one of the
/// `PULSAR_ROUTING_TOPIC_DOMAIN_*` values.
pub type pulsar_routing_topic_domain = u32;

/// `persistent`: stored. Short names get this domain.
pub const PULSAR_ROUTING_TOPIC_DOMAIN_PERSISTENT: pulsar_routing_topic_domain = 0;

/// `non-persistent`: never stored.
pub const PULSAR_ROUTING_TOPIC_DOMAIN_NON_PERSISTENT: pulsar_routing_topic_domain = 1;

/// `topic`: a scalable topic (master rules only).
pub const PULSAR_ROUTING_TOPIC_DOMAIN_TOPIC: pulsar_routing_topic_domain = 2;

/// `segment`: one hash-range segment of a scalable topic (master rules
/// only).
pub const PULSAR_ROUTING_TOPIC_DOMAIN_SEGMENT: pulsar_routing_topic_domain = 3;

/// The rules in the order of their `PULSAR_ROUTING_TOPIC_NAME_RULES_*`
/// values.
const RULES: [TopicNameRules; 3] = [
    TopicNameRules::V4,
    TopicNameRules::Master,
    TopicNameRules::Pulsar4_2,
];

/// The domains in the order of their `PULSAR_ROUTING_TOPIC_DOMAIN_*` values.
const DOMAINS: [TopicDomain; 4] = [
    TopicDomain::Persistent,
    TopicDomain::NonPersistent,
    TopicDomain::Topic,
    TopicDomain::Segment,
];

/// The core rules for a C value.
pub(crate) fn rules_from_c(
    rules: pulsar_routing_topic_name_rules,
) -> Result<TopicNameRules, pulsar_routing_status> {
    enum_from_c(&RULES, rules, pulsar_routing_status::UnknownTopicNameRules)
}

/// Parses `text` under C `rules`: checks the rules, then the name.
pub(crate) fn parse_topic(
    text: &str,
    rules: pulsar_routing_topic_name_rules,
) -> Result<TopicName<'_>, pulsar_routing_status> {
    let rules = rules_from_c(rules)?;
    TopicName::parse_with(text, rules).map_err(pulsar_routing_status::from)
}

/// A parsed topic name, allocated by the caller and filled by
/// `pulsar_routing_topic_name_parse`.
///
/// The text parts point into the caller's `input` (or, for the tenant and
/// namespace of a one-part short name, to the library's static strings
/// `public` and `default`), so **the input must stay valid and unchanged
/// for as long as the struct is used**. Nothing is allocated and there is
/// nothing to free. Copying the struct is fine.
///
/// The other `pulsar_routing_topic_name_*` functions read only `input`,
/// `input_len` and `rules`, and parse the name again; the other fields are
/// for the caller to read. Thread-safe to share once filled.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pulsar_routing_topic_name {
    /// The name as given to `pulsar_routing_topic_name_parse`, UTF-8, not
    /// NUL-terminated.
    pub input: *const u8,
    /// The number of bytes at `input`.
    pub input_len: usize,
    /// The rules it was parsed with, a `PULSAR_ROUTING_TOPIC_NAME_RULES_*`
    /// value.
    pub rules: pulsar_routing_topic_name_rules,
    /// The domain, a `PULSAR_ROUTING_TOPIC_DOMAIN_*` value; a short name is
    /// `persistent`.
    pub domain: pulsar_routing_topic_domain,
    /// The partition number from the local name's `-partition-<n>` suffix,
    /// or -1 (Java's `getPartitionIndex()`).
    pub partition_index: i32,
    /// The tenant (Java's `getTenant()`).
    pub tenant: pulsar_routing_str,
    /// The cluster of a V1 name (`persistent://tenant/cluster/ns/topic`, v4
    /// rules only), or `{NULL, 0}`.
    pub cluster: pulsar_routing_str,
    /// The namespace without tenant and cluster (Java's
    /// `getNamespacePortion()`).
    pub namespace_portion: pulsar_routing_str,
    /// The topic's own name after the namespace, as written (Java's
    /// `getLocalName()`); for a `segment://` name, the parent topic's.
    pub local_name: pulsar_routing_str,
    /// The `<hashStart>-<hashEnd>-<segmentId>` descriptor of a `segment://`
    /// name, or `{NULL, 0}`.
    pub segment_descriptor: pulsar_routing_str,
    /// The length in bytes of the canonical name
    /// (`pulsar_routing_topic_name_to_string`).
    pub canonical_len: usize,
}

impl pulsar_routing_topic_name {
    fn from_core(topic: &TopicName<'_>, input: &str) -> Self {
        Self {
            input: input.as_ptr(),
            input_len: input.len(),
            rules: enum_to_c(&RULES, topic.rules()),
            domain: enum_to_c(&DOMAINS, topic.domain()),
            partition_index: topic.partition_index(),
            tenant: pulsar_routing_str::of(topic.tenant()),
            cluster: pulsar_routing_str::of_option(topic.cluster()),
            namespace_portion: pulsar_routing_str::of(topic.namespace_portion()),
            local_name: pulsar_routing_str::of(topic.local_name()),
            segment_descriptor: pulsar_routing_str::of_option(topic.segment_descriptor()),
            canonical_len: topic.canonical_len(),
        }
    }
}

/// Parses the name a `pulsar_routing_topic_name` describes, again, or
/// returns the failure's status from the enclosing exported body.
macro_rules! try_topic {
    ($topic:expr) => {{
        // SAFETY: the exported function's contract makes a non-NULL
        // `topic` point to a readable struct.
        let topic: &$crate::topic_name::pulsar_routing_topic_name = match unsafe { $topic.as_ref() }
        {
            Some(topic) => topic,
            None => return $crate::error::pulsar_routing_status::NullParameter,
        };
        let text = try_utf8!(try_slice!(topic.input, topic.input_len));
        try_ok!($crate::topic_name::parse_topic(text, topic.rules))
    }};
}

/// Parses a topic name as Java's `TopicName.get` does.
///
/// - `name`, `len`: the name's UTF-8 bytes, without a NUL terminator; `name`
///   must not be NULL, even when `len` is 0. The filled struct points into
///   them: keep them valid and unchanged while it is used.
/// - `rules`: `PULSAR_ROUTING_TOPIC_NAME_RULES_PULSAR_4_2` (the 4.2 release,
///   what the other bindings default to), `PULSAR_ROUTING_TOPIC_NAME_RULES_V4`
///   (an older 4.x line) or `PULSAR_ROUTING_TOPIC_NAME_RULES_MASTER` (5.0
///   development).
/// - `topic_out`: receives the parsed name on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`,
/// `UNKNOWN_TOPIC_NAME_RULES`, or one of the `TOPIC_NAME_*` codes (400-499)
/// for a name Java rejects; `pulsar_routing_topic_name_error_message` then
/// writes Java's message, which quotes the name. Thread-safe; allocates
/// nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes and `topic_out` must be valid
/// for writing a `pulsar_routing_topic_name`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_parse(
    name: *const u8,
    len: usize,
    rules: pulsar_routing_topic_name_rules,
    topic_out: *mut pulsar_routing_topic_name,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let name = try_slice!(name, len);
        let out = try_out!(topic_out);
        let input = try_utf8!(name);
        let topic = try_ok!(parse_topic(input, rules));
        out.ok(pulsar_routing_topic_name::from_core(&topic, input))
    }
}

/// Writes Java's exception message for a topic name that
/// `pulsar_routing_topic_name_parse` rejects with a `TOPIC_NAME_*` code,
/// e.g. `Invalid topic domain: 'kafka'`: the exact text of the
/// `IllegalArgumentException` Java throws, input quoted.
///
/// - `name`, `len`, `rules`: as for `pulsar_routing_topic_name_parse`.
/// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even when
///   `buf_len` is 0. UTF-8, no NUL terminator.
/// - `written`: on success, the number of bytes written; 0 when the name is
///   valid (there is no error, and nothing is written to `buf`).
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`,
/// `UNKNOWN_TOPIC_NAME_RULES`, or `BUFFER_TOO_SMALL`, in which case nothing
/// is written to `buf` and `*written` receives the required length.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes, `buf` must be valid for
/// writing `buf_len` bytes and not overlap `name`, and `written` must be
/// valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_error_message(
    name: *const u8,
    len: usize,
    rules: pulsar_routing_topic_name_rules,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let text = try_slice!(name, len);
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        let text = try_utf8!(text);
        let rules = try_ok!(rules_from_c(rules));
        match TopicName::parse_with(text, rules) {
            Ok(_) => written.ok(0),
            Err(e) => write_display(e, buf, written),
        }
    }
}

/// Writes the text `view` derives from the topic into the caller's buffer:
/// the common body of the `pulsar_routing_topic_name_*` name functions.
///
/// # Safety
/// As for those functions: `topic` is NULL or a readable struct whose
/// `input` points to `input_len` readable bytes; `buf` is NULL or valid for
/// `buf_len` bytes; `written` is NULL or valid for a `size_t`.
unsafe fn write_topic_text<'t, D: fmt::Display>(
    topic: *const pulsar_routing_topic_name,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
    view: impl FnOnce(TopicName<'t>) -> Result<D, pulsar_routing_status>,
) -> pulsar_routing_status {
    let buf: OutBuf<'_> = try_out_buf!(buf, buf_len);
    let written: Out<'_, usize> = try_out!(written);
    let topic = try_topic!(topic);
    let text = try_ok!(view(topic));
    write_display(text, buf, written)
}

/// Writes the canonical name, Java's `TopicName.toString()`, e.g.
/// `persistent://public/default/my-topic` for `my-topic`: the name the
/// broker hashes to find the topic's bundle. Its length is
/// `topic->canonical_len`.
///
/// - `topic`: a name filled by `pulsar_routing_topic_name_parse`, whose
///   input is still valid and unchanged.
/// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even when
///   `buf_len` is 0. UTF-8, no NUL terminator.
/// - `written`: on success, the number of bytes written.
///
/// Returns `OK`, `NULL_PARAMETER` (also for a NULL `topic->input`),
/// `BUFFER_TOO_SMALL` (nothing is written to `buf`, and `*written`
/// receives the required length), or the status of parsing `topic->input`
/// again (`INVALID_UTF8`, `UNKNOWN_TOPIC_NAME_RULES`, `TOPIC_NAME_*`) if
/// the struct no longer describes a valid name. Thread-safe; allocates
/// nothing.
///
/// # Safety
/// `topic` must point to a readable `pulsar_routing_topic_name` whose
/// `input` points to `input_len` readable bytes, `buf` must be valid for
/// writing `buf_len` bytes and not overlap the input, and `written` must be
/// valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_to_string(
    topic: *const pulsar_routing_topic_name,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe { write_topic_text(topic, buf, buf_len, written, Ok) }
    }
}

/// Writes the namespace, `tenant/namespace` or `tenant/cluster/namespace`
/// (Java's `getNamespace()`), e.g. `public/default`: the namespace part
/// of a bundle key (`pulsar_routing_bundle_range_key`).
///
/// Arguments and statuses as for `pulsar_routing_topic_name_to_string`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// As for `pulsar_routing_topic_name_to_string`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_namespace(
    topic: *const pulsar_routing_topic_name,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe { write_topic_text(topic, buf, buf_len, written, |t| Ok(t.namespace())) }
    }
}

/// Writes the name of the partitioned topic this partition belongs to
/// (Java's `getPartitionedTopicName()`): the canonical name cut at its
/// last `-partition-`, or the whole canonical name when the topic is no
/// partition.
///
/// Arguments and statuses as for `pulsar_routing_topic_name_to_string`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// As for `pulsar_routing_topic_name_to_string`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_partitioned_topic_name(
    topic: *const pulsar_routing_topic_name,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe {
            write_topic_text(topic, buf, buf_len, written, |t| Ok(t.partitioned_topic_name()))
        }
    }
}

/// Writes the name of partition `index` of the topic (Java's
/// `getPartition(index)`): `-partition-<index>` appended to the
/// canonical name, except that -1, or a name already ending with that
/// suffix, gives the canonical name itself. For a `segment://` name
/// (master rules) Java fails, and so does this function.
///
/// Arguments as for `pulsar_routing_topic_name_to_string`, with `index`
/// the partition; statuses as there, plus
/// `TOPIC_NAME_INVALID_SEGMENT_DESCRIPTOR` for a `segment://` name.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// As for `pulsar_routing_topic_name_to_string`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_partition(
    topic: *const pulsar_routing_topic_name,
    index: i32,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe {
            write_topic_text(topic, buf, buf_len, written, |topic| {
                topic.partition(index).map_err(pulsar_routing_status::from)
            })
        }
    }
}

/// Writes the lookup name, `domain/tenant[/cluster]/namespace/<encoded
/// local name>` (Java's `getLookupName()`).
///
/// Arguments and statuses as for `pulsar_routing_topic_name_to_string`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// As for `pulsar_routing_topic_name_to_string`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_lookup_name(
    topic: *const pulsar_routing_topic_name,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe { write_topic_text(topic, buf, buf_len, written, |t| Ok(t.lookup_name())) }
    }
}

/// Writes the managed-ledger name,
/// `tenant[/cluster]/namespace/domain/<encoded local name>` (Java's
/// `getPersistenceNamingEncoding()`).
///
/// Arguments and statuses as for `pulsar_routing_topic_name_to_string`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// As for `pulsar_routing_topic_name_to_string`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_persistence_naming(
    topic: *const pulsar_routing_topic_name,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe { write_topic_text(topic, buf, buf_len, written, |t| Ok(t.persistence_naming())) }
    }
}

/// Writes the admin REST path, `domain/tenant[/cluster]/namespace/<encoded
/// local name>` (Java's `getRestPath()`), or without the leading
/// `domain/` when `include_domain` is false (`getRestPath(false)`).
///
/// Arguments as for `pulsar_routing_topic_name_to_string`, with
/// `include_domain` choosing whether the path starts with `domain/`;
/// statuses as there. Thread-safe; allocates nothing.
///
/// # Safety
/// As for `pulsar_routing_topic_name_to_string`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_rest_path(
    topic: *const pulsar_routing_topic_name,
    include_domain: bool,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe {
            write_topic_text(topic, buf, buf_len, written, |topic| {
                Ok(if include_domain {
                    topic.rest_path()
                } else {
                    topic.rest_path_without_domain()
                })
            })
        }
    }
}

/// Writes the local name URL-encoded as Java's `URLEncoder.encode(s,
/// UTF_8)` does (Java's `getEncodedLocalName()`): a space becomes `+`,
/// `/` becomes `%2F`.
///
/// Arguments and statuses as for `pulsar_routing_topic_name_to_string`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// As for `pulsar_routing_topic_name_to_string`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_encoded_local_name(
    topic: *const pulsar_routing_topic_name,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe { write_topic_text(topic, buf, buf_len, written, |t| Ok(t.encoded_local_name())) }
    }
}

/// The CRC-32/IEEE of the canonical name: the hash the broker uses to find
/// the topic's namespace bundle, computed without building the name.
///
/// - `topic`: a name filled by `pulsar_routing_topic_name_parse`, whose
///   input is still valid and unchanged.
/// - `crc_out`: receives the hash on success.
///
/// Returns `OK`, `NULL_PARAMETER`, or the status of parsing `topic->input`
/// again. Thread-safe; allocates nothing.
///
/// # Safety
/// `topic` must point to a readable `pulsar_routing_topic_name` whose
/// `input` points to `input_len` readable bytes, and `crc_out` must be
/// valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_crc32(
    topic: *const pulsar_routing_topic_name,
    crc_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(crc_out);
        out.ok(try_topic!(topic).crc32())
    }
}

/// The CRC-32/IEEE of the name of partition `index` (see
/// `pulsar_routing_topic_name_partition`): the bundle hash of that
/// partition, which the broker places on its own.
///
/// - `topic`: a name filled by `pulsar_routing_topic_name_parse`, whose
///   input is still valid and unchanged.
/// - `index`: the partition.
/// - `crc_out`: receives the hash on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `TOPIC_NAME_INVALID_SEGMENT_DESCRIPTOR`
/// for a `segment://` name, or the status of parsing `topic->input` again.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// As for `pulsar_routing_topic_name_crc32`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_name_partition_crc32(
    topic: *const pulsar_routing_topic_name,
    index: i32,
    crc_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(crc_out);
        let partition = try_ok!(try_topic!(topic).partition(index));
        out.ok(partition.crc32())
    }
}

/// Java's static `TopicName.getPartitionIndex(name)`: the number after the
/// last `-partition-` of any text, or -1 when there is none, it is not a
/// canonical non-negative `int` (`01`, `+1`, `-0`, overflow), or it is
/// missing. Non-ASCII Unicode digits count, as in Java.
///
/// - `name`, `len`: UTF-8 text; `name` must not be NULL, even when `len`
///   is 0.
/// - `index_out`: receives the index, or -1, on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `INVALID_UTF8`. Thread-safe; allocates
/// nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes and `index_out` must be valid
/// for writing an `int32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_get_partition_index(
    name: *const u8,
    len: usize,
    index_out: *mut i32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let name = try_slice!(name, len);
        let out = try_out!(index_out);
        out.ok(get_partition_index(try_utf8!(name)))
    }
}

/// The name of a topic domain as Java prints it, always lower case:
/// `"persistent"`, `"non-persistent"`, `"topic"` or `"segment"`.
///
/// Returns a static NUL-terminated string, or NULL for a value that is not
/// a `PULSAR_ROUTING_TOPIC_DOMAIN_*`. Never free or modify it. Thread-safe;
/// allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_topic_domain_name(
    domain: pulsar_routing_topic_domain,
) -> *const c_char {
    ffi_panic_boundary! {
        enum_name(&DOMAINS, domain, |d| d.c_name())
    }
}
