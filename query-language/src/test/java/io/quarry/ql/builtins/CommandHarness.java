package io.quarry.ql.builtins;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.exec.SearchResources;
import io.quarry.ql.exec.TestPages;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Runs a built-in page command as the plugin test kit ({@code CommandTester}) runs a plugin's, with
 * the real parser and the pull protocol: once over the rows as one page, then over the same rows
 * cut into pages of random sizes (several seeds), failing when the answer differs, when {@code
 * getOutput} returns a page after {@code isFinished}, or when bytes reserved through the block
 * factory are not all released once the output is consumed. (The kit itself lives in {@code
 * plugins/test-framework}, which depends on this module.)
 */
final class CommandHarness {
  static final Instant NOW = Instant.parse("2026-01-07T12:00:00Z");
  private static final Parser PARSER = new Parser(CommandRegistry.builtIns());

  private CommandHarness() {}

  /** The command as the parser binds it ({@code "fillnull value=0 a"}, no leading pipe). */
  static PluginCommand parse(String command) {
    Command parsed = PARSER.parse("* | " + command).commands().get(1);
    assertThat(parsed).isInstanceOf(PluginCommand.class);
    return (PluginCommand) parsed;
  }

  /** A row from alternating names and values (a List value is a multivalue). */
  static Map<String, Object> row(Object... namesAndValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      row.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return row;
  }

  /** The command's output rows over {@code rows}, checked as the class comment says. */
  static List<Map<String, Object>> run(String command, List<Map<String, Object>> rows) {
    PluginCommand bound = parse(command);
    List<Map<String, Object>> first =
        execute(bound, rows.isEmpty() ? List.of() : List.of(page(rows)), new MemoryAccount[1]);
    for (int seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      List<Page> pages = new ArrayList<>();
      for (int from = 0; from < rows.size(); ) {
        int to = Math.min(rows.size(), from + 1 + random.nextInt(5));
        pages.add(page(rows.subList(from, to)));
        from = to;
      }
      List<Map<String, Object>> again = execute(bound, pages, new MemoryAccount[1]);
      assertThat(canonical(again, bound.kind()))
          .as("%s over pages cut by seed %d", command, seed)
          .isEqualTo(canonical(first, bound.kind()));
    }
    return first;
  }

