//! The buffers of batches and result arrays.

use std::alloc::{self, Layout};
use std::sync::Mutex;

use numpy::ndarray::ArrayView1;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

/// At least this many bytes: worth asking for huge pages.
const HUGE_FROM: usize = 4 << 20;

/// A type whose all-zero bytes are a value (0, 0.0, false).
///
/// # Safety
/// Only for types of which every all-zero bit pattern is a valid value.
pub unsafe trait Zeroable: Copy {}
// SAFETY: zero bytes are 0, 0.0 and false.
unsafe impl Zeroable for u8 {}
unsafe impl Zeroable for u16 {}
unsafe impl Zeroable for u32 {}
unsafe impl Zeroable for u64 {}
unsafe impl Zeroable for f64 {}
unsafe impl Zeroable for bool {}

/// The MemoryError of a buffer of `bytes` bytes (`None`: more than a `usize` counts) that the
/// process cannot have: raised, where an allocation failure would abort the interpreter.
pub fn no_memory(bytes: Option<usize>) -> PyErr {
    let size = match bytes {
        Some(b) => format!("{:.1} GiB", b as f64 / f64::from(1u32 << 30)),
        None => "more bytes than memory can address".to_string(),
    };
    PyMemoryError::new_err(format!(
        "the call needs {size} for its puzzles and results: more than this process can allocate"
    ))
}

/// `rows` times `width` values, or the MemoryError of a size past counting.
pub fn values(rows: usize, width: usize) -> PyResult<usize> {
    rows.checked_mul(width).ok_or_else(|| no_memory(None))
}

/// `n` zeros for a result array that the workers fill in place (and numpy then owns); a
/// MemoryError when the memory cannot be had.
///
/// A large zeroed buffer comes straight from the OS untouched, and its pages are faulted in
/// as the workers first write them: one fault per 4 KiB page, about 25,000 for the solutions
/// and counters of a million puzzles, a tenth of the solving time of easy puzzles. On Linux
/// such a buffer is marked for transparent huge pages (`MADV_HUGEPAGE`, honoured when the
/// system's setting is `madvise` or `always`), which makes that a few dozen faults.
pub fn zeroed<T: Zeroable>(n: usize) -> PyResult<Vec<T>> {
    let layout = Layout::array::<T>(n).map_err(|_| no_memory(None))?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout's size is not zero.
    let start = unsafe { alloc::alloc_zeroed(layout) }.cast::<T>();
    if start.is_null() {
        return Err(no_memory(Some(layout.size())));
    }
    // SAFETY: `start` was allocated by the global allocator with `Layout::array::<T>(n)`, the
    // layout of a `Vec<T>` of capacity `n`, and its `n` values are zero bytes: valid `T`s.
    let values = unsafe { Vec::from_raw_parts(start, n, n) };
    if layout.size() >= HUGE_FROM {
        advise_huge(values.as_ptr().cast(), layout.size());
    }
    Ok(values)
}

/// An empty vector with room for `n` values, its pages marked as [`zeroed`]'s are: for a
/// batch's copy of its input, which the calling thread then fills; a MemoryError when the
/// memory cannot be had.
pub fn with_room<T>(n: usize) -> PyResult<Vec<T>> {
    let mut values = Vec::<T>::new();
    values
        .try_reserve_exact(n)
        .map_err(|_| no_memory(n.checked_mul(std::mem::size_of::<T>())))?;
    let bytes = n * std::mem::size_of::<T>();
    if bytes >= HUGE_FROM {
        advise_huge(values.as_ptr().cast(), bytes);
    }
    Ok(values)
}

