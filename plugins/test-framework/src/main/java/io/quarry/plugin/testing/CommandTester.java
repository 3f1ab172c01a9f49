package io.quarry.plugin.testing;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.QuarryPlugin;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one use of a plugin's command over pages as a search drives it: the query text goes through
 * Quarry's parser (so argument errors are the ones users see), operators are driven with the pull
 * protocol, a transforming command's rows are split over several map operators whose state pages go
 * to one reduce operator.
 *
 * <p>Every {@link #run} also checks the rules a plugin must keep, failing with {@link
 * AssertionError}: the answer does not depend on how the rows are cut into pages (it is run again
 * over the same rows in pages of random sizes, and for a transforming command over a random number
 * of map operators, and again with its string columns in dictionary or constant form, which every
 * {@code BytesBlock} accessor reads alike), {@code getOutput} returns null once the operator is
 * finished, and every byte reserved through the {@link BlockFactory} is released once the output is
 * consumed.
 */
public final class CommandTester {
  private final String pluginName;
  private final CommandRegistry registry;
  private long seed = 42;
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private ZoneId zone = ZoneOffset.UTC;
  private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());

  private CommandTester(String pluginName, CommandRegistry registry) {
    this.pluginName = pluginName;
    this.registry = registry;
  }

  /** A tester for the commands of {@code plugin} (named by its class). */
  public static CommandTester of(QuarryPlugin plugin) {
    String name = plugin.getClass().getSimpleName();
    return new CommandTester(name, CommandRegistry.builtIns().withPlugin(name, plugin.commands()));
  }

  /**
   * A tester for Quarry's built-in commands written as page operators ({@code fillnull}, {@code
   * convert}, {@code mvexpand}, …): the same checks as for a plugin's.
   */
  public static CommandTester builtIns() {
    return new CommandTester("built-in", CommandRegistry.builtIns());
  }

  /** The seed of the random page sizes and map splits. */
  public CommandTester seed(long seed) {
    this.seed = seed;
    return this;
  }

  /** The search time operators see. */
  public CommandTester now(Instant now) {
    this.now = requireNonNull(now);
    return this;
  }

  /** Warnings operators reported so far. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /** The command as the parser binds it ({@code "urlparse field=uri"}, no leading pipe). */
  public PluginCommand parse(String command) {
    Command parsed =
        new Parser(registry)
            .parse(generating(command) ? "| " + command : "* | " + command)
            .commands()
            .get(generating(command) ? 0 : 1);
    if (!(parsed instanceof PluginCommand plugin)) {
      throw new IllegalArgumentException("'" + command + "' is not a command of " + pluginName);
    }
    return plugin;
  }

  private boolean generating(String command) {
    String name = command.strip().split("\\s+", 2)[0];
    return registry.generator(name).isPresent();
  }

  /** Runs the command over rows given as maps (one page of them, then random pages). */
  public Result run(String command, List<Map<String, Object>> rows) {
    return runPages(command, rows.isEmpty() ? List.of() : List.of(Pages.of(rows)));
  }

  /** Runs the command over pages (as given, then the same rows in random pages). */
  public Result runPages(String command, List<Page> pages) {
    PluginCommand bound = parse(command);
    Result first = execute(bound, pages, 1);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page page : pages) {
      rows.addAll(Pages.rows(page));
    }
    if (bound.kind() != CommandKind.GENERATING) {
      Random random = new Random(seed);
      List<Page> resliced = Pages.reslice(rows, random, 97);
      int maps = bound.kind() == CommandKind.TRANSFORMING ? 1 + random.nextInt(4) : 1;
      Result second = execute(bound, resliced, maps);
      boolean ordered = bound.kind() != CommandKind.TRANSFORMING;
      String difference = difference(first.rows(), second.rows(), ordered);
      if (difference != null) {
        throw new AssertionError(
            bound.describe()
                + " answers differently when its input is cut into other pages"
                + (maps > 1 ? " and split over " + maps + " map operators" : "")
                + ": "
                + difference);
      }
      List<Page> encoded = resliced.stream().map(Pages::dictionaryEncoded).toList();
      Result third = execute(bound, encoded, maps);
      difference = difference(first.rows(), third.rows(), ordered);
      if (difference != null) {
        throw new AssertionError(
            bound.describe()
                + " answers differently when its string columns are dictionary or constant"
                + " blocks (SPI 1.5): "
                + difference.replace("resliced", "dictionary-encoded"));
      }
    }
    return first;
  }

  /** Where two answers differ, or null when they are the same rows (in order, if ordered). */
  private static String difference(
      List<Map<String, Object>> a, List<Map<String, Object>> b, boolean ordered) {
    List<String> left = canonical(a, ordered);
    List<String> right = canonical(b, ordered);
    for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
      if (!left.get(i).equals(right.get(i))) {
        return "row " + i + " is " + left.get(i) + " from one page, " + right.get(i) + " resliced";
      }
    }
    return left.size() == right.size()
        ? null
        : left.size() + " rows from one page, " + right.size() + " resliced";
  }

  private static List<String> canonical(List<Map<String, Object>> rows, boolean ordered) {
    List<String> texts = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      texts.add(new java.util.TreeMap<>(Pages.withoutNulls(row)).toString());
    }
    if (!ordered) {
      Collections.sort(texts);
    }
    return texts;
  }

  private Result execute(PluginCommand command, List<Page> input, int maps) {
    MemoryAccount account = MemoryAccount.unbounded("test of " + command.describe());
    OperatorContext context = context(account);
    BlockFactory factory = context.blockFactory();
    List<Page> output = new ArrayList<>();
    switch (command.kind()) {
      case STREAMING, CENTRALIZED -> {
        try (Operator operator = command.bound().createOperator(context)) {
          drive(operator, adopt(input, factory), output);
        }
      }
      case GENERATING -> {
        try (Operator operator = command.bound().createOperator(context)) {
          drive(operator, List.of(), output);
        }
      }
      case TRANSFORMING -> {
        List<List<Page>> shares = new ArrayList<>();
        for (int i = 0; i < maps; i++) {
          shares.add(new ArrayList<>());
        }
        for (int i = 0; i < input.size(); i++) {
          shares.get(i % maps).add(input.get(i));
        }
        List<Page> states = new ArrayList<>();
        for (List<Page> share : shares) {
          try (Operator map = command.bound().createOperator(context)) {
            drive(map, adopt(share, factory), states);
          }
        }
        Collections.shuffle(states, new Random(seed));
        try (Operator reduce = command.bound().createReduceOperator(context)) {
          drive(reduce, states, output);
        }
      }
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    Set<Block> released = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Page page : output) {
      for (Map<String, Object> row : Pages.rows(page)) {
        row.remove("_quarry_row");
        rows.add(row);
      }
      for (Block block : page.blocks()) {
        if (released.add(block)) {
          factory.release(block);
        }
      }
    }
    if (account.used() != 0) {
      throw new AssertionError(
          command.describe()
              + (account.used() > 0 ? " leaked " : " released more than it reserved: ")
              + Math.abs(account.used())
              + " bytes (an operator releases the blocks of its input pages it does not pass on,"
              + " and the state it reserved)");
    }
    return new Result(
        rows,
        output.isEmpty()
            ? List.of()
            : output.get(0).schema().columns().stream().map(c -> c.name()).toList(),
        account.peak());
  }

  /** Input pages handed to an operator are reserved as if a search had built them. */
  private static List<Page> adopt(List<Page> pages, BlockFactory factory) {
    for (Page page : pages) {
      for (Block block : page.blocks()) {
        factory.reserve(block);
      }
    }
    return pages;
  }

  /** The driver loop of the {@link Operator} javadoc, with its rules checked. */
  private static void drive(Operator operator, List<Page> input, List<Page> output) {
    int next = 0;
    boolean finished = false;
    int idle = 0;
    while (!operator.isFinished()) {
      awaitUnblocked(operator);
      boolean progressed = false;
      if (next < input.size() && operator.needsInput()) {
        operator.addInput(input.get(next++));
        progressed = true;
      } else if (next == input.size() && !finished) {
        operator.finish();
        finished = true;
        progressed = true;
      }
      Page page = isBlocked(operator) ? null : operator.getOutput();
      if (page != null) {
        output.add(page);
        progressed = true;
      }
      if (isBlocked(operator)) {
        progressed = true; // waiting is progress: the next turn waits for it
      }
      if (!progressed && ++idle > 10_000) {
        throw new AssertionError(
            "operator makes no progress: it neither takes input, finishes nor produces output");
      }
    }
    if (next < input.size()) {
      throw new AssertionError("operator finished before taking all its input");
    }
    if (operator.getOutput() != null) {
      throw new AssertionError("getOutput returned a page after isFinished");
    }
  }

  /** How long a test waits for a blocked operator before failing. */
  private static final Duration BLOCKED_LIMIT = Duration.ofSeconds(30);

  private static boolean isBlocked(Operator operator) {
    CompletionStage<Void> blocked = operator.isBlocked();
    if (blocked == null) {
      throw new AssertionError("isBlocked returned null (return Operator.NOT_BLOCKED)");
    }
    return blocked != Operator.NOT_BLOCKED && !blocked.toCompletableFuture().isDone();
  }

  /** Waits, as the server's driver does, until the operator's isBlocked future completes. */
  private static void awaitUnblocked(Operator operator) {
    CompletionStage<Void> blocked = operator.isBlocked();
    if (blocked == Operator.NOT_BLOCKED) {
      return;
    }
    if (blocked == null) {
      throw new AssertionError("isBlocked returned null (return Operator.NOT_BLOCKED)");
    }
    try {
      blocked.toCompletableFuture().get(BLOCKED_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("operator stayed blocked for " + BLOCKED_LIMIT, e);
    } catch (ExecutionException e) {
      throw new AssertionError("operator's isBlocked future failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for a blocked operator", e);
    }
  }

  private OperatorContext context(MemoryAccount account) {
    return new io.quarry.ql.exec.SearchResources(account, () -> false, warnings::add)
        .context(now, zone);
  }

  /**
   * What a command produced.
   *
   * @param rows a map per output row (null values left out), in output order
   * @param columns the first output page's column names
   * @param peakBytes the most memory reserved at once
   */
  public record Result(List<Map<String, Object>> rows, List<String> columns, long peakBytes) {
    /** The values of one field, row by row (null where a row lacks it). */
    public List<Object> column(String field) {
      return rows.stream().map(r -> r.get(field)).toList();
    }

    /** The rows sorted by the text of a field (for transforming commands, whose order is free). */
    public List<Map<String, Object>> sortedBy(String field) {
      return rows.stream().sorted(Comparator.comparing(r -> String.valueOf(r.get(field)))).toList();
    }
  }
}
