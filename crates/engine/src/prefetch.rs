//! A cache-line prefetch hint: the search asks for the memory a node will read (its
//! hash-table bucket, evaluation-cache slot, correction-history entries) while it still
//! has other work to do, so the load overlaps that work instead of stalling the read.
//! Only a hint: it never faults, changes no value and does nothing on targets without one.

/// Hints the processor to bring the cache line holding `r` into the first-level cache.
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is only a hint; it never faults, and `r` is a live reference.
        unsafe { _mm_prefetch(r as *const T as *const i8, _MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}
