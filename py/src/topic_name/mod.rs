//! Topic names, parsed as Java's `TopicName.get` parses them.

pub(crate) mod batch;

use pulsar_routing::topic_name::{TopicName, TopicNameRules};
use pulsar_routing_owned::topic_name::OwnedTopicName;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use crate::errors::{rules_name, topic_name_error, topic_name_rules};

/// A topic name, parsed as Java's `TopicName.get` parses it.
///
/// `rules="4.2"` (the default) follows the 4.2 release, checked against
/// Pulsar 4.2.4: V1 names and empty path parts are rejected and a full name
/// is kept verbatim as its canonical form. `rules="v4"` is an older 4.x line
/// (never checked against a release) that accepts V1 names and drops empty
/// parts, and `rules="master"` the 5.0 development line, which adds the
/// `topic://` and `segment://` domains. `str()` is the
/// canonical name (Java's `toString()`), the text the broker hashes to find
/// the topic's bundle. Two names are equal when their canonical names are.
#[pyclass(frozen, module = "pulsar_routing", name = "TopicName")]
pub(crate) struct PyTopicName(OwnedTopicName);

impl PyTopicName {
    pub(crate) fn parse(name: &str, rules: TopicNameRules) -> PyResult<Self> {
        OwnedTopicName::parse(name, rules)
            .map(Self)
            .map_err(topic_name_error)
    }

    /// The core's view of the name (parsed again).
    pub(crate) fn parsed(&self) -> PyResult<TopicName<'_>> {
        self.0.parsed().map_err(topic_name_error)
    }
}

