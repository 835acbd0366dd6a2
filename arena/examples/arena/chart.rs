//! The chart: bytes per tick per client over the run, one line per encoding.

use std::path::Path;

use plotters::prelude::*;

use bitpack_arena::sim::Config;

use crate::measure::{NAMES, Report};

/// Writes the chart of `report` to `path` as SVG.
pub fn draw(report: &Report, path: &Path) -> Result<(), String> {
    let error = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| error(&e))?;
    }
    let sizes = report.encodings.iter().flat_map(|m| m.bytes_per_tick.iter().copied());
    let (low, high) = sizes.fold((f64::MAX, 1.0f64), |(low, high), b| (low.min(b), high.max(b)));
    let ticks = report.settings.ticks;
    let settings = &report.settings;
    let root = SVGBackend::new(path, (960, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let caption = format!(
        "Bytes per tick per client: {} players, {} mobs, 30 Hz, {} clients, {:.0}% loss, {}-byte datagrams",
        Config::default().players,
        Config::default().mobs,
        settings.clients,
        settings.loss * 100.0,
        settings.datagram
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(1..ticks.max(2), ((low / 10.0).max(1.0)..high * 1.5).log_scale())
        .map_err(|e| error(&e))?;
    chart.configure_mesh().x_desc("tick").y_desc("bytes (log scale)").draw().map_err(|e| error(&e))?;
    for (index, (name, measured)) in NAMES.iter().zip(&report.encodings).enumerate() {
        let color = Palette99::pick(index).to_rgba();
        let points =
            measured.bytes_per_tick.iter().enumerate().map(|(tick, &bytes)| (tick as u32 + 1, bytes));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(|e| error(&e))?
            .label(*name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(|e| error(&e))?;
    root.present().map_err(|e| error(&e))
}
