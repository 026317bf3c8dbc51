//! `menagerie study --nodes A,B,C`: the same study at several node budgets
//! (one folder each, `nodes-N`), and `strength.md`, `strength.json` and
//! `strength.svg`: each measure against the player's strength, with a
//! conclusion stated only where it holds at the two strongest budgets.

use super::report::Report;
use super::unit::{unit_of, Unit, NODES};
use crate::error::CliError;
use menagerie_ai::stats::{difference, Estimate, Z95};
use plotters::prelude::*;
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

/// The studies of one budget: one report per variant, the first the base.
pub struct Rung {
    pub nodes: u64,
    pub reports: Vec<Report>,
}

/// The folder of one budget's study inside the ladder's folder.
pub fn rung_folder(dir: &Path, nodes: u64) -> std::path::PathBuf {
    dir.join(format!("nodes-{nodes}"))
}

#[derive(Serialize)]
struct Point<'a> {
    nodes: u64,
    variant: &'a str,
    games: usize,
    distinct_games: usize,
    first_player_score: [f64; 3],
    decisive: [f64; 3],
    mean_length: [f64; 3],
}

/// What an interval says of a share against a half (a score) or of a
/// difference against nothing.
fn verdict(e: &Estimate, middle: f64, above: &str, below: &str, neither: &str) -> String {
    if e.low > middle {
        above.to_owned()
    } else if e.high < middle {
        below.to_owned()
    } else {
        neither.to_owned()
    }
}

fn percent(e: &Estimate) -> String {
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * e.value, 100.0 * e.low, 100.0 * e.high)
}

fn points(e: &Estimate) -> String {
    format!("{:+.1} points [{:+.1}, {:+.1}]", 100.0 * e.value, 100.0 * e.low, 100.0 * e.high)
}

/// The conclusion rule: what the two strongest budgets agree on, or how the
/// answer moves with strength. `says` gives each budget's verdict and its
/// figure.
fn conclusion(rungs: &[Rung], unit: Unit, says: &dyn Fn(&Rung) -> (String, String)) -> String {
    let verdicts: Vec<(String, String)> = rungs.iter().map(says).collect();
    let n = verdicts.len();
    let each = rungs
        .iter()
        .zip(&verdicts)
        .map(|(r, (v, figure))| format!("{} {}: {v}, {figure}", r.nodes, unit.each))
        .collect::<Vec<_>>()
        .join("; ");
    if n >= 2 && verdicts[n - 1].0 == verdicts[n - 2].0 {
        format!(
            "**At the two strongest budgets ({} and {} {}): {}** ({each}).",
            rungs[n - 2].nodes,
            rungs[n - 1].nodes,
            unit.rate,
            verdicts[n - 1].0
        )
    } else {
        format!("**Changes with strength** ({each}): no conclusion holds at the two strongest budgets.")
    }
}

/// Writes the ladder's files into `dir` and returns its Markdown.
pub fn write(dir: &Path, rungs: &[Rung]) -> Result<String, CliError> {
    let md = markdown(rungs);
    let mut data = Vec::new();
    for rung in rungs {
        for r in &rung.reports {
            let f = &r.first_player;
            data.push(Point {
                nodes: rung.nodes,
                variant: &r.variant,
                games: r.games,
                distinct_games: r.distinct_games,
                first_player_score: [f.score.value, f.score.low, f.score.high],
                decisive: [f.decisive.value, f.decisive.low, f.decisive.high],
                mean_length: [r.length.mean, r.length.mean_low, r.length.mean_high],
            });
        }
    }
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))
    };
    write("strength.md", &md)?;
    write("strength.json", &(serde_json::to_string_pretty(&data).expect("plain data") + "\n"))?;
    write("strength.svg", &chart(rungs)?)?;
    Ok(md)
}

