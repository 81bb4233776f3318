//! A counting global allocator for the test binaries that prove what
//! scenedec allocates: each includes this file as a module, which makes it
//! the binary's allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::RefCell;

/// Counts allocations made by the current thread (tests run on several threads).
struct Counting;

thread_local! {
    static SIZES: RefCell<Option<Vec<usize>>> = const { RefCell::new(None) };
}

fn record(size: usize) {
    // `try_with`/`try_borrow_mut`: the list's own growth re-enters here while
    // it is borrowed and is not counted; a thread shutting down has no list.
    let _ = SIZES.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut()
            && let Some(sizes) = s.as_mut()
        {
            sizes.push(size);
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The sizes of the allocations `f` makes on this thread.
pub fn allocations<R>(f: impl FnOnce() -> R) -> (R, Vec<usize>) {
    SIZES.with(|s| *s.borrow_mut() = Some(Vec::with_capacity(64)));
    let r = f();
    let sizes = SIZES.with(|s| s.borrow_mut().take()).unwrap_or_default();
    (r, sizes)
}
