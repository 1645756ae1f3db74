//! Every client's keyed routing ([`profile_partition`], [`profile_partitions`]),
//! its key hashes, the clients' readings of partition indexes, and every
//! client's whole router with its keyless state machine ([`router`]).

mod router;

pub(crate) use router::*;

use numpy::PyArray1;
use pulsar_routing::profiles::{
    BoostHashGeneration, ClientProfile, KeyHash, ProfileKey, ProfileKeying, ProfileMessage,
    ProfileRouteError as CoreRouteError,
};
use pulsar_routing_owned::profiles::ProfileOptions;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::batch::{KeyBatch, KeyRef, map_keys};
use crate::buffers::hash_text_or_bytes;
use crate::errors::{
    ProfileConfigError, ProfileRouteError, PulsarRoutingError, TopicNameError, partition_count,
};

/// The partition written for a message routed without its key.
pub(crate) const NO_KEY: i32 = -1;

/// The partition written for a key whose send the producer fails (C++ and
/// Python above 32767 partitions, where its `short` cast goes negative or
/// past the last partition): a batch reports it instead of stopping, so a
/// planner can count such keys.
pub(crate) const SEND_FAILS: i32 = -2;

pub(crate) fn config_error(message: impl Into<String>) -> PyErr {
    ProfileConfigError::new_err(message.into())
}

pub(crate) fn route_error(err: CoreRouteError) -> PyErr {
    ProfileRouteError::new_err(err.to_string())
}

/// A name parsed by the core, its error a `ProfileConfigError`.
pub(crate) fn parse<T: std::str::FromStr<Err: std::fmt::Display>>(name: &str) -> PyResult<T> {
    name.parse().map_err(|e| config_error(format!("{e}")))
}

/// The client of `profile` and the options over its defaults that the
/// Python functions parse: `scheme`, `mode`, and the Boost a C++ or Python
/// client was built with (`boost`, `boost_1_74_x86_64`).
pub(crate) fn profile_options(
    profile: &str,
    scheme: Option<&str>,
    mode: Option<&str>,
    boost: Option<&str>,
    boost_1_74_x86_64: bool,
) -> PyResult<(ClientProfile, ProfileOptions)> {
    let profile: ClientProfile = parse(profile)?;
    let options = ProfileOptions {
        scheme: scheme.map(parse).transpose()?,
        mode: mode.map(parse).transpose()?,
        boost: boost_generation(profile, boost, boost_1_74_x86_64)?,
        ..ProfileOptions::default()
    };
    Ok((profile, options))
}

/// The Boost generation of the `boost=` option (a release such as `"1.74"`
/// or `"1.85.0"`), or of the deprecated `boost_1_74_x86_64=True`; `None`
/// keeps the client's default. Only the C++ and Python clients use Boost.
fn boost_generation(
    profile: ClientProfile,
    boost: Option<&str>,
    boost_1_74_x86_64: bool,
) -> PyResult<Option<BoostHashGeneration>> {
    let generation = match (boost, boost_1_74_x86_64) {
        (None, false) => return Ok(None),
        (None, true) => BoostHashGeneration::Boost1_62,
        (Some(_), true) => {
            return Err(config_error(
                "give the Boost release with boost= only (boost_1_74_x86_64=True is boost=\"1.74\")",
            ));
        }
        (Some(release), false) => parse(release)?,
    };
    if !matches!(profile, ClientProfile::Cpp | ClientProfile::Python) {
        return Err(config_error(format!(
            "the {profile} client does not use Boost: boost= applies to the cpp and python profiles"
        )));
    }
    Ok(Some(generation))
}

/// The keying of `profile` with the given options, on a platform whose
/// `char` is unsigned or not, over its defaults.
fn keying(
    profile: ClientProfile,
    mut options: ProfileOptions,
    unsigned_char: bool,
) -> PyResult<ProfileKeying> {
    options.unsigned_char = unsigned_char;
    let config = options.config(profile);
    ProfileKeying::new(profile, &config).map_err(|e| config_error(e.to_string()))
}

/// A key as the clients take it: `str` (which every client sends as its
/// UTF-8 bytes), `bytes`, or `None`.
pub(crate) fn client_key<'a>(
    obj: &'a Bound<'_, PyAny>,
    what: &dyn std::fmt::Display,
) -> PyResult<ProfileKey<'a>> {
    if obj.is_none() {
        Ok(ProfileKey::None)
    } else if let Ok(s) = obj.cast::<PyString>() {
        s.to_str()
            .map(ProfileKey::Str)
            .map_err(|_| lone_surrogate(what))
    } else if let Ok(bytes) = obj.cast::<PyBytes>() {
        Ok(ProfileKey::Bytes(bytes.as_bytes()))
    } else {
        Err(PyTypeError::new_err(format!(
            "{what} must be str, bytes or None, not {}",
            obj.get_type().name()?
        )))
    }
}

