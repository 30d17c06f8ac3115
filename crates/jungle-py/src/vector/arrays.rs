//! The arrays a `VectorEnv` writes and hands out: each is a buffer only Rust writes, shown to Python through a
//! read-only view, so a caller writing into `observations` gets numpy's "assignment destination is read-only"
//! instead of silently corrupting the next observations (which are updated in place). The view may show the
//! buffer's bytes as another type of the same size (`bool` masks are written as `u8`, eight at a time).

use numpy::ndarray::Dimension;
use numpy::{Element, PyArray, PyArrayMethods, PyReadonlyArray, PyReadwriteArray};
use pyo3::prelude::*;

/// A buffer of `T` and its read-only view as `V`.
#[derive(Debug)]
pub struct Shared<T, D, V = T> {
    buffer: Py<PyArray<T, D>>,
    view: Py<PyArray<V, D>>,
}

impl<T: Element, D: Dimension, V: Element> Shared<T, D, V> {
    /// Wraps a new buffer.
    pub fn new(buffer: Bound<'_, PyArray<T, D>>) -> PyResult<Shared<T, D, V>> {
        let view = buffer.call_method1("view", (numpy::dtype::<V>(buffer.py()),))?;
        view.getattr("flags")?.setattr("writeable", false)?;
        Ok(Shared {
            view: view.cast_into::<PyArray<V, D>>()?.unbind(),
            buffer: buffer.unbind(),
        })
    }

    /// A new buffer holding a copy of this one's contents.
    pub fn copy(&self, py: Python<'_>) -> PyResult<Shared<T, D, V>> {
        Shared::new(
            self.buffer
                .bind(py)
                .call_method0("copy")?
                .cast_into::<PyArray<T, D>>()?,
        )
    }

    /// The read-only view (what Python sees).
    pub fn view(&self, py: Python<'_>) -> Py<PyArray<V, D>> {
        self.view.clone_ref(py)
    }

    /// The buffer, for Rust to write.
    pub fn write<'py>(&self, py: Python<'py>) -> PyResult<PyReadwriteArray<'py, T, D>> {
        Ok(self.buffer.bind(py).try_readwrite()?)
    }

    /// The buffer, for Rust to read.
    pub fn read<'py>(&self, py: Python<'py>) -> PyResult<PyReadonlyArray<'py, T, D>> {
        Ok(self.buffer.bind(py).try_readonly()?)
    }

    /// A copy of the buffer as a new array of Python's (for pickling).
    pub fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.buffer.bind(py).call_method0("copy")
    }

    /// Overwrites the buffer with `values` (an array of the same shape).
    pub fn restore(&self, py: Python<'_>, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let numpy = py.import("numpy")?;
        numpy.call_method1("copyto", (self.buffer.bind(py), values))?;
        Ok(())
    }
}
