package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The shared contract of operators under the pull protocol: for every command a subclass names, its
 * answer does not depend on how the input is cut into pages nor on the output page size (random
 * sizes, several seeds, against one page in and one page out), the driver loop always ends, and the
 * memory the operator counts is released once it is finished — and, for operators that hold rows or
 * groups, counted while they hold them.
 */
abstract class OperatorTestCase {
  private static final Instant NOW = Instant.parse("2026-01-07T12:00:00Z");

  /** The commands to check, as written after {@code |}. */
  protected abstract List<String> commands();

  /** The commands among {@link #commands} that hold rows or groups until finished. */
  protected abstract List<String> holdingCommands();

  /** The input rows. */
  protected abstract List<Row> input();

  @Test
  void answersDoNotDependOnPageSizes() {
    for (String command : commands()) {
      List<Map<String, Object>> expected =
          rows(
              drive(
                  operator(command, 100_000, unbounded()), List.of(PageCollector.toPage(input()))));
      for (int seed = 0; seed < 8; seed++) {
        Random random = new Random(seed);
        List<Map<String, Object>> answer =
            rows(
                drive(
                    operator(command, 1 + random.nextInt(40), unbounded()),
                    pages(input(), random)));
        assertThat(answer).as(command + " (seed " + seed + ")").isEqualTo(expected);
      }
    }
  }

  @Test
  void memoryIsCountedWhileHeldAndReleasedAtTheEnd() {
    for (String command : commands()) {
      MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
      Operator operator = operator(command, 16, account);
      List<Page> out = new ArrayList<>();
      for (Page page : pages(input(), new Random(7))) {
        if (!operator.needsInput()) {
          break; // e.g. head has its rows
        }
        operator.addInput(page);
        drain(operator, out);
      }
      if (holdingCommands().contains(command)) {
        assertThat(account.used()).as(command + " holds its input").isPositive();
      }
      operator.finish();
      drain(operator, out);
      operator.close();
      assertThat(operator.isFinished()).as(command).isTrue();
      assertThat(account.used()).as(command + " released what it counted").isZero();
    }
  }

  private static MemoryAccount unbounded() {
    return MemoryAccount.unbounded("test");
  }

  private static Operator operator(String text, int pageSize, MemoryAccount account) {
    Command command = new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
    Evaluator evaluator =
        new Evaluator(NOW, ZoneOffset.UTC)
            .withResources(new SearchResources(account, () -> false, warning -> {}));
    return new RowPageOperator(command, evaluator, pageSize);
  }

  /** The input cut into pages of random sizes (1 to 50 rows). */
  private static List<Page> pages(List<Row> rows, Random random) {
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); ) {
      int to = Math.min(rows.size(), from + 1 + random.nextInt(50));
      pages.add(PageCollector.toPage(rows.subList(from, to)));
      from = to;
    }
    return pages;
  }

  /** The pull protocol's driver loop, bounded so an operator that never finishes fails. */
  static List<Page> drive(Operator operator, List<Page> input) {
    List<Page> out = new ArrayList<>();
    int next = 0;
    for (int steps = 0; !operator.isFinished(); steps++) {
      assertThat(steps).as("the operator makes progress").isLessThan(1_000_000);
      // built-ins compute in the driver's thread: they never wait on anything outside it
      assertThat((Object) operator.isBlocked()).isSameAs(Operator.NOT_BLOCKED);
      if (operator.needsInput() && next < input.size()) {
        operator.addInput(input.get(next++));
      } else if (next == input.size()) {
        operator.finish();
      }
      Page page = operator.getOutput();
      if (page != null) {
        out.add(page);
      }
    }
    operator.close();
    return out;
  }

  private static void drain(Operator operator, List<Page> out) {
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      out.add(page);
    }
  }

  /**
   * Every row of the pages as its non-null fields, in order; numbers compared by value, because a
   * page's column type is inferred from that page alone (a column of whole numbers is LONG in one
   * page and DOUBLE in another that also holds 55.5 — a known gap of the row-to-page boundary).
   */
  private static List<Map<String, Object>> rows(List<Page> pages) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page page : pages) {
      for (Row row : PluginOperators.rows(page)) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (String name : row.fieldNames()) {
          fields.put(name, row.values(name).stream().map(OperatorTestCase::byValue).toList());
        }
        rows.add(fields);
      }
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
