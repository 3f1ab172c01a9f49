package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The shared contract of the page engine's command operators ({@link PageReduce}, one or a few
 * operators per command): for every command a subclass names, its answer does not depend on how the
 * input is cut into pages nor on the output page size (random sizes, several seeds, against one
 * page in and one page out), the operators stop taking input once a {@code head} has its rows, and
 * the memory they count is released once closed — and, for commands that hold rows or groups,
 * counted while they hold them. Each command's operators are also driven one call at a time by
 * {@link ProtocolDriver}, which checks the pull protocol itself (input only when wanted, none after
 * {@code finish}, output drained after it, finished only when drained, never blocked), in any order
 * of feeding and pulling; closing releases what they counted exactly once, also when closed halfway
 * (a cancelled search) or after an injected memory-limit failure (a small account limit). Where a
 * subclass gives {@link #answers} worked out by hand, the answer is checked against them.
 */
abstract class OperatorTestCase {
  private static final Instant NOW = Instant.parse("2026-01-07T12:00:00Z");

  /**
   * The lookup table {@code users.csv} the commands may read: a user's team (two for u1, a
   * multivalue); {@code outputlookup} writes go nowhere.
   */
  private static final LookupTable.Source LOOKUPS =
      name ->
          name.equals("users.csv")
              ? new LookupTable(
                  List.of("user", "team"),
                  List.of(
                      List.of("u0", "red"),
                      List.of("u1", "red"),
                      List.of("u1", "blue"),
                      List.of("u2", "green")))
              : null;

  /** The commands to check, as written after {@code |}. */
  protected abstract List<String> commands();

  /** The commands among {@link #commands} that hold rows or groups until finished. */
  protected abstract List<String> holdingCommands();

  /** The input rows: field → values (none: no value; several: a multivalue). */
  protected abstract List<Map<String, List<Object>>> input();

  /** {@code command}'s answer over the whole input in one page, to one reduce. */
  private List<Map<String, Object>> onePage(String command) {
    return rows(
        drive(
            reduce(command, 100_000, unbounded(), new ArrayList<>()),
            List.of(TestPages.page(input()))));
  }

  /** {@code command}'s operators over pages of a random size, counting into {@code account}. */
  private List<Operator> operators(String command, Random random, MemoryAccount account) {
    return reduce(command, 1 + random.nextInt(40), account, new ArrayList<>()).reduce().operators();
  }

  @Test
  void answersDoNotDependOnPageSizes() {
    for (String command : commands()) {
      List<Map<String, Object>> expected = onePage(command);
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
      // pulled while wanted (a head that has its rows stops it)
      long held = PageRun.pullHolding(driven.reduce(), pages(input(), new Random(7)), account);
      if (holdingCommands().contains(command)) {
        assertThat(held).as(command + " holds its input").isPositive();
      }
      assertThat(account.used()).as(command + " released what it counted").isZero();
    }
  }

  /**
   * Answers computed by hand for some of {@link #commands} over {@link #input}: command → rows, as
   * {@link #rows} reads them (non-null fields in column order, numbers by value). None by default.
   */
  protected Map<String, List<Map<String, Object>>> answers() {
    return Map.of();
  }

  @Test
  void handComputedAnswers() {
    answers()
        .forEach(
            (command, expected) ->
                assertThat(onePage(command)).as(command).isEqualTo(byValue(expected)));
  }

  /**
   * Each command's operators driven one call at a time by the pull protocol ({@link
   * ProtocolDriver}: pages in any split and any order of feeding and pulling, output drained after
   * {@code finish}, finished only when drained) give the answer the {@link Driver} gives over one
   * page; closing each operator once releases everything counted, and closing it again releases
   * nothing more.
   */
  @Test
  void operatorsKeepTheProtocol() {
    for (String command : commands()) {
      List<Map<String, Object>> expected = onePage(command);
      for (int seed = 0; seed < 6; seed++) {
        Random random = new Random(seed);
        MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
        List<Operator> operators = operators(command, random, account);
        List<Page> out;
        try {
          out = new ProtocolDriver(command, operators, random).run(pages(input(), random));
        } finally {
          operators.forEach(Operator::close);
        }
        String what = command + " (seed " + seed + ")";
        assertThat(rows(out)).as(what).isEqualTo(expected);
        assertThat(account.used()).as(what + " released what it counted").isZero();
        operators.forEach(Operator::close);
        assertThat(account.used()).as(what + " closed twice releases once").isZero();
      }
    }
  }

  /**
   * A search cancelled halfway: each command's operators, given half the input and never finished,
   * release everything they counted when closed.
   */
  @Test
  void closingBeforeFinishReleasesEverything() {
    SoftAssertions softly = new SoftAssertions();
    for (String command : commands()) {
      for (int seed = 0; seed < 3; seed++) {
        Random random = new Random(seed);
        MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
        List<Operator> operators = operators(command, random, account);
        List<Page> input = pages(input(), random);
        try {
          new ProtocolDriver(command, operators, random)
              .abandon(input.subList(0, input.size() / 2));
        } finally {
          operators.forEach(Operator::close);
        }
        softly.assertThat(account.used()).as(command + " (seed " + seed + ") released").isZero();
      }
    }
    softly.assertAll();
  }

  /**
   * Limits that fail a search at its first reservation, at each of a {@link MemoryTracker}'s growth
   * steps from {@link MemoryTracker#FIRST} to {@link MemoryTracker#CHUNK} (one byte past the step,
   * and one seeded point inside it: mid-run, a page or a state half reserved), and past the first
   * chunk — derived from the constants, so the mid-run failure points stay covered if they move.
   */
  static final long[] LIMITS = limits(new Random(21));

  static long[] limits(Random seed) {
    List<Long> limits = new ArrayList<>(List.of(1L));
    for (long step = MemoryTracker.FIRST; step <= MemoryTracker.CHUNK; step *= 2) {
      limits.add(step + 1);
      limits.add(step + 2 + seed.nextLong(step - 1)); // inside (step + 1, 2·step]
    }
    return limits.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * Over a memory limit each command fails with {@link MemoryLimitExceededException} (or a {@link
   * PluginFailureException} of it) — a command that holds its input surely so under a limit of one
   * byte — or succeeds with the right answer, and closing its operators after the failure releases
   * everything counted: driven by the protocol here, and by the production {@link Driver} (which
   * closes the chain itself).
   */
  @Test
  void memoryLimitFailuresLeakNothing() {
    SoftAssertions softly = new SoftAssertions();
    for (String command : commands()) {
      List<Map<String, Object>> expected = onePage(command);
      for (long limit : LIMITS) {
        checkLimit(softly, command, expected, limit);
      }
    }
    softly.assertAll();
  }

  /** The commands among {@link #commands} failed at every point of a run (none by default). */
  protected List<String> sweptCommands() {
    return List.of();
  }

  /**
   * As {@link #memoryLimitFailuresLeakNothing}, at 64 limits evenly up to the memory each swept
   * command's run peaks at (a failure at each point of the run: an input page's reservation, each
   * output column's build, operator state), wherever the tracker's steps fall.
   */
  @Test
  void failuresAtEveryPointOfARunLeakNothing() {
    SoftAssertions softly = new SoftAssertions();
    for (String command : sweptCommands()) {
      List<Map<String, Object>> expected = onePage(command);
      MemoryAccount free = new MemoryAccount("test", Long.MAX_VALUE);
      drive(reduce(command, 16, free, new ArrayList<>()), pages(input(), new Random(3)));
      long peak = free.peak();
      softly.assertThat(peak).as(command + " counts memory").isPositive();
      for (int point = 1; point <= 64; point++) {
        checkLimit(softly, command, expected, Math.max(1, peak * point / 64));
      }
    }
    softly.assertAll();
  }

  /**
   * Under {@code limit} the command fails over the limit or answers right; either way its
   * operators, closed, release everything counted: driven by the protocol, and by the production
   * {@link Driver} (which closes the chain itself).
   */
  private void checkLimit(
      SoftAssertions softly, String command, List<Map<String, Object>> expected, long limit) {
    String what = command + " (limit " + limit + ")";
    MemoryAccount account = new MemoryAccount("test", limit);
    List<Operator> operators = List.of();
    List<Page> out = null;
    Throwable failure = null;
    try { // building an operator may reserve (a lookup's index) and so fail already
      operators = reduce(command, 16, account, new ArrayList<>()).reduce().operators();
      out =
          new ProtocolDriver(command, operators, new Random(limit))
              .run(pages(input(), new Random(3)));
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      operators.forEach(Operator::close);
    }
    softly.assertThat(account.used()).as(what + " released what it counted").isZero();
    if (failure != null) {
      assertOverLimit(softly, what, failure);
    } else {
      softly
          .assertThat(holdingCommands().contains(command) && limit == 1)
          .as(what + " holds its input, so fails")
          .isFalse();
      softly.assertThat(rows(out)).as(what).isEqualTo(expected);
    }

    MemoryAccount driven = new MemoryAccount("test", limit);
    List<Page> drivenOut = new ArrayList<>();
    try {
      drive(reduce(command, 16, driven, drivenOut), pages(input(), new Random(3)));
      softly.assertThat(rows(drivenOut)).as(what + " by the Driver").isEqualTo(expected);
    } catch (RuntimeException e) {
      assertOverLimit(softly, what + " by the Driver", e);
    }
    softly.assertThat(driven.used()).as(what + " by the Driver released what it counted").isZero();
  }

  /**
   * A command written as a plugin operator fails naming itself, over the limit as cause (the server
   * answers both alike: SearchFailures).
   */
  private static void assertOverLimit(SoftAssertions softly, String what, Throwable failure) {
    Throwable cause = failure instanceof PluginFailureException ? failure.getCause() : failure;
    softly.assertThat(cause).as(what).isInstanceOf(MemoryLimitExceededException.class);
  }

  private static MemoryAccount unbounded() {
    return MemoryAccount.unbounded("test");
  }

  /** A reduce side of one command and the list its answer's pages go to. */
  record Driven(PageReduce reduce, List<Page> out) {}

  static Driven reduce(String text, int pageSize, MemoryAccount account, List<Page> out) {
    List<Command> commands = PageRun.commands("* | " + text);
    assertThat(ReduceCoverage.supportsOverEvents(commands)).as(text + " has a page stage").isTrue();
    Evaluator evaluator =
        new Evaluator(NOW, ZoneOffset.UTC, LOOKUPS, (name, table) -> {})
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
  static List<Page> drive(Driven driven, List<Page> input) {
    PageRun.pull(driven.reduce(), input);
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

  private static List<Map<String, Object>> byValue(List<Map<String, Object>> rows) {
    List<Map<String, Object>> byValue = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> fields = new LinkedHashMap<>();
      row.forEach((name, value) -> fields.put(name, byValue(value)));
      byValue.add(fields);
    }
    return byValue;
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
