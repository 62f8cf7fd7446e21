//! Procedural macros for [`mcp-assured`](https://docs.rs/mcp-assured).
//!
//! Do not depend on this crate directly: `#[mcp_test]` is re-exported, and documented, by
//! `mcp-assured` as `mcp_assured::mcp_test`.

mod expand;
mod options;
mod signature;
mod suite;

use proc_macro::TokenStream;
use quote::quote;
use syn::{ItemFn, ItemMod};

use crate::options::Options;

/// Turns an async function into a test of an MCP server. Documented in `mcp-assured`.
#[proc_macro_attribute]
pub fn mcp_test(attr: TokenStream, item: TokenStream) -> TokenStream {
    if let Ok(module) = syn::parse::<ItemMod>(item.clone()) {
        return suite::expand(attr.into(), module).into();
    }
    let function = match syn::parse::<ItemFn>(item.clone()) {
        Ok(function) => function,
        Err(error) => {
            let error = error.to_compile_error();
            let item = proc_macro2::TokenStream::from(item);
            return quote!(#error #item).into();
        }
    };
    let mut options = Options::default();
    let parser = syn::meta::parser(|meta| options.parse(meta));
    let parsed = syn::parse::Parser::parse(parser, attr);
    let params = signature::read(&function);
    let expanded = match (parsed, params) {
        (Ok(()), Ok(params)) => expand::expand(&options, &function, &params),
        (Err(mut error), Err(more)) => {
            error.combine(more);
            Err(error)
        }
        (Err(error), _) | (_, Err(error)) => Err(error),
    };
    match expanded {
        Ok(tokens) => tokens.into(),
        // The function is still emitted, so that the IDE keeps resolving names in it.
        Err(error) => {
            let error = error.to_compile_error();
            quote!(#error #[allow(dead_code)] #function).into()
        }
    }
}
