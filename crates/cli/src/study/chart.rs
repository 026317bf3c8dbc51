//! The study's charts, as SVG drawn by plotters.

use super::report::{Bin, Report};
use crate::error::CliError;
use plotters::prelude::*;

/// The histogram of game lengths (player moves), one bar per bin of the report.
pub fn length_histogram(report: &Report) -> Result<String, CliError> {
    histogram(&report.variant, report.games, &report.length.histogram)
}

/// The length histogram of `games` games of `variant`, drawn from its bins
/// (a report's, or those its `report.json` keeps).
pub fn histogram(variant: &str, games: usize, bins: &[Bin]) -> Result<String, CliError> {
    let mut svg = String::new();
    let top = bins.iter().map(|b| b.games).max().unwrap_or(0).max(1);
    let right = bins.last().map_or(1, |b| b.to + 1);
    let left = bins.first().map_or(0, |b| b.from);
    {
        // Small and with large type: a page shows the chart at most as wide
        // as its text, which on a phone is about 360 pixels.
        let area = SVGBackend::with_string(&mut svg, (480, 300)).into_drawing_area();
        let draw = || -> Result<(), Box<dyn std::error::Error + '_>> {
            area.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&area)
                .caption(format!("{variant}: game length ({games} games)"), ("sans-serif", 22))
                .margin(10)
                .x_label_area_size(44)
                .y_label_area_size(56)
                .build_cartesian_2d(left..right, 0u64..top + top / 10 + 1)?;
            chart
                .configure_mesh()
                .x_desc("player moves")
                .y_desc("games")
                .label_style(("sans-serif", 18))
                .axis_desc_style(("sans-serif", 18))
                .disable_x_mesh()
                .draw()?;
            chart.draw_series(
                bins.iter().map(|b| Rectangle::new([(b.from, 0), (b.to + 1, b.games)], BLUE.mix(0.6).filled())),
            )?;
            area.present()?;
            Ok(())
        };
        draw().map_err(|e| CliError::Failed(format!("drawing the length chart: {e}")))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn reports(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                reports(&path, found);
            } else if path.file_name().is_some_and(|n| n == "report.json") {
                found.push(path);
            }
        }
    }

    /// The committed studies' charts are what this code draws from their
    /// `report.json` (so a change to the charts reaches the committed
    /// pages). `MENAGERIE_REDRAW_CHARTS=1` redraws them instead.
    #[test]
    fn the_committed_charts_are_drawn_by_this_code() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/insights");
        let mut found = Vec::new();
        reports(&root, &mut found);
        assert!(!found.is_empty(), "no committed study under {}", root.display());
        let redraw = std::env::var("MENAGERIE_REDRAW_CHARTS").is_ok_and(|v| v == "1");
        let mut stale = Vec::new();
        for path in found {
            let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let bins: Vec<Bin> = report["length"]["histogram"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| Bin {
                    from: b["from"].as_u64().unwrap() as u32,
                    to: b["to"].as_u64().unwrap() as u32,
                    games: b["games"].as_u64().unwrap(),
                })
                .collect();
            let games = report["games"].as_u64().unwrap() as usize;
            let svg = histogram(report["variant"].as_str().unwrap(), games, &bins).unwrap();
            let chart = path.with_file_name("length.svg");
            if redraw {
                std::fs::write(&chart, svg).unwrap();
            } else if std::fs::read_to_string(&chart).ok().as_deref() != Some(svg.as_str()) {
                stale.push(chart.display().to_string());
            }
        }
        assert!(stale.is_empty(), "charts not drawn by this code (MENAGERIE_REDRAW_CHARTS=1 redraws them): {stale:?}");
    }
}
