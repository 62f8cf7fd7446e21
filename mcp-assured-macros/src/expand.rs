//! What `#[mcp_test]` turns a function into: one `#[test]` per server variant, each calling
//! `mcp_assured::__private::run_fixtures` with the tuple of its parameter types, the test's
//! settings, a function that makes the server (from the fixtures it names) and one that
//! boxes the original body. Nothing is generic over the test itself, so a test compiles to
//! little more than its body.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::{Attribute, Expr, ExprLit, Ident, ItemFn, Lit, LitStr, Path, spanned::Spanned};

use crate::{
    options::{Options, ServerEntry, TransportEntry, TransportKind},
    signature::{Param, Passing},
};

/// One generated test: a server, the transport to reach it, and the protocol revision.
#[derive(Clone)]
struct Variant<'a> {
    name: String,
    server: &'a ServerEntry,
    transport: Option<&'a TransportEntry>,
    kind: Kind,
    protocol: Option<&'a LitStr>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    InProcess,
    Stdio,
    Http,
    Sse,
}

impl Kind {
    fn from(transport: TransportKind) -> Self {
        match transport {
            TransportKind::Stdio => Kind::Stdio,
            TransportKind::Http => Kind::Http,
            TransportKind::Sse => Kind::Sse,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::InProcess => "in_process",
            Kind::Stdio => "stdio",
            Kind::Http => "http",
            Kind::Sse => "sse",
        }
    }
}

pub(crate) fn expand(
    options: &Options,
    function: &ItemFn,
    params: &[Param],
) -> Result<TokenStream, syn::Error> {
    let variants = variants(options)?;
    check_placeholders(options, params, &variants)?;
    let krate = options
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::mcp_assured));
    let name = &function.sig.ident;
    let vis = &function.vis;
    let attrs = &function.attrs;
    let body_fn = ItemFn {
        attrs: Vec::new(),
        ..function.clone()
    };
    let fixture_check = fixture_check(&krate, params);
    let snapshots = named_snapshots(&function.block);
    if let [variant] = variants.as_slice() {
        let body = Body {
            name,
            path: quote!(#name),
            variant: None,
            snapshots,
        };
        let call = test_call(&krate, options, params, variant, body);
        return Ok(quote! {
            #fixture_check
            #(#attrs)*
            #[test]
            #vis fn #name() {
                #body_fn
                #call
            }
        });
    }
    let cfgs: Vec<&Attribute> = attrs
        .iter()
        .filter(|attribute| attribute.path().is_ident("cfg"))
        .collect();
    let tests = variants.iter().map(|variant| {
        let test_name = Ident::new(&variant.name, name.span());
        let body = Body {
            name,
            path: quote!(super::#name),
            variant: Some(&variant.name),
            snapshots,
        };
        let call = test_call(&krate, options, params, variant, body);
        quote! {
            #(#attrs)*
            #[test]
            pub fn #test_name() {
                #call
            }
        }
    });
    Ok(quote! {
        #(#cfgs)*
        #fixture_check
        #(#cfgs)*
        #body_fn

        #(#cfgs)*
        #vis mod #name {
            #[allow(unused_imports)]
            use super::*;
            #(#tests)*
        }
    })
}

/// Checks outside the `#[test]` function (which only exists under `--test`) that every
/// parameter's type is a fixture, so an unsupported type is an error at the type.
fn fixture_check(krate: &Path, params: &[Param]) -> TokenStream {
    let checks = params.iter().map(|param| {
        let ty = &param.ty;
        quote_spanned! {ty.span()=>
            #krate::__private::assert_fixture::<#ty>();
        }
    });
    quote! {
        const _: fn() = || {
            #(#checks)*
        };
    }
}

