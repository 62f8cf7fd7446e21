//! The attribute's options: `server = ..`, `transport = ..`, `env(..)`, `args(..)`, and the
//! rest, parsed with their spans so errors point at the offending tokens.

use std::collections::BTreeSet;

use proc_macro2::Span;
use syn::{
    Expr, ExprArray, ExprAssign, ExprCall, ExprLit, ExprPath, Ident, Lit, LitInt, LitStr, Path,
    Token, meta::ParseNestedMeta, parenthesized, punctuated::Punctuated, spanned::Spanned,
};

/// `"2025-11-25"` or `["2025-06-18", "2026-07-28"]`: the revisions, none twice.
fn parse_protocols(value: &Expr) -> syn::Result<Vec<LitStr>> {
    let literal = |expr: &Expr| match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(version),
            ..
        }) => Ok(version.clone()),
        other => Err(syn::Error::new(
            other.span(),
            "a protocol revision is a string: \"2025-11-25\", \"2026-07-28\" or \"newest\"",
        )),
    };
    let versions = match value {
        Expr::Array(ExprArray { elems, .. }) => {
            elems.iter().map(literal).collect::<syn::Result<Vec<_>>>()?
        }
        other => vec![literal(other)?],
    };
    if versions.is_empty() {
        return Err(syn::Error::new(
            value.span(),
            "name at least one protocol revision",
        ));
    }
    let mut seen = BTreeSet::new();
    for version in &versions {
        if !seen.insert(version.value()) {
            return Err(syn::Error::new(
                version.span(),
                format!("protocol revision `{}` is listed twice", version.value()),
            ));
        }
    }
    Ok(versions)
}

/// Every option, as the error for an unknown one lists them.
pub(crate) const OPTIONS: &str = "server, transport, env(..), args(..), headers(..), \
    bearer_token, protocol, client, timeout, request_timeout, startup_timeout, cwd, \
    worker_threads, crate";

/// Where the server under test comes from.
pub(crate) enum ServerEntry {
    /// `service(expr)`: an rmcp service in this process.
    Service(Expr),
    /// `bin("name")`: a binary of the package under test.
    Bin(LitStr),
    /// `command("program", "arg", ..)`.
    Command { program: Expr, args: Vec<Expr> },
    /// `url("http://..")`: a server that already runs.
    Url(Expr),
}

impl ServerEntry {
    pub(crate) fn is_child(&self) -> bool {
        matches!(self, ServerEntry::Bin(_) | ServerEntry::Command { .. })
    }

    /// A name for test variants: the binary's name, the program's file stem, `url`,
    /// `service`.
    pub(crate) fn label(&self) -> String {
        let raw = match self {
            ServerEntry::Service(_) => "service".to_owned(),
            ServerEntry::Bin(name) => name.value(),
            ServerEntry::Command { program, .. } => match program {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(program),
                    ..
                }) => {
                    let value = program.value();
                    let stem = value.rsplit('/').next().unwrap_or("command").to_owned();
                    stem.split('.').next().unwrap_or("command").to_owned()
                }
                _ => "command".to_owned(),
            },
            ServerEntry::Url(_) => "url".to_owned(),
        };
        identifier(&raw)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum TransportKind {
    Stdio,
    Http,
    Sse,
}

/// `http`, or `http(args(..), env(..), path = "/mcp")`.
pub(crate) struct TransportEntry {
    pub(crate) kind: TransportKind,
    pub(crate) span: Span,
    pub(crate) args: Vec<Expr>,
    pub(crate) env: Vec<(Ident, Expr)>,
    pub(crate) path: Option<Expr>,
}

#[derive(Default)]
pub(crate) struct Options {
    seen: BTreeSet<String>,
    pub(crate) krate: Option<Path>,
    pub(crate) servers: Vec<ServerEntry>,
    pub(crate) transports: Vec<TransportEntry>,
    pub(crate) transport_span: Option<Span>,
    pub(crate) env: Vec<(Ident, Expr)>,
    pub(crate) args: Vec<Expr>,
    pub(crate) headers: Vec<(LitStr, Expr)>,
    pub(crate) bearer_token: Option<Expr>,
    pub(crate) client: Option<Expr>,
    /// `protocol = "2025-11-25"`, `"newest"`, or a list: one test per revision.
    pub(crate) protocols: Vec<LitStr>,
    pub(crate) timeout_ms: Option<u64>,
    pub(crate) request_timeout_ms: Option<u64>,
    pub(crate) startup_timeout_ms: Option<u64>,
    pub(crate) cwd: Option<Expr>,
    pub(crate) worker_threads: Option<LitInt>,
}

