//! Values handed to Python in bulk: numpy arrays made over a `bytearray`
//! that Rust fills in place (numpy reads its memory without a copy, and
//! the whole array is written without a Python loop), and the Python ints
//! of action indices, made once and shared.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyInt, PyList, PyModule};

static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn numpy(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    NUMPY.get_or_try_init(py, || py.import("numpy").map(Bound::unbind)).map(|numpy| numpy.bind(py))
}

/// A numpy array of `dtype` (a numpy type name) and `shape` over
/// `byte_len` bytes, zero before `fill` writes them.
pub fn array_from_bytes<'py>(
    py: Python<'py>,
    dtype: &str,
    shape: &[usize],
    byte_len: usize,
    fill: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyByteArray::new_with(py, byte_len, |bytes| {
        fill(bytes);
        Ok(())
    })?;
    let array = numpy(py)?.call_method1(intern!(py, "frombuffer"), (bytes, dtype))?;
    array.call_method1(intern!(py, "reshape"), (shape.to_vec(),))
}

/// A float32 array of `shape` holding `values`.
pub fn float32_array<'py>(py: Python<'py>, values: &[f32], shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    array_from_bytes(py, "float32", shape, values.len() * 4, |bytes| write_floats(bytes, values))
}

/// Writes `values` as native-endian float32 bytes.
pub fn write_floats(bytes: &mut [u8], values: &[f32]) {
    for (chunk, value) in bytes.chunks_exact_mut(4).zip(values) {
        chunk.copy_from_slice(&value.to_ne_bytes());
    }
}

/// An int8 array of `size` elements, 1 at each of `ones`, 0 elsewhere.
pub fn mask_array<'py>(py: Python<'py>, size: usize, ones: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    array_from_bytes(py, "int8", &[size], size, |bytes| {
        for &at in ones {
            bytes[at] = 1;
        }
    })
}

/// Python ints for action indices, made once and then shared (ints are
/// immutable): a Lichen Chess turn has hundreds of legal actions, nearly
/// all above the small ints Python keeps, and making a fresh int for each
/// cost a Python playout more than listing the moves did. Made a block of
/// [`INT_BLOCK`] consecutive indices at a time, when one of them is first
/// listed, so that the ints of nearby actions lie near in memory.
static ACTION_INTS: [PyOnceLock<Box<[Py<PyInt>]>>; INT_BLOCKS] = [const { PyOnceLock::new() }; INT_BLOCKS];
const INT_BLOCK: usize = 1024;
/// Blocks for the first 65,536 indices (2 MB of ints, which stay in the
/// processor's caches): every index of Lichen Chess, LMA and Kelasu. An
/// index beyond them gets a fresh int, made in memory Python has just
/// freed: Lunch Chess's actions are spread over 439,019 indices, and
/// shared ints for all of them (14 MB) missed the caches on every listing.
const INT_BLOCKS: usize = 64;

/// The Python int for `action`, from [`ACTION_INTS`].
pub fn action_int(py: Python<'_>, action: usize) -> Bound<'_, PyInt> {
    let int = |action: usize| {
        let Ok(int) = action.into_pyobject(py);
        int
    };
    match ACTION_INTS.get(action / INT_BLOCK) {
        Some(block) => {
            let start = action - action % INT_BLOCK;
            let ints = block.get_or_init(py, || (start..start + INT_BLOCK).map(|i| int(i).unbind()).collect());
            ints[action % INT_BLOCK].bind(py).clone()
        }
        None => int(action),
    }
}

/// `actions` as a Python list of ints.
pub fn action_list<'py>(py: Python<'py>, actions: &[usize]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, actions.iter().map(|&action| action_int(py, action)))
}
