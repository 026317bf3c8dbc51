//! The study's charts, as SVG drawn by plotters.

use super::report::Report;
use crate::error::CliError;
use plotters::prelude::*;

/// The histogram of game lengths (player moves), one bar per bin of the report.
pub fn length_histogram(report: &Report) -> Result<String, CliError> {
    let mut svg = String::new();
    let bins = &report.length.histogram;
    let top = bins.iter().map(|b| b.games).max().unwrap_or(0).max(1);
    let right = bins.last().map_or(1, |b| b.to + 1);
    let left = bins.first().map_or(0, |b| b.from);
    {
        let area = SVGBackend::with_string(&mut svg, (640, 360)).into_drawing_area();
        let draw = || -> Result<(), Box<dyn std::error::Error + '_>> {
            area.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&area)
                .caption(format!("{}: game length ({} games)", report.variant, report.games), ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(36)
                .y_label_area_size(44)
                .build_cartesian_2d(left..right, 0u64..top + top / 10 + 1)?;
            chart.configure_mesh().x_desc("player moves").y_desc("games").disable_x_mesh().draw()?;
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
