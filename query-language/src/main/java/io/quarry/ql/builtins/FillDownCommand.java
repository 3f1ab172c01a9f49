package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code filldown [<field> …]}: a null of a field takes the field's last value before it, in the
 * order the results come (each field on its own); without fields, every field. Centralized: one
 * operator sees every result in order.
 */
final class FillDownCommand implements CommandDefinition {

  @Override
  public String name() {
    return "filldown";
  }

  @Override
  public String description() {
    return "Fills a field's nulls with its last value before them, in result order (every field"
        + " when none is named).";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional(
            "fields", ArgumentType.FIELD_LIST, null, "the fields to fill (default: every field)"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound(arguments.fields());
  }

  record Bound(List<String> fields) implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      // a pattern ({@code filldown f*}, Splunk's wildcard field list) may name any field
      return fields.isEmpty() || fields.stream().anyMatch(Wildcard::hasWildcard)
          ? ALL_FIELDS
          : new LinkedHashSet<>(fields);
    }

    @Override
    public Set<String> producedFields() {
      return new LinkedHashSet<>(fields);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      Map<String, List<Object>> last = new LinkedHashMap<>(); // each field's last value(s) so far
      return new QueueOperator(factory, "filldown") {
        @Override
        protected void process(Page page) {
          // without a field list: every field of this page and every one an earlier page held
          // (a page none of whose rows holds a field has no column of it, and its rows are filled
          // all the same: the answer must not follow the page cuts)
          Collection<String> names;
          if (fields.isEmpty()) {
            names = new LinkedHashSet<>(Cells.fieldNames(page));
            names.addAll(last.keySet());
          } else {
            names = named(page, last.keySet());
          }
          List<String> filled = new ArrayList<>();
          List<Cells.Column> columns = new ArrayList<>();
          for (String field : names) {
            Block block = page.block(field);
            boolean any = false;
            Cells.Column column = new Cells.Column();
            for (int p = 0; p < page.positionCount(); p++) {
              List<Object> values = block == null ? List.of() : Cells.values(block, p);
              if (values.isEmpty()) {
                List<Object> previous = last.get(field);
                column.add(previous == null ? List.of() : previous);
                any |= previous != null;
              } else {
                last.put(field, values);
                column.add(values);
              }
            }
            if (any) {
              filled.add(field);
              columns.add(column);
            }
          }
          emit(Cells.withColumns(factory, page, filled, columns));
        }
      };
    }

    /**
     * The fields named, a pattern ({@code f*}) standing for every field of {@code page} or of an
     * earlier page ({@code seen}) it matches, case-sensitively (field names are).
     */
    private Collection<String> named(Page page, Collection<String> seen) {
      Set<String> names = new LinkedHashSet<>();
      for (String field : fields) {
        if (!Wildcard.hasWildcard(field)) {
          names.add(field);
          continue;
        }
        Wildcard pattern = Wildcard.caseSensitive(field);
        for (String name : Cells.fieldNames(page)) {
          if (pattern.matches(name)) {
            names.add(name);
          }
        }
        for (String name : seen) {
          if (pattern.matches(name)) {
            names.add(name);
          }
        }
      }
      return names;
    }
  }
}
