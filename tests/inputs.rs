//! Inputs as people have them: CSV line numbers whatever the line ends (LF, CRLF, mixed, lone
//! CR, quoted fields with line breaks), and compressed files recognised by their first bytes
//! (gzip, zstd, xz, bzip2, zip; concatenated members; truncated files).

mod common;

use std::fs;
use std::io::Write;
use std::path::Path;

use common::{bin, dataset, easy_csv};

/// `solve --format csv` of `file`: (line, status) of every record, and the exit code.
fn solved_lines(file: &Path) -> (Vec<(u64, String)>, Option<i32>) {
    let out = bin()
        .args(["solve", "-q", "--format", "csv"])
        .arg(file)
        .output()
        .unwrap();
    let mut rdr = csv::Reader::from_reader(&out.stdout[..]);
    let rows = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].parse().unwrap(), r[4].to_string())
        })
        .collect();
    (rows, out.status.code())
}

/// The lines `verify` names in its report of `file`.
fn verify_lines(file: &Path) -> Vec<u64> {
    let out = bin()
        .args(["verify", "-q", "--format", "csv"])
        .arg(file)
        .output()
        .unwrap();
    let mut rdr = csv::Reader::from_reader(&out.stdout[..]);
    rdr.records()
        .map(|r| r.unwrap()[0].parse().unwrap())
        .collect()
}

#[test]
fn csv_line_numbers_are_right_whatever_the_line_ends() {
    let rows = easy_csv(4);
    let rows: Vec<&str> = rows.lines().collect(); // header and 3 puzzles
    let bad = "12345,6789";
    for (name, ends) in [
        ("lf", ["\n"; 5]),
        ("crlf", ["\r\n"; 5]),
        ("mixed", ["\r\n", "\n", "\r\n", "\n", "\r\n"]),
        ("cr", ["\r"; 5]),
    ] {
        // header, puzzle, bad row (line 3), puzzle, puzzle
        let lines = [rows[0], rows[1], bad, rows[2], rows[3]];
        let text: String = lines
            .iter()
            .zip(ends)
            .map(|(l, e)| format!("{l}{e}"))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(format!("{name}.csv"));
        fs::write(&file, text).unwrap();
        let (solved, code) = solved_lines(&file);
        let lines: Vec<u64> = solved.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [2, 3, 4, 5], "{name}");
        assert_eq!(solved[1].1, "malformed", "{name}");
        assert_eq!(code, Some(1), "{name}");
        assert_eq!(verify_lines(&file), [3], "{name}");
    }
}

#[test]
fn csv_records_after_blank_lines_are_named_by_their_own_line() {
    let rows = easy_csv(3);
    let rows: Vec<&str> = rows.lines().collect();
    for end in ["\n", "\r\n"] {
        // Line 1 header; 2-3 blank; 4 puzzle; 5 blank; 6 a bad row; 7 puzzle.
        let lines = [rows[0], "", "", rows[1], " ", "12345,6789", rows[2]];
        let text: String = lines.iter().map(|l| format!("{l}{end}")).collect();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("blank.csv");
        fs::write(&file, text).unwrap();
        let (solved, _) = solved_lines(&file);
        let lines: Vec<u64> = solved.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [4, 6, 7], "{end:?}");
        assert_eq!(verify_lines(&file), [6], "{end:?}");
    }
}

