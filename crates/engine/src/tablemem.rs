//! Memory for the transposition table: one zero-filled block, aligned to 2 MiB and, on
//! Linux, advised for transparent huge pages; and the largest table wily will allocate
//! ([`max_hash_mb`], which the front ends' hash commands check).
//!
//! The table is probed at random addresses millions of times a second. With 4 KiB pages a
//! 16 MiB table spans 4,096 pages, more than the processor's TLB holds, so most probes pay
//! a page walk on top of the cache miss (under a hypervisor, a two-level walk). Backed by
//! 2 MiB pages the same table needs eight TLB entries. Where the kernel grants no huge
//! pages (THP off, or none free) the block is simply ordinary memory.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ops::Deref;
use std::ptr::NonNull;

/// Alignment (and huge-page size) of blocks of at least that size.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// Types whose all-zero bit pattern is a valid, fully initialised value.
///
/// # Safety
/// Implement only for types made of atomics (interior mutability, so [`ZeroedSlice::zero`]
/// may rewrite them through a shared reference), with no references, enums or `NonNull`.
pub unsafe trait Zeroable {}

/// A fixed-length slice of zeroed `T` in memory of its own.
pub struct ZeroedSlice<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: the slice owns its memory exclusively, like `Box<[T]>`; sharing it is as safe as
// sharing `[T]`.
unsafe impl<T: Zeroable + Send> Send for ZeroedSlice<T> {}
// SAFETY: as above; `&ZeroedSlice<T>` only hands out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedSlice<T> {}

impl<T: Zeroable> ZeroedSlice<T> {
    /// `len` zeroed values (`len` at least 1).
    pub fn new(len: usize) -> ZeroedSlice<T> {
        let len = len.max(1);
        let layout = Self::layout(len);
        // SAFETY: the layout has a non-zero size (len >= 1 and T is not zero-sized, checked
        // in `layout`).
        let raw = unsafe { alloc(layout) };
        let Some(ptr) = NonNull::new(raw as *mut T) else {
            handle_alloc_error(layout)
        };
        advise_huge_pages(raw, layout.size());
        // SAFETY: `raw` is valid for `layout.size()` bytes; zero bytes are a valid `T`
        // (the `Zeroable` contract). The pages are first touched here, after the advice,
        // so the kernel can back them with huge pages from the start.
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        ZeroedSlice { ptr, len }
    }

    /// Sets every value back to all-zero bytes in one `memset`. The caller makes sure no
    /// other thread reads or writes the slice meanwhile (e.g. between searches).
    pub fn zero(&self) {
        let bytes = std::mem::size_of::<T>() * self.len;
        // SAFETY: `ptr` is valid for `len` values; zero bytes are a valid `T`. Writing
        // through a shared reference is sound because `Zeroable` types are made of atomics
        // (interior mutability) or are only zeroed while unshared, as documented above.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr() as *mut u8, 0, bytes) };
    }

    fn layout(len: usize) -> Layout {
        assert!(std::mem::size_of::<T>() > 0, "zero-sized table entries");
        let size = std::mem::size_of::<T>()
            .checked_mul(len)
            .expect("table size overflows");
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<T>()
        };
        // Round up to whole huge pages, so the last one can be a huge page too.
        let size = if size >= HUGE_PAGE {
            size.div_ceil(HUGE_PAGE) * HUGE_PAGE
        } else {
            size
        };
        Layout::from_size_align(size, align).expect("valid table layout")
    }
}

impl<T: Zeroable> Deref for ZeroedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised values owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with exactly this layout; `T` needs no drop (it is
        // integers and atomics only).
        unsafe { dealloc(self.ptr.as_ptr() as *mut u8, Self::layout(self.len)) };
    }
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, size: usize) {
    if size < HUGE_PAGE {
        return;
    }
    // SAFETY: `ptr..ptr+size` is one live allocation of ours; MADV_HUGEPAGE only changes
    // how the kernel backs it. A failure (THP disabled) leaves ordinary pages: ignored.
    unsafe {
        libc::madvise(ptr as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _size: usize) {}

/// The largest transposition table wily will allocate: half the machine's memory (from
/// `/proc/meminfo`), or 4 GiB when that cannot be read. An allocation that fails would end
/// the program, so larger requests are refused instead.
pub fn max_hash_mb() -> usize {
    let total_kb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find(|l| l.starts_with("MemTotal:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<usize>().ok())
    });
    match total_kb {
        Some(kb) => (kb / 1024 / 2).max(1),
        None => 4096,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[repr(align(64))]
    struct Line([AtomicU64; 8]);
    // SAFETY: atomics only.
    unsafe impl Zeroable for Line {}

    #[test]
    fn blocks_are_zeroed_aligned_and_writable() {
        for len in [1usize, 3, 32_768, 40_000] {
            let s: ZeroedSlice<Line> = ZeroedSlice::new(len);
            assert_eq!(s.len(), len);
            assert_eq!(s.as_ptr() as usize % 64, 0);
            if len * 64 >= HUGE_PAGE {
                assert_eq!(s.as_ptr() as usize % HUGE_PAGE, 0);
            }
            assert!(s
                .iter()
                .all(|l| l.0.iter().all(|w| w.load(Ordering::Relaxed) == 0)));
            s[len - 1].0[7].store(7, Ordering::Relaxed);
            assert_eq!(s[len - 1].0[7].load(Ordering::Relaxed), 7);
            s.zero();
            assert_eq!(s[len - 1].0[7].load(Ordering::Relaxed), 0);
        }
    }
}
