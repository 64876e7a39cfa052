import diuf.sudoku.*;
import diuf.sudoku.solver.*;
import diuf.sudoku.solver.rules.chaining.*;
import java.io.*;
import java.util.*;

/**
 * Runs one of Sudoku Explainer 1.2.1.3's dynamic chaining producers, `Chaining(true, true,
 * false, LEVEL)`, alone on grids, to check the rater's producer of the same level against it
 * (the fixtures tests/fixtures/rate/se-nested-every.txt and se-level5.txt; the probes
 * `first_hint` and `every_nested` of src/engines/rater/chains/tests.rs write ours alike).
 *
 *   javac -cp SE_CLASSES -d OUT scripts/SeChainingProbe.java
 *   java -Xmx4g -cp SE_CLASSES:OUT SeChainingProbe first LEVEL FILE
 *     each line of FILE a puzzle: the first hint on the grid of its givens, as
 *     "puzzle hints difficulty complexity removals | name # ms"
 *   java -Xmx4g -cp SE_CLASSES:OUT SeChainingProbe every LEVEL FILE
 *     each line "puzzle removals" (r1c2-57,r3c4-1): every hint, in SE's order, on the grid of
 *     the givens less the removals, as "difficulty complexity sSORTKEY removals | rule parents"
 *     (the rule parents against the grid of the givens), after a line "# puzzle removals ..."
 *
 * SE_CLASSES: SE 1.2.1.3 compiled as ../shared/RATING-NOTES.md says. Ours, on the same files:
 *   PROBE_FILE=FILE PROBE_LEVEL=LEVEL cargo test --release --lib -- --ignored --exact \
 *       engines::rater::chains::tests::probe --nocapture
 *   PROBE_FILE=FILE cargo test --release --lib -- --ignored --exact \
 *       engines::rater::chains::tests::probe_every --nocapture
 */
public class SeChainingProbe {
    public static void main(String[] args) throws Exception {
        boolean every = args[0].equals("every");
        int level = Integer.parseInt(args[1]);
        BufferedReader in = new BufferedReader(new FileReader(args[2]));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.length() < 81)
                continue;
            String puzzle = line.substring(0, 81);
            Grid source = new Grid();
            for (int i = 0; i < 81; i++) {
                char ch = puzzle.charAt(i);
                if (ch >= '1' && ch <= '9')
                    source.setCellValue(i % 9, i / 9, ch - '0');
            }
            new Solver(source).rebuildPotentialValues();
            Grid grid = new Grid();
            source.copyTo(grid);
            String removals = every && line.length() > 82 ? line.substring(82).trim() : "";
            for (String r : removals.split(",")) {
                if (r.isEmpty())
                    continue;
                Cell cell = grid.getCell(r.charAt(3) - '1', r.charAt(1) - '1');
                for (int k = 5; k < r.length(); k++)
                    cell.removePotentialValue(r.charAt(k) - '0');
            }
            final List<Hint> hints = new ArrayList<Hint>();
            long t = System.currentTimeMillis();
            new Chaining(true, true, false, level).getHints(grid, new HintsAccumulator() {
                public void add(Hint h) {
                    hints.add(h);
                }
            });
            t = System.currentTimeMillis() - t;
            if (every) {
                System.out.println("# " + puzzle + " " + removals + " " + hints.size() + " hints " + t + " ms");
                for (Hint h0 : hints) {
                    ChainingHint h = (ChainingHint) h0;
                    TreeSet<Integer> parents = new TreeSet<Integer>();
                    for (Potential p : h.getRuleParents(source, grid))
                        parents.add(index(p.cell, p.value));
                    System.out.println(String.format("%.1f", h.getDifficulty()) + " " + h.getComplexity()
                            + " s" + h.getSortKey() + " " + write(removable(h)) + " | " + write(parents));
                }
            } else {
                StringBuilder sb = new StringBuilder(puzzle).append(' ').append(hints.size());
                if (!hints.isEmpty()) {
                    ChainingHint h = (ChainingHint) hints.get(0);
                    sb.append(' ').append(String.format("%.1f", h.getDifficulty()));
                    sb.append(' ').append(h.getComplexity());
                    sb.append(' ').append(write(removable(h)));
                    sb.append(" | ").append(h.getName());
                }
                System.out.println(sb.append(" # ").append(t).append(" ms"));
            }
            System.out.flush();
        }
    }

    static int index(Cell cell, int value) {
        return (cell.getY() * 9 + cell.getX()) * 9 + value - 1;
    }

    static TreeSet<Integer> removable(ChainingHint h) {
        TreeSet<Integer> set = new TreeSet<Integer>();
        for (Map.Entry<Cell, BitSet> e : h.getRemovablePotentials().entrySet())
            for (int v = e.getValue().nextSetBit(0); v >= 0; v = e.getValue().nextSetBit(v + 1))
                set.add(index(e.getKey(), v));
        return set;
    }

    /** Candidates as "r1c2-5", in cell and digit order. */
    static String write(TreeSet<Integer> set) {
        StringBuilder sb = new StringBuilder();
        for (int i : set) {
            if (sb.length() > 0)
                sb.append(',');
            sb.append("r").append(i / 81 + 1).append("c").append(i / 9 % 9 + 1).append("-").append(i % 9 + 1);
        }
        return sb.toString();
    }
}
