//! The test function: checked (async, no generics, no receiver, no other test attribute)
//! and its parameters read as fixtures.

use syn::{FnArg, Ident, ItemFn, Pat, PatIdent, Type, TypeReference, spanned::Spanned};

/// How a parameter takes its fixture.
pub(crate) enum Passing {
    Value,
    Ref,
    RefMut,
}

/// One parameter: `name: Type`, `name: &Type` or `name: &mut Type`.
pub(crate) struct Param {
    pub(crate) name: Ident,
    pub(crate) ty: Type,
    pub(crate) passing: Passing,
}

/// How many fixtures a test may take: `mcp_assured::__private::MAX_FIXTURES`, the largest
/// tuple the runner sets up.
const MAX_PARAMETERS: usize = 12;

/// Test attributes that would run the function a second way, or build a second runtime.
const OTHER_TEST_ATTRIBUTES: &[&str] = &["test", "tokio::test", "async_std::test", "rstest"];

/// Checks the function and reads its parameters; every problem is reported, not just the
/// first.
pub(crate) fn read(function: &ItemFn) -> Result<Vec<Param>, syn::Error> {
    let mut errors: Vec<syn::Error> = Vec::new();
    let signature = &function.sig;
    if signature.asyncness.is_none() {
        errors.push(syn::Error::new(
            signature.fn_token.span(),
            "#[mcp_test] functions must be `async fn`",
        ));
    }
    if !signature.generics.params.is_empty() || signature.generics.where_clause.is_some() {
        errors.push(syn::Error::new(
            signature.generics.span(),
            "#[mcp_test] functions cannot be generic: each parameter's type says which fixture it gets",
        ));
    }
    if let Some(variadic) = &signature.variadic {
        errors.push(syn::Error::new(
            variadic.span(),
            "variadic functions cannot be tests",
        ));
    }
    for attribute in &function.attrs {
        let path = attribute
            .path()
            .segments
            .iter()
            .map(|segment| segment.ident.to_string())
            .collect::<Vec<_>>()
            .join("::");
        if OTHER_TEST_ATTRIBUTES.contains(&path.as_str()) {
            errors.push(syn::Error::new_spanned(
                attribute,
                format!(
                    "remove #[{path}]: #[mcp_test] already makes this a test, with its own runtime"
                ),
            ));
        }
    }
    if let Some(extra) = signature.inputs.iter().nth(MAX_PARAMETERS) {
        errors.push(syn::Error::new(
            extra.span(),
            format!(
                "#[mcp_test] functions take at most {MAX_PARAMETERS} fixtures: group the rest \
                 in a fixture of your own (a struct implementing `Fixture`)"
            ),
        ));
    }
    let mut params = Vec::new();
    for input in &signature.inputs {
        match read_param(input) {
            Ok(param) => params.push(param),
            Err(error) => errors.push(error),
        }
    }
    match errors.into_iter().reduce(|mut all, next| {
        all.combine(next);
        all
    }) {
        Some(errors) => Err(errors),
        None => Ok(params),
    }
}

fn read_param(input: &FnArg) -> Result<Param, syn::Error> {
    let typed = match input {
        FnArg::Receiver(receiver) => {
            return Err(syn::Error::new(
                receiver.span(),
                "#[mcp_test] functions cannot take `self`",
            ));
        }
        FnArg::Typed(typed) => typed,
    };
    let name = match &*typed.pat {
        Pat::Ident(PatIdent {
            ident,
            subpat: None,
            by_ref: None,
            ..
        }) => ident.clone(),
        other => {
            return Err(syn::Error::new(
                other.span(),
                "#[mcp_test] parameters must be plain names (`client: McpClient`): the name is \
                 the fixture's `{placeholder}`",
            ));
        }
    };
    let (ty, passing) = match &*typed.ty {
        Type::Reference(TypeReference {
            mutability,
            elem,
            lifetime,
            ..
        }) => {
            if let Some(lifetime) = lifetime {
                return Err(syn::Error::new(
                    lifetime.span(),
                    "fixture references cannot name a lifetime: they live as long as the test",
                ));
            }
            let passing = if mutability.is_some() {
                Passing::RefMut
            } else {
                Passing::Ref
            };
            ((**elem).clone(), passing)
        }
        Type::ImplTrait(impl_trait) => {
            return Err(syn::Error::new(
                impl_trait.span(),
                "#[mcp_test] parameters need a concrete type: the type says which fixture to make",
            ));
        }
        other => (other.clone(), Passing::Value),
    };
    Ok(Param { name, ty, passing })
}
