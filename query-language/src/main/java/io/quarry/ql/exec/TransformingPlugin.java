package io.quarry.ql.exec;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * A transforming plugin command (the SPI's map/reduce kind, {@link CommandKind#TRANSFORMING}) as
 * plain pull operators, wherever it runs: its map side ({@link #mapSide}: {@link
 * PluginMapOperator}, the input cut to the columns the command reads, into the plugin's map
 * operator, out its state pages) and its reduce side ({@link #reduceSide}: the plugin's reduce
 * operator over the state pages, its answer paged again by {@link RowPaging} — the columns each
 * page's rows hold a value in, typed over them — whatever pages that operator emits). In a chain
 * ({@link PageReduce}: one thread) they are consecutive steps of its one {@link Driver} ({@link
 * #operators}); a batch search runs the map side as the last step of each slice's chain (its state
 * pages kept reserved) and the reduce side at the head of the reduce chain after the scan ({@link
 * PageReduce#afterMapSide}). Every call into the plugin is wrapped ({@link PluginOperator}), so a
 * throwing plugin fails the search naming it.
 */
public final class TransformingPlugin {
  private TransformingPlugin() {}

  /** Whether {@code command} is a transforming plugin command. */
  public static boolean supports(Command command) {
    return command instanceof PluginCommand plugin && plugin.kind() == CommandKind.TRANSFORMING;
  }

  /** The fields it reads: its bound command's required fields ({@code *}: every field). */
  public static List<String> inputFields(PluginCommand command) {
    return List.copyOf(command.bound().requiredFields());
  }

  /**
   * Its map side in {@code evaluator}'s search; {@code keepsStates}: the state pages it emits stay
   * reserved on the search's plugin block factory (for a reduce side made with {@code
   * statesReserved}), else they are released as they leave it.
   */
  public static Operator mapSide(PluginCommand command, Evaluator evaluator, boolean keepsStates) {
    return new PluginMapOperator(command, evaluator.pluginContext(), !keepsStates);
  }

  /**
   * Its reduce side, in order: the plugin's reduce operator, the re-paging of its answer ({@code
   * pageSize} rows a page); {@code statesReserved}: the state pages it is given are reserved
   * already (a map side that keeps them), else it reserves them as they come.
   */
  public static List<Operator> reduceSide(
      PluginCommand command, Evaluator evaluator, int pageSize, boolean statesReserved) {
    OperatorContext context = evaluator.pluginContext();
    PluginOperator reduce =
        new PluginOperator(
            command,
            context,
            PluginOperators.call(command, () -> command.bound().createReduceOperator(context)),
            !statesReserved,
            true); // its answer's cells are copied by the re-paging
    return List.of(reduce, new RowPaging(pageSize));
  }

  /**
   * {@code command} as operators of one chain, in order: its map side, its reduce side (the map
   * side closed again if making the reduce side fails).
   */
  static List<Operator> operators(PluginCommand command, Evaluator evaluator, int pageSize) {
    Operator map = mapSide(command, evaluator, false);
    try {
      List<Operator> operators = new ArrayList<>(3);
      operators.add(map);
      operators.addAll(reduceSide(command, evaluator, pageSize, false));
      return List.copyOf(operators);
    } catch (RuntimeException e) {
      map.close();
      throw e;
    }
  }
}
