//! What a csv or jsonl result record holds besides its results, shared by the commands that
//! write one record per input record (`solve`, `rate`): the input's name, the puzzle field as
//! written in the input, and with `--passthrough` the input record itself, under its own
//! column names, before the results.
//!
//! A result name that equals an input column's gets `result_` in front (again, until it is
//! unique), so nothing is overwritten: a Kaggle `puzzle,solution` file solved gives
//! `puzzle,solution,line,result_solution,status,...`.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::grid::{Grid, CELLS};
use crate::io::reader::Record;
use crate::io::write::{write_csv_field, JsonObject};

/// What csv and jsonl records hold besides the results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    /// A `file` field naming the input (when there are several).
    pub file: bool,
    /// Write the puzzle with this empty-cell mark instead of as written in the input.
    pub empty: Option<u8>,
    /// Repeat each input record before the results (see the module doc).
    pub passthrough: bool,
}

/// A passthrough problem: inputs whose columns differ cannot share one output header.
#[derive(Debug, thiserror::Error)]
#[error("--passthrough: {file} has the columns {found}, but the output already has {expected}; pass such files in separate runs")]
pub struct ColumnsDiffer {
    /// The input whose columns differ.
    pub file: String,
    /// Its columns.
    pub found: String,
    /// The columns of the output so far.
    pub expected: String,
}

/// The column names of a passthrough output: the input's, then the results' (renamed on a
/// clash, see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassthroughNames {
    /// The input's columns: a CSV header's names, or `input` for a line file's line.
    pub input: Vec<String>,
    /// The result names, in order, each unlike every input column.
    pub results: Vec<String>,
}

/// An input's column names: its CSV header (`None`: a line file, whose line is one `input`
/// column).
fn input_names(headers: Option<&csv::ByteRecord>) -> Vec<String> {
    match headers {
        Some(h) => h
            .iter()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect(),
        None => vec!["input".to_string()],
    }
}

impl PassthroughNames {
    /// The names for an input with `headers` (see [`input_names`]) and these results.
    pub fn new(headers: Option<&csv::ByteRecord>, results: &[String]) -> PassthroughNames {
        let input = input_names(headers);
        let results = results
            .iter()
            .map(|name| {
                let mut name = name.clone();
                while input.iter().any(|c| c.trim().eq_ignore_ascii_case(&name)) {
                    name.insert_str(0, "result_");
                }
                name
            })
            .collect();
        PassthroughNames { input, results }
    }

    /// Check that input `file`, with `headers`, has the columns of the output so far.
    pub fn check(
        &self,
        file: &str,
        headers: Option<&csv::ByteRecord>,
    ) -> Result<(), ColumnsDiffer> {
        let found = input_names(headers);
        if found == self.input {
            return Ok(());
        }
        Err(ColumnsDiffer {
            file: file.to_string(),
            found: found.join(","),
            expected: self.input.join(","),
        })
    }

    /// The CSV header line: every input column, then every result.
    pub fn write_csv_header(&self, out: &mut impl Write) -> io::Result<()> {
        for (i, name) in self.input.iter().chain(&self.results).enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            write_csv_field(&mut *out, name.as_bytes())?;
        }
        out.write_all(b"\n")
    }

    /// The input fields of `record` as CSV, each followed by a comma (a field the record
    /// lacks is empty).
    pub fn write_csv_fields(
        &self,
        out: &mut impl Write,
        record: Option<&Record>,
    ) -> io::Result<()> {
        for i in 0..self.input.len() {
            write_csv_field(&mut *out, &input_field(record, i))?;
            out.write_all(b",")?;
        }
        Ok(())
    }

    /// The input fields of `record` as JSON string fields under the input's names.
    pub fn write_json_fields<W: Write>(
        &self,
        obj: &mut JsonObject<'_, W>,
        record: Option<&Record>,
    ) -> io::Result<()> {
        for (i, name) in self.input.iter().enumerate() {
            obj.field(name, &String::from_utf8_lossy(&input_field(record, i)))?;
        }
        Ok(())
    }
}

/// Field `i` of the input record as read; without the fields (blocks, boards), the puzzle
/// stands for the first.
fn input_field(record: Option<&Record>, i: usize) -> Cow<'_, [u8]> {
    match record.and_then(|r| r.text.fields.as_ref()) {
        Some(f) => Cow::Borrowed(f.get(i).unwrap_or_default()),
        None if i == 0 => puzzle_field(record, None),
        None => Cow::Borrowed(&[][..]),
    }
}

/// The puzzle field: as written in the input, or normalised with `empty` (`--empty`), or
/// (blocks and boards, whose text is not one field) with `.` for empty cells; empty when the
/// record was not kept.
pub fn puzzle_field(record: Option<&Record>, empty: Option<u8>) -> Cow<'_, [u8]> {
    let line = |g: &Grid, mark: u8| {
        let mut buf = [0u8; CELLS];
        g.write_line(mark, &mut buf);
        Cow::Owned(buf.to_vec())
    };
    let Some(record) = record else {
        return Cow::Borrowed(&[]);
    };
    match (empty, record.puzzle.as_ref().ok(), &record.text.puzzle) {
        (Some(mark), Some(g), _) => line(g, mark),
        (_, _, Some(text)) => Cow::Borrowed(text),
        (_, Some(g), None) => line(g, b'.'),
        (_, None, None) => Cow::Borrowed(&[]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_names_that_clash_with_input_columns_get_a_prefix_until_unique() {
        let headers = csv::ByteRecord::from(vec!["puzzle", "Solution", "result_solution"]);
        let results: Vec<String> = ["line", "solution", "status"].map(String::from).into();
        let names = PassthroughNames::new(Some(&headers), &results);
        assert_eq!(names.results, ["line", "result_result_solution", "status"]);
        assert!(names.check("a.csv", Some(&headers)).is_ok());
        let err = names.check("b.txt", None).unwrap_err();
        assert_eq!(err.found, "input");
        assert_eq!(err.expected, "puzzle,Solution,result_solution");
    }
}
