//! The fast solver on arbitrary grids: never panics or loops (libFuzzer's -timeout catches
//! slow inputs), and every answer checks: solutions are complete, valid and keep the clues;
//! `Invalid` means the givens clash; with enough clues the MRV baseline must agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::engines::solver::{solve_with_limit, Algorithm, Limits, Status};
use sudoku_batch::grid::{Grid, CELLS};

fuzz_target!(|data: &[u8]| {
    // Byte 0 sets how full the grid is; bytes 1..=81 give the cells (missing bytes: empty).
    let Some((&density, cells)) = data.split_first() else {
        return;
    };
    let mut grid = [0u8; CELLS];
    for (cell, &b) in grid.iter_mut().zip(cells) {
        *cell = if b < density { b % 9 + 1 } else { 0 };
    }
    let grid = Grid::from_cells(grid).expect("cells are 0..=9");
    for limit in [1, 2, 3] {
        let out = solve_with_limit(&grid, limit);
        assert!(out.solutions <= limit);
        match out.status {
            Status::Solved | Status::Multiple => {
                let s = out.solution.expect("a solved outcome has a solution");
                assert!(s.is_solution_of(&grid), "bad solution {s} for {grid}");
                assert_eq!(out.status == Status::Multiple, out.solutions >= 2);
                assert!(limit >= 2 || out.status == Status::Solved);
            }
            Status::Unsolvable => {
                assert!(grid.conflict().is_none());
                assert_eq!(out.solutions, 0);
            }
            Status::Invalid => assert!(grid.conflict().is_some()),
            Status::Aborted => panic!("aborted without a stop flag"),
        }
    }
    if grid.clues() >= 26 {
        let fast = solve_with_limit(&grid, 2);
        let mrv = Algorithm::Mrv.solve(&grid, &Limits::solutions(2));
        assert_eq!(fast.status, mrv.status, "fast and mrv disagree on {grid}");
        assert_eq!(fast.solutions, mrv.solutions);
    }
});