impl Options {
    /// Parses one option; used with `syn::meta::parser`.
    pub(crate) fn parse(&mut self, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = meta
            .path
            .segments
            .iter()
            .map(|segment| segment.ident.to_string())
            .collect::<Vec<_>>()
            .join("::");
        if !self.seen.insert(key.clone()) {
            return Err(meta.error(format!("duplicate option `{key}`")));
        }
        match key.as_str() {
            "server" => {
                let value: Expr = meta.value()?.parse()?;
                self.servers = parse_list(&value, parse_server)?;
            }
            "transport" => {
                let value: Expr = meta.value()?.parse()?;
                self.transport_span = Some(value.span());
                self.transports = parse_list(&value, parse_transport)?;
            }
            "env" => self.env = parse_env(&meta)?,
            "args" => self.args = parse_exprs(&meta)?,
            "headers" => {
                let content;
                parenthesized!(content in meta.input);
                let pairs = Punctuated::<HeaderPair, Token![,]>::parse_terminated(&content)?;
                self.headers = pairs.into_iter().map(|p| (p.name, p.value)).collect();
            }
            "bearer_token" => self.bearer_token = Some(meta.value()?.parse()?),
            "client" => self.client = Some(meta.value()?.parse()?),
            "protocol" => {
                let value: Expr = meta.value()?.parse()?;
                self.protocols = parse_protocols(&value)?;
            }
            "timeout" => self.timeout_ms = Some(parse_duration(&meta.value()?.parse()?)?),
            "request_timeout" => {
                self.request_timeout_ms = Some(parse_duration(&meta.value()?.parse()?)?);
            }
            "startup_timeout" => {
                self.startup_timeout_ms = Some(parse_duration(&meta.value()?.parse()?)?);
            }
            "cwd" => self.cwd = Some(meta.value()?.parse()?),
            "worker_threads" => {
                let threads: LitInt = meta.value()?.parse()?;
                if threads.base10_parse::<usize>()? == 0 {
                    return Err(syn::Error::new(
                        threads.span(),
                        "worker_threads must be at least 1",
                    ));
                }
                self.worker_threads = Some(threads);
            }
            "crate" => {
                let path: LitStr = meta.value()?.parse()?;
                self.krate = Some(path.parse()?);
            }
            other => {
                return Err(meta.error(format!(
                    "unknown option `{other}`; valid options: {OPTIONS}"
                )));
            }
        }
        Ok(())
    }
}

struct HeaderPair {
    name: LitStr,
    value: Expr,
}

impl syn::parse::Parse for HeaderPair {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let name = input.parse()?;
        input.parse::<Token![=]>()?;
        let value = input.parse()?;
        Ok(Self { name, value })
    }
}

