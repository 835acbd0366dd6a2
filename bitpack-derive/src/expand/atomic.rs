//! Bodies that fail whole: a failed write leaves the writer's position and
//! every byte before it as they were (bytes past it are unspecified), a
//! failed read leaves the reader where it was, through the runtime's
//! `write_atomic` / `read_atomic` (one saved state, put back on the cold
//! path). Every impl's own body is wrapped, as any of them may be called
//! on its own; a nested value's body is then wrapped again inside its
//! parent's, a few words saved per level. The closure is inlined always:
//! left to the compiler, a fused run's body stayed out of line (+57
//! instructions a write).

use crate::expand::names::Names;
use proc_macro2::TokenStream;
use quote::quote;

/// `body` (statements ending in a `Result`, writing to `names.writer`) as
/// one write.
pub fn write(names: &Names, body: TokenStream) -> TokenStream {
    let (p, writer) = (&names.runtime, &names.writer);
    quote!(#p::write_atomic(#writer, #[inline(always)] |#writer| { #body }))
}

/// `body` as one write through the writer detached (`write_detached`: a
/// writer's state by value, put back only on `Ok`).
pub fn write_detached(names: &Names, body: TokenStream) -> TokenStream {
    let (p, writer) = (&names.runtime, &names.writer);
    quote!(#p::write_detached(#writer, #[inline(always)] |#writer| { #body }))
}

/// `body` (statements ending in a `Result`, reading from `names.reader`) as
/// one read.
pub fn read(names: &Names, body: TokenStream) -> TokenStream {
    let (p, reader) = (&names.runtime, &names.reader);
    quote!(#p::read_atomic(#reader, #[inline(always)] |#reader| { #body }))
}
