//! `#[mcp_test(..)]` on an inline module: its options become the defaults of every
//! `#[mcp_test]` function inside, which may add options or override them.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::{Attribute, Item, ItemMod, Meta, spanned::Spanned};

use crate::options::Options;

pub(crate) fn expand(attr: TokenStream, mut module: ItemMod) -> TokenStream {
    // The module's options are checked here, so a typo is reported once, where it is.
    let mut options = Options::default();
    let parser = syn::meta::parser(|meta| options.parse(meta));
    if let Err(error) = syn::parse::Parser::parse2(parser, attr.clone()) {
        // The functions stay (for the IDE), without a second error each.
        if let Some((_, items)) = &mut module.content {
            for item in items.iter_mut() {
                if let Item::Fn(function) = item {
                    function.attrs.retain(|attribute| !is_mcp_test(attribute));
                    function.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
                }
            }
        }
        let error = error.to_compile_error();
        return quote!(#error #module);
    }
    let Some((_, items)) = &mut module.content else {
        let error = syn::Error::new(
            module.span(),
            "#[mcp_test] on a module needs the module's body inline: `mod suite { .. }`",
        )
        .to_compile_error();
        return quote!(#error #module);
    };
    let defaults = split(attr);
    let mut tests = 0;
    for item in items.iter_mut() {
        let Item::Fn(function) = item else { continue };
        for attribute in &mut function.attrs {
            if is_mcp_test(attribute) {
                *attribute = merged(attribute, &defaults);
                tests += 1;
            }
        }
    }
    if tests == 0 {
        let error = syn::Error::new(
            module.ident.span(),
            "no `#[mcp_test]` function in this module: mark each test with #[mcp_test]; \
             the module's options become their defaults",
        )
        .to_compile_error();
        return quote!(#error #module);
    }
    quote!(#module)
}

fn is_mcp_test(attribute: &Attribute) -> bool {
    attribute
        .path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "mcp_test")
}

/// The function's attribute with the module's options it does not set itself.
fn merged(attribute: &Attribute, defaults: &[(String, TokenStream)]) -> Attribute {
    let own = match &attribute.meta {
        Meta::List(list) => list.tokens.clone(),
        Meta::Path(_) | Meta::NameValue(_) => TokenStream::new(),
    };
    let own_options = split(own);
    let options = own_options.iter().chain(
        defaults
            .iter()
            .filter(|(key, _)| !own_options.iter().any(|(own, _)| own == key)),
    );
    let options = options.map(|(_, tokens)| tokens);
    let path = attribute.path();
    syn::parse_quote_spanned!(attribute.span()=> #[#path(#(#options),*)])
}

/// Splits `a = 1, b(..), c = [x, y]` into its options, keyed by name.
fn split(tokens: TokenStream) -> Vec<(String, TokenStream)> {
    let mut options = Vec::new();
    let mut current = TokenStream::new();
    let mut push = |current: &mut TokenStream| {
        let option = std::mem::take(current);
        let key = option.clone().into_iter().find_map(|token| match token {
            TokenTree::Ident(ident) => Some(ident.to_string()),
            _ => None,
        });
        if let Some(key) = key {
            options.push((key, option));
        }
    };
    for token in tokens {
        match &token {
            TokenTree::Punct(punct) if punct.as_char() == ',' => push(&mut current),
            _ => current.extend([token]),
        }
    }
    push(&mut current);
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_options_at_top_level_commas() {
        let options = split(quote!(
            server = [a(1, 2), b],
            env(X = "1", Y = "2"),
            timeout = "1s",
        ));
        let keys: Vec<&str> = options.iter().map(|(key, _)| key.as_str()).collect();
        assert_eq!(keys, ["server", "env", "timeout"]);
    }

    #[test]
    fn the_function_overrides_the_module() {
        let attribute: Attribute = syn::parse_quote!(#[mcp_test(timeout = "5s")]);
        let merged = merged(
            &attribute,
            &split(quote!(server = bin("x"), timeout = "60s")),
        );
        assert_eq!(
            quote!(#merged).to_string(),
            quote!(#[mcp_test(timeout = "5s", server = bin("x"))]).to_string()
        );
    }
}