fn markdown(rungs: &[Rung]) -> String {
    let mut md = String::new();
    let Some(first) = rungs.first().and_then(|r| r.reports.first()) else { return md };
    let budgets: Vec<String> = rungs.iter().map(|r| r.nodes.to_string()).collect();
    let unit = unit_of(&first.settings.player);
    let rate = unit.rate;
    let _ = writeln!(md, "# Against strength: `{}` at {} {rate}\n", first.settings.player, budgets.join(", "));
    let _ = writeln!(
        md,
        "The same study (same seed, openings and games) with the player searching each budget of {rate}; \
         each budget's folder `nodes-N` holds its reports. A conclusion is stated only where it holds \
         at the two strongest budgets.\n\n![the first player's score against {rate}](strength.svg)\n"
    );
    let variants = rungs[0].reports.len();
    for v in 0..variants {
        let name = &rungs[0].reports[v].variant;
        let _ = writeln!(md, "## `{name}`\n");
        let _ = writeln!(
            md,
            "| {rate} | games (distinct) | first player's score | decisive games | mean length |\n|---:|---|---|---|---|"
        );
        for rung in rungs {
            let Some(r) = rung.reports.get(v) else { continue };
            let f = &r.first_player;
            let _ = writeln!(
                md,
                "| {} | {} ({}) | {} | {} | {:.1} [{:.1}, {:.1}] |",
                rung.nodes,
                r.games,
                r.distinct_games,
                percent(&f.score.estimate()),
                percent(&f.decisive.estimate()),
                r.length.mean,
                r.length.mean_low,
                r.length.mean_high
            );
        }
        let says = |rung: &Rung| {
            let e = rung.reports[v].first_player.score.estimate();
            let verdict = verdict(
                &e,
                0.5,
                "the first player is favoured",
                "the second player is favoured",
                "no edge for either player is shown",
            );
            (verdict, format!("first player {}", percent(&e)))
        };
        let _ = writeln!(md, "\nFirst player's edge. {}\n", conclusion(rungs, unit, &says));
    }
    for v in 1..variants {
        let (name, base) = (&rungs[0].reports[v].variant, &rungs[0].reports[0].variant);
        let _ = writeln!(md, "## `{name}` against `{base}`\n");
        let _ = writeln!(md, "| {rate} | first player's score, difference | mean length, difference |\n|---:|---|---|");
        let score = |rung: &Rung| {
            let (a, b) = (&rung.reports[v], &rung.reports[0]);
            difference(a.first_player.score.estimate(), b.first_player.score.estimate())
        };
        let length = |rung: &Rung| {
            let (a, b) = (&rung.reports[v], &rung.reports[0]);
            let se = |r: &Report| (r.length.mean_high - r.length.mean) / Z95;
            let value = a.length.mean - b.length.mean;
            let margin = Z95 * (se(a).powi(2) + se(b).powi(2)).sqrt();
            Estimate { value, low: value - margin, high: value + margin }
        };
        for rung in rungs.iter().filter(|r| r.reports.len() > v) {
            let l = length(rung);
            let _ = writeln!(
                md,
                "| {} | {} | {:+.1} moves [{:+.1}, {:+.1}] |",
                rung.nodes,
                points(&score(rung)),
                l.value,
                l.low,
                l.high
            );
        }
        let says_score = |rung: &Rung| {
            let e = score(rung);
            let verdict = verdict(
                &e,
                0.0,
                &format!("`{name}` gives the first player more than `{base}`"),
                &format!("`{name}` gives the first player less than `{base}`"),
                "no difference in the first player's score is shown",
            );
            (verdict, points(&e))
        };
        let says_length = |rung: &Rung| {
            let e = length(rung);
            let verdict = verdict(
                &e,
                0.0,
                &format!("games of `{name}` are longer"),
                &format!("games of `{name}` are shorter"),
                "no difference in length is shown",
            );
            (verdict, format!("{:+.1} moves [{:+.1}, {:+.1}]", e.value, e.low, e.high))
        };
        let _ = writeln!(md, "\nScore. {}\n", conclusion(rungs, unit, &says_score));
        let _ = writeln!(md, "Length. {}\n", conclusion(rungs, unit, &says_length));
    }
    let _ = writeln!(md, "## How it was made\n");
    for rung in rungs {
        for r in &rung.reports {
            let _ = match &r.made_by {
                Some(made) => writeln!(
                    md,
                    "- `{}` at {} {}: by {}, with `{}`",
                    r.variant,
                    rung.nodes,
                    unit.each,
                    made.build,
                    made.commands.join("`, then `")
                ),
                None => {
                    writeln!(md, "- `{}` at {} {}: by a build that was not recorded", r.variant, rung.nodes, unit.each)
                }
            };
        }
    }
    md
}