/// Routes every key of `keys` (an iterable of `str`, `bytes` and `None`, a
/// numpy array, or a pyarrow array) to an int32 slot with `route`.
pub(crate) fn route_all<'py, R>(
    py: Python<'py>,
    keys: &Bound<'py, PyAny>,
    route: R,
) -> PyResult<Bound<'py, PyArray1<i32>>>
where
    R: Fn(ProfileKey<'_>) -> Result<i32, CoreRouteError> + Sync,
{
    let partitions = map_keys(py, keys, &ClientKeys(route))?;
    Ok(PyArray1::from_vec(py, partitions))
}

/// A route to an int32 slot (`-1` without a partition) as a batch: every
/// client sends text as UTF-8, so text with a lone surrogate is an error.
struct ClientKeys<R>(R);

impl<R> KeyBatch for ClientKeys<R>
where
    R: Fn(ProfileKey<'_>) -> Result<i32, CoreRouteError> + Sync,
{
    type Out = i32;
    const ONE_KEY: &'static str = "keys must be a collection of keys, not one key";
    const SURROGATES: bool = false;

    // Out of line: a client's routing is a large function, and inlining it
    // into the Arrow block loop measured slower (more instructions per key)
    // than calling it.
    #[inline(never)]
    fn key(&self, index: usize, key: KeyRef<'_>) -> PyResult<i32> {
        let key = match key {
            KeyRef::None => ProfileKey::None,
            KeyRef::Text(text) => ProfileKey::Str(text),
            KeyRef::Bytes(bytes) => ProfileKey::Bytes(bytes),
            // Not taken without `SURROGATES`.
            KeyRef::Utf16(_) => return Err(lone_surrogate(&format_args!("keys[{index}]"))),
        };
        (self.0)(key).map_err(route_error)
    }

    fn surrogate_object(&self, index: usize, _text: &Bound<'_, PyString>) -> PyErr {
        lone_surrogate(&format_args!("keys[{index}]"))
    }

    /// A numpy `U` item with a surrogate code point is a `str` with a lone
    /// surrogate once numpy hands it out.
    fn not_scalar_value(&self, index: usize, cp: u32) -> PyErr {
        if (0xD800..0xE000).contains(&cp) {
            lone_surrogate(&format_args!("keys[{index}]"))
        } else {
            PyValueError::new_err(format!(
                "keys[{index}] holds {cp:#x}, which is not a Unicode code point"
            ))
        }
    }
}

fn lone_surrogate(what: &dyn std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!(
        "{what} holds a lone surrogate, which no client sends as UTF-8"
    ))
}

/// The partition a client of `profile` sends a message with this key (and
/// ordering key) to, or `None` when the client routes it as keyless.
#[pyfunction]
#[pyo3(signature = (
    key, num_partitions, profile = "java", *, scheme = None, mode = None,
    ordering_key = None, unsigned_char = false, boost = None, boost_1_74_x86_64 = false,
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn profile_partition(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    num_partitions: i64,
    profile: &str,
    scheme: Option<&str>,
    mode: Option<&str>,
    ordering_key: Option<&Bound<'_, PyAny>>,
    unsigned_char: bool,
    boost: Option<&str>,
    boost_1_74_x86_64: bool,
) -> PyResult<Option<u32>> {
    let n = partition_count(py, num_partitions)?;
    let (profile, options) = profile_options(profile, scheme, mode, boost, boost_1_74_x86_64)?;
    let keying = keying(profile, options, unsigned_char)?;
    with_message(key, ordering_key, 0, |message| {
        keying.partition(message, n).map_err(route_error)
    })
}

/// Calls `f` with the message of a key and an ordering key (`None`: none),
/// each `str`, `bytes` or `None`.
pub(crate) fn with_message<T>(
    key: &Bound<'_, PyAny>,
    ordering_key: Option<&Bound<'_, PyAny>>,
    payload_len: u64,
    f: impl FnOnce(&ProfileMessage<'_>) -> PyResult<T>,
) -> PyResult<T> {
    let key = client_key(key, &"key")?;
    let ordering_key = match ordering_key {
        Some(obj) => client_key(obj, &"ordering_key")?.bytes(),
        None => None,
    };
    f(&ProfileMessage {
        key,
        ordering_key,
        payload_len,
    })
}

/// The partition of every key for a client of `profile`, as an int32 numpy
/// array; -1 marks a message the client routes as keyless, -2 one whose
/// send the producer fails (C++'s `short` cast above 32767 partitions).
#[pyfunction]
#[pyo3(signature = (
    keys, num_partitions, profile = "java", *, scheme = None, mode = None,
    unsigned_char = false, boost = None, boost_1_74_x86_64 = false,
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn profile_partitions<'py>(
    py: Python<'py>,
    keys: &Bound<'py, PyAny>,
    num_partitions: i64,
    profile: &str,
    scheme: Option<&str>,
    mode: Option<&str>,
    unsigned_char: bool,
    boost: Option<&str>,
    boost_1_74_x86_64: bool,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let n = partition_count(py, num_partitions)?;
    let (profile, options) = profile_options(profile, scheme, mode, boost, boost_1_74_x86_64)?;
    let keying = keying(profile, options, unsigned_char)?;
    route_all(py, keys, |key| {
        let message = ProfileMessage {
            key,
            ordering_key: None,
            payload_len: 0,
        };
        match keying.partition(&message, n) {
            // A partition is below 2**31, so it always fits.
            Ok(partition) => Ok(partition.map_or(NO_KEY, |p| p as i32)),
            Err(CoreRouteError::IllegalPartition { .. }) => Ok(SEND_FAILS),
            Err(e) => Err(e),
        }
    })
}

/// The name of the hash a client of `profile` applies to keys under the
/// given options (`"go_java_string"`, `"cpp_boost"`, ...).
#[pyfunction]
#[pyo3(signature = (
    profile = "java", *, scheme = None, mode = None, unsigned_char = false,
    boost = None, boost_1_74_x86_64 = false,
))]
pub(crate) fn profile_key_hash_name(
    profile: &str,
    scheme: Option<&str>,
    mode: Option<&str>,
    unsigned_char: bool,
    boost: Option<&str>,
    boost_1_74_x86_64: bool,
) -> PyResult<&'static str> {
    let (profile, options) = profile_options(profile, scheme, mode, boost, boost_1_74_x86_64)?;
    let keying = keying(profile, options, unsigned_char)?;
    Ok(keying.hash().name())
}

