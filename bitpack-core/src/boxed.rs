//! Reading values into the heap, as `Box<T>` and `Box<[T; N]>` are: the
//! size claimed from the reader's allocation budget first.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::source::SourceExt;

/// Reads `T` into a `Box`: `size_of::<T>()` (at least 16 bytes, an
/// allocation's least) claimed from the allocation budget first. The value is read (on the stack) and then moved in; for
/// a boxed array, [`read_boxed_array`] builds it on the heap instead.
///
/// Generated code, for a `Box<T>` field whose `T` is read by `READ`:
/// `#p::read_box(__reader, |__reader| #p::Ok(READ))?`.
#[cfg(feature = "alloc")]
#[inline]
pub fn read_box<R: BitRead, T>(
    reader: &mut R,
    read: impl FnOnce(&mut R) -> Result<T, Error>,
) -> Result<Box<T>, Error> {
    reader.rolled_back(|reader| {
        reader.claim_allocation::<T>(1)?;
        Ok(Box::new(read(reader)?))
    })
}

/// Reads `N` elements with `read_element` straight into a heap array
/// (claimed from the budget first): a `Box<[u8; 1_000_000]>` never passes
/// through the stack. On `Err` the reader is back where it was.
///
/// Generated code, for a `Box<[T; N]>` field whose elements are read by
/// `READ`: `#p::read_boxed_array(__reader, |__reader| #p::Ok(READ))?`.
#[cfg(feature = "alloc")]
#[inline]
pub fn read_boxed_array<R: BitRead, T, const N: usize>(
    reader: &mut R,
    mut read_element: impl FnMut(&mut R) -> Result<T, Error>,
) -> Result<Box<[T; N]>, Error> {
    reader.rolled_back(|reader| {
        reader.claim_allocation::<T>(N)?;
        let mut elements = Vec::with_capacity(N);
        for _ in 0..N {
            elements.push(read_element(reader)?);
        }
        // Exactly N elements: the conversion cannot fail, and it keeps the
        // allocation (no copy).
        match Box::<[T; N]>::try_from(elements.into_boxed_slice()) {
            Ok(array) => Ok(array),
            Err(_) => Err(Error::new(ErrorKind::InvalidDeclaration, reader.bits_read())),
        }
    })
}