/// One variant per server and transport it can be reached over; names are the transport
/// (`stdio`, `http`, `in_process`), prefixed with the server where two would clash.
fn variants(options: &Options) -> Result<Vec<Variant<'_>>, syn::Error> {
    if options.servers.is_empty() {
        return Err(syn::Error::new(
            Span::call_site(),
            "#[mcp_test] needs a server: `server = service(MyServer::new())`, \
             `server = bin(\"my-server\")`, `server = command(\"python\", \"server.py\")` \
             or `server = url(\"http://127.0.0.1:8000/mcp\")`",
        ));
    }
    let has_child = options.servers.iter().any(ServerEntry::is_child);
    let has_url = options
        .servers
        .iter()
        .any(|server| matches!(server, ServerEntry::Url(_)));
    if let Some(span) = options.transport_span
        && !has_child
        && !has_url
    {
        return Err(syn::Error::new(
            span,
            "`transport` does not apply to service(..): it runs in this process",
        ));
    }
    let mut variants = Vec::new();
    for server in &options.servers {
        match server {
            ServerEntry::Service(_) => variants.push(Variant {
                name: String::new(),
                server,
                transport: None,
                kind: Kind::InProcess,
                protocol: None,
            }),
            ServerEntry::Url(url) => {
                let before = variants.len();
                if options.transports.is_empty() {
                    variants.push(Variant {
                        name: String::new(),
                        server,
                        transport: None,
                        kind: Kind::Http,
                        protocol: None,
                    });
                }
                for transport in &options.transports {
                    if transport.kind == TransportKind::Stdio {
                        if !has_child {
                            return Err(syn::Error::new(
                                transport.span,
                                "a url(..) server is reached over `http` or `sse`, not stdio",
                            ));
                        }
                        continue;
                    }
                    variants.push(Variant {
                        name: String::new(),
                        server,
                        transport: Some(transport),
                        kind: Kind::from(transport.kind),
                        protocol: None,
                    });
                }
                if variants.len() == before {
                    return Err(syn::Error::new(
                        url.span(),
                        "this url(..) server has no transport: add `http` or `sse` to `transport`",
                    ));
                }
            }
            ServerEntry::Bin(_) | ServerEntry::Command { .. } => {
                if options.transports.is_empty() {
                    variants.push(Variant {
                        name: String::new(),
                        server,
                        transport: None,
                        kind: Kind::Stdio,
                        protocol: None,
                    });
                }
                for transport in &options.transports {
                    variants.push(Variant {
                        name: String::new(),
                        server,
                        transport: Some(transport),
                        kind: Kind::from(transport.kind),
                        protocol: None,
                    });
                }
            }
        }
    }
    name_variants(&mut variants);
    Ok(by_protocol(variants, &options.protocols))
}

/// Each variant once per protocol revision, when there are several, named after it
/// (`stdio_v2026_07_28`, or `v2026_07_28` for a single server and transport); the name is
/// also the snapshots' suffix, so they carry the revision.
fn by_protocol<'a>(variants: Vec<Variant<'a>>, protocols: &'a [LitStr]) -> Vec<Variant<'a>> {
    match protocols {
        [] => variants,
        [only] => variants
            .into_iter()
            .map(|variant| Variant {
                protocol: Some(only),
                ..variant
            })
            .collect(),
        several => {
            let single = variants.len() == 1;
            variants
                .iter()
                .flat_map(|variant| {
                    several.iter().map(move |protocol| {
                        let revision = format!("v{}", identifier_of(&protocol.value()));
                        Variant {
                            name: if single {
                                revision
                            } else {
                                format!("{}_{revision}", variant.name)
                            },
                            protocol: Some(protocol),
                            ..variant.clone()
                        }
                    })
                })
                .collect()
        }
    }
}

