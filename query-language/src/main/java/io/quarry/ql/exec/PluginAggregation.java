package io.quarry.ql.exec;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A transforming plugin command (the SPI's map/reduce kind, {@link CommandKind#TRANSFORMING}) on
 * pages. In a chain ({@link PageReduce}: one thread) it is plain pull operators in the chain's
 * {@link Driver} ({@link #operators}): its map side ({@link PluginMapOperator}: the input cut to
 * the columns the command reads, into one map operator), one reduce operator ({@code
 * createReduceOperator}) over the state pages, and its answer paged again ({@link RowPaging}: the
 * columns each page's rows hold a value in, typed over them), whatever pages the reduce operator
 * emits. A batch search's map side runs on many threads and merges ({@code server.search.PageBatch}
 * over {@link PageAggregator}s): there it is this aggregation, each partial driving its own map
 * side over the pages its slices give it and keeping the state pages (reserved until merged or
 * closed), merging a partial finishing its map side and taking its states, and the final one's
 * {@link #finish} driving the reduce operator and the re-paging over every state page. Every call
 * into the plugin is wrapped ({@link PluginOperator}).
 *
 * <p>No preview ({@link #previews} false, {@link #snapshot} empty), for the state pages belong to
 * the reduce operator once handed to it, so none is reduced before the end.
 */
public final class PluginAggregation implements PageAggregator {
  private final PluginCommand command;
  private final OperatorContext context;
  private final int pageSize;
  private final boolean total;
  private final List<Page> states = new ArrayList<>();
  private final ArrayDeque<Page> output = new ArrayDeque<>();
  private Driver map;
  private boolean finished;
  private boolean closed;

  private PluginAggregation(
      PluginCommand command, OperatorContext context, int pageSize, boolean total) {
    this.command = command;
    this.context = context;
    this.pageSize = pageSize;
    this.total = total;
  }

  /** The final aggregation of {@code command}, its plugin calls in {@code evaluator}'s search. */
  public PluginAggregation(PluginCommand command, Evaluator evaluator, int pageSize) {
    this(command, evaluator.pluginContext(), pageSize, true);
  }

  /**
   * {@code command} as operators of a chain, in order: its map side, its reduce operator, the
   * re-paging of its answer (closed again if making one fails).
   */
  static List<Operator> operators(PluginCommand command, Evaluator evaluator, int pageSize) {
    OperatorContext context = evaluator.pluginContext();
    PluginMapOperator map = new PluginMapOperator(command, context, true);
    try {
      return List.of(map, reduce(command, context, true), new RowPaging(pageSize));
    } catch (RuntimeException e) {
      map.close();
      throw e;
    }
  }

  /**
   * The plugin's reduce operator; {@code reservesInput} false when the state pages it is given are
   * reserved already (a partial's).
   */
  private static PluginOperator reduce(
      PluginCommand command, OperatorContext context, boolean reservesInput) {
    return new PluginOperator(
        command,
        context,
        PluginOperators.call(command, () -> command.bound().createReduceOperator(context)),
        reservesInput,
        true); // its answer's cells are copied by the re-paging
  }

  /** Whether {@code command} is a transforming plugin command. */
  public static boolean supports(Command command) {
    return command instanceof PluginCommand plugin && plugin.kind() == CommandKind.TRANSFORMING;
  }

  /** The fields it reads: its bound command's required fields ({@code *}: every field). */
  public static List<String> inputFields(PluginCommand command) {
    return List.copyOf(command.bound().requiredFields());
  }

  @Override
  public PluginAggregation newPartial() {
    return new PluginAggregation(command, context, pageSize, false);
  }

  @Override
  public boolean needsInput() {
    return !finished;
  }

  @Override
  public void addInput(Page page) {
    if (finished) {
      throw new IllegalStateException("input after finish");
    }
    if (page.positionCount() == 0) {
      return;
    }
    if (map == null) { // its state pages stay reserved until this aggregation is closed
      map =
          new Driver(
              List.of(Driver.Step.uncounted(new PluginMapOperator(command, context, false))),
              states::add,
              null,
              context);
    }
    map.add(page);
  }

  /** Ends the map side: every state page it made is in {@link #states}. */
  private void finishMap() {
    if (map != null) {
      Driver ending = map;
      map = null;
      try {
        ending.finish();
      } finally {
        ending.close();
      }
    }
  }

  @Override
  public void merge(PageAggregator partial) {
    PluginAggregation other = (PluginAggregation) partial;
    other.finishMap();
    states.addAll(other.states);
    other.states.clear();
  }

  @Override
  public List<Page> snapshot() {
    return List.of();
  }

  @Override
  public boolean previews() {
    return false;
  }

  @Override
  public void finish() {
    if (!total) {
      throw new IllegalStateException("a partial aggregation is merged, not finished");
    }
    if (finished) {
      return;
    }
    finished = true;
    finishMap();
    // the states are reserved already; the answer pages go back to the factory once re-paged
    try (Driver reducing =
        new Driver(
            List.of(
                Driver.Step.uncounted(reduce(command, context, false)),
                Driver.Step.uncounted(new RowPaging(pageSize))),
            output::add,
            null,
            context)) {
      for (Page state : states) {
        reducing.add(state);
      }
      states.clear();
      reducing.finish();
    }
  }

  @Override
  public boolean isFinished() {
    return finished && output.isEmpty();
  }

  @Override
  public Page getOutput() {
    return output.poll();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (map != null) {
        map.close();
        map = null;
      }
    } finally {
      states.forEach(context.blockFactory()::release);
      states.clear();
      output.clear();
    }
  }
}