#[test]
fn csv_quoted_fields_with_line_breaks_keep_later_line_numbers() {
    let rows = easy_csv(3);
    let rows: Vec<&str> = rows.lines().collect();
    let (p1, p2) = (rows[1], rows[2]);
    for end in ["\n", "\r\n"] {
        // Line 1 header; line 2 puzzle; lines 3-5 one record whose id spans three lines;
        // line 6 a bad record.
        let text =
            format!("id,puzzle,solution{end}a,{p1}{end}\"b{end}c{end}d\",{p2}{end}e,123,{end}");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("quoted.csv");
        fs::write(&file, text).unwrap();
        let (solved, _) = solved_lines(&file);
        assert_eq!(
            solved,
            [
                (2, "solved".to_string()),
                (3, "solved".to_string()),
                (6, "malformed".to_string())
            ],
            "{end:?}"
        );
    }
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn kaggle_3m_crlf_sample_reports_file_lines() {
    let path = dataset("kaggle3m_radcliffe_sample_7034.csv");
    let text = fs::read(&path).unwrap();
    assert!(
        text.windows(2).any(|w| w == b"\r\n"),
        "the sample has CRLF line ends"
    );
    // Keep the header and 4 rows, and spoil the puzzle of file line 4.
    let mut lines: Vec<Vec<u8>> = text
        .split_inclusive(|&b| b == b'\n')
        .take(5)
        .map(<[u8]>::to_vec)
        .collect();
    lines[3][0] = b'x';
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("radcliffe.csv");
    fs::write(&file, lines.concat()).unwrap();
    let (solved, _) = solved_lines(&file);
    assert_eq!(solved[0].0, 2, "first data row is file line 2");
    assert_eq!(solved[2], (4, "malformed".to_string()));
    assert_eq!(verify_lines(&file), [4]);
}

/// `text` compressed as `ext` (gz, zst, xz, bz2).
fn compress(ext: &str, text: &[u8]) -> Vec<u8> {
    match ext {
        "gz" => {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            w.write_all(text).unwrap();
            w.finish().unwrap()
        }
        "zst" => zstd::stream::encode_all(text, 3).unwrap(),
        "xz" => {
            let mut w = liblzma::write::XzEncoder::new(Vec::new(), 3);
            w.write_all(text).unwrap();
            w.finish().unwrap()
        }
        "bz2" => {
            let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            w.write_all(text).unwrap();
            w.finish().unwrap()
        }
        _ => unreachable!(),
    }
}

/// A zip archive holding `members` (name, content).
fn zip_of(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, content) in members {
        w.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(content).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Puzzle lines (no header), `n` of them.
fn puzzle_lines(n: usize) -> String {
    easy_csv(n + 1)
        .lines()
        .skip(1)
        .map(|l| format!("{}\n", &l[..81]))
        .collect()
}

#[test]
fn compressed_inputs_are_read_by_their_first_bytes_not_their_names() {
    let text = easy_csv(201);
    let expected = bin()
        .args(["solve", "-q"])
        .write_stdin(text.clone())
        .output()
        .unwrap()
        .stdout;
    assert_eq!(expected.iter().filter(|&&b| b == b'\n').count(), 200);
    let dir = tempfile::tempdir().unwrap();
    for ext in ["gz", "zst", "xz", "bz2"] {
        let packed = compress(ext, text.as_bytes());
        // A misleading name: the content decides.
        let file = dir.path().join(format!("{ext}-data.csv"));
        fs::write(&file, &packed).unwrap();
        let out = bin().args(["solve", "-q"]).arg(&file).output().unwrap();
        assert!(out.status.success(), "{ext}");
        assert_eq!(out.stdout, expected, "{ext}");
        // From stdin too.
        let out = bin()
            .args(["solve", "-q"])
            .write_stdin(packed.clone())
            .output()
            .unwrap();
        assert_eq!(out.stdout, expected, "{ext} on stdin");
        // verify reads the solution column through the decompressor as well.
        bin().arg("verify").arg(&file).assert().success();
    }
    let zip = dir.path().join("kaggle.zip");
    fs::write(&zip, zip_of(&[("kaggle/data.csv", text.as_bytes())])).unwrap();
    let out = bin().args(["solve", "-q"]).arg(&zip).output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, expected, "zip");
}

#[test]
fn concatenated_members_are_all_read() {
    let (a, b) = (puzzle_lines(30), puzzle_lines(50));
    let dir = tempfile::tempdir().unwrap();
    for ext in ["gz", "zst", "xz", "bz2"] {
        let file = dir.path().join(format!("two.txt.{ext}"));
        fs::write(
            &file,
            [compress(ext, a.as_bytes()), compress(ext, b.as_bytes())].concat(),
        )
        .unwrap();
        let out = bin().args(["solve", "-q"]).arg(&file).output().unwrap();
        assert!(out.status.success(), "{ext}");
        assert_eq!(
            out.stdout.iter().filter(|&&b| b == b'\n').count(),
            80,
            "{ext}"
        );
    }
}

#[test]
fn a_zip_with_several_files_is_refused_naming_them() {
    let text = puzzle_lines(5);
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("two.zip");
    fs::write(
        &zip,
        zip_of(&[("a.txt", text.as_bytes()), ("b.csv", text.as_bytes())]),
    )
    .unwrap();
    let out = bin().args(["solve", "-q"]).arg(&zip).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("2 files (a.txt, b.csv)") && stderr.contains("unzip -p"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    // On stdin a zip cannot be read (its index is at the end): a clear refusal.
    let out = bin()
        .args(["solve", "-q"])
        .write_stdin(fs::read(&zip).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stdin"));
}

#[test]
fn truncated_compressed_input_keeps_the_records_before_and_exits_2() {
    // Enough text for several compressed blocks, so a prefix decodes to whole records.
    let text = puzzle_lines(5000).repeat(8);
    let dir = tempfile::tempdir().unwrap();
    for ext in ["gz", "zst", "xz", "bz2"] {
        let packed = compress(ext, text.as_bytes());
        let file = dir.path().join(format!("cut.{ext}"));
        fs::write(&file, &packed[..packed.len() * 3 / 4]).unwrap();
        let out = bin().args(["solve", "-q"]).arg(&file).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{ext}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("truncated or corrupt"), "{ext}: {stderr}");
        let written = out.stdout.iter().filter(|&&b| b == b'\n').count();
        assert!(written > 0 && written < 40_000, "{ext}: {written} records");
    }
}

#[test]
fn archives_and_streams_that_would_need_large_memory_are_refused_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let text = puzzle_lines(100);
    // A zip listing 20,000 files (1 byte each): refused before its index is read.
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for i in 0..20_000 {
        zip.start_file(format!("f{i}.txt"), stored).unwrap();
        zip.write_all(b"1").unwrap();
    }
    fs::write(
        dir.path().join("many.zip"),
        zip.finish().unwrap().into_inner(),
    )
    .unwrap();
    // xz -9 (a 64 MiB dictionary) and zstd with a 256 MiB window, however small the data.
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 9);
    xz.write_all(text.as_bytes()).unwrap();
    fs::write(dir.path().join("p.txt.xz"), xz.finish().unwrap()).unwrap();
    let mut zst = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    zst.window_log(28).unwrap();
    zst.long_distance_matching(true).unwrap();
    zst.write_all(text.as_bytes()).unwrap();
    fs::write(dir.path().join("p.txt.zst"), zst.finish().unwrap()).unwrap();
    for (name, message) in [
        ("many.zip", "many.zip: the zip archive lists 20000 entries"),
        (
            "p.txt.xz",
            "larger than 32 MiB, the limit that keeps memory bounded; recompress it with xz -8",
        ),
        ("p.txt.zst", "recompress it with zstd -19 or lower"),
    ] {
        bin()
            .current_dir(dir.path())
            .args(["solve", name])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message));
    }
    // xz -8 and zstd -19 are read.
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 8);
    xz.write_all(text.as_bytes()).unwrap();
    fs::write(dir.path().join("p8.txt.xz"), xz.finish().unwrap()).unwrap();
    let zst = zstd::encode_all(text.as_bytes(), 19).unwrap();
    fs::write(dir.path().join("p19.txt.zst"), zst).unwrap();
    for name in ["p8.txt.xz", "p19.txt.zst"] {
        let out = bin()
            .current_dir(dir.path())
            .args(["solve", "-q", name])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 100);
    }
}
