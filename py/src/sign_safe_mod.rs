//! Java's `MathUtils.signSafeMod`.

use pyo3::prelude::*;

use crate::errors::IntoPyException;

/// Java's `MathUtils.signSafeMod(long dividend, int divisor)`.
#[pyfunction]
#[pyo3(signature = (dividend, divisor, /))]
pub(crate) fn sign_safe_mod(py: Python<'_>, dividend: i64, divisor: i32) -> PyResult<i32> {
    pulsar_routing::sign_safe_mod(dividend, divisor).map_err(|e| e.into_py_exception(py))
}
