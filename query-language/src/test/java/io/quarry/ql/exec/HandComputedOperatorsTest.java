package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A few built-in commands by the shared operator contract over six rows small enough to work their
 * answers out by hand (below, beside each command), so that the contract's "same answer whatever
 * the pages" is also the right answer.
 *
 * <pre>
 *   row  g  n  user   (newest first, a minute apart)
 *   1    a  5  u1
 *   2    b  3  u2
 *   3    a  -  u1
 *   4    b  8  u3
 *   5    a  1  u2
 *   6    c  4  u1
 * </pre>
 */
class HandComputedOperatorsTest extends OperatorTestCase {
  private static final long T0 =
      java.time.Instant.parse("2026-01-07T00:00:00Z").toEpochMilli() * 1000;

  @Override
  protected List<String> commands() {
    return List.copyOf(answers().keySet());
  }

  @Override
  protected List<String> holdingCommands() {
    return List.of(
        "stats count, sum(n) by g",
        "sort user, - _time | table g, n",
        "eventstats sum(n) AS s by g | table g, s",
        "dedup g | table g, user");
  }

  @Override
  protected Map<String, List<Map<String, Object>>> answers() {
    Map<String, List<Map<String, Object>>> answers = new LinkedHashMap<>();
    // groups in key order; a row without n counts, its n adds nothing
    answers.put(
        "stats count, sum(n) by g",
        List.of(
            row("g", "a", "count", 3L, "sum(n)", 6L),
            row("g", "b", "count", 2L, "sum(n)", 11L),
            row("g", "c", "count", 1L, "sum(n)", 4L)));
    // u1's rows 1, 3, 6, u2's 2, 5, u3's 4, each user's newest first
    answers.put(
        "sort user, - _time | table g, n",
        List.of(
            row("g", "a", "n", 5L),
            row("g", "a"),
            row("g", "c", "n", 4L),
            row("g", "b", "n", 3L),
            row("g", "a", "n", 1L),
            row("g", "b", "n", 8L)));
    // beside each row's g (a b a b a c): its group's sum of n; its group's rows so far
    answers.put("eventstats sum(n) AS s by g | table g, s", besideG("s", 6L, 11L, 6L, 11L, 6L, 4L));
    answers.put(
        "streamstats count by g | table g, count", besideG("count", 1L, 1L, 2L, 2L, 3L, 1L));
    answers.put(
        "dedup g | table g, user",
        List.of(
            row("g", "a", "user", "u1"), row("g", "b", "user", "u2"), row("g", "c", "user", "u1")));
    answers.put(
        "reverse | table n",
        List.of(row("n", 4L), row("n", 1L), row("n", 8L), row(), row("n", 3L), row("n", 5L)));
    answers.put(
        "fillnull value=0 n | table n",
        List.of(
            row("n", 5L), row("n", 3L), row("n", 0L), row("n", 8L), row("n", 1L), row("n", 4L)));
    // users.csv (OperatorTestCase): u1 → red and blue, u2 → green, u3 → nothing
    List<Object> u1 = List.of("red", "blue");
    answers.put(
        "lookup users.csv user OUTPUT team | table user, team",
        List.of(
            row("user", "u1", "team", u1),
            row("user", "u2", "team", "green"),
            row("user", "u1", "team", u1),
            row("user", "u3"),
            row("user", "u2", "team", "green"),
            row("user", "u1", "team", u1)));
    return answers;
  }

  @Override
  protected List<Map<String, List<Object>>> input() {
    Object[][] rows = {
      {"a", 5L, "u1"}, {"b", 3L, "u2"}, {"a", null, "u1"},
      {"b", 8L, "u3"}, {"a", 1L, "u2"}, {"c", 4L, "u1"}
    };
    List<Map<String, Object>> cells = new ArrayList<>();
    for (int i = 0; i < rows.length; i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("_time", T0 + (6 - i) * 60_000_000L);
      row.put("g", rows[i][0]);
      row.put("n", rows[i][1]);
      row.put("user", rows[i][2]);
      cells.add(row);
    }
    return TestPages.cells(cells);
  }

  /** The six input rows' g, each beside {@code field}'s value in that row. */
  private static List<Map<String, Object>> besideG(String field, Object... values) {
    String[] g = {"a", "b", "a", "b", "a", "c"};
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < g.length; i++) {
      rows.add(row("g", g[i], field, values[i]));
    }
    return rows;
  }

  private static Map<String, Object> row(Object... namesAndValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      row.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return row;
  }
}