/// The `#[pymethods]` of the class named first (from the call site, so that
/// pyo3's generated `__eq__` slot keeps its `unsafe`): its properties, each
/// read from the name parsed again (bound to the closure's argument), then
/// the other methods.
macro_rules! topic_name_methods {
    (
        $class:ident;
        $($(#[$doc:meta])* $name:ident: $ty:ty = |$topic:ident| $value:expr;)*
        { $($methods:tt)* }
    ) => {
        #[pymethods]
        impl $class {
            $(
                $(#[$doc])*
                #[getter]
                fn $name(&self) -> PyResult<$ty> {
                    let $topic = self.parsed()?;
                    Ok($value)
                }
            )*

            $($methods)*
        }
    };
}

topic_name_methods! {
    PyTopicName;
    /// `"persistent"`, `"non-persistent"`, or (master rules) `"topic"` or
    /// `"segment"`; always lower case.
    domain: &'static str = |topic| topic.domain().as_str();
    /// The tenant; `"public"` for a one-part short name.
    tenant: &str = |topic| topic.tenant();
    /// The cluster of a V1 name (v4 rules only), or `None`.
    cluster: Option<&str> = |topic| topic.cluster();
    /// The namespace without its tenant (Java's `getNamespacePortion()`).
    namespace_portion: &str = |topic| topic.namespace_portion();
    /// `tenant/namespace`, or `tenant/cluster/namespace` for a V1 name.
    namespace: String = |topic| topic.namespace().to_string();
    /// The topic's own name after the namespace, as written.
    local_name: &str = |topic| topic.local_name();
    /// The index from a `-partition-<n>` suffix, or -1 (Java's
    /// `getPartitionIndex()`).
    partition_index: i32 = |topic| topic.partition_index();
    /// Whether the name is one partition of a partitioned topic.
    partitioned: bool = |topic| topic.is_partitioned();
    /// Whether the topic is stored (every domain but `non-persistent`).
    persistent: bool = |topic| topic.is_persistent();
    /// The `<hashStart>-<hashEnd>-<segmentId>` of a `segment://` name, or
    /// `None`.
    segment_descriptor: Option<&str> = |topic| topic.segment_descriptor();
    /// The partitioned topic this partition belongs to, or the name itself
    /// (Java's `getPartitionedTopicName()`).
    partitioned_topic_name: String = |topic| topic.partitioned_topic_name().to_string();
    /// `domain/tenant[/cluster]/ns/<encoded local name>` (Java's
    /// `getLookupName()`).
    lookup_name: String = |topic| topic.lookup_name().to_string();
    /// The managed-ledger name, `tenant[/cluster]/ns/domain/<encoded local
    /// name>` (Java's `getPersistenceNamingEncoding()`).
    persistence_naming: String = |topic| topic.persistence_naming().to_string();
    /// The admin REST path (Java's `getRestPath()`).
    rest_path: String = |topic| topic.rest_path().to_string();
    /// The local name as `URLEncoder.encode(local, UTF_8)` writes it.
    encoded_local_name: String = |topic| topic.encoded_local_name().to_string();
    /// CRC-32 of the canonical name: the broker's bundle hash of the topic.
    crc32: u32 = |topic| topic.crc32();
    {
        #[new]
        #[pyo3(signature = (name, *, rules = "4.2"))]
        fn new(name: &str, rules: &str) -> PyResult<Self> {
            Self::parse(name, topic_name_rules(rules)?)
        }

        /// The rules the name was parsed with: `"4.2"`, `"v4"` or `"master"`.
        #[getter]
        fn rules(&self) -> &'static str {
            rules_name(self.0.rules())
        }

        /// The name of partition `index` (Java's `getPartition(index)`):
        /// `-partition-<index>` appended, unless `index` is -1 or the name
        /// already ends with that suffix. Raises `TopicNameError` for a
        /// `segment://` name, as Java does.
        #[pyo3(signature = (index, /))]
        fn partition(&self, index: i32) -> PyResult<String> {
            let topic = self.parsed()?;
            let partition = topic.partition(index).map_err(topic_name_error)?;
            Ok(partition.to_string())
        }

        fn __eq__(&self, other: &Self) -> bool {
            self.0.canonical() == other.0.canonical()
        }

        fn __str__(&self) -> &str {
            self.0.canonical()
        }

        fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
            let name = PyString::new(py, self.0.canonical()).repr()?;
            Ok(match self.0.rules() {
                TopicNameRules::Pulsar4_2 => format!("TopicName({name})"),
                rules => format!("TopicName({name}, rules='{}')", rules.name()),
            })
        }

        /// The hash of the canonical name as a `str`.
        fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
            PyString::new(py, self.0.canonical()).hash()
        }

        /// Pickling: the text as given, and the rules.
        fn __getnewargs_ex__<'py>(
            &self,
            py: Python<'py>,
        ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
            let kwargs = PyDict::new(py);
            kwargs.set_item("rules", rules_name(self.0.rules()))?;
            Ok((PyTuple::new(py, [self.0.input()])?, kwargs))
        }
    }
}

/// A topic given as `str` (parsed with `rules`) or as a `TopicName`.
pub(crate) enum TopicArg<'a> {
    Text(&'a str, TopicNameRules),
    Parsed(&'a PyTopicName),
}

impl<'a> TopicArg<'a> {
    pub(crate) fn extract(obj: &'a Bound<'_, PyAny>, rules: TopicNameRules) -> PyResult<Self> {
        if let Ok(topic) = obj.cast::<PyTopicName>() {
            Ok(Self::Parsed(topic.get()))
        } else if let Ok(text) = obj.cast::<PyString>() {
            Ok(Self::Text(text.to_str()?, rules))
        } else {
            Err(PyTypeError::new_err(format!(
                "topic must be str or TopicName, not {}",
                obj.get_type().name()?
            )))
        }
    }

    pub(crate) fn parsed(&self) -> PyResult<TopicName<'a>> {
        match *self {
            Self::Text(text, rules) => TopicName::parse_with(text, rules).map_err(topic_name_error),
            Self::Parsed(topic) => topic.parsed(),
        }
    }
}

/// Java's static `TopicName.getPartitionIndex(topic)`: the number after the
/// last `-partition-`, or -1 when there is none or it is not written the way
/// Java writes an int (`01`, `+1`, overflow).
#[pyfunction]
#[pyo3(signature = (topic, /))]
pub(crate) fn get_partition_index(topic: &str) -> i32 {
    pulsar_routing::topic_name::get_partition_index(topic)
}