/// `2026-07-28` as part of an identifier: `2026_07_28`.
fn identifier_of(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

fn name_variants(variants: &mut [Variant<'_>]) {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for variant in variants.iter() {
        *counts.entry(variant.kind.name()).or_default() += 1;
    }
    let mut taken = BTreeSet::new();
    for variant in variants.iter_mut() {
        let base = if counts[variant.kind.name()] > 1 {
            format!("{}_{}", variant.server.label(), variant.kind.name())
        } else {
            variant.kind.name().to_owned()
        };
        let mut name = base.clone();
        let mut index = 2;
        while !taken.insert(name.clone()) {
            name = format!("{base}_{index}");
            index += 1;
        }
        variant.name = name;
    }
}

/// Checks `{name}` placeholders in literal strings: each must be a parameter or `{port}`,
/// and `{port}` must only reach servers started on a port.
fn check_placeholders(
    options: &Options,
    params: &[Param],
    variants: &[Variant<'_>],
) -> Result<(), syn::Error> {
    let known: BTreeSet<String> = params
        .iter()
        .map(|param| param.name.to_string())
        .chain(["port".to_owned()])
        .collect();
    let shared = options
        .args
        .iter()
        .chain(options.env.iter().map(|(_, value)| value))
        .chain(&options.cwd);
    let any_stdio_child = variants
        .iter()
        .any(|variant| variant.server.is_child() && variant.kind == Kind::Stdio);
    for expr in shared {
        check_literal(expr, &known, any_stdio_child)?;
    }
    for transport in &options.transports {
        let stdio = transport.kind == TransportKind::Stdio;
        for expr in transport
            .args
            .iter()
            .chain(transport.env.iter().map(|(_, v)| v))
        {
            check_literal(expr, &known, stdio)?;
        }
    }
    Ok(())
}

fn check_literal(
    expr: &Expr,
    known: &BTreeSet<String>,
    reaches_stdio: bool,
) -> Result<(), syn::Error> {
    let Expr::Lit(ExprLit {
        lit: Lit::Str(literal),
        ..
    }) = expr
    else {
        return Ok(());
    };
    for name in placeholder_names(&literal.value()) {
        // `{param.suffix}` is another value of a fixture (an MCP double's `{upstream.command}`),
        // known when it starts: its parameter is checked here, the suffix at run time.
        let parameter = name
            .split_once('.')
            .map_or(name.as_str(), |(param, _)| param);
        if !known.contains(parameter) {
            let listed = known
                .iter()
                .map(|name| format!("{{{name}}}"))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(syn::Error::new(
                literal.span(),
                format!(
                    "unknown placeholder `{{{name}}}`; placeholders are the test's parameters \
                     and {{port}}: {listed}"
                ),
            ));
        }
        if name == "port" && reaches_stdio {
            return Err(syn::Error::new(
                literal.span(),
                "`{port}` is only known for servers started over http or sse: put it in \
                 `transport = http(args(\"--port\", \"{port}\"))`",
            ));
        }
    }
    Ok(())
}

/// The names inside `{..}`, skipping `{{` escapes.
fn placeholder_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        let after = &rest[at + 1..];
        if let Some(escaped) = after.strip_prefix('{') {
            rest = escaped;
            continue;
        }
        match after.find('}') {
            Some(end) => {
                names.push(after[..end].to_owned());
                rest = &after[end + 1..];
            }
            None => break,
        }
    }
    names
}

/// The test function a variant calls.
struct Body<'a> {
    name: &'a Ident,
    /// How the variant's test reaches it (`name`, or `super::name` from a variant's module).
    path: TokenStream,
    /// The variant's name, when the test has several.
    variant: Option<&'a str>,
    /// Which of insta's snapshot macros the body names.
    snapshots: Snapshots,
}

