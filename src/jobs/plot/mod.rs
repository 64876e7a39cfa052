//! Charts as SVG: benchmark throughput per dataset × algorithm, the same compared across saved
//! runs, a dataset's guesses histogram, and its Sudoku Explainer rating (ER) histogram.
//!
//! Every chart is one shape, a [`BarChart`]: horizontal bars in groups (a dataset, a
//! histogram bucket), one bar per series (an algorithm, a saved run, a stats file) in a fixed
//! colour, an optional error bar (± σ of the runs), and the value written at the bar's end so
//! the figure can be read without the axis. Bars are horizontal because dataset names are
//! long: they fit on the left, unrotated, whatever their length.
//!
//! Drawn with plotters' SVG backend only (no system fonts, no bitmap libraries): text goes into
//! the SVG as `<text>` in a generic `sans-serif`, and the viewer lays it out; plotters only
//! estimates its width, so margins are generous.

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

mod charts;
mod ratings;

pub use charts::{
    bench_chart, compare_chart, histogram_chart, parse_input, problems_chart, BenchPoint, PlotInput,
};
pub use ratings::rating_chart;

/// Why a chart could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The input is not JSON that `plot` knows.
    #[error("not a bench result or a --stats-json summary: {0}")]
    Unknown(String),
    /// The input is JSON of the right kind with a bad field.
    #[error("bad JSON")]
    Json(#[from] serde_json::Error),
    /// plotters failed (only on a write error of the in-memory SVG, i.e. never in practice).
    #[error("cannot draw: {0}")]
    Draw(String),
    /// Nothing to draw.
    #[error("nothing to draw: {0}")]
    Empty(&'static str),
}

/// How the value axis is scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Logarithmic when the values span more than [`LOG_SPAN`] (orders of magnitude between
    /// algorithms), linear otherwise.
    Auto,
    /// Linear from 0.
    Linear,
    /// Logarithmic.
    Log,
}

/// The ratio between the largest and smallest value above which [`Scale::Auto`] goes
/// logarithmic: past it, the short bars of a linear axis are too thin to read.
pub const LOG_SPAN: f64 = 30.0;

/// One bar: a value, an optional spread around it, and the text written at its end.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The bar's length.
    pub value: f64,
    /// The error bar (low, high), if any.
    pub spread: Option<(f64, f64)>,
    /// Written just past the bar's end.
    pub label: String,
}

/// One colour of bars: a value (or none) per group.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// One entry per group of the chart, in the same order.
    pub bars: Vec<Option<Bar>>,
}

/// A grouped horizontal bar chart.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// The caption on top.
    pub title: String,
    /// The value axis description (bottom).
    pub value_axis: String,
    /// The group axis description (left).
    pub group_axis: String,
    /// Group names, drawn top to bottom.
    pub groups: Vec<String>,
    /// The series; each has one entry per group.
    pub series: Vec<Series>,
    /// The value axis scale.
    pub scale: Scale,
    /// A line of small print under the chart (where the figures come from).
    pub note: Option<String>,
}

impl BarChart {
    /// How many bars are drawn (entries with a value).
    pub fn bar_count(&self) -> usize {
        self.series
            .iter()
            .map(|s| s.bars.iter().flatten().count())
            .sum()
    }

    /// Whether the value axis is drawn logarithmic.
    pub fn is_log(&self) -> bool {
        match self.scale {
            Scale::Linear => false,
            Scale::Log => true,
            Scale::Auto => {
                let (lo, hi) = self.positive_range();
                hi / lo > LOG_SPAN
            }
        }
    }

