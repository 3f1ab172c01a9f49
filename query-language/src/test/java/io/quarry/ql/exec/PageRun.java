package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs commands on the page engine alone — {@link PageReduce}, the stages a search's answer goes
 * through — over pages built straight from field values, for the tests that check a command's
 * answer against values computed by hand. Nothing here goes through the row engine: the input pages
 * are typed column by column ({@link PageBuilder#toPage(List, List, int)}, the page builder that
 * outlives the row collector) and the answer is read from the blocks.
 */
final class PageRun {
  private static final Evaluator EVALUATOR = new Evaluator(Instant.now(), ZoneOffset.UTC);

  private PageRun() {}

  /** The commands after {@code *} of {@code query}, parsed with the built-in commands. */
  static List<Command> commands(String query) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse(query);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  /**
   * The answer of {@code query}'s commands over {@code input}, the output cut into pages of at most
   * {@code pageSize} positions where a stage pages its own output; fails the test when the page
   * engine has no stage for some command.
   */
  static List<Page> run(String query, List<Page> input, int pageSize, Evaluator evaluator) {
    List<Command> commands = commands(query);
    assertThat(ReduceCoverage.supportsOverEvents(commands))
        .as("every command of %s has a page stage", query)
        .isTrue();
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            commands,
            evaluator,
            page -> {
              out.add(page);
              return true;
            },
            new StageStats(commands.stream().map(Command::name).toList()),
            0,
            pageSize);
    pull(reduce, input);
    return out;
  }

  /**
   * A driver of {@code steps} whose pages come from {@code input} ({@link PagesSource}, a first
   * step counted nowhere), pulled by {@link Driver#run()}: how a test feeds a chain its pages.
   */
  static Driver driver(
      Iterable<Page> input,
      List<Driver.Step> steps,
      java.util.function.Consumer<Page> sink,
      StageStats stats,
      io.quarry.plugin.api.command.OperatorContext context) {
    List<Driver.Step> pulled = new ArrayList<>(steps.size() + 1);
    pulled.add(Driver.Step.uncounted(PagesSource.of(input.iterator())));
    pulled.addAll(steps);
    return new Driver(pulled, sink, stats, context);
  }

  /** As {@link #driver}, run until its last step is finished, then closed. */
  static void drive(
      Iterable<Page> input,
      List<Driver.Step> steps,
      java.util.function.Consumer<Page> sink,
      StageStats stats,
      io.quarry.plugin.api.command.OperatorContext context) {
    try (Driver driver = driver(input, steps, sink, stats, context)) {
      driver.run();
    }
  }

  /**
   * Pulls {@code input}'s pages through {@code reduce} ({@link PagesSource}: only while it wants
   * them), then closes it.
   */
  static void pull(PageReduce reduce, Iterable<Page> input) {
    try {
      reduce.pullFrom(PagesSource.of(input.iterator()));
      reduce.run();
    } finally {
      reduce.close();
    }
  }

  /**
   * As {@link #pull}, answering the most {@code account} held while the input was pulled (read each
   * time the source asks whether a page is left, the pages before it taken by the stages): what a
   * stage that holds its input counted before the input ended.
   */
  static long pullHolding(
      PageReduce reduce, Iterable<Page> input, io.quarry.plugin.api.data.MemoryAccount account) {
    long[] most = {0};
    java.util.Iterator<Page> pages = input.iterator();
    pull(
        reduce,
        () ->
            new java.util.Iterator<>() {
              @Override
              public boolean hasNext() {
                most[0] = Math.max(most[0], account.used());
                return pages.hasNext();
              }

              @Override
              public Page next() {
                return pages.next();
              }
            });
    return most[0];
  }

  /**
   * As {@link #run(String, List, int, Evaluator)}, with an evaluator whose clock is the run's
   * start, in UTC.
   */
  static List<Page> run(String query, List<Page> input, int pageSize) {
    return run(query, input, pageSize, EVALUATOR);
  }
}