fn test_call(
    krate: &Path,
    options: &Options,
    params: &[Param],
    variant: &Variant<'_>,
    body: Body<'_>,
) -> TokenStream {
    let run = quote!(#krate::__private);
    let mut settings = settings(options, body.variant, variant.protocol);
    match body.snapshots {
        Snapshots::None => {}
        Snapshots::Text => settings.extend(quote!(.text_snapshot_filters())),
        Snapshots::Serialized => settings.extend(quote!(.serialized_snapshot_filters())),
    }
    let test_name = body.name.to_string();
    let body = body.path;
    let types = params.iter().map(|param| &param.ty);
    let names = params.iter().map(|param| param.name.to_string());
    let mut source = source(&run, variant);
    if let Some(configure) = &options.client {
        source.extend(quote!(.configure_client(#configure)));
    }
    let mut used = mentioned_idents(variant.server);
    if let Some(configure) = &options.client {
        collect_idents(quote!(#configure), &mut used);
    }
    let server_bindings = params
        .iter()
        .enumerate()
        .filter(|(_, param)| used.contains(&param.name.to_string()))
        .map(|(index, param)| {
            let name = &param.name;
            let index = syn::Index::from(index);
            quote!(let #name = __mcp_slots.#index.for_server();)
        });
    // Numbered, not named after the parameter: `_client` would make `__mcp_fixture__client`,
    // which the `non_snake_case` lint rejects in the user's crate.
    let fixtures: Vec<Ident> = (0..params.len())
        .map(|index| format_ident!("__mcp_fixture_{index}"))
        .collect();
    let patterns = params
        .iter()
        .zip(&fixtures)
        .map(|(param, fixture)| match param.passing {
            Passing::RefMut => quote!(mut #fixture),
            Passing::Value | Passing::Ref => quote!(#fixture),
        });
    let pass = params
        .iter()
        .zip(&fixtures)
        .map(|(param, fixture)| match param.passing {
            Passing::Value => quote!(#fixture),
            Passing::Ref => quote!(&#fixture),
            Passing::RefMut => quote!(&mut #fixture),
        });
    let all_by_value = params
        .iter()
        .all(|param| matches!(param.passing, Passing::Value));
    // A body taking its fixtures by value is the future boxed as it is; one that borrows
    // them needs a block that owns them.
    let body_future = if all_by_value {
        quote!(#body(#(#pass),*))
    } else {
        quote!(async move { #body(#(#pass),*).await })
    };
    // Two plain functions and one call: nothing here is generic over the test, so a suite
    // of thousands of tests compiles one setup per set of parameter types.
    quote! {
        #run::run_fixtures::<(#(#types,)*), _>(
            #run::TestSettings::new(#test_name) #settings,
            &[#(#names),*],
            |__mcp_slots| {
                #(#server_bindings)*
                #source
            },
            |(#(#patterns,)*)| ::std::boxed::Box::pin(#body_future),
        );
    }
}

/// The test's settings: its own (timeout, runtime, variant), the client's builder, and what
/// every child server gets.
fn settings(options: &Options, variant: Option<&str>, protocol: Option<&LitStr>) -> TokenStream {
    let mut chain = TokenStream::new();
    if let Some(ms) = options.timeout_ms {
        chain.extend(quote!(.timeout(::core::time::Duration::from_millis(#ms))));
    }
    if let Some(threads) = &options.worker_threads {
        chain.extend(quote!(.worker_threads(#threads)));
    }
    if let Some(variant) = variant {
        chain.extend(quote!(.variant(#variant)));
    }
    let mut client = TokenStream::new();
    if let Some(ms) = options.request_timeout_ms {
        client.extend(quote!(.timeout(::core::time::Duration::from_millis(#ms))));
    }
    if let Some(ms) = options.startup_timeout_ms {
        client.extend(quote!(.startup_timeout(::core::time::Duration::from_millis(#ms))));
    }
    if let Some(version) = protocol {
        client.extend(quote!(.protocol_version(#version)));
    }
    if let Some(token) = &options.bearer_token {
        client.extend(quote!(.bearer_token(::std::string::ToString::to_string(&(#token)))));
    }
    for (name, value) in &options.headers {
        client.extend(quote! {
            .header(
                ::std::string::ToString::to_string(&(#name)),
                ::std::string::ToString::to_string(&(#value)),
            )
        });
    }
    if !client.is_empty() {
        chain.extend(quote!(.client(|__mcp_client| __mcp_client #client)));
    }
    let mut child = TokenStream::new();
    for arg in &options.args {
        child.extend(quote!(.arg(#arg)));
    }
    for (name, value) in &options.env {
        let name = name.to_string();
        child.extend(quote!(.env(#name, #value)));
    }
    if let Some(cwd) = &options.cwd {
        child.extend(quote!(.current_dir(#cwd)));
    }
    if !child.is_empty() {
        chain.extend(quote!(.child(|__mcp_child| __mcp_child #child)));
    }
    chain
}

fn source(run: &TokenStream, variant: &Variant<'_>) -> TokenStream {
    let base = match variant.server {
        ServerEntry::Service(service) => quote!(#run::ServerSource::service(#service)),
        ServerEntry::Url(url) => quote!(#run::ServerSource::url(#url)),
        ServerEntry::Bin(name) => {
            let variable = LitStr::new(&format!("CARGO_BIN_EXE_{}", name.value()), name.span());
            let message = LitStr::new(
                &format!(
                    "bin(\"{0}\"): cargo sets CARGO_BIN_EXE_{0} only in the integration tests \
                     (tests/*.rs) and benches of the package that has a binary named `{0}`",
                    name.value()
                ),
                name.span(),
            );
            quote_spanned!(name.span()=> #run::ServerSource::program(::core::env!(#variable, #message)))
        }
        ServerEntry::Command { program, args } => {
            quote!(#run::ServerSource::program(#program) #(.program_arg(#args))*)
        }
    };
    let transport = match variant.kind {
        Kind::InProcess => quote!(InProcess),
        Kind::Stdio => quote!(Stdio),
        Kind::Http => quote!(Http),
        Kind::Sse => quote!(Sse),
    };
    let mut chain = quote!(#base.transport(#run::Transport::#transport));
    if let Some(entry) = variant.transport {
        for arg in &entry.args {
            chain.extend(quote!(.arg(#arg)));
        }
        for (name, value) in &entry.env {
            let name = name.to_string();
            chain.extend(quote!(.env(#name, #value)));
        }
        if let Some(path) = &entry.path {
            chain.extend(quote!(.path(#path)));
        }
    }
    chain
}

/// insta's snapshot macros whose snapshots are text: the text's redactions are filters
/// (regular expressions, compiled once per process when a test needs them).
const TEXT_SNAPSHOT_MACROS: &[&str] = &[
    "assert_snapshot",
    "assert_debug_snapshot",
    "assert_compact_debug_snapshot",
    "assert_display_snapshot",
    "with_settings",
];

/// insta's snapshot macros that serialise a value: their redactions are filters too, more of
/// them (the volatile keys of JSON and YAML).
const SERIALIZED_SNAPSHOT_MACROS: &[&str] = &[
    "assert_json_snapshot",
    "assert_compact_json_snapshot",
    "assert_yaml_snapshot",
    "assert_ron_snapshot",
    "assert_toml_snapshot",
    "assert_csv_snapshot",
];

/// Which of insta's snapshot macros a body names, so the test binds only the filters they
/// need. mcp-assured's own snapshot macros redact their values themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Snapshots {
    None,
    /// [`TEXT_SNAPSHOT_MACROS`] only.
    Text,
    /// One of [`SERIALIZED_SNAPSHOT_MACROS`].
    Serialized,
}

fn named_snapshots(block: &syn::Block) -> Snapshots {
    let mut found = BTreeSet::new();
    collect_idents(quote!(#block), &mut found);
    let names = |macros: &[&str]| macros.iter().any(|name| found.contains(*name));
    if names(SERIALIZED_SNAPSHOT_MACROS) {
        Snapshots::Serialized
    } else if names(TEXT_SNAPSHOT_MACROS) {
        Snapshots::Text
    } else {
        Snapshots::None
    }
}

/// The identifiers an expression of the server entry mentions, to bind only the fixtures it
/// uses.
fn mentioned_idents(server: &ServerEntry) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let tokens = match server {
        ServerEntry::Service(expr) | ServerEntry::Url(expr) => quote!(#expr),
        ServerEntry::Command { program, args } => quote!(#program #(#args)*),
        ServerEntry::Bin(_) => TokenStream::new(),
    };
    collect_idents(tokens, &mut found);
    found
}

fn collect_idents(tokens: TokenStream, found: &mut BTreeSet<String>) {
    for token in tokens {
        match token {
            TokenTree::Ident(ident) => {
                found.insert(ident.to_string());
            }
            TokenTree::Group(group) => collect_idents(group.stream(), found),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_insta_s_snapshot_macros_in_a_body() {
        let named = |body: TokenStream| named_snapshots(&syn::parse2(body).unwrap());
        assert_eq!(
            named(quote!({
                insta::assert_snapshot!(text);
            })),
            Snapshots::Text
        );
        assert_eq!(
            named(quote!({
                if ok {
                    assert_debug_snapshot!(value)
                }
            })),
            Snapshots::Text
        );
        assert_eq!(
            named(quote!({
                insta::assert_json_snapshot!(value);
            })),
            Snapshots::Serialized
        );
        assert_eq!(
            named(quote!({
                insta::assert_snapshot!(text);
                for value in values {
                    assert_yaml_snapshot!(value);
                }
            })),
            Snapshots::Serialized
        );
        assert_eq!(
            named(quote!({
                mcp_assured::assert_tool_snapshot!(result);
                assert_eq!(1, 1);
            })),
            Snapshots::None
        );
    }

    #[test]
    fn finds_placeholder_names() {
        assert_eq!(
            placeholder_names("{backend}/x?{{literal}}&p={port}"),
            ["backend", "port"]
        );
    }
}
