//! A whole rules page: Markdown (as the server renders its pages, with
//! pulldown-cmark, tables and strikethrough) whose ```` ```diagram ````
//! blocks become inline SVG figures.

use super::{parse, render, DiagramError};
use pulldown_cmark::{html, CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

/// A diagram block of a page: where it starts, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The line of the opening fence, from 1.
    pub line: usize,
    pub text: String,
}

/// What is wrong with a page's diagram.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("diagram at line {line}: {error}")]
pub struct PageError {
    pub line: usize,
    pub error: DiagramError,
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

fn is_diagram(kind: &CodeBlockKind<'_>) -> bool {
    matches!(kind, CodeBlockKind::Fenced(info) if info.split_whitespace().next() == Some("diagram"))
}

/// Every diagram block of a page, in order.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut current: Option<Block> = None;
    for (event, range) in Parser::new_ext(markdown, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) if is_diagram(&kind) => {
                let line = markdown[..range.start].matches('\n').count() + 1;
                current = Some(Block { line, text: String::new() });
            }
            Event::Text(text) => {
                if let Some(block) = current.as_mut() {
                    block.text.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => found.extend(current.take()),
            _ => {}
        }
    }
    found
}

/// The page as an HTML fragment, each diagram drawn; the first diagram
/// that fails its checks is the error.
pub fn render_page(markdown: &str) -> Result<String, PageError> {
    let mut figures = Vec::new();
    for block in blocks(markdown) {
        let figure =
            parse(&block.text).and_then(|d| render(&d)).map_err(|error| PageError { line: block.line, error })?;
        figures.push(figure);
    }
    let mut figures = figures.into_iter();
    let mut inside = false;
    let events = Parser::new_ext(markdown, options()).filter_map(|event| match event {
        Event::Start(Tag::CodeBlock(kind)) if is_diagram(&kind) => {
            inside = true;
            Some(Event::Html(CowStr::from(figures.next().unwrap_or_default())))
        }
        Event::End(TagEnd::CodeBlock) if inside => {
            inside = false;
            None
        }
        _ if inside => None,
        other => Some(other),
    });
    let mut body = String::new();
    html::push_html(&mut body, events);
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagrams_become_figures_and_the_rest_stays_markdown() {
        let page = "# Fluid\n\nText *here*.\n\n```diagram\nvariant: fluid\nposition: start\nmoves: Pe2e4\ncaption: A pawn\n```\n\n```\nplain code\n```\n";
        assert_eq!(
            blocks(page),
            [Block { line: 5, text: "variant: fluid\nposition: start\nmoves: Pe2e4\ncaption: A pawn\n".into() }]
        );
        let html = render_page(page).unwrap();
        assert!(html.contains("<h1>Fluid</h1>") && html.contains("<em>here</em>"), "{html}");
        assert!(html.contains("<figure class=\"diagram\"") && html.contains("<figcaption>A pawn</figcaption>"));
        assert!(html.contains("<pre><code>plain code"), "{html}");
        assert!(!html.contains("variant: fluid"));
        let broken = "text\n\n```diagram\nvariant: fluid\nposition: start\nmoves: Ng1g3\n```\n";
        assert_eq!(render_page(broken).unwrap_err().line, 3);
    }
}
