//! Every grid parser on arbitrary bytes (candidate grids of 729 characters included): no
//! panic, and what parses formats back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::grid::Grid;
use sudoku_batch::position::Position;

fuzz_target!(|data: &[u8]| {
    match Position::from_bytes(data) {
        Ok(p) => {
            assert_eq!(Position::from_bytes(p.to_line().as_bytes()), Ok(p));
            // A fault, if any, must render.
            if let Some(fault) = p.fault() {
                assert!(!format!("{fault:?}").is_empty());
            }
            let _ = p.placed();
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    if let Ok(g) = Grid::from_line_bytes(data) {
        assert_eq!(Grid::from_line(&g.to_line()), Ok(g));
        assert_eq!(Grid::from_block(&g.to_block()), Ok(g));
    }
    if let Ok(text) = std::str::from_utf8(data) {
        for parsed in [
            Grid::from_leetcode(text),
            Grid::from_block(text),
            Grid::parse(text),
            Grid::from_line(text),
        ] {
            match parsed {
                Ok(g) => assert_eq!(Grid::from_line(&g.to_line()), Ok(g)),
                // Messages must render (no panics in Display).
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    }
});
