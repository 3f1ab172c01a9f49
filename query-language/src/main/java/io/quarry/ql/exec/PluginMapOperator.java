package io.quarry.ql.exec;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.PluginCommand;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * A transforming plugin command's map side as a pull operator: its input pages cut to the columns
 * the command reads ({@link PluginOverlayOperator#operatorInput}; the page engine's NUL-named
 * columns never reach it) into the plugin's map operator ({@code createOperator}, wrapped as a
 * {@link PluginOperator}), its output the state pages that operator emits (released from its
 * account, unless {@code releasesOutput} is false: a batch search keeps them reserved until its
 * reduce side takes them, {@link TransformingPlugin}). The plugin's operator is made at the first
 * page: input that never comes makes no state.
 */
final class PluginMapOperator implements Operator, RunsPlugin {
  /** Columns of the input pages no plugin operator sees: the page engine's own (NUL-named). */
  private static final char HIDDEN_PREFIX = '\u0000';

  private final PluginCommand command;
  private final OperatorContext context;
  private final boolean releasesOutput;
  private PluginOperator map; // made at the first page
  private boolean finishing;

  PluginMapOperator(PluginCommand command, OperatorContext context, boolean releasesOutput) {
    this.command = command;
    this.context = context;
    this.releasesOutput = releasesOutput;
  }

  @Override
  public PluginFailureException failure(Throwable cause) {
    return PluginOperator.failure(command, cause);
  }

  @Override
  public CompletionStage<Void> isBlocked() {
    return map == null ? NOT_BLOCKED : map.isBlocked();
  }

  @Override
  public boolean needsInput() {
    return !finishing && (map == null || map.needsInput());
  }

  @Override
  public void addInput(Page page) {
    if (finishing) {
      throw new IllegalStateException("addInput after finish");
    }
    if (page.positionCount() == 0) {
      return;
    }
    if (map == null) {
      map = new PluginOperator(command, command.bound(), context, releasesOutput);
    }
    // the operator owns its input now (reserved by its PluginOperator)
    map.addInput(
        PluginOverlayOperator.operatorInput(page, command.bound().requiredFields(), hidden(page)));
  }

  /** The NUL-named columns of a page (an event listing's bookkeeping, never a field). */
  private static Set<String> hidden(Page page) {
    Set<String> hidden = new HashSet<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      if (!name.isEmpty() && name.charAt(0) == HIDDEN_PREFIX) {
        hidden.add(name);
      }
    }
    return hidden;
  }

  @Override
  public Page getOutput() {
    return map == null ? null : map.getOutput();
  }

  @Override
  public void finish() {
    if (!finishing) {
      finishing = true;
      if (map != null) {
        map.finish();
      }
    }
  }

  @Override
  public boolean isFinished() {
    return finishing && (map == null || map.isFinished());
  }

  @Override
  public void close() {
    if (map != null) {
      map.close();
    }
  }
}