#[cfg(target_os = "linux")]
fn advise_huge(start: *const u8, bytes: usize) {
    const PAGE: usize = 4096;
    let first = (start as usize).next_multiple_of(PAGE);
    let end = (start as usize + bytes) / PAGE * PAGE;
    if end > first {
        // SAFETY: the range lies inside one live allocation, page-aligned at both ends;
        // MADV_HUGEPAGE only changes how its future faults are served, never its contents.
        // A refusal (a kernel without THP) leaves ordinary pages: nothing to handle.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_start: *const u8, _bytes: usize) {}

/// Result arrays of at least this many bytes are recycled. (glibc's malloc maps a block
/// from 128 KiB up, a threshold that rises up to 32 MiB as such blocks are freed, straight
/// from the kernel, and unmaps it when freed: the next call's block is fresh pages again.)
const RECYCLE_FROM: usize = 1 << 20;

/// At most this many bytes of released result arrays are kept for reuse: the most recently
/// released first, older ones freed to make room.
const KEEP_AT_MOST: usize = 256 << 20;

/// A released result buffer, by element type.
pub(crate) enum Spare {
    U8(Vec<u8>),
    U32(Vec<u32>),
    U64(Vec<u64>),
}

impl Spare {
    fn bytes(&self) -> usize {
        match self {
            Spare::U8(v) => v.len(),
            Spare::U32(v) => v.len() * 4,
            Spare::U64(v) => v.len() * 8,
        }
    }
}

/// An element type whose result buffers are recycled.
pub(crate) trait Recycled: numpy::Element + Zeroable + Send + 'static {
    fn wrap(values: Vec<Self>) -> Spare;
    fn unwrap(spare: Spare) -> Result<Vec<Self>, Spare>;
    /// Whether `spare` is a buffer of `n` values of this type.
    fn fits(spare: &Spare, n: usize) -> bool;
}

macro_rules! recycled {
    ($t:ty, $variant:ident) => {
        impl Recycled for $t {
            fn wrap(values: Vec<$t>) -> Spare {
                Spare::$variant(values)
            }
            fn fits(spare: &Spare, n: usize) -> bool {
                matches!(spare, Spare::$variant(v) if v.len() == n)
            }
            fn unwrap(spare: Spare) -> Result<Vec<$t>, Spare> {
                match spare {
                    Spare::$variant(v) => Ok(v),
                    other => Err(other),
                }
            }
        }
    };
}
recycled!(u8, U8);
recycled!(u32, U32);
recycled!(u64, U64);

/// The released buffers and their total bytes. Only touched with the GIL held (a call
/// taking one, an array's owner giving it back when Python frees the array), so a `fork`
/// never copies it half-changed.
static SPARES: Mutex<(usize, Vec<Spare>)> = Mutex::new((0, Vec::new()));

/// `n` values for a result array that the workers fill, **every element of it**: a
/// buffer of `n` values that an earlier result array released (its contents stale), or
/// [`zeroed`]'s. A call in a loop over batches of one size (a benchmark, a Spark
/// `mapInPandas` job) then writes into memory the kernel has already given the process,
/// instead of faulting in and zeroing fresh pages each time: 7% of a million-puzzle solve
/// of easy puzzles (`perf`, `clear_page_erms`).
pub(crate) fn reused<T: Recycled>(n: usize) -> PyResult<Vec<T>> {
    if n.saturating_mul(std::mem::size_of::<T>()) >= RECYCLE_FROM {
        let mut spares = SPARES.lock().unwrap_or_else(|e| e.into_inner());
        let (total, list) = &mut *spares;
        if let Some(i) = list.iter().rposition(|s| T::fits(s, n)) {
            let spare = list.remove(i);
            *total -= spare.bytes();
            if let Ok(values) = T::unwrap(spare) {
                return Ok(values);
            }
        }
    }
    zeroed(n)
}

/// Owns a result array's buffer; gives it back for [`reused`] when Python frees the array.
#[pyclass(frozen, module = "sudoku_batch._native")]
pub struct Owner {
    spare: Option<Spare>,
}

impl Drop for Owner {
    fn drop(&mut self) {
        let Some(spare) = self.spare.take() else {
            return;
        };
        let bytes = spare.bytes();
        if bytes > KEEP_AT_MOST {
            return;
        }
        let mut spares = SPARES.lock().unwrap_or_else(|e| e.into_inner());
        let (total, list) = &mut *spares;
        while *total + bytes > KEEP_AT_MOST {
            *total -= list.remove(0).bytes();
        }
        *total += bytes;
        list.push(spare);
    }
}

/// An array of `shape` over `values` (row-major), without copying them: small ones owned
/// by numpy, large ones by an [`Owner`], which recycles the buffer.
pub(crate) fn recycled_array<'py, T: Recycled>(
    py: Python<'py>,
    values: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    if std::mem::size_of_val(values.as_slice()) < RECYCLE_FROM {
        return Ok(PyArray1::from_vec(py, values).reshape(shape)?.into_any());
    }
    let ptr = values.as_ptr();
    let len = values.len();
    let owner = Bound::new(
        py,
        Owner {
            spare: Some(T::wrap(values)),
        },
    )?;
    // SAFETY: `ptr` points to `len` initialised values of the buffer the owner now holds; it
    // is neither moved nor reallocated before the owner is dropped, which happens only once
    // the array (its base object) is freed.
    let view = unsafe { ArrayView1::from_shape_ptr(len, ptr) };
    let array = unsafe { PyArray1::borrow_from_array(&view, owner.into_any()) };
    Ok(array.reshape(shape)?.into_any())
}
