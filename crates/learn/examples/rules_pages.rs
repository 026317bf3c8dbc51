//! Renders the rules pages (docs/<game>.md) with their diagrams into
//! standalone HTML files, to look at them in a browser:
//! `cargo run -p menagerie-learn --example rules_pages -- OUT_DIR`.

use menagerie_learn::diagram::page::render_page;

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(|| "rules-pages".into());
    std::fs::create_dir_all(&out).expect("the output folder");
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs");
    let style =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/style.css")).unwrap_or_default();
    for game in ["lma", "fluid", "lichen", "kelasu", "lunch"] {
        let markdown = std::fs::read_to_string(format!("{docs}/{game}.md")).expect("a rules page");
        match render_page(&markdown) {
            Ok(body) => {
                let page = format!(
                    "<!doctype html><html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>{style}</style></head><body class=\"doc\"><article>{body}</article></body></html>"
                );
                std::fs::write(format!("{out}/{game}.html"), page).expect("writing a page");
                println!("{out}/{game}.html: {} diagrams", body.matches("<figure class=\"diagram\"").count());
            }
            Err(e) => {
                eprintln!("docs/{game}.md: {e}");
                std::process::exit(1);
            }
        }
    }
}
