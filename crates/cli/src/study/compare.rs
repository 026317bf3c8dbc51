//! `menagerie study --compare V1 V2 ...`: the same study on several
//! variants (or options), each compared with the first, every difference
//! with its 95% interval (Newcombe's for scores and rates, Welch's normal
//! interval for mean lengths).

use super::report::Report;
use menagerie_ai::stats::{difference, Z95};
use std::fmt::Write;

/// The comparison table, Markdown.
pub fn compare(reports: &[Report]) -> String {
    let mut md = String::new();
    let Some(base) = reports.first() else { return md };
    let _ = writeln!(md, "# Compared with `{}`\n", base.variant);
    let _ = writeln!(
        md,
        "| variant | games | first player's score | decisive | mean length | score − base | decisive − base | length − base |\n|---|---:|---|---|---|---|---|---|"
    );
    for (index, r) in reports.iter().enumerate() {
        let f = &r.first_player;
        let percent = |v: f64, l: f64, h: f64| format!("{:.1}% [{:.1}, {:.1}]", 100.0 * v, 100.0 * l, 100.0 * h);
        let score_diff = difference(f.score.estimate(), base.first_player.score.estimate());
        let decisive_diff = difference(f.decisive.estimate(), base.first_player.decisive.estimate());
        let (length_diff, length_margin) = mean_difference(r, base);
        let differences = if index == 0 {
            "(base) | | ".to_owned()
        } else {
            format!(
                "{} | {} | {:+.1} [{:+.1}, {:+.1}]",
                signed_percent(score_diff.value, score_diff.low, score_diff.high),
                signed_percent(decisive_diff.value, decisive_diff.low, decisive_diff.high),
                length_diff,
                length_diff - length_margin,
                length_diff + length_margin,
            )
        };
        let _ = writeln!(
            md,
            "| `{}` | {} | {} | {} | {:.1} [{:.1}, {:.1}] | {differences} |",
            r.variant,
            r.games,
            percent(f.score.value, f.score.low, f.score.high),
            percent(f.decisive.value, f.decisive.low, f.decisive.high),
            r.length.mean,
            r.length.mean_low,
            r.length.mean_high,
        );
    }
    let _ = writeln!(
        md,
        "\nA difference whose interval contains 0 is not shown by these games. Each study's own report has the details."
    );
    md
}

fn signed_percent(v: f64, l: f64, h: f64) -> String {
    format!("{:+.1} pt [{:+.1}, {:+.1}]", 100.0 * v, 100.0 * l, 100.0 * h)
}

/// The difference of mean lengths and its 95% margin (Welch, normal).
fn mean_difference(a: &Report, b: &Report) -> (f64, f64) {
    let se = |r: &Report| (r.length.mean_high - r.length.mean) / Z95;
    (a.length.mean - b.length.mean, Z95 * (se(a).powi(2) + se(b).powi(2)).sqrt())
}