    /// The smallest and largest positive value, error bars included ((1, 1) when none).
    fn positive_range(&self) -> (f64, f64) {
        let values = self.series.iter().flat_map(|s| s.bars.iter().flatten());
        let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
        for bar in values {
            let (low, high) = bar.spread.unwrap_or((bar.value, bar.value));
            for v in [bar.value, low, high] {
                if v > 0.0 && v.is_finite() {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
        if hi == 0.0 {
            (1.0, 1.0)
        } else {
            (lo, hi)
        }
    }
}

/// Bar colours, in series order (Tableau 10: distinct, and readable on white).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xba, 0xb0, 0xac),
];

/// The opacity bars are filled with; legend swatches are opaque, which tells them apart.
pub const BAR_OPACITY: f64 = 0.85;

const WIDTH: u32 = 960;
const BAR_PX: u32 = 22;
const GROUP_GAP: f64 = 0.6;
const FONT: &str = "sans-serif";

/// Draw `chart` as an SVG document.
pub fn render_svg(chart: &BarChart) -> Result<String, PlotError> {
    if chart.groups.is_empty() || chart.bar_count() == 0 {
        return Err(PlotError::Empty("no values"));
    }
    let mut svg = String::new();
    let (lo, hi) = chart.positive_range();
    if chart.is_log() {
        // Bars start a little below the smallest value, and room is left past the largest
        // for its label.
        let floor = 10f64.powf((lo / 2.0).log10().floor());
        draw(&mut svg, chart, (floor..hi * 6.0).log_scale())?;
    } else {
        let top = chart
            .series
            .iter()
            .flat_map(|s| s.bars.iter().flatten())
            .map(|b| b.spread.map_or(b.value, |(_, h)| h.max(b.value)))
            .fold(0.0f64, f64::max);
        draw(&mut svg, chart, 0.0..(top * 1.3).max(1e-9))?;
    }
    Ok(svg)
}

/// Group `g`'s top edge in slot units (one slot per bar, [`GROUP_GAP`] between groups).
fn group_top(chart: &BarChart, g: usize) -> f64 {
    g as f64 * (chart.series.len() as f64 + GROUP_GAP)
}

fn draw_error(e: impl std::fmt::Display) -> PlotError {
    PlotError::Draw(e.to_string())
}

/// Lay out and draw `chart` into `svg` on the value axis `x`.
fn draw<X>(svg: &mut String, chart: &BarChart, x: X) -> Result<(), PlotError>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let slots = group_top(chart, chart.groups.len()) - GROUP_GAP;
    let longest = chart.groups.iter().map(|g| g.chars().count()).max();
    let label_px = (longest.unwrap_or(4) as u32 * 7 + 40).clamp(80, 420);
    let legend_px = legend_rows(chart) * 20 + 4;
    // Many series make tall groups: thinner bars keep the chart on a screen.
    let bar_px = if chart.series.len() > 3 { 15 } else { BAR_PX };
    let plot_px = (slots * f64::from(bar_px)).ceil() as u32;
    let height = plot_px + legend_px + 150;
    let root = SVGBackend::with_string(svg, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let (main, footer) = root.split_vertically(height - 28 - legend_px);
    let mut ctx = ChartBuilder::on(&main)
        .caption(&chart.title, (FONT, 20))
        .margin(12)
        .margin_right(30)
        .x_label_area_size(50)
        .y_label_area_size(label_px)
        .build_cartesian_2d(x, -0.3..slots + 0.3)
        .map_err(draw_error)?;
    ctx.configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_desc(&chart.value_axis)
        .y_desc(&chart.group_axis)
        .x_label_formatter(&|v| short_number(*v))
        .axis_desc_style((FONT, 15))
        .label_style((FONT, 13))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .x_max_light_lines(4)
        .draw()
        .map_err(draw_error)?;
    draw_group_labels(&root, &ctx, chart, slots)?;
    draw_bars(&mut ctx, chart, slots)?;
    draw_footer(&footer, chart)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

/// The group names, right-aligned against the axis, centred on their group.
fn draw_group_labels<X>(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    ctx: &ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, plotters::coord::types::RangedCoordf64>>,
    chart: &BarChart,
    slots: f64,
) -> Result<(), PlotError>
where
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let style = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    let x_min = ctx.x_range().start;
    for (g, name) in chart.groups.iter().enumerate() {
        let centre = slots - group_top(chart, g) - chart.series.len() as f64 / 2.0;
        let (px, py) = ctx.backend_coord(&(x_min, centre));
        root.draw(&Text::new(name.clone(), (px - 8, py), style.clone()))
            .map_err(draw_error)?;
    }
    Ok(())
}

/// Every bar, its error bar and its value label.
fn draw_bars<X>(
    ctx: &mut ChartContext<
        '_,
        SVGBackend<'_>,
        Cartesian2d<X, plotters::coord::types::RangedCoordf64>,
    >,
    chart: &BarChart,
    slots: f64,
) -> Result<(), PlotError>
where
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let x_min = ctx.x_range().start;
    let value_style =
        TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (s, series) in chart.series.iter().enumerate() {
        let colour = PALETTE[s % PALETTE.len()];
        let mut bars = Vec::new();
        let mut errors = Vec::new();
        let mut labels = Vec::new();
        for (g, bar) in series.bars.iter().enumerate() {
            let Some(bar) = bar else { continue };
            let top = slots - group_top(chart, g) - s as f64;
            let (y0, y1, centre) = (top - 0.9, top - 0.1, top - 0.5);
            let end = bar.value.max(x_min);
            bars.push(Rectangle::new(
                [(x_min, y0), (end, y1)],
                colour.mix(BAR_OPACITY).filled(),
            ));
            let mut label_at = end;
            if let Some((low, high)) = bar.spread {
                let (low, high) = (low.max(x_min), high.max(x_min));
                // A whisker with end caps; plotters' ErrorBar also circles the mean, which
                // hides the bar's end.
                let (cap_lo, cap_hi) = (centre - 0.22, centre + 0.22);
                errors.push(PathElement::new([(low, centre), (high, centre)], BLACK));
                errors.push(PathElement::new([(low, cap_lo), (low, cap_hi)], BLACK));
                errors.push(PathElement::new([(high, cap_lo), (high, cap_hi)], BLACK));
                label_at = label_at.max(high);
            }
            labels.push(
                EmptyElement::at((label_at, centre))
                    + Text::new(bar.label.clone(), (5, 0), value_style.clone()),
            );
        }
        ctx.draw_series(bars).map_err(draw_error)?;
        ctx.draw_series(errors).map_err(draw_error)?;
        ctx.draw_series(labels).map_err(draw_error)?;
    }
    Ok(())
}

/// Rows the legend takes (0 for one series), wrapped as [`draw_footer`] wraps them.
fn legend_rows(chart: &BarChart) -> u32 {
    if chart.series.len() < 2 {
        return 0;
    }
    let (mut x, mut rows) = (24, 1);
    for series in &chart.series {
        let width = series.name.chars().count() as i32 * 7 + 44;
        if x > 24 && x + width > WIDTH as i32 - 12 {
            (x, rows) = (24, rows + 1);
        }
        x += width;
    }
    rows
}

/// Under the chart: the legend (several series) and the note.
fn draw_footer(
    footer: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    chart: &BarChart,
) -> Result<(), PlotError> {
    let small = TextStyle::from((FONT, 12).into_font()).color(&RGBColor(0x55, 0x55, 0x55));
    let text = (FONT, 13).into_font();
    let mut y = 4;
    if chart.series.len() > 1 {
        // Entries side by side, wrapping at the chart's width.
        let mut x = 24;
        for (s, series) in chart.series.iter().enumerate() {
            let width = series.name.chars().count() as i32 * 7 + 44;
            if x > 24 && x + width > WIDTH as i32 - 12 {
                (x, y) = (24, y + 20);
            }
            let colour = PALETTE[s % PALETTE.len()];
            footer
                .draw(&Rectangle::new([(x, y), (x + 14, y + 12)], colour.filled()))
                .map_err(draw_error)?;
            footer
                .draw(&Text::new(series.name.clone(), (x + 20, y), text.clone()))
                .map_err(draw_error)?;
            x += width;
        }
        y += 24;
    }
    if let Some(note) = &chart.note {
        footer
            .draw(&Text::new(note.clone(), (12, y), small))
            .map_err(draw_error)?;
    }
    Ok(())
}

/// An axis or bar figure in few characters: 950, 12k, 1.5M.
pub fn short_number(v: f64) -> String {
    let a = v.abs();
    let (scaled, suffix) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let digits = if scaled.abs() >= 100.0 || scaled.fract().abs() < 1e-9 {
        0
    } else if scaled.abs() >= 10.0 {
        1
    } else {
        2
    };
    let text = format!("{scaled:.digits$}");
    // 2.50k reads better as 2.5k.
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    format!("{text}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(values: &[f64]) -> BarChart {
        BarChart {
            title: "t".into(),
            value_axis: "v".into(),
            group_axis: "g".into(),
            groups: values.iter().map(|v| v.to_string()).collect(),
            series: vec![Series {
                name: "s".into(),
                bars: values
                    .iter()
                    .map(|&value| {
                        Some(Bar {
                            value,
                            spread: None,
                            label: String::new(),
                        })
                    })
                    .collect(),
            }],
            scale: Scale::Auto,
            note: None,
        }
    }

    #[test]
    fn the_scale_goes_logarithmic_for_orders_of_magnitude() {
        assert!(!chart(&[100.0, 2000.0]).is_log());
        assert!(chart(&[100.0, 4000.0]).is_log());
        assert!(!chart(&[0.0, 5.0]).is_log());
        let mut linear = chart(&[1.0, 1e6]);
        linear.scale = Scale::Linear;
        assert!(!linear.is_log());
    }

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(short_number(950.0), "950");
        assert_eq!(short_number(12_000.0), "12k");
        assert_eq!(short_number(2_500.0), "2.5k");
        assert_eq!(short_number(1_500_000.0), "1.5M");
        assert_eq!(short_number(0.5), "0.5");
    }

    #[test]
    fn nothing_to_draw_is_an_error() {
        assert!(matches!(render_svg(&chart(&[])), Err(PlotError::Empty(_))));
        assert!(render_svg(&chart(&[1.0, 2.0])).unwrap().starts_with("<svg"));
    }
}
