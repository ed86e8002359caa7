//! The functions the WebAssembly module exports: the page writes a request's
//! UTF-8 bytes into the buffer [`placemat_request`] returns, calls
//! [`placemat_respond`], and reads the answer's bytes at
//! [`placemat_answer`]. Only safe Rust: the buffers are vectors this module
//! owns, and the page writes into the request buffer between calls, while no
//! Rust code runs.
// `#[no_mangle]` counts as unsafe code (two exports of one name would clash
// at link time): these names are prefixed to be unique.
#![allow(unsafe_code)]

use std::cell::RefCell;

thread_local! {
    static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes the request buffer `len` bytes long (zeroed) and returns where it is.
#[no_mangle]
pub extern "C" fn placemat_request(len: usize) -> *mut u8 {
    REQUEST.with_borrow_mut(|r| {
        r.clear();
        r.resize(len, 0);
        r.as_mut_ptr()
    })
}

/// Answers the request in the buffer; returns the answer's length in bytes.
#[no_mangle]
pub extern "C" fn placemat_respond() -> usize {
    let request = REQUEST.with_borrow(|r| String::from_utf8_lossy(r).into_owned());
    let answer = crate::respond(&request);
    ANSWER.with_borrow_mut(|a| {
        *a = answer.into_bytes();
        a.len()
    })
}

/// Where the last answer's bytes are.
#[no_mangle]
pub extern "C" fn placemat_answer() -> *const u8 {
    ANSWER.with_borrow(|a| a.as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_written_into_the_buffer_is_answered_in_the_answer_buffer() {
        let request = br#"{"op": "codecs"}"#;
        placemat_request(request.len());
        REQUEST.with_borrow_mut(|r| r.copy_from_slice(request));
        let len = placemat_respond();
        let answer = ANSWER.with_borrow(|a| String::from_utf8(a.clone()).unwrap());
        assert_eq!(answer.len(), len);
        assert_eq!(placemat_answer(), ANSWER.with_borrow(|a| a.as_ptr()));
        assert!(answer.contains(r#""name":"utf8""#), "{answer}");
    }
}
