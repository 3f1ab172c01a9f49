package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.BlockCopies;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code uniq}: drops a result identical to the one just before it — every field the same, with the
 * same values in the same order, compared as texts (so {@code 1} and {@code 1.0} differ, as their
 * texts do); a field missing from one of them makes them differ. Centralized: one operator sees the
 * results in order, and holds the last one kept.
 */
final class UniqCommand implements CommandDefinition {

  @Override
  public String name() {
    return "uniq";
  }

  @Override
  public String description() {
    return "Drops a result identical (every field) to the result before it.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of();
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound();
  }

  record Bound() implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS;
    }

    @Override
    public Set<String> producedFields() {
      return Set.of();
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        private Map<String, List<String>> previous; // null before the first result

        @Override
        protected Page process(Page input) {
          List<String> names = Cells.fieldNames(input);
          int[] kept = new int[input.positionCount()];
          int count = 0;
          for (int p = 0; p < input.positionCount(); p++) {
            Map<String, List<String>> row = row(input, names, p);
            if (!row.equals(previous)) {
              kept[count++] = p;
            }
            previous = row;
          }
          if (count == input.positionCount()) {
            return input;
          }
          if (count == 0) {
            factory.release(input);
            return null;
          }
          return BlockCopies.take(factory, input, kept, count);
        }
      };
    }

    /** A result's fields that have values, each as its values' texts. */
    private static Map<String, List<String>> row(Page page, List<String> names, int position) {
      Map<String, List<String>> row = new HashMap<>();
      for (String name : names) {
        Block block = page.block(name);
        if (block.isNull(position)) {
          continue;
        }
        List<String> texts = new ArrayList<>();
        for (Object value : Cells.values(block, position)) {
          texts.add(Cells.text(value));
        }
        row.put(name, texts);
      }
      return row;
    }
  }
}
