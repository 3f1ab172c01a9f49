package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.ast.SubsearchResult;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * join, append and appendcols as page operators, driven directly: the hash join's types and max,
 * rows passed through or added, subsearch rows reserved while held and released at the end.
 */
class SubsearchOperatorsTest {
  private final MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
  private final OperatorContext context =
      new SearchResources(account, () -> false, warning -> {})
          .context(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  private static Map<String, Object> row(Object... keysAndValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      row.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return row;
  }

  /** A page of rows with the adapter's row ids 0, 1, …. */
  private static Page input(List<Map<String, Object>> rows) {
    List<Map<String, Object>> withIds = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Map<String, Object> values = new LinkedHashMap<>(rows.get(i));
      values.put(PluginOperators.ROW_COLUMN, (long) i);
      withIds.add(values);
    }
    return TestPages.of(withIds);
  }

  private static SubsearchResult result(List<Map<String, Object>> rows) {
    Page page = TestPages.of(rows);
    return new SubsearchResult(List.of(page), rows.size(), SubsearchRows.ramBytes(page), List.of());
  }

  /** Drives the operator over one input page; the output rows as maps (row id included). */
  private List<Map<String, Object>> run(Operator operator, Page in) {
    List<Page> out = new ArrayList<>();
    context.blockFactory().reserve(in.blocks().get(0)); // the adapter hands it over reserved
    in.blocks().stream().skip(1).forEach(context.blockFactory()::reserve);
    operator.addInput(in);
    Page page;
    while ((page = operator.getOutput()) != null) {
      out.add(page);
    }
    operator.finish();
    while ((page = operator.getOutput()) != null) {
      out.add(page);
    }
    assertThat(operator.isFinished()).isTrue();
    assertThat(account.used()).as("the subsearch rows are held until close").isPositive();
    operator.close();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page p : out) {
      for (int i = 0; i < p.positionCount(); i++) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int c = 0; c < p.schema().size(); c++) {
          Object value = PluginOperators.value(p.block(c), i);
          if (value != null) {
            values.put(p.schema().column(c).name(), value);
          }
        }
        rows.add(values);
      }
      context.blockFactory().release(p);
    }
    assertThat(account.used()).as("everything released").isZero();
    return rows;
  }

  private final List<Map<String, Object>> users =
      List.of(
          row("user", "alice", "dept", "eng"),
          row("user", "bob", "dept", "sales"),
          row("user", "alice", "dept", "ops"));

  private final List<Map<String, Object>> events =
      List.of(row("user", "alice", "n", 1L), row("user", "dave", "n", 2L), row("n", 3L));

  private HashJoinOperator join(SubsearchCommand.JoinType type, long max, boolean overwrite) {
    return HashJoinOperator.joinedColumns(
        new SubsearchCommand.Join(type, max, overwrite, List.of("user")), result(users), context);
  }

  @Test
  void innerJoinKeepsMatchedRowsWithTheFirstMatch() {
    assertThat(run(join(SubsearchCommand.JoinType.INNER, 1, true), input(events)))
        .containsExactly(row(PluginOperators.ROW_COLUMN, 0L, "dept", "eng"));
  }

  @Test
  void leftJoinKeepsEveryRowAndMaxZeroJoinsEveryMatch() {
    assertThat(run(join(SubsearchCommand.JoinType.LEFT, 0, true), input(events)))
        .containsExactly(
            row(PluginOperators.ROW_COLUMN, 0L, "dept", "eng"),
            row(PluginOperators.ROW_COLUMN, 0L, "dept", "ops"),
            row(PluginOperators.ROW_COLUMN, 1L),
            row(PluginOperators.ROW_COLUMN, 2L));
  }

  @Test
  void withoutOverwriteTheRowKeepsItsValues() {
    List<Map<String, Object>> mine = List.of(row("user", "bob", "dept", "mine"));
    assertThat(run(join(SubsearchCommand.JoinType.INNER, 1, false), input(mine)))
        .containsExactly(row(PluginOperators.ROW_COLUMN, 0L, "dept", "mine"));
    assertThat(run(join(SubsearchCommand.JoinType.INNER, 1, true), input(mine)))
        .containsExactly(row(PluginOperators.ROW_COLUMN, 0L, "dept", "sales"));
  }

  @Test
  void appendPassesRowsThroughThenAddsTheSubsearchRows() {
    List<Map<String, Object>> out = run(new AppendOperator(result(users), context), input(events));
    assertThat(out).hasSize(6);
    assertThat(out.get(0)).containsEntry(PluginOperators.ROW_COLUMN, 0L);
    assertThat(out.subList(3, 6)).containsExactlyElementsOf(users);
  }

  @Test
  void appendcolsPairsRowsInOrder() {
    List<Map<String, Object>> two = List.of(row("x", "a"), row("x", "b"));
    List<Map<String, Object>> out =
        run(new AppendColsOperator(result(users), false, context), input(two));
    assertThat(out)
        .containsExactly(
            row(PluginOperators.ROW_COLUMN, 0L, "user", "alice", "dept", "eng"),
            row(PluginOperators.ROW_COLUMN, 1L, "user", "bob", "dept", "sales"),
            row("user", "alice", "dept", "ops"));
  }

  /**
   * Without join fields, a row joins on the subsearch's fields it or a row before it holds: row 0
   * on user (alice's first row), row 1 on user and dept (alice, ops), row 2 (bob) misses dept and
   * matches nothing. The fields grew once, so two tables were built; one is held, reserved on the
   * search's account (one entry estimate per subsearch row), and released at close.
   */
  @Test
  void joinWithoutFieldsHoldsOneTableOfTheFieldsSoFar() {
    SubsearchResult result = result(users);
    HashJoinOperator join =
        new HashJoinOperator(
            new SubsearchCommand.Join(SubsearchCommand.JoinType.LEFT, 1, true, List.of()),
            result,
            context);
    Page in =
        TestPages.of(
            List.of(
                row("user", "alice", "n", 0L),
                row("user", "alice", "dept", "ops", "n", 1L),
                row("user", "bob", "n", 2L)));
    in.blocks().forEach(context.blockFactory()::reserve);
    join.addInput(in);
    join.finish();
    List<Page> out = new ArrayList<>();
    Page page;
    while ((page = join.getOutput()) != null) {
      out.add(page);
    }
    long outBytes = out.stream().mapToLong(SubsearchRows::ramBytes).sum();
    assertThat(account.used() - result.bytes() - outBytes)
        .as("one table held")
        .isEqualTo(HashJoinOperator.ENTRY_BYTES * users.size());
    join.close();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page p : out) {
      for (int i = 0; i < p.positionCount(); i++) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int c = 0; c < p.schema().size(); c++) {
          Object value = PluginOperators.value(p.block(c), i);
          if (value != null) {
            values.put(p.schema().column(c).name(), value);
          }
        }
        rows.add(values);
      }
      context.blockFactory().release(p);
    }
    assertThat(account.used()).as("everything released").isZero();
    assertThat(rows)
        .containsExactly(
            row("user", "alice", "n", 0L, "dept", "eng"),
            row("user", "alice", "dept", "ops", "n", 1L),
            row("user", "bob", "n", 2L));
  }

  /**
   * The one hash join in both of its forms — over whole pages ({@link PageCommands#onPages}) and
   * over an event listing's rows ({@link PageCommands#of}: only the row column and the joined
   * columns, laid over the rows) — driven one call at a time by the pull protocol ({@link
   * ProtocolDriver}: random page cuts, random order of feeding and pulling): the same answer as one
   * page in, and every block and table it counted released at close, also when closed halfway.
   */
  @Test
  void theJoinKeepsThePullProtocolInBothForms() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      if (i % 7 != 3) {
        row.put("user", List.of("alice", "bob", "carol", "dave").get(i % 4));
      }
      row.put("n", (long) i);
      if (i % 5 == 0) {
        row.put("dept", "own");
      }
      rows.add(row);
    }
    for (String query :
        List.of(
            "join user [search x]",
            "join type=left max=0 user [search x]",
            "join overwrite=false type=outer user [search x]",
            "join type=left [search x]")) {
      for (boolean overRows : List.of(false, true)) {
        String name = query + (overRows ? " over rows" : " over pages");
        List<Map<String, Object>> expected =
            protocolJoin(query, overRows, List.of(TestPages.of(rows)), 0, true);
        assertThat(expected).as(name).isNotEmpty();
        for (int seed = 1; seed < 6; seed++) {
          Random random = new Random(seed);
          List<Page> cut = new ArrayList<>();
          for (int from = 0; from < rows.size(); ) {
            int to = Math.min(rows.size(), from + 1 + random.nextInt(20));
            cut.add(TestPages.of(rows.subList(from, to)));
            from = to;
          }
          assertThat(protocolJoin(query, overRows, cut, seed, true))
              .as(name + " (seed " + seed + ")")
              .isEqualTo(expected);
          protocolJoin(query, overRows, cut.subList(0, cut.size() / 2), seed, false);
        }
      }
    }
  }

  /**
   * {@code query}'s join of {@code input} with {@link #users} by the pull protocol ({@code
   * finishes} false: closed halfway), its answer's rows read before it is closed; every byte it
   * counted given back.
   */
  private static List<Map<String, Object>> protocolJoin(
      String query, boolean overRows, List<Page> input, long seed, boolean finishes) {
    MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
    Evaluator evaluator =
        new Evaluator(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC)
            .withResources(new SearchResources(account, () -> false, warning -> {}));
    List<Map<String, Object>> users =
        List.of(
            row("user", "alice", "dept", "eng"),
            row("user", "bob", "dept", "sales"),
            row("user", "alice", "dept", "ops"),
            row("dept", "none"),
            row("user", "dave", "dept", "hr", "n", 99L));
    SubsearchCommand join =
        ((SubsearchCommand) PageRun.commands("* | " + query).getFirst()).withResult(result(users));
    Operator operator =
        PageChain.operator(
            overRows ? PageCommands.of(join) : PageCommands.onPages(join), evaluator);
    List<Map<String, Object>> answer;
    try {
      ProtocolDriver driver = new ProtocolDriver(query, List.of(operator), new Random(seed));
      answer = TestPages.rows(finishes ? driver.run(input) : driver.abandon(input));
    } finally {
      operator.close();
    }
    assertThat(account.used()).as(query + ": released").isZero();
    return answer;
  }
}
