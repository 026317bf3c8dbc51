//! The web page (`web/index.html`) as served: every `/assets/` address in
//! it fingerprinted, and an import map that sends each module's imports
//! (`./board.js`, resolved to `/assets/board.js`) to the fingerprinted
//! address too, so that a file changed in a new version is fetched again
//! and every other one comes from the browser's cache. The import map is
//! the page's one inline script; the policy names it by its hash.

use super::files::{self, content_hash};
use base64::Engine as _;
use sha2::{Digest, Sha256};
use std::sync::LazyLock;

/// The page, built once.
#[derive(Debug)]
pub struct Page {
    pub html: String,
    /// Its content hash (its entity tag's).
    pub hash: String,
    /// The import map's text, as it stands between its tags.
    import_map: String,
}

static PAGE: LazyLock<Page> = LazyLock::new(build);

/// The page every address of the app serves (`/`, `/g/<id>`, …).
pub fn page() -> &'static Page {
    &PAGE
}

/// The import map's source in a Content-Security-Policy: `'sha256-…'`.
pub fn import_map_source() -> String {
    let digest = Sha256::digest(page().import_map.as_bytes());
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(digest))
}

/// The fingerprinted address of the file of `web/` at `path`
/// (`style.css` -> `/assets/style.<hash>.css`), or its plain address if
/// there is no such file.
pub fn address(path: &str) -> String {
    files::file(path).map_or_else(|| format!("/assets/{path}"), files::WebFile::fingerprinted)
}

fn build() -> Page {
    let template = super::web("index.html").map(String::from_utf8_lossy).unwrap_or_default();
    let mut html = template.into_owned();
    for file in files::all() {
        html = html.replace(&format!("\"/assets/{}\"", file.path), &format!("\"{}\"", file.fingerprinted()));
    }
    // Every module and style sheet, so that `import.meta.resolve` finds
    // them too (the analysis board's style sheet is added when needed).
    let imports: serde_json::Map<String, serde_json::Value> = files::all()
        .filter(|f| f.path.ends_with(".js") || f.path.ends_with(".css"))
        .map(|f| (format!("/assets/{}", f.path), serde_json::Value::String(f.fingerprinted())))
        .collect();
    let import_map = serde_json::json!({ "imports": imports }).to_string();
    let tag = format!("<script type=\"importmap\">{import_map}</script>\n  ");
    // Before the first script: a module loaded before the map would not
    // use it.
    match html.find("<script") {
        Some(at) => html.insert_str(at, &tag),
        None => html = html.replacen("</head>", &format!("{tag}</head>"), 1),
    }
    Page { hash: content_hash(html.as_bytes()), html, import_map }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_its_files_by_content_and_maps_every_module() {
        let page = page();
        let app = files::file("app.js").unwrap();
        assert!(page.html.contains(&format!("src=\"{}\"", app.fingerprinted())), "{}", page.html);
        assert!(page.html.contains(&format!("href=\"{}\"", address("style.css"))));
        assert!(!page.html.contains("src=\"/assets/app.js\""), "the plain address is mapped, not loaded");
        let map_at = page.html.find("<script type=\"importmap\">").expect("an import map");
        assert!(map_at < page.html.find("<script type=\"module\"").unwrap(), "the map comes before the modules");
        let map: serde_json::Value = serde_json::from_str(&page.import_map).unwrap();
        assert_eq!(map["imports"]["/assets/games/lunch.js"], files::file("games/lunch.js").unwrap().fingerprinted());
        assert_eq!(map["imports"]["/assets/analysis.css"], address("analysis.css"));
        assert!(page.html.contains(&format!(">{}</script>", page.import_map)));
        assert!(import_map_source().starts_with("'sha256-") && import_map_source().len() == "'sha256-'".len() + 44);
    }
}
