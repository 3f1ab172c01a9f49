package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.engine.aggregation.TopAggregation;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code top}/{@code rare} on pages ({@link TopAggregation}) against hand-computed answers and
 * against a plain Java {@code top} ({@link PlainTop}) on random rows (multivalued and missing
 * fields, numbers and text, {@code _time}) cut into random pages and partials merged in random
 * order: the answer must not depend on the page sizes or the split.
 */
class TopAggregationTest {
  private static TopCommand top(String text) {
    return (TopCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  private static List<Map<String, Object>> answer(PageAggregator operator) {
    operator.finish();
    List<Page> pages = new ArrayList<>();
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      pages.add(page);
    }
    assertThat(operator.isFinished()).isTrue();
    operator.close();
    return TestPages.rows(pages);
  }

  private static Map<String, Object> row(Object... keysAndValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      row.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return row;
  }

  @Test
  void countsCombinationsAsComputedByHand() {
    // ip: a twice, b once, a row without ip (not counted); status by ip
    List<Map<String, Object>> input =
        List.of(
            row("ip", "a", "status", 200L),
            row("ip", "b", "status", 404L),
            row("ip", "a", "status", 200L),
            row("status", 500L));
    TopAggregation top = new TopAggregation(top("top ip"), MemoryTracker.unbounded("top"), 10);
    top.addInput(TestPages.page(TestPages.cells(input), List.of("ip", "status")));
    assertThat(answer(top))
        .containsExactly(
            Map.of("ip", "a", "count", 2L, "percent", 66.666667),
            Map.of("ip", "b", "count", 1L, "percent", 33.333333));
  }

  /**
   * By hand: a multivalue counts once per distinct value, ties go in value order (numbers first),
   * {@code rare} takes the least common, {@code limit} per by-group, the percentage is of the
   * group's rows that have the field.
   */
  @Test
  void ranksTiesAndGroupsAsComputedByHand() {
    List<Map<String, Object>> input =
        List.of(
            row("host", "h1", "code", List.of("x", "x", "y")),
            row("host", "h1", "code", "z"),
            row("host", "h1", "code", "y"),
            row("host", "h2", "code", "10"),
            row("host", "h2", "code", "9"),
            row("host", "h2"),
            row("code", "y"));
    PageAggregator top =
        PageAggregator.of(
            top("top limit=2 code by host"),
            java.time.ZoneOffset.UTC,
            MemoryTracker.unbounded("top"),
            2);
    top.addInput(TestPages.page(TestPages.cells(input), List.of("host", "code")));
    // h1: y twice (rows 1, 3), x once (a multivalue counts once), z once: y, then x before z;
    // h2: 9 and 10 once each, 9 first (numbers by value); h2's row without code is not counted
    assertThat(answer(top))
        .containsExactly(
            Map.of("host", "h1", "code", "y", "count", 2L, "percent", 66.666667),
            Map.of("host", "h1", "code", "x", "count", 1L, "percent", 33.333333),
            Map.of("host", "h2", "code", "9", "count", 1L, "percent", 50.0),
            Map.of("host", "h2", "code", "10", "count", 1L, "percent", 50.0));
    PageAggregator rare =
        PageAggregator.of(
            top("rare limit=1 code showperc=false countfield=n"),
            java.time.ZoneOffset.UTC,
            MemoryTracker.unbounded("rare"),
            2);
    rare.addInput(TestPages.page(TestPages.cells(input), List.of("host", "code")));
    // y three times (rows 1, 3, 7), x, z, 10, 9 once each: the least common first in value order
    assertThat(answer(rare)).containsExactly(Map.of("code", "9", "n", 1L));
  }

  /**
   * The page aggregation against a plain Java {@code top} ({@link PlainTop}: no engine of ours) on
   * random rows (multivalued and missing fields, numbers and text, {@code _time}) cut into random
   * pages and partials merged in random order: the answer must not depend on the page sizes or the
   * split.
   */
  @Test
  void answersAsAPlainJavaTopDoes() {
    Map<String, PlainTop.Options> commands = new LinkedHashMap<>();
    commands.put("top ip", PlainTop.Options.of(List.of("ip"), List.of(), false));
    commands.put("rare ip", PlainTop.Options.of(List.of("ip"), List.of(), true));
    commands.put(
        "top limit=3 status by ip",
        PlainTop.Options.of(List.of("status"), List.of("ip"), false).limit(3));
    commands.put(
        "rare limit=2 ip by status",
        PlainTop.Options.of(List.of("ip"), List.of("status"), true).limit(2));
    commands.put("top ip, status", PlainTop.Options.of(List.of("ip", "status"), List.of(), false));
    commands.put(
        "top limit=0 bytes", PlainTop.Options.of(List.of("bytes"), List.of(), false).limit(0));
    commands.put(
        "top status showcount=false",
        PlainTop.Options.of(List.of("status"), List.of(), false)
            .fields("count", "percent", false, true));
    commands.put(
        "top ip showperc=false countfield=c",
        PlainTop.Options.of(List.of("ip"), List.of(), false).fields("c", "percent", true, false));
    commands.put(
        "top ip percentfield=share by n",
        PlainTop.Options.of(List.of("ip"), List.of("n"), false)
            .fields("count", "share", true, true));
    commands.put(
        "top _time by status", PlainTop.Options.of(List.of("_time"), List.of("status"), false));
    commands.put(
        "top n by ip, status", PlainTop.Options.of(List.of("n"), List.of("ip", "status"), false));
    commands.put(
        "rare status by _time", PlainTop.Options.of(List.of("status"), List.of("_time"), true));
    for (long seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      List<Map<String, Object>> input = RandomRows.of(random, 400);
      for (var entry : commands.entrySet()) {
        String command = entry.getKey();
        List<String> fields = PageAggregator.inputFields(top(command));
        PageAggregator total =
            PageAggregator.of(
                top(command),
                java.time.ZoneOffset.UTC,
                MemoryTracker.unbounded("top"),
                1 + random.nextInt(64));
        List<PageAggregator> partials = new ArrayList<>();
        for (Page page : RandomRows.pages(input, fields, random)) {
          if (partials.isEmpty() || random.nextInt(4) == 0) {
            partials.add(total.newPartial());
          }
          partials.get(random.nextInt(partials.size())).addInput(page);
          if (random.nextInt(10) == 0) {
            total.merge(partials.get(random.nextInt(partials.size())));
          }
        }
        partials.forEach(total::merge);
        assertThat(PlainStats.canonical(answer(total)))
            .as(command + " (seed " + seed + ")")
            .isEqualTo(PlainStats.canonical(PlainTop.top(input, entry.getValue())));
      }
    }
  }

  @Test
  void combinationsAreCountedAgainstTheSearchAndReleasedWhenClosed() {
    List<Map<String, Object>> input = RandomRows.of(new Random(1), 300);
    MemoryAccount account = new MemoryAccount("search", Long.MAX_VALUE);
    PageAggregator top =
        PageAggregator.of(
            top("top n by ip"), java.time.ZoneOffset.UTC, new MemoryTracker(account, "top"), 16);
    for (Page page : RandomRows.pages(input, List.of("ip", "n"), new Random(2))) {
      top.addInput(page);
    }
    assertThat(account.used()).isPositive();
    top.finish();
    while (top.getOutput() != null) {}
    top.close();
    assertThat(account.used()).isZero();

    MemoryAccount small = new MemoryAccount("search", 1_000);
    PageAggregator limited =
        PageAggregator.of(
            top("top n by ip"), java.time.ZoneOffset.UTC, new MemoryTracker(small, "top"), 16);
    assertThatThrownBy(
            () -> {
              for (Page page : RandomRows.pages(input, List.of("ip", "n"), new Random(3))) {
                limited.addInput(page);
              }
            })
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("top");
  }
}
