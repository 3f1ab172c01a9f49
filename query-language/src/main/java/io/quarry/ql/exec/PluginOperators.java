package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.PluginCommand;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Calls into plugin commands' operators ({@link PluginOperator} in a {@link Driver}'s chain, {@link
 * PluginOverlayOperator}, {@link TransformingPlugin}'s map and reduce sides, the generators): every
 * call into plugin code is wrapped, so a throwing plugin fails its search with a {@link
 * PluginFailureException} naming it.
 *
 * <p>A streaming or centralized command keeps the positions it is given: each input page carries a
 * hidden {@value #ROW_COLUMN} column (the position's number), which the operator passes through
 * like any column it does not know; an output position is then the input position with the columns
 * the operator added or replaced laid over it, so fields the command never saw (and multivalues)
 * survive. Output without that column is new results.
 */
public final class PluginOperators {
  /** The hidden column that ties output positions to input positions. */
  public static final String ROW_COLUMN = "_quarry_row";

  private PluginOperators() {}

  /**
   * A generating plugin command's pages pulled through {@code pipeline} ({@link
   * PageReduce#pullFrom}, a {@link OutputSource}), each asked of {@code stop} first (the search's
   * control), until the generator is done or the chain wants no more (a satisfied {@code head});
   * closes the pipeline. The positions handed on.
   */
  public static long generateInto(
      PluginCommand command,
      Evaluator evaluator,
      PageReduce pipeline,
      java.util.function.Predicate<Page> stop) {
    OutputSource source;
    try {
      source =
          new OutputSource(
              new PluginOperator(command, command.bound(), evaluator.pluginContext()), stop);
      pipeline.pullFrom(source);
      pipeline.run();
    } finally {
      pipeline.close();
    }
    return source.positions();
  }

  /** A position's value: null, the value, or a list of several (a multivalue). */
  static Object value(Block block, int position) {
    List<Object> values = Values.valuesOf(block, position);
    return switch (values.size()) {
      case 0 -> null;
      case 1 -> values.get(0);
      default -> values;
    };
  }

  static <T> T call(PluginCommand command, Callable<T> call) {
    try {
      return call.call();
    } catch (PluginFailureException e) {
      throw e; // a built-in running commands of its own failed in one of them: named already
    } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
      throw new PluginFailureException(command.name(), command.plugin(), e);
    }
  }
}