  /**
   * The bytes the command's operator holds after taking every page and before finishing (what
   * {@code memory counted while held} asks of a command that keeps state).
   */
  static long heldBytes(String command, List<Map<String, Object>> rows) {
    PluginCommand bound = parse(command);
    MemoryAccount account = MemoryAccount.unbounded("held");
    OperatorContext context = context(account);
    List<Page> pages = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      pages.add(page(List.of(row)));
    }
    try (Operator operator = bound.bound().createOperator(context)) {
      long held = 0;
      for (Page page : pages) {
        for (Block block : page.blocks()) {
          context.blockFactory().reserve(block);
        }
        while (!operator.needsInput()) {
          context.blockFactory().release(operator.getOutput());
        }
        operator.addInput(page);
      }
      held = account.used();
      operator.finish();
      for (Page out = operator.getOutput(); out != null; out = operator.getOutput()) {
        context.blockFactory().release(out);
      }
      assertThat(account.used()).as("%s releases what it held", command).isZero();
      return held;
    }
  }

  /**
   * Drives the command over the rows (a page per 100) under a memory ceiling of {@code limit}
   * bytes; throws what the operator throws.
   */
  static void runWithLimit(String command, List<Map<String, Object>> rows, long limit) {
    List<List<Map<String, Object>>> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); from += 100) {
      pages.add(rows.subList(from, Math.min(rows.size(), from + 100)));
    }
    drive(command, pages, new MemoryAccount("limited", limit));
  }

  /**
   * As {@link #runWithLimit} over {@code pages} (each a page of rows), failed over the limit or
   * not; the bytes the account still counts once the operator is closed.
   */
  static long leftAfterLimit(String command, List<List<Map<String, Object>>> pages, long limit) {
    MemoryAccount account = new MemoryAccount("limited", limit);
    try {
      drive(command, pages, account);
    } catch (MemoryLimitExceededException overTheLimit) {
      // what is left counted is the question
    }
    return account.used();
  }

  /**
   * Drives the command over {@code pages}, each reserved all or none as it goes in, releasing each
   * output page as it comes out, and closes it; throws what the operator throws.
   */
  private static void drive(
      String command, List<List<Map<String, Object>>> pages, MemoryAccount account) {
    OperatorContext context = context(account);
    try (Operator operator = parse(command).bound().createOperator(context)) {
      for (List<Map<String, Object>> rows : pages) {
        while (!operator.needsInput()) {
          context.blockFactory().release(operator.getOutput());
        }
        Page page = page(rows);
        List<Block> reserved = new ArrayList<>();
        try {
          for (Block block : page.blocks()) {
            context.blockFactory().reserve(block);
            reserved.add(block);
          }
        } catch (MemoryLimitExceededException e) {
          reserved.forEach(context.blockFactory()::release);
          throw e;
        }
        operator.addInput(page);
      }
      operator.finish();
      for (Page out = operator.getOutput(); out != null; out = operator.getOutput()) {
        context.blockFactory().release(out);
      }
    }
  }

  static Page page(List<Map<String, Object>> rows) {
    return TestPages.of(rows);
  }

  private static OperatorContext context(MemoryAccount account) {
    return new SearchResources(account, () -> false, warning -> {}).context(NOW, ZoneOffset.UTC);
  }

  private static List<Map<String, Object>> execute(
      PluginCommand command, List<Page> input, MemoryAccount[] accountOut) {
    MemoryAccount account = MemoryAccount.unbounded("test of " + command.describe());
    accountOut[0] = account;
    OperatorContext context = context(account);
    for (Page page : input) {
      for (Block block : page.blocks()) {
        context.blockFactory().reserve(block);
      }
    }
    List<Page> output = new ArrayList<>();
    try (Operator operator = command.bound().createOperator(context)) {
      int next = 0;
      boolean finished = false;
      for (int steps = 0; !operator.isFinished(); steps++) {
        assertThat(steps).as("the operator makes progress").isLessThan(100_000);
        assertThat((Object) operator.isBlocked()).isSameAs(Operator.NOT_BLOCKED);
        if (next < input.size() && operator.needsInput()) {
          operator.addInput(input.get(next++));
        } else if (next == input.size() && !finished) {
          operator.finish();
          finished = true;
        }
        Page page = operator.getOutput();
        if (page != null) {
          output.add(page);
        }
      }
      assertThat(next).as("took all its input").isEqualTo(input.size());
      assertThat(operator.getOutput()).as("no page after isFinished").isNull();
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    Set<Block> released = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Page page : output) {
      for (int p = 0; p < page.positionCount(); p++) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int c = 0; c < page.schema().size(); c++) {
          List<Object> values = page.block(c).getValues(p);
          if (!values.isEmpty()) {
            row.put(page.schema().column(c).name(), values.size() == 1 ? values.get(0) : values);
          }
        }
        rows.add(row);
      }
      for (Block block : page.blocks()) {
        if (released.add(block)) {
          context.blockFactory().release(block);
        }
      }
    }
    assertThat(account.used())
        .as("%s released every byte it reserved", command.describe())
        .isZero();
    return rows;
  }

  /** Rows compared by their fields' texts (a page types its columns alone: 5 or 5.0). */
  private static List<String> canonical(List<Map<String, Object>> rows, CommandKind kind) {
    List<String> texts = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> sorted = new java.util.TreeMap<>();
      row.forEach((k, v) -> sorted.put(k, text(v)));
      texts.add(sorted.toString());
    }
    if (kind == CommandKind.TRANSFORMING) {
      Collections.sort(texts);
    }
    return texts;
  }

  private static Object text(Object value) {
    if (value instanceof List<?> list) {
      return list.stream().map(CommandHarness::text).toList();
    }
    return io.quarry.ql.exec.Values.toText(value);
  }
}
