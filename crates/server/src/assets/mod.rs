//! The web page and the rules pages, embedded at build time (see build.rs),
//! and how they are served: fingerprinted, compressed ([`files`],
//! [`encoding`]), the page with its import map ([`page`]).

pub mod encoding;
pub mod files;
pub mod page;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Every file of `web/`: its path inside that folder and its bytes.
pub fn web_files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    embedded::WEB.iter().copied()
}

/// A file of `web/` by its path inside that folder.
pub fn web(path: &str) -> Option<&'static [u8]> {
    embedded::WEB.iter().find(|(name, _)| *name == path).map(|(_, bytes)| *bytes)
}

/// The rules page (Markdown) for a variant id: `docs/<id>.md`, or the
/// page of the game the id belongs to (`lma-double` -> `lma.md`,
/// `fluid-single-promo` -> `fluid.md`).
pub fn rules(variant_id: &str) -> Option<&'static str> {
    let mut candidates = vec![variant_id.to_owned()];
    let mut stem = variant_id;
    while let Some((head, _)) = stem.rsplit_once('-') {
        candidates.push(head.to_owned());
        stem = head;
    }
    candidates.iter().find_map(|c| {
        let name = format!("{c}.md");
        embedded::DOCS.iter().find(|(n, _)| *n == name).and_then(|(_, bytes)| std::str::from_utf8(bytes).ok())
    })
}

/// Every embedded Markdown page of `docs/` by file name (`api.md`).
pub fn doc(name: &str) -> Option<&'static str> {
    embedded::DOCS.iter().find(|(n, _)| *n == name).and_then(|(_, bytes)| std::str::from_utf8(bytes).ok())
}

pub fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") | Some("mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("md") => "text/markdown; charset=utf-8",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// A file of the committed studies, `docs/insights/<path>` (a game's page
/// `lichen.md`, a report `lichen/lichen-a2ne/report.md`, its chart
/// `length.svg`). Only embedded files: a request never reaches the disk.
pub fn insight(path: &str) -> Option<&'static [u8]> {
    let name = format!("insights/{path}");
    embedded::DOCS.iter().find(|(n, _)| *n == name).map(|(_, bytes)| *bytes)
}

/// Every file of the committed studies, by its path inside `docs/insights/`.
pub fn insights() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    embedded::DOCS.iter().filter_map(|(name, bytes)| name.strip_prefix("insights/").map(|path| (path, *bytes)))
}

/// The address of a game's Insights page (`/insights/lichen`), if its
/// studies are committed; `game` as in `VariantInfo::game`.
pub fn insights_page(game: &str) -> Option<String> {
    insight(&format!("{game}.md")).map(|_| format!("/insights/{game}"))
}

/// The reports of a game's studies (`lichen/lichen-a2ne/report.md`, and a
/// comparison's `compare.md`), each with its title, in path order: a game's
/// Insights page lists them.
pub fn reports(game: &str) -> Vec<(&'static str, String)> {
    let folder = format!("{game}/");
    insights()
        .filter(|(path, _)| {
            path.strip_prefix(&folder).is_some_and(|rest| rest.ends_with("/report.md") || rest.ends_with("/compare.md"))
        })
        .map(|(path, bytes)| {
            let markdown = String::from_utf8_lossy(bytes);
            (path, heading(&markdown).unwrap_or_else(|| path.to_owned()))
        })
        .collect()
}

/// The text of a Markdown page's first level-1 heading, without its
/// markup (`# Study of `lichen`` -> `Study of lichen`): a page's title.
pub fn heading(markdown: &str) -> Option<String> {
    use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
    let mut title: Option<String> = None;
    for event in Parser::new(markdown) {
        match (event, title.as_mut()) {
            (Event::Start(Tag::Heading { level: HeadingLevel::H1, .. }), None) => title = Some(String::new()),
            (Event::End(TagEnd::Heading(HeadingLevel::H1)), Some(_)) => break,
            (Event::Text(text) | Event::Code(text), Some(title)) => title.push_str(&text),
            _ => {}
        }
    }
    title.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty())
}

/// The site's icon: every page names it (a page that names none makes the
/// browser ask for `/favicon.ico`, which serves it too).
pub const FAVICON: &str = "favicon.svg";

/// Markdown to an HTML page, for the rules links of the home page; `links`
/// go in the page's navigation beside the way home. A ```` ```diagram ````
/// block (a position text) is drawn as an SVG board by the board's own
/// drawing rules (menagerie-learn); the docs tests check every diagram, so a
/// page whose diagram fails is shown with the block as written.
pub fn markdown_page(title: &str, markdown: &str, links: &[(&str, String)]) -> String {
    use pulldown_cmark::{html, Options, Parser};
    let mut body = menagerie_learn::diagram::page::render_page(markdown).unwrap_or_else(|_| {
        let mut plain = String::new();
        html::push_html(&mut plain, Parser::new_ext(markdown, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH));
        plain
    });
    // A table's column alignment as a class: the pages allow no inline
    // style (the Content-Security-Policy).
    for side in ["left", "center", "right"] {
        body = body.replace(&format!(" style=\"text-align: {side}\""), &format!(" class=\"align-{side}\""));
    }
    let title = title.replace('&', "&amp;").replace('<', "&lt;");
    let links: String = links
        .iter()
        .map(|(text, href)| format!(" · <a href=\"{}\">{text}</a>", href.replace('&', "&amp;").replace('"', "&quot;")))
        .collect();
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · Menagerie</title><link rel=\"icon\" type=\"image/svg+xml\" href=\"{icon}\">\
         <link rel=\"stylesheet\" href=\"{style}\"></head>\
         <body class=\"doc\"><nav><a href=\"/\">← Menagerie</a>{links}</nav><article>{body}</article></body></html>",
        icon = page::address(FAVICON),
        style = page::address("style.css"),
    )
}
