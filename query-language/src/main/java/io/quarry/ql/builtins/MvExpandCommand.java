package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
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
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * {@code mvexpand <field> [limit=<n>]}: one row per value of a multivalue field, the other fields
 * copied; at most {@code limit} values per row (0: all). A row without the field passes unchanged.
 */
final class MvExpandCommand implements CommandDefinition {

  @Override
  public String name() {
    return "mvexpand";
  }

  @Override
  public String description() {
    return "Expands the values of a multivalue field into one result per value, the other fields"
        + " copied.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the multivalue field to expand")
            .alsoPositional(),
        ArgumentSpec.optional(
            "limit", ArgumentType.LONG, "0", "the most values of each row to use (0: all)"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    long limit = arguments.getLong("limit");
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be 0 (no limit) or more, not " + limit);
    }
    return new Bound(arguments.getString("field"), limit == 0 ? Integer.MAX_VALUE : limit);
  }

  record Bound(String field, long limit) implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.of(field); // other fields are copied with the row (the page's other columns)
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(field);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          return expand(factory, input);
        }
      };
    }

    private Page expand(BlockFactory factory, Page page) {
      Block values = page.block(field);
      if (values == null || !values.mayHaveMultivaluedFields()) {
        return page; // one value or none per row: nothing to expand
      }
      int[] positions = new int[page.positionCount() * 2 + 16];
      int[] valueIndexes = new int[positions.length];
      int count = 0;
      for (int p = 0; p < page.positionCount(); p++) {
        int n = (int) Math.min(limit, values.getValueCount(p));
        int first = values.getFirstValueIndex(p);
        for (int i = 0; i < Math.max(1, n); i++) {
          if (count == positions.length) {
            positions = Arrays.copyOf(positions, count * 2);
            valueIndexes = Arrays.copyOf(valueIndexes, count * 2);
          }
          positions[count] = p;
          valueIndexes[count++] = n == 0 ? -1 : first + i;
        }
      }
      List<String> names = new ArrayList<>(page.blocks().size());
      for (int c = 0; c < page.schema().size(); c++) {
        names.add(page.schema().column(c).name());
      }
      int rows = count;
      int[] taken = positions;
      int[] takenValues = valueIndexes;
      List<Block> blocks = // all or none: over the memory limit the input page stays whole
          Cells.allOrNone(
              factory,
              names.size(),
              c ->
                  names.get(c).equals(field)
                      ? BlockCopies.takeValues(factory, values, takenValues, rows)
                      : BlockCopies.take(factory, page.block(c), taken, rows));
      factory.release(page);
      return Cells.page(names, blocks, count);
    }
  }
}