fn parse_env(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<(Ident, Expr)>> {
    let mut env = Vec::new();
    meta.parse_nested_meta(|var| {
        let name = var
            .path
            .get_ident()
            .cloned()
            .ok_or_else(|| var.error("expected an environment variable name, e.g. API_URL"))?;
        let value: Expr = var.value()?.parse()?;
        env.push((name, value));
        Ok(())
    })?;
    Ok(env)
}

fn parse_exprs(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<Expr>> {
    let content;
    parenthesized!(content in meta.input);
    Ok(Punctuated::<Expr, Token![,]>::parse_terminated(&content)?
        .into_iter()
        .collect())
}

/// `x` or `[x, y]`.
fn parse_list<T>(value: &Expr, parse: fn(&Expr) -> syn::Result<T>) -> syn::Result<Vec<T>> {
    match value {
        Expr::Array(ExprArray { elems, .. }) => {
            if elems.is_empty() {
                return Err(syn::Error::new(value.span(), "the list is empty"));
            }
            elems.iter().map(parse).collect()
        }
        single => Ok(vec![parse(single)?]),
    }
}

fn call_name(call: &ExprCall) -> Option<String> {
    match &*call.func {
        Expr::Path(ExprPath { path, .. }) => path.get_ident().map(ToString::to_string),
        _ => None,
    }
}

const SERVER_FORMS: &str = "expected `service(expr)`, `bin(\"name\")`, \
    `command(\"program\", \"arg\", ..)` or `url(\"http://..\")`, or a list `[..]` of them";

fn parse_server(value: &Expr) -> syn::Result<ServerEntry> {
    let Expr::Call(call) = value else {
        return Err(syn::Error::new(value.span(), SERVER_FORMS));
    };
    let args: Vec<Expr> = call.args.iter().cloned().collect();
    let one = |what: &str| -> syn::Result<Expr> {
        match args.as_slice() {
            [arg] => Ok(arg.clone()),
            _ => Err(syn::Error::new(
                call.span(),
                format!("`{what}(..)` takes exactly one argument"),
            )),
        }
    };
    match call_name(call).as_deref() {
        Some("service") => Ok(ServerEntry::Service(one("service")?)),
        Some("url") => Ok(ServerEntry::Url(one("url")?)),
        Some("bin") => match one("bin")? {
            Expr::Lit(ExprLit {
                lit: Lit::Str(name),
                ..
            }) => Ok(ServerEntry::Bin(name)),
            other => Err(syn::Error::new(
                other.span(),
                "`bin(..)` takes the binary's name as a string literal, e.g. bin(\"my-server\")",
            )),
        },
        Some("command") => {
            let mut args = args.into_iter();
            let program = args.next().ok_or_else(|| {
                syn::Error::new(call.span(), "`command(..)` needs at least the program")
            })?;
            Ok(ServerEntry::Command {
                program,
                args: args.collect(),
            })
        }
        _ => Err(syn::Error::new(call.func.span(), SERVER_FORMS)),
    }
}

const TRANSPORT_FORMS: &str = "expected `stdio`, `http` or `sse` (optionally with \
    `(args(..), env(..), path = \"..\")`), or a list `[..]` of them";

fn parse_transport(value: &Expr) -> syn::Result<TransportEntry> {
    let (name, options) = match value {
        Expr::Path(ExprPath { path, .. }) => (path.get_ident(), None),
        Expr::Call(call) => match &*call.func {
            Expr::Path(ExprPath { path, .. }) => (path.get_ident(), Some(&call.args)),
            _ => (None, None),
        },
        _ => (None, None),
    };
    let kind = match name.map(ToString::to_string).as_deref() {
        Some("stdio") => TransportKind::Stdio,
        Some("http") => TransportKind::Http,
        Some("sse") => TransportKind::Sse,
        _ => return Err(syn::Error::new(value.span(), TRANSPORT_FORMS)),
    };
    let mut entry = TransportEntry {
        kind,
        span: value.span(),
        args: Vec::new(),
        env: Vec::new(),
        path: None,
    };
    for option in options.into_iter().flatten() {
        match option {
            Expr::Call(call) if call_name(call).as_deref() == Some("args") => {
                entry.args.extend(call.args.iter().cloned());
            }
            Expr::Call(call) if call_name(call).as_deref() == Some("env") => {
                for var in &call.args {
                    entry.env.push(parse_assignment(var)?);
                }
            }
            Expr::Assign(ExprAssign { left, right, .. }) if matches!(&**left, Expr::Path(p) if p.path.is_ident("path")) =>
            {
                if kind == TransportKind::Stdio {
                    return Err(syn::Error::new(
                        left.span(),
                        "`path` applies to http and sse only",
                    ));
                }
                entry.path = Some((**right).clone());
            }
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "expected `args(..)`, `env(NAME = \"value\", ..)` or `path = \"/mcp\"`",
                ));
            }
        }
    }
    Ok(entry)
}

fn parse_assignment(expr: &Expr) -> syn::Result<(Ident, Expr)> {
    if let Expr::Assign(ExprAssign { left, right, .. }) = expr
        && let Expr::Path(ExprPath { path, .. }) = &**left
        && let Some(name) = path.get_ident()
    {
        return Ok((name.clone(), (**right).clone()));
    }
    Err(syn::Error::new(expr.span(), "expected `NAME = \"value\"`"))
}

/// `"10s"`, `"500ms"`, `"2m"` → milliseconds.
fn parse_duration(literal: &LitStr) -> syn::Result<u64> {
    let text = literal.value();
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let invalid = || {
        syn::Error::new(
            literal.span(),
            format!(
                "invalid duration {text:?}: write a whole number with ms, s or m, e.g. \"10s\""
            ),
        )
    };
    let number: u64 = number.parse().map_err(|_| invalid())?;
    let factor = match unit.trim() {
        "ms" => 1,
        "s" => 1_000,
        "m" | "min" => 60_000,
        _ => return Err(invalid()),
    };
    if number == 0 {
        return Err(syn::Error::new(
            literal.span(),
            "a timeout of zero would fail every test",
        ));
    }
    Ok(number * factor)
}

/// `weather-server` → `weather_server`, usable as a function name.
pub(crate) fn identifier(raw: &str) -> String {
    let mut out: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        let ms = |s: &str| parse_duration(&LitStr::new(s, Span::call_site()));
        assert_eq!(ms("10s").unwrap(), 10_000);
        assert_eq!(ms("250ms").unwrap(), 250);
        assert_eq!(ms("2m").unwrap(), 120_000);
        assert!(ms("10").is_err());
        assert!(ms("ten seconds").is_err());
        assert!(ms("0s").is_err());
    }

    #[test]
    fn identifiers() {
        assert_eq!(identifier("weather-server"), "weather_server");
        assert_eq!(identifier("3d"), "_3d");
    }
}
