//! A `String` of at most `max_len` bytes: `write_str(s, max_len)`'s wire,
//! NUL allowed (`write_rust_string`): only bitpack peers read a derived
//! `String`, and the length prefix, not a NUL, ends it.

use crate::expand::codec::Codec;
use crate::expand::names::{Access, Names};
use crate::ir::encoding::Text;
use proc_macro2::TokenStream;
use quote::quote;

impl Codec for Text {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        let (p, writer, reference, max_len) =
            (&names.runtime, &names.writer, access.reference(), &self.max_len);
        quote!(#p::write_rust_string(#writer, #reference, #max_len)?;)
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        let (p, reader, max_len) = (&names.runtime, &names.reader, &self.max_len);
        quote!(#p::read_rust_string(#reader, #max_len)?)
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let (p, max_len) = (&names.runtime, &self.max_len);
        quote!(#p::str_max_bits(#max_len))
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        let (p, max_len) = (&names.runtime, &self.max_len);
        quote!(#p::len_bits(#max_len))
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let (p, max_len) = (&names.runtime, &self.max_len);
        quote!(#p::schema::string(#max_len))
    }
}
