//! A global allocator that counts, per thread, what the code under test
//! allocates (the harness's other threads don't count), so tests that prove
//! an allocation bound share a binary with the rest. Each test binary declares
//! it in its `main.rs` (`#[path = "../counting_allocator/mod.rs"]`).

// Each binary uses the part it needs.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// What a piece of code allocated on this thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Allocations (and reallocations).
    pub allocations: usize,
    /// Bytes requested, reallocations counted at their new size.
    pub bytes: usize,
    /// The most bytes live at once.
    pub peak_live: usize,
    /// The largest single request.
    pub largest: usize,
}

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
    // Signed: memory allocated before a measurement may be freed during it.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK_LIVE: Cell<isize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn record_allocation(size: usize) {
    let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
    let _ = BYTES.try_with(|bytes| bytes.set(bytes.get() + size));
    let _ = LARGEST.try_with(|largest| largest.set(largest.get().max(size)));
    record_live(size as isize);
}

fn record_live(change: isize) {
    let _ = LIVE.try_with(|live| {
        live.set(live.get() + change);
        let _ = PEAK_LIVE.try_with(|peak| peak.set(peak.get().max(live.get())));
    });
}

pub struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to the system allocator; this
// only counts, in thread-locals that never allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record_allocation(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        record_live(-(layout.size() as isize));
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record_live(-(layout.size() as isize));
        record_allocation(new_size);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Allocations on this thread so far.
pub fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// Runs `work` and returns its result with what it allocated.
pub fn measure<R>(work: impl FnOnce() -> R) -> (R, Usage) {
    let allocations_before = allocations();
    let bytes_before = BYTES.with(Cell::get);
    LIVE.with(|live| live.set(0));
    PEAK_LIVE.with(|peak| peak.set(0));
    LARGEST.with(|largest| largest.set(0));
    let result = work();
    let usage = Usage {
        allocations: allocations() - allocations_before,
        bytes: BYTES.with(Cell::get) - bytes_before,
        peak_live: PEAK_LIVE.with(Cell::get).max(0) as usize,
        largest: LARGEST.with(Cell::get),
    };
    (result, usage)
}
