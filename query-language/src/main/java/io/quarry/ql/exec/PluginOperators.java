package io.quarry.ql.exec;

import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.PluginCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs plugin commands inside the row pipeline: rows are gathered into pages of the fields the
 * command reads, driven through the plugin's {@link Operator} with the pull protocol, and the pages
 * it returns become rows again. Every call into plugin code is wrapped, so a throwing plugin fails
 * its search with a {@link PluginFailureException} naming it. A multivalue goes into a page as a
 * position with several values and comes back from one as a multivalue (see {@link PageCollector}).
 *
 * <p>Streaming and centralized commands keep the rows they are given: each input page carries a
 * hidden {@value #ROW_COLUMN} column (the row's position in the batch), which the operator passes
 * through like any column it does not know; an output row is then the input row with the columns
 * the operator added or replaced laid over it, so fields the command never saw (and multivalues)
 * survive. Output without that column becomes new rows.
 *
 * <p>This adapter exists while the built-in operators still work on rows; when they move to pages
 * (issue 5), plugin operators join the page pipeline as they are.
 */
public final class PluginOperators {
  /** The hidden column that ties output positions to input rows. */
  public static final String ROW_COLUMN = "_quarry_row";

  static final int BATCH = 1024;

  private PluginOperators() {}

  /** The row-pipeline stage of a streaming or centralized plugin command. */
  public static RowSink streaming(PluginCommand command, Evaluator evaluator, RowSink downstream) {
    return new Streaming(command, evaluator.pluginContext(), downstream);
  }

  /**
   * The row aggregator of a transforming plugin command (map side per driver, reduce at the end);
   * only under {@code engine=rows}: on pages it is {@link PluginAggregation}.
   */
  public static Aggregator transforming(
      PluginCommand command, Evaluator evaluator, RowSink downstream) {
    return new Transforming(command, evaluator, downstream, true);
  }

  /**
   * Runs a generating plugin command into {@code pipeline}: its operator is finished at once and
   * drained; each output row goes down the pipeline until it refuses more.
   *
   * @return the rows generated
   */
  public static long generate(PluginCommand command, Evaluator evaluator, RowSink pipeline) {
    OperatorContext context = evaluator.pluginContext();
    Driver driver = new Driver(command, command.bound(), context);
    long[] rows = new long[1];
    boolean[] open = {true};
    try {
      driver.finish(
          page -> {
            for (Row row : rows(page)) {
              if (open[0]) {
                rows[0]++;
                open[0] = pipeline.accept(row);
              }
            }
          });
    } finally {
      driver.close();
    }
    pipeline.finish();
    return rows[0];
  }

  /**
   * Runs a generating plugin command on pages: its operator is finished at once and drained, each
   * page it makes handed to {@code pages} (and released after) until that answers false.
   */
  public static void generatePages(
      PluginCommand command, Evaluator evaluator, java.util.function.Predicate<Page> pages) {
    Driver driver = new Driver(command, command.bound(), evaluator.pluginContext());
    boolean[] open = {true};
    try {
      driver.finish(
          page -> {
            if (open[0]) {
              open[0] = pages.test(page);
            }
            driver.factory().release(page);
          });
    } finally {
      driver.close();
    }
  }

  /**
   * New rows from a page: a field per non-null column (a position's several values a multivalue).
   */
  public static List<Row> rows(Page page) {
    List<Row> rows = new ArrayList<>(page.positionCount());
    Schema schema = page.schema();
    for (int p = 0; p < page.positionCount(); p++) {
      Map<String, Object> values = new LinkedHashMap<>();
      for (int c = 0; c < schema.size(); c++) {
        String name = schema.column(c).name();
        Object value = value(page.block(c), p);
        if (value != null && !name.equals(ROW_COLUMN)) {
          values.put(name, value);
        }
      }
      rows.add(new MapRow(values));
    }
    return rows;
  }

  /** A position's value as a row holds it: null, the value, or a list of several. */
  static Object value(Block block, int position) {
    List<Object> values = block.getValues(position);
    return switch (values.size()) {
      case 0 -> null;
      case 1 -> values.get(0);
      default -> values;
    };
  }

  /** A page of rows for a command: the fields it reads plus the row column. */
  static Page input(List<Row> rows, BoundCommand bound, BlockFactory factory, long firstId) {
    Set<String> required = bound.requiredFields();
    Set<String> names =
        required.contains("*")
            ? PageCollector.discoverableFieldNames(rows) // an event's search-time fields too
            : new LinkedHashSet<>(required);
    names.remove(ROW_COLUMN);
    Page fields = PageCollector.toPage(rows, names);
    LongBlock.Builder ids = LongBlock.builder(DataType.LONG, rows.size());
    for (int i = 0; i < rows.size(); i++) {
      ids.append(firstId + i);
    }
    List<Schema.Column> columns = new ArrayList<>(fields.schema().columns());
    columns.add(new Schema.Column(ROW_COLUMN, DataType.LONG));
    List<Block> blocks = new ArrayList<>(fields.blocks());
    blocks.add(ids.build());
    Page page = new Page(new Schema(columns), blocks, rows.size());
    for (Block block : blocks) {
      factory.reserve(block); // the operator owns it now
    }
    return page;
  }

  /**
   * Drives one plugin operator; every call into it is wrapped. While the operator is blocked
   * ({@link Operator#isBlocked}) the driver waits and calls nothing else on it, checking every
   * {@value Operator#CANCEL_CHECK_MILLIS} ms whether the search was cancelled; a cancelled search
   * leaves with the {@link CancellationException} of {@link OperatorContext#checkCancelled}, not a
   * plugin failure.
   */
  static final class Driver {
    private final PluginCommand command;
    private final Operator operator;
    private final OperatorContext context;
    private final BlockFactory factory;

    Driver(PluginCommand command, BoundCommand bound, OperatorContext context) {
      this(command, context, PluginOperators.call(command, () -> bound.createOperator(context)));
    }

    Driver(PluginCommand command, OperatorContext context, Operator operator) {
      this.command = command;
      this.context = context;
      this.factory = context.blockFactory();
      this.operator = operator;
    }

    BlockFactory factory() {
      return factory;
    }

    /** Adds a page, draining output until the operator takes it. */
    void add(Page page, Consumer<Page> output) {
      while (true) {
        awaitUnblocked();
        if (invoke(operator::needsInput)) {
          break;
        }
        if (invoke(operator::isFinished)) {
          factory.release(page);
          return;
        }
        Page out = invoke(operator::getOutput);
        if (out != null) {
          output.accept(out);
        } else if (blockedNow() == null) {
          throw failure("operator neither needs input nor has output, and is not blocked");
        }
      }
      invoke(
          () -> {
            operator.addInput(page);
            return null;
          });
      drain(output);
    }

    /** Finishes the operator and drains everything it still has. */
    void finish(Consumer<Page> output) {
      awaitUnblocked();
      invoke(
          () -> {
            operator.finish();
            return null;
          });
      int idle = 0;
      while (true) {
        awaitUnblocked();
        if (invoke(operator::isFinished)) {
          return;
        }
        Page out = invoke(operator::getOutput);
        if (out != null) {
          idle = 0;
          output.accept(out);
        } else if (blockedNow() == null) {
          if (++idle > 1_000_000) {
            throw failure(
                "operator never finishes after finish() (an operator that waits returns a future"
                    + " from isBlocked)");
          }
          Thread.onSpinWait();
        }
      }
    }

    /** Hands on the output the operator has now, stopping when it is blocked or has none. */
    private void drain(Consumer<Page> output) {
      Page out;
      while (blockedNow() == null && (out = invoke(operator::getOutput)) != null) {
        output.accept(out);
      }
    }

    /** The operator's blocked future when it is not done yet, else null. */
    private CompletableFuture<Void> blockedNow() {
      CompletionStage<Void> blocked = invoke(operator::isBlocked);
      if (blocked == Operator.NOT_BLOCKED) {
        return null;
      }
      if (blocked == null) {
        throw failure("isBlocked returned null (return Operator.NOT_BLOCKED)");
      }
      CompletableFuture<Void> future = blocked.toCompletableFuture();
      if (!future.isDone()) {
        return future;
      }
      waitFor(future); // done: rethrows how it failed, if it did
      return null;
    }

    /** Waits until the operator is not blocked, or the search is cancelled. */
    private void awaitUnblocked() {
      CompletableFuture<Void> future = blockedNow();
      if (future != null) {
        waitFor(future);
      }
    }

    private void waitFor(CompletableFuture<Void> future) {
      while (true) {
        context.checkCancelled();
        try {
          future.get(Operator.CANCEL_CHECK_MILLIS, TimeUnit.MILLISECONDS);
          return;
        } catch (TimeoutException stillBlocked) {
          // check for cancellation again
        } catch (ExecutionException e) {
          throw new PluginFailureException(command.name(), command.plugin(), e.getCause());
        } catch (CancellationException e) {
          throw failure("its isBlocked future was cancelled");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new CancellationException("interrupted waiting for " + command.describe());
        }
      }
    }

    /** A call into the operator; its {@code checkCancelled} in a cancelled search is no failure. */
    private <T> T invoke(Callable<T> call) {
      try {
        return PluginOperators.call(command, call);
      } catch (PluginFailureException e) {
        if (e.getCause() instanceof CancellationException cancelled && context.isCancelled()) {
          throw cancelled;
        }
        throw e;
      }
    }

    private PluginFailureException failure(String problem) {
      return new PluginFailureException(
          command.name(), command.plugin(), new IllegalStateException(problem));
    }

    void close() {
      invoke(
          () -> {
            operator.close();
            return null;
          });
    }
  }

  static <T> T call(PluginCommand command, Callable<T> call) {
    try {
      return call.call();
    } catch (PluginFailureException | RowStages.RowEngineRefused e) {
      throw e; // a refused row stage (a built-in running commands of its own) names those
    } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
      throw new PluginFailureException(command.name(), command.plugin(), e);
    }
  }

  /**
   * A streaming or centralized command: rows in, the same rows (overlaid) or new rows out. Row ids
   * count across batches; a streaming command emits rows in input order, so batches before the
   * first row of its latest output are dropped; a centralized one may emit any row, so every batch
   * is kept until it finishes.
   */
  private static final class Streaming implements RowSink {
    private final PluginCommand command;
    private final Driver driver;
    private final RowSink downstream;
    private final boolean ordered;
    private final boolean pageAtATime;
    private final java.util.ArrayDeque<Batch> pending = new java.util.ArrayDeque<>();
    private List<Row> batch = new ArrayList<>(BATCH);
    private long nextId;
    private boolean open = true;

    private record Batch(long base, List<Row> rows, Page page) {
      boolean holds(long id) {
        return id >= base && id < base + rows.size();
      }
    }

    Streaming(PluginCommand command, OperatorContext context, RowSink downstream) {
      this.command = command;
      this.driver = new Driver(command, command.bound(), context);
      this.downstream = downstream;
      this.ordered = command.kind() == io.quarry.plugin.api.command.CommandKind.STREAMING;
      this.pageAtATime = command.bound() instanceof PageAtATime;
    }

    @Override
    public boolean accept(Row row) {
      if (!open) {
        return false;
      }
      batch.add(row);
      if (batch.size() == BATCH) {
        flush();
      }
      return open;
    }

    private void flush() {
      if (batch.isEmpty()) {
        return;
      }
      Page in = input(batch, command.bound(), driver.factory(), nextId);
      pending.addLast(new Batch(nextId, batch, in));
      nextId += batch.size();
      batch = new ArrayList<>(BATCH);
      driver.add(in, this::emit);
      if (pageAtATime) {
        pending.clear(); // every row of this batch and those before has been answered
      }
    }

    @Override
    public void finish() {
      try {
        flush();
        driver.finish(this::emit);
      } finally {
        driver.close();
        pending.clear();
      }
      downstream.finish();
    }

    private Batch batchOf(long id) {
      for (Batch candidate : pending) {
        if (candidate.holds(id)) {
          return candidate;
        }
      }
      throw new PluginFailureException(
          command.name(),
          command.plugin(),
          new IllegalStateException(
              "output row " + id + " is not a row it was given (" + ROW_COLUMN + " changed?)"));
    }

    private void emit(Page out) {
      try {
        int rowColumn = out.schema().indexOf(ROW_COLUMN);
        if (rowColumn < 0) {
          for (Row row : rows(out)) {
            send(row);
          }
          return;
        }
        if (!(out.block(rowColumn) instanceof LongBlock rowIds)) {
          throw new PluginFailureException(
              command.name(),
              command.plugin(),
              new IllegalStateException(ROW_COLUMN + " must pass through unchanged"));
        }
        if (out.positionCount() == 0) {
          return;
        }
        // columns that are not an input block passed through are overlaid on the input rows
        Page in = batchOf(rowIds.getLong(0)).page();
        List<Integer> overlay = new ArrayList<>();
        for (int c = 0; c < out.schema().size(); c++) {
          int inColumn = in.schema().indexOf(out.schema().column(c).name());
          if (c != rowColumn && (inColumn < 0 || in.block(inColumn) != out.block(c))) {
            overlay.add(c);
          }
        }
        Batch current = null;
        for (int p = 0; p < out.positionCount(); p++) {
          long id = rowIds.getLong(p);
          if (current == null || !current.holds(id)) {
            current = batchOf(id);
          }
          Row base = current.rows().get((int) (id - current.base()));
          send(overlay.isEmpty() ? base : new OverlayRow(base, out, overlay, p));
        }
        if (ordered) {
          long last = rowIds.getLong(out.positionCount() - 1);
          while (!pending.isEmpty() && !pending.peekFirst().holds(last)) {
            pending.removeFirst();
          }
        }
      } finally {
        driver.factory().release(out);
      }
    }

    private void send(Row row) {
      if (open) {
        open = downstream.accept(row);
      }
    }
  }

  /** An input row with the columns a plugin added or replaced laid over it. */
  private static final class OverlayRow implements Row {
    private final Row base;
    private final Map<String, Object> overlay = new LinkedHashMap<>();

    OverlayRow(Row base, Page page, List<Integer> columns, int position) {
      this.base = base;
      for (int c : columns) {
        overlay.put(page.schema().column(c).name(), value(page.block(c), position));
      }
    }

    @Override
    public List<Object> values(String field) {
      if (overlay.containsKey(field)) {
        Object value = overlay.get(field);
        if (value instanceof List<?> multivalue) {
          return List.copyOf(multivalue);
        }
        return value == null ? List.of() : List.of(value);
      }
      return base.values(field);
    }

    @Override
    public List<String> fieldNames() {
      return names(base.fieldNames());
    }

    @Override
    public List<String> discoverableFieldNames() {
      return names(base.discoverableFieldNames());
    }

    private List<String> names(List<String> baseNames) {
      Set<String> names = new LinkedHashSet<>(baseNames);
      overlay.forEach(
          (name, value) -> {
            if (value == null) {
              names.remove(name);
            } else {
              names.add(name);
            }
          });
      return new ArrayList<>(names);
    }

    @Override
    public boolean matchesTerm(SearchTerm term) {
      return base.matchesTerm(term);
    }
  }

  /** A transforming command: a map operator per partial, one reduce operator at the end. */
  private static final class Transforming implements Aggregator {
    private final PluginCommand command;
    private final Evaluator evaluator;
    private final RowSink downstream;
    private final boolean total;
    private final List<Row> batch = new ArrayList<>(BATCH);
    private final List<Page> states = new ArrayList<>();
    private Driver map;

    Transforming(PluginCommand command, Evaluator evaluator, RowSink downstream, boolean total) {
      this.command = command;
      this.evaluator = evaluator;
      this.downstream = downstream;
      this.total = total;
    }

    @Override
    public Aggregator newPartial() {
      return new Transforming(command, evaluator, PARTIAL, false);
    }

    @Override
    public boolean accept(Row row) {
      batch.add(row);
      if (batch.size() == BATCH) {
        flush();
      }
      return true;
    }

    private void flush() {
      if (batch.isEmpty()) {
        return;
      }
      if (map == null) {
        map = new Driver(command, command.bound(), evaluator.pluginContext());
      }
      map.add(input(batch, command.bound(), map.factory(), 0), states::add);
      batch.clear();
    }

    /** Ends the map side: every partial state page is in {@link #states}. */
    private void finishMap() {
      flush();
      if (map != null) {
        try {
          map.finish(states::add);
        } finally {
          map.close();
          map = null;
        }
      }
    }

    @Override
    public void merge(Aggregator partial) {
      Transforming other = (Transforming) partial;
      other.finishMap();
      states.addAll(other.states);
      other.states.clear();
    }

    @Override
    public void finish() {
      if (!total) {
        throw new IllegalStateException("a partial aggregation is merged, not finished");
      }
      finishMap();
      OperatorContext context = evaluator.pluginContext();
      Driver reduce =
          new Driver(
              command, context, call(command, () -> command.bound().createReduceOperator(context)));
      List<Page> results = new ArrayList<>();
      try {
        for (Page state : states) {
          reduce.add(state, results::add);
        }
        states.clear();
        reduce.finish(results::add);
      } finally {
        reduce.close();
      }
      boolean open = true;
      for (Page page : results) {
        for (Row row : rows(page)) {
          open = open && downstream.accept(row);
        }
        reduce.factory().release(page);
      }
      downstream.finish();
    }
  }
}
