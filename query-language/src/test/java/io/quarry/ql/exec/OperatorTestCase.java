package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The shared contract of the page engine's command stages ({@link PageReduce}, one stage per
 * command): for every command a subclass names, its answer does not depend on how the input is cut
 * into pages nor on the output page size (random sizes, several seeds, against one page in and one
 * page out), the stages stop taking input once a {@code head} has its rows, and the memory the
 * stage counts is released once it is closed — and, for stages that hold rows or groups, counted
 * while they hold them.
 */
abstract class OperatorTestCase {
  private static final Instant NOW = Instant.parse("2026-01-07T12:00:00Z");

  /** The commands to check, as written after {@code |}. */
  protected abstract List<String> commands();

  /** The commands among {@link #commands} that hold rows or groups until finished. */
  protected abstract List<String> holdingCommands();

  /** The input rows: field → values (none: no value; several: a multivalue). */
  protected abstract List<Map<String, List<Object>>> input();

  @Test
  void answersDoNotDependOnPageSizes() {
    for (String command : commands()) {
      List<Map<String, Object>> expected =
          rows(
              drive(
                  reduce(command, 100_000, unbounded(), new ArrayList<>()),
                  List.of(TestPages.page(input()))));
      for (int seed = 0; seed < 8; seed++) {
        Random random = new Random(seed);
        List<Map<String, Object>> answer =
            rows(
                drive(
                    reduce(command, 1 + random.nextInt(40), unbounded(), new ArrayList<>()),
                    pages(input(), random)));
        assertThat(answer).as(command + " (seed " + seed + ")").isEqualTo(expected);
      }
    }
  }

  @Test
  void memoryIsCountedWhileHeldAndReleasedAtTheEnd() {
    for (String command : commands()) {
      MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
      List<Page> out = new ArrayList<>();
      Driven driven = reduce(command, 16, account, out);
      for (Page page : pages(input(), new Random(7))) {
        if (!driven.reduce().add(page)) {
          break; // e.g. head has its rows
        }
      }
      if (holdingCommands().contains(command)) {
        assertThat(account.used()).as(command + " holds its input").isPositive();
      }
      driven.reduce().finish();
      driven.reduce().close();
      assertThat(account.used()).as(command + " released what it counted").isZero();
    }
  }

  private static MemoryAccount unbounded() {
    return MemoryAccount.unbounded("test");
  }

  /** A reduce side of one command and the list its answer's pages go to. */
  private record Driven(PageReduce reduce, List<Page> out) {}

  private static Driven reduce(String text, int pageSize, MemoryAccount account, List<Page> out) {
    List<Command> commands = PageRun.commands("* | " + text);
    assertThat(ReduceCoverage.supportsOverEvents(commands)).as(text + " has a page stage").isTrue();
    Evaluator evaluator =
        new Evaluator(NOW, ZoneOffset.UTC)
            .withResources(new SearchResources(account, () -> false, warning -> {}));
    PageReduce reduce =
        new PageReduce(
            commands,
            evaluator,
            out::add,
            new StageStats(commands.stream().map(Command::name).toList()),
            0,
            pageSize);
    return new Driven(reduce, out);
  }

  /**
   * The input cut into pages of random sizes (1 to 50 rows), all of the whole input's columns, as a
   * source's pages share one schema.
   */
  private static List<Page> pages(List<Map<String, List<Object>>> rows, Random random) {
    List<String> names = TestPages.names(rows);
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); ) {
      int to = Math.min(rows.size(), from + 1 + random.nextInt(50));
      pages.add(TestPages.page(rows.subList(from, to), names));
      from = to;
    }
    return pages;
  }

  /**
   * Feeds the pages until the stages want no more (bounded by the input: a stage that keeps asking
   * gets every page once), finishes and closes; the answer's pages.
   */
  private static List<Page> drive(Driven driven, List<Page> input) {
    for (Page page : input) {
      if (!driven.reduce().add(page)) {
        break;
      }
    }
    driven.reduce().finish();
    driven.reduce().close();
    return driven.out();
  }

  /**
   * Every row of the pages as its non-null fields, in order; numbers compared by value, because a
   * page's column type is inferred from that page alone (a column of whole numbers is LONG in one
   * page and DOUBLE in another that also holds 55.5).
   */
  private static List<Map<String, Object>> rows(List<Page> pages) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map<String, Object> row : TestPages.rows(pages)) {
      Map<String, Object> fields = new LinkedHashMap<>();
      row.forEach((name, value) -> fields.put(name, byValue(value)));
      rows.add(fields);
    }
    return rows;
  }

  private static Object byValue(Object value) {
    if (value instanceof List<?> list) {
      return list.stream().map(OperatorTestCase::byValue).toList();
    }
    return value instanceof Number number
        ? new java.math.BigDecimal(number.toString()).stripTrailingZeros()
        : value;
  }
}
