//! Every diagram of the rules pages parses, its position is legal for its
//! variant and its moves are legal there (each is drawn), and every game's
//! page has the diagrams its words need.

use menagerie_learn::diagram::page::{blocks, render_page};
use menagerie_learn::diagram::{parse, render};

fn page(game: &str) -> String {
    std::fs::read_to_string(format!("{}/../../docs/{game}.md", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn every_diagram_of_the_rules_pages_is_legal_and_drawn() {
    for game in ["lma", "fluid", "lichen", "kelasu", "lunch"] {
        let markdown = page(game);
        let found = blocks(&markdown);
        assert!(found.len() >= 4, "docs/{game}.md has {} diagrams", found.len());
        for block in &found {
            let diagram = parse(&block.text).unwrap_or_else(|e| panic!("docs/{game}.md line {}: {e}", block.line));
            assert_eq!(diagram.variant.split([':', '-']).next(), Some(game), "docs/{game}.md line {}", block.line);
            let figure = render(&diagram).unwrap_or_else(|e| panic!("docs/{game}.md line {}: {e}", block.line));
            assert!(figure.contains("<svg") && figure.contains("viewBox"), "docs/{game}.md line {}", block.line);
            // Each move the diagram names is drawn: an arrow or a ring.
            let drawn = figure.matches("class=\"arrow\"").count() + figure.matches("class=\"ring\"").count();
            assert!(drawn >= diagram.moves.len() + diagram.marks.len(), "docs/{game}.md line {}", block.line);
            assert!(diagram.caption.is_some(), "docs/{game}.md line {}: a diagram says what it shows", block.line);
        }
        let html = render_page(&markdown).unwrap();
        assert_eq!(html.matches("<figure class=\"diagram\"").count(), found.len());
        assert!(!html.contains("```") && !html.contains("variant: "), "docs/{game}.md: a diagram left as text");
    }
}

#[test]
fn drawings_follow_the_board_s_rules() {
    // Fluid: a Bishop and Rook of one side are drawn as one Queen; other
    // pairs as two smaller pieces.
    let fluid = render(&parse("variant: fluid\nposition: 4k3/8/1(BN)6/8/8/8/8/Q3K3 w - - 0 1").unwrap()).unwrap();
    assert_eq!(fluid.matches("<title>white Queen</title>").count(), 1);
    assert!(fluid.contains("<title>white Bishop</title>") && fluid.contains("<title>white Knight</title>"));
    // Lichen: eight slots round every stone, tokens in them, crowns on the kingstones.
    let lichen = render(&parse("variant: lichen\nposition: start").unwrap()).unwrap();
    assert_eq!(lichen.matches("<circle data-square=").count(), 8 * 8);
    assert_eq!(lichen.matches("class=\"piece token\"").count(), 6);
    assert!(lichen.contains("white's kingstone") && lichen.contains("black's kingstone"));
    // Kelasu: the Victory Tiles are framed; 40 Blanks and 8 Stones.
    let kelasu = render(&parse("variant: kelasu\nposition: start").unwrap()).unwrap();
    assert_eq!(kelasu.matches("class=\"victory-tile\"").count(), 4);
    assert_eq!(kelasu.matches(" Blank</title>").count(), 40);
    assert_eq!(kelasu.matches(" Stone</title>").count(), 8);
    // LMA: two boards, each labelled.
    let lma = render(&parse("variant: lma\nposition: start").unwrap()).unwrap();
    assert!(lma.contains(">board 1<") && lma.contains(">board 2<"));
}
