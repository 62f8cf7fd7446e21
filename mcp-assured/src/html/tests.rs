use serde_json::json;

use super::*;
use crate::report::{Clause, Entry, Level, Report, Status};

const OUTPUT: Clause = Clause {
    level: Level::Must,
    spec: "MCP 2025-11-25",
    section: "Server › Tools › Output Schema",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema",
    text: "Servers MUST provide structured results that conform to this schema.",
};

fn sample() -> Report {
    let mut failed = Entry::new(
        "protocol-checks",
        "tools.output_schemas",
        Status::Failed,
        "`scale` answered <b>no</b> structuredContent",
    );
    failed.clause = Some(OUTPUT);
    failed.problems = vec!["twice".into()];
    let mut finding = Entry::new("fuzz", "fuzz.tools.greet.crash", Status::Failed, "crash");
    finding.details = json!({"finding": {
        "kind": "crash", "subject": "tool", "name": "greet", "seed": 21,
        "arguments": {"name": ""}, "found_with": {"name": "xyz"}, "shrink_steps": 3,
        "mutation": null, "property": null, "what": "the server exited",
        "answer": null, "occurrences": 2, "replayed": false,
        "reproduce": {"command": "mcp-assured call greet --args-json '{\"name\":\"\"}' -- ./server",
                      "test": "#[mcp_test(server = command(\"./server\"))]\nasync fn greet_crash() {}"}
    }});
    [
        Entry::new("protocol-checks", "ping", Status::Passed, "answered"),
        failed,
        finding,
    ]
    .into_iter()
    .collect()
}

#[test]
fn every_verdict_is_a_row_with_its_grade_and_the_specifications_words() {
    let page = HtmlReport::new("check <demo>")
        .about("Server", "calc 1.0")
        .report(&sample())
        .render();
    assert!(page.contains("<title>check &lt;demo&gt;</title>"), "{page}");
    assert!(page.contains("<dt>Server</dt><dd>calc 1.0</dd>"), "{page}");
    assert!(
        page.contains("<td class=\"verdict passed\">PASS</td>"),
        "{page}"
    );
    assert!(
        page.contains("<td class=\"verdict failed\">FAIL</td>"),
        "{page}"
    );
    assert!(page.contains("<td>MUST</td>"), "{page}");
    assert!(
        page.contains(&format!("<a href=\"{}\">", OUTPUT.url)),
        "{page}"
    );
    assert!(page.contains(OUTPUT.text), "{page}");
    assert!(page.contains("answered &lt;b&gt;no&lt;/b&gt; structuredContent <em>[twice]</em>"));
    assert!(
        page.contains("1 passed, <span class=\"failed\">2 failed</span>"),
        "{page}"
    );
}

#[test]
fn a_fuzz_finding_shows_its_input_answer_and_reproductions() {
    let page = sample().to_html("fuzz");
    assert!(page.contains("<h2>Fuzz findings (1)</h2>"), "{page}");
    assert!(
        page.contains("<code>crash</code> in tool <code>greet</code>"),
        "{page}"
    );
    assert!(
        page.contains("<pre class=\"input\">{\n  &quot;name&quot;: &quot;&quot;\n}</pre>"),
        "{page}"
    );
    assert!(page.contains("Found with (shrunk in 3 steps)"), "{page}");
    assert!(
        page.contains("<pre class=\"command\">mcp-assured call greet"),
        "{page}"
    );
    assert!(
        page.contains("#[mcp_test(server = command(&quot;./server&quot;))]"),
        "{page}"
    );
}

#[test]
fn the_page_loads_nothing_and_runs_nothing() {
    let page = sample().to_html("check");
    assert!(!page.contains("<script"));
    // The one link, an empty icon inline, keeps the browser from asking for /favicon.ico.
    assert_eq!(page.matches("<link").count(), 1);
    assert!(page.contains("<link rel=\"icon\" href=\"data:,\">"));
    assert!(!page.contains("src="));
    assert!(
        page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\"")
    );
    assert!(page.contains("@media print"));
}

#[cfg(feature = "lint")]
#[test]
fn a_lint_is_headed_by_the_server_or_servers_it_was_of() {
    use crate::{diff::Surface, lint::Lint};

    let named = |name: &str| {
        Surface::from_json(json!({
            "server": {"name": name, "version": "1.0.0"},
            "tools": [{"name": "add", "inputSchema": {"type": "object"}}],
        }))
        .unwrap()
    };
    let heading = |page: String| {
        let start = page.find("<section id=\"lint\">\n<h2>").unwrap();
        let rest = &page[start + "<section id=\"lint\">\n<h2>".len()..];
        rest[..rest.find("</h2>").unwrap()].to_owned()
    };
    let one = Lint::new().run(&named("calc<1>"));
    assert_eq!(
        heading(HtmlReport::new("lint").lint(&one).render()),
        "What the model sees: lint of calc&lt;1&gt; 1.0.0"
    );
    let (mail, unknown) = (named("mail-server"), Surface::default());
    let several = Lint::new().run_servers(&[("mail", &mail), ("twin", &unknown)]);
    assert_eq!(
        heading(HtmlReport::new("lint").lint(&several).render()),
        "What the model sees: lint of mail (mail-server 1.0.0), twin"
    );
    let anonymous = Lint::new().run(&Surface::default());
    assert_eq!(
        heading(HtmlReport::new("lint").lint(&anonymous).render()),
        "What the model sees: lint"
    );
}
