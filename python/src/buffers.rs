//! The buffers of batches and result arrays.

/// At least this many bytes: worth asking for huge pages.
const HUGE_FROM: usize = 4 << 20;

/// `n` zeros for a result array that the workers fill in place (and numpy then owns).
///
/// A large zeroed buffer comes straight from the OS untouched, and its pages are faulted in
/// as the workers first write them: one fault per 4 KiB page, about 25,000 for the solutions
/// and counters of a million puzzles, a tenth of the solving time of easy puzzles. On Linux
/// such a buffer is marked for transparent huge pages (`MADV_HUGEPAGE`, honoured when the
/// system's setting is `madvise` or `always`), which makes that a few dozen faults.
pub fn zeroed<T: Clone + Default>(n: usize) -> Vec<T> {
    let values = vec![T::default(); n];
    let bytes = std::mem::size_of_val(values.as_slice());
    if bytes >= HUGE_FROM {
        advise_huge(values.as_ptr().cast(), bytes);
    }
    values
}

/// An empty vector with room for `n` values, its pages marked as [`zeroed`]'s are: for a
/// batch's copy of its input, which the calling thread then fills.
pub fn with_room<T>(n: usize) -> Vec<T> {
    let values = Vec::<T>::with_capacity(n);
    let bytes = n * std::mem::size_of::<T>();
    if bytes >= HUGE_FROM {
        advise_huge(values.as_ptr().cast(), bytes);
    }
    values
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
