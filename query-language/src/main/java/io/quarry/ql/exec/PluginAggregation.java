package io.quarry.ql.exec;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A transforming plugin command (the SPI's map/reduce kind, {@link CommandKind#TRANSFORMING}) as a
 * page aggregation: each partial drives its own map operator ({@code createOperator}) over the
 * pages it is given, cut to the columns the command reads ({@link
 * PluginOverlayOperator#operatorInput}), and keeps the state pages that operator emits; merging a
 * partial finishes its map operator and takes its state pages; the final aggregation's {@link
 * #finish} drives one reduce operator ({@code createReduceOperator}) over every state page and
 * pages its answer again ({@link RowPaging}: the columns each page's rows hold a value in, typed
 * over them), whatever pages the reduce operator emits. Every call into the plugin is wrapped
 * ({@link Driver}, {@link PluginOperator}).
 *
 * <p>No preview ({@link #previews} false, {@link #snapshot} empty), for the state pages belong to
 * the reduce operator once handed to it, so none is reduced before the end.
 */
public final class PluginAggregation implements PageAggregator {
  /** Columns of the input pages no plugin operator sees: the page engine's own (NUL-named). */
  private static final char HIDDEN_PREFIX = '\u0000';

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
              List.of(
                  Driver.Step.uncounted(
                      new PluginOperator(command, command.bound(), context, false))),
              states::add,
              null,
              context);
    }
    // the operator owns its input now (reserved by its PluginOperator)
    map.add(
        PluginOverlayOperator.operatorInput(page, command.bound().requiredFields(), hidden(page)));
  }

  /** The NUL-named columns of a page (an event listing's bookkeeping, never a field). */
  private static Set<String> hidden(Page page) {
    Set<String> hidden = new java.util.HashSet<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      if (!name.isEmpty() && name.charAt(0) == HIDDEN_PREFIX) {
        hidden.add(name);
      }
    }
    return hidden;
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
    PluginOperator reduce =
        new PluginOperator(
            command,
            context,
            PluginOperators.call(command, () -> command.bound().createReduceOperator(context)),
            false,
            false);
    List<Page> answer = new ArrayList<>();
    try (Driver reducing =
        new Driver(List.of(Driver.Step.uncounted(reduce)), answer::add, null, context)) {
      for (Page state : states) {
        reducing.add(state);
      }
      states.clear();
      reducing.finish();
    }
    try (Driver paging =
        new Driver(
            List.of(Driver.Step.uncounted(new RowPaging(pageSize))), output::add, null, context)) {
      for (Page page : answer) {
        paging.add(page);
      }
      paging.finish();
    }
    // the re-paged pages hold copies of the plugin's cells: its pages go back to its factory
    answer.forEach(reduce.factory()::release);
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