/// A client key hash by name (see `profile_key_hash_name`); a `str` is
/// hashed as its UTF-8 bytes, except by `"java_string"` (`String.hashCode`).
#[pyfunction]
#[pyo3(signature = (data, hash, /))]
pub(crate) fn profile_key_hash(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    hash: &str,
) -> PyResult<u32> {
    let hash: KeyHash = parse(hash)?;
    if hash == KeyHash::JavaStringHash
        && let Ok(text) = data.cast::<PyString>()
    {
        return crate::java_string_hash::java_string_hash(text);
    }
    hash_text_or_bytes(py, data, |bytes| hash.hash_bytes(bytes))?
        .map_err(|_| route_error(CoreRouteError::BoostHashNotReproducible))
}

/// The partition index pulsar-client-go reads from a topic name: -1
/// without `-partition-`, else Go's `strconv.Atoi` of the text after the
/// last `-` (its error is a `TopicNameError`, with Go's message).
#[pyfunction]
#[pyo3(signature = (topic, /))]
pub(crate) fn go_partition_index(topic: &str) -> PyResult<i64> {
    pulsar_routing::profiles::go_partition_index(topic)
        .map_err(|e| TopicNameError::new_err(e.to_string()))
}

/// The partition index the C++ client reads from a topic's local name.
#[pyfunction]
#[pyo3(signature = (local_name, /))]
pub(crate) fn cpp_partition_index(local_name: &str) -> i32 {
    pulsar_routing::profiles::cpp_partition_index(local_name)
}

/// What pulsar-client-cpp's producer does with a router's answer: casts it
/// to `short`, then fails the send unless that is below `num_partitions`
/// (`ProfileRouteError`); above 32767 partitions 70000 is sent to 4464.
#[pyfunction]
#[pyo3(signature = (partition, num_partitions))]
pub(crate) fn cpp_partitioned_producer_check(
    py: Python<'_>,
    partition: i32,
    num_partitions: i64,
) -> PyResult<u32> {
    let n = partition_count(py, num_partitions)?;
    pulsar_routing::profiles::cpp_producer_send(ClientProfile::Cpp, partition, n)
        .map_err(route_error)
}

/// Boost 1.62 to 1.80's `boost::hash<std::string>` on x86-64 (Boost 1.74
/// included), all 64 bits (C++'s `BoostHash` is it masked to 31 bits); a
/// `str` is hashed as its UTF-8.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn boost_hash_1_74_x86_64_raw(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<u64> {
    hash_text_or_bytes(
        py,
        data,
        pulsar_routing::profiles::boost_hash_1_74_x86_64_raw,
    )
}

/// Go's `strconv.Atoi` (an optional sign and decimal digits, within
/// int64), as pulsar-client-go reads a partition suffix; its error is a
/// `PulsarRoutingError` with Go's message.
#[pyfunction]
#[pyo3(signature = (text, /))]
pub(crate) fn go_atoi(text: &str) -> PyResult<i64> {
    pulsar_routing::profiles::go_atoi(text).map_err(|e| PulsarRoutingError::new_err(e.to_string()))
}
