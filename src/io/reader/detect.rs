//! Format detection from the first data line of an input.

use super::csv::csv_delimiter;
use super::lines::{fields, is_blank_or_comment, is_cell_field};
use super::*;

/// Decide the format from the first data line (BOM, blank and `#` lines skipped).
pub(super) fn detect(head: &[u8]) -> (InputFormat, u8) {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let first = head
        .split(|&b| b == b'\n' || b == b'\r')
        .find(|l| !is_blank_or_comment(l));
    let Some(first) = first else {
        return (InputFormat::Lines, b',');
    };
    let trimmed = first.trim_ascii();
    if trimmed.starts_with(b"[") {
        return (InputFormat::Board, b',');
    }
    if fields(first).any(is_cell_field) {
        return (InputFormat::Lines, b',');
    }
    let row_cells: Vec<u8> = trimmed
        .iter()
        .copied()
        .filter(|b| !matches!(b, b'|' | b'+') && !b.is_ascii_whitespace())
        .collect();
    if row_cells.len() == 9 && row_cells.iter().all(|&b| cell_value(b).is_some()) {
        return (InputFormat::Block, b',');
    }
    let delimiter = csv_delimiter(first);
    let names: Vec<String> = first
        .split(|&b| b == delimiter)
        .map(|f| {
            String::from_utf8_lossy(f)
                .trim()
                .trim_matches('"')
                .to_ascii_lowercase()
        })
        .collect();
    let known = PUZZLE_NAMES.iter().chain(&SOLUTION_NAMES).chain(&ID_NAMES);
    if known.clone().any(|k| names.iter().any(|n| n == k)) {
        return (InputFormat::Csv, delimiter);
    }
    (InputFormat::Lines, b',')
}
