package io.quarry.ql.plan;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.Expression;
import io.quarry.ql.ast.FormatsResults;
import io.quarry.ql.ast.PluginCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * Splunk's {@code fieldformat <field>=<expression>}: the commands after it see the field's own
 * values (a {@code sort} sorts the numbers, not their formatted text) and the results show the
 * formatted ones. A planner rule that takes each {@code fieldformat} out of the pipeline and adds
 * its assignment as an {@code eval} at the end, over the final results, in the order written:
 * {@code <field> = if(isnull(<field>), null(), <expression>)}, so a field the results no longer
 * have is not made up.
 */
final class FieldFormats {
  private FieldFormats() {}

  static List<Command> moveToEnd(List<Command> pipeline) {
    List<Command> kept = new ArrayList<>(pipeline.size());
    List<Command> formats = new ArrayList<>();
    for (Command command : pipeline) {
      if (command instanceof PluginCommand plugin
          && plugin.bound() instanceof FormatsResults format) {
        EvalCommand.Assignment assignment = format.format();
        int offset = plugin.position().offset();
        Expression field = new Expression.Field(assignment.field());
        Expression guarded =
            new Expression.Call(
                "if",
                List.of(
                    new Expression.Call("isnull", List.of(field), offset),
                    new Expression.Call("null", List.of(), offset),
                    assignment.expression()),
                offset);
        formats.add(
            new EvalCommand(
                List.of(new EvalCommand.Assignment(assignment.field(), guarded)),
                plugin.position()));
      } else {
        kept.add(command);
      }
    }
    if (formats.isEmpty()) {
      return pipeline;
    }
    kept.addAll(formats);
    return kept;
  }
}
