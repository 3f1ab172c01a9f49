package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Plugin commands over events as pull operators ({@link PluginOverlayOperator}), driven one call at
 * a time by the pull protocol ({@link ProtocolDriver}: random page splits, random order of feeding
 * and pulling): each output row is its event with the plugin's new or replaced columns laid over
 * it, the hidden columns untouched and {@link PluginOverlayOperator#OVERLAID} naming what was laid
 * over (a column the plugin passed through unchanged on a page is not); the same answer as the
 * {@link Driver} over one page; everything counted released, also when closed halfway. Expectations
 * written by hand.
 */
class PluginOverlayOperatorTest {
  private static final String HIDDEN = "\u0000listed";

  /** Events 0..29: n = e (null where e % 4 == 1), g = "g" + e % 3, the hidden column "e<e>". */
  private static List<Map<String, List<Object>>> events() {
    List<Map<String, List<Object>>> rows = new ArrayList<>();
    for (int e = 0; e < 30; e++) {
      Map<String, List<Object>> row = new LinkedHashMap<>();
      row.put("n", e % 4 == 1 ? List.of() : List.of((long) e));
      row.put("g", List.of("g" + e % 3));
      row.put(HIDDEN, List.of("e" + e));
      rows.add(row);
    }
    return rows;
  }

  private static List<Page> pages(Random random) {
    List<Map<String, List<Object>>> rows = events();
    List<String> names = TestPages.names(rows);
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); ) {
      int to = Math.min(rows.size(), from + 1 + random.nextInt(12));
      pages.add(TestPages.page(rows.subList(from, to), names));
      from = to;
    }
    return pages;
  }

  /** The operators of {@code commands} over events, counting on {@code account}. */
  private static List<Operator> operators(String commands, MemoryAccount account) {
    Evaluator evaluator =
        new Evaluator(
                Instant.parse("2026-01-07T12:00:00Z"), ZoneOffset.UTC, name -> null, (n, t) -> {})
            .withResources(new SearchResources(account, () -> false, warning -> {}));
    List<Operator> operators = new ArrayList<>();
    for (Command command : PageRun.commands("* | " + commands)) {
      assertThat(OverlayCommands.overlays(command)).as(command.name()).isTrue();
      operators.add(
          new PluginOverlayOperator(
              (PluginCommand) command, evaluator, Set.of(HIDDEN, PluginOverlayOperator.OVERLAID)));
    }
    return operators;
  }

  /** Each output row: n, g, the hidden column and the overlaid names, by hand. */
  private static List<Map<String, Object>> expected() {
    List<Map<String, Object>> rows = new ArrayList<>();
    long sum = 0;
    for (int e = 0; e < 30; e++) {
      sum += e % 4 == 1 ? 0 : e; // fillnull value=0 n, then accum n
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("n", sum);
      row.put("g", "g" + e % 3);
      row.put(HIDDEN, "e" + e);
      // accum laid n over every row; fillnull over those of a page where it filled one
      row.put(PluginOverlayOperator.OVERLAID, Set.of("n"));
      rows.add(row);
    }
    return rows;
  }

  /** The rows as name → value, n as a long, the overlaid names as a set. */
  private static List<Map<String, Object>> rows(List<Page> pages) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map<String, Object> row : TestPages.rows(pages)) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("n", ((Number) row.get("n")).longValue());
      fields.put("g", row.get("g"));
      fields.put(HIDDEN, row.get(HIDDEN));
      Object overlaid = row.get(PluginOverlayOperator.OVERLAID); // the names laid over, once each
      fields.put(
          PluginOverlayOperator.OVERLAID,
          Set.copyOf(overlaid instanceof List<?> names ? names : List.of(overlaid)));
      rows.add(fields);
    }
    return rows;
  }

  @Test
  void eventsWithThePluginsColumnsLaidOverThemByTheProtocol() {
    String commands = "fillnull value=0 n | accum n";
    MemoryAccount one = MemoryAccount.unbounded("test");
    List<Page> answer = new ArrayList<>();
    PageRun.drive(
        pages(new Random(0)),
        operators(commands, one).stream().map(Driver.Step::uncounted).toList(),
        answer::add,
        null,
        new SearchResources(one, () -> false, w -> {}).context(Instant.EPOCH, ZoneOffset.UTC));
    assertThat(rows(answer)).as("the Driver").isEqualTo(expected());
    for (int seed = 0; seed < 8; seed++) {
      Random random = new Random(seed);
      MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
      List<Operator> operators = operators(commands, account);
      List<Page> out;
      try {
        out = new ProtocolDriver(commands, operators, random).run(pages(random));
      } finally {
        operators.forEach(Operator::close);
      }
      assertThat(rows(out)).as("seed %d", seed).isEqualTo(expected());
      assertThat(account.used()).as("seed %d: released", seed).isZero();
    }
  }

  @Test
  void closedHalfwayReleasesEverything() {
    for (int seed = 0; seed < 4; seed++) {
      Random random = new Random(seed);
      MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
      List<Operator> operators = operators("fillnull value=0 n | accum n", account);
      List<Page> input = pages(random);
      try {
        new ProtocolDriver("overlay", operators, random)
            .abandon(input.subList(0, input.size() / 2));
      } finally {
        operators.forEach(Operator::close);
      }
      assertThat(account.used()).as("seed %d", seed).isZero();
    }
  }

  /**
   * A streaming command without a field list ({@code replace g1 WITH G}, no {@code IN}) names g
   * only on the rows whose value it changed, whatever the random page splits, and answers a batch
   * before its input ends: its output is not held (issue 21, {@code … | replace … | head 5}).
   */
  @Test
  void aStreamingCommandWithoutAFieldListNamesTheRowsItChangedAndHoldsNothing() {
    for (int seed = 0; seed < 8; seed++) {
      Random random = new Random(seed);
      MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
      List<Operator> operators = operators("replace g1 WITH G", account);
      List<Page> out;
      try {
        out = new ProtocolDriver("replace", operators, random).run(pages(random));
      } finally {
        operators.forEach(Operator::close);
      }
      List<Map<String, Object>> rows = TestPages.rows(out);
      assertThat(rows).as("seed %d", seed).hasSize(30);
      for (int e = 0; e < 30; e++) {
        assertThat(rows.get(e).get("g")).isEqualTo(e % 3 == 1 ? "G" : "g" + e % 3);
        assertThat(rows.get(e).get(PluginOverlayOperator.OVERLAID))
            .as("seed %d row %d", seed, e)
            .isEqualTo(e % 3 == 1 ? "g" : null);
      }
      assertThat(account.used()).as("seed %d: released", seed).isZero();
    }
    MemoryAccount account = MemoryAccount.unbounded("test");
    Operator replace = operators("replace g1 WITH G", account).getFirst();
    try {
      replace.addInput(pages(new Random(0)).getFirst());
      assertThat(replace.getOutput()).as("answered before its input ends").isNotNull();
    } finally {
      replace.close();
    }
  }

  /**
   * Bare {@code fillnull} names the fields it changed on some row of its whole output on every row,
   * whatever the random page splits — here n (it filled the nulls of e % 4 == 1), not g, which it
   * changed nowhere —, its output held until its input ends and everything counted released.
   */
  @Test
  void bareFillnullNamesWhatItWroteOnEveryRow() {
    for (int seed = 0; seed < 8; seed++) {
      Random random = new Random(seed);
      MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
      List<Operator> operators = operators("fillnull", account);
      List<Page> out;
      try {
        out = new ProtocolDriver("fillnull", operators, random).run(pages(random));
      } finally {
        operators.forEach(Operator::close);
      }
      List<Map<String, Object>> rows = TestPages.rows(out);
      assertThat(rows).as("seed %d", seed).hasSize(30);
      for (int e = 0; e < 30; e++) {
        assertThat(String.valueOf(rows.get(e).get("n"))).isEqualTo(e % 4 == 1 ? "0" : "" + e);
        assertThat(rows.get(e).get(PluginOverlayOperator.OVERLAID)).as("row %d", e).isEqualTo("n");
      }
      // the 30 events' batches were all kept, and counted, until its input ended
      assertThat(account.peak()).as("seed %d", seed).isGreaterThan(30 * MemoryTracker.ROW_BYTES);
      assertThat(account.used()).as("seed %d: released", seed).isZero();
    }
  }

  /** Over a limit smaller than the batches it keeps it fails, and gives back all it counted. */
  @Test
  void bareFillnullFailsOverTheLimitAndReleases() {
    MemoryAccount account = new MemoryAccount("test", 10 * MemoryTracker.ROW_BYTES);
    List<Operator> operators = operators("fillnull", account);
    try {
      Throwable thrown =
          org.assertj.core.api.Assertions.catchThrowable(
              () ->
                  new ProtocolDriver("fillnull", operators, new Random(1))
                      .run(pages(new Random(1))));
      boolean overLimit = false;
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        overLimit |= t instanceof io.quarry.plugin.api.data.MemoryLimitExceededException;
      }
      assertThat(overLimit).as("%s", thrown).isTrue();
    } finally {
      operators.forEach(Operator::close);
    }
    assertThat(account.used()).isZero();
  }

  @Test
  void aFailureTheDriverFindsNamesTheWrappedCommand() {
    List<Operator> operators = operators("fillnull value=0 n", MemoryAccount.unbounded("test"));
    try {
      assertThat(((RunsPlugin) operators.getFirst()).failure(new IllegalStateException("stuck")))
          .hasMessageContaining("command 'fillnull'")
          .hasMessageContaining("stuck");
    } finally {
      operators.forEach(Operator::close);
    }
  }
}