/// The first player's score (with its interval) against log10 of the node
/// budget, one line per variant.
fn chart(rungs: &[Rung]) -> Result<String, CliError> {
    let mut svg = String::new();
    let x = |nodes: u64| (nodes.max(1) as f64).log10();
    let (left, right) = (
        rungs.iter().map(|r| x(r.nodes)).fold(f64::INFINITY, f64::min) - 0.3,
        rungs.iter().map(|r| x(r.nodes)).fold(f64::NEG_INFINITY, f64::max) + 0.3,
    );
    {
        let area = SVGBackend::with_string(&mut svg, (480, 320)).into_drawing_area();
        let draw = || -> Result<(), Box<dyn std::error::Error + '_>> {
            area.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&area)
                .caption("first player's score against strength", ("sans-serif", 20))
                .margin(10)
                .x_label_area_size(44)
                .y_label_area_size(56)
                .build_cartesian_2d(left..right, 0f64..100f64)?;
            chart
                .configure_mesh()
                .x_desc(
                    rungs
                        .iter()
                        .flat_map(|r| r.reports.first())
                        .next()
                        .map_or(NODES, |r| unit_of(&r.settings.player))
                        .rate,
                )
                .y_desc("score %")
                .x_labels(rungs.len() + 2)
                // Labels at powers of ten only (the axis is log10 of the budget).
                .x_label_formatter(&|v| {
                    if (v - v.round()).abs() < 0.05 {
                        format!("{:.0}", 10f64.powf(v.round()))
                    } else {
                        String::new()
                    }
                })
                .label_style(("sans-serif", 16))
                .axis_desc_style(("sans-serif", 16))
                .draw()?;
            chart.draw_series([PathElement::new([(left, 50.0), (right, 50.0)], BLACK.mix(0.3))])?;
            let variants = rungs.first().map_or(0, |r| r.reports.len());
            for v in 0..variants {
                let color = Palette99::pick(v).to_rgba();
                let offset = (v as f64 - (variants as f64 - 1.0) / 2.0) * 0.04;
                let line: Vec<(f64, f64)> = rungs
                    .iter()
                    .filter_map(|r| r.reports.get(v).map(|p| (x(r.nodes) + offset, 100.0 * p.first_player.score.value)))
                    .collect();
                chart
                    .draw_series([PathElement::new(line, color.stroke_width(2))])?
                    .label(rungs[0].reports[v].variant.clone())
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
                // Each budget's interval as a bar, its value as a dot.
                for r in rungs {
                    let Some(p) = r.reports.get(v) else { continue };
                    let (s, at) = (&p.first_player.score, x(r.nodes) + offset);
                    chart.draw_series([PathElement::new(
                        [(at, 100.0 * s.low), (at, 100.0 * s.high)],
                        color.stroke_width(2),
                    )])?;
                    chart.draw_series([Circle::new((at, 100.0 * s.value), 4, color.filled())])?;
                }
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .label_font(("sans-serif", 15))
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK.mix(0.3))
                .draw()?;
            area.present()?;
            Ok(())
        };
        draw().map_err(|e| CliError::Failed(format!("drawing the strength chart: {e}")))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::unit::PLAYOUTS;

    fn rungs() -> Vec<Rung> {
        [200, 2000, 20000].into_iter().map(|nodes| Rung { nodes, reports: Vec::new() }).collect()
    }

    fn saying(verdicts: [&'static str; 3]) -> impl Fn(&Rung) -> (String, String) {
        move |rung: &Rung| {
            let at = [200, 2000, 20000].iter().position(|&n| n == rung.nodes).unwrap();
            (verdicts[at].to_owned(), format!("figure {at}"))
        }
    }

    #[test]
    fn a_conclusion_is_stated_only_where_the_two_strongest_agree() {
        let held = conclusion(&rungs(), NODES, &saying(["no edge", "favoured", "favoured"]));
        assert!(held.starts_with("**At the two strongest budgets (2000 and 20000 nodes a move): favoured**"), "{held}");
        assert!(held.contains("200 nodes: no edge, figure 0"), "{held}");
        let changed = conclusion(&rungs(), NODES, &saying(["favoured", "favoured", "no edge"]));
        assert!(changed.starts_with("**Changes with strength**"), "{changed}");
        assert!(changed.contains("20000 nodes: no edge, figure 2"), "{changed}");
    }

    #[test]
    fn monte_carlo_budgets_are_playouts() {
        assert_eq!(unit_of("ismcts").rate, "playouts a decision");
        assert_eq!(unit_of("mcts:200").each, "playouts");
        assert_eq!(unit_of("alphabeta").rate, "nodes a move");
        let held = conclusion(&rungs(), PLAYOUTS, &saying(["no edge", "favoured", "favoured"]));
        assert!(held.contains("(2000 and 20000 playouts a decision)"), "{held}");
    }

    #[test]
    fn verdicts_read_the_interval_against_the_middle() {
        let e = |value, low, high| Estimate { value, low, high };
        assert_eq!(verdict(&e(0.6, 0.55, 0.65), 0.5, "above", "below", "neither"), "above");
        assert_eq!(verdict(&e(0.4, 0.35, 0.45), 0.5, "above", "below", "neither"), "below");
        assert_eq!(verdict(&e(0.52, 0.49, 0.55), 0.5, "above", "below", "neither"), "neither");
    }
}
