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
import io.quarry.ql.exec.Values;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code mvcombine [delim=<string>] <field>}: rows identical in every other field become one row
 * whose field holds the values of all of them (each distinct value once, in order of appearance).
 * Holds one row per group until the end, counted against the search's memory.
 */
final class MvCombineCommand implements CommandDefinition {
  /** Rows per output page. */
  static final int PAGE_ROWS = 1024;

  @Override
  public String name() {
    return "mvcombine";
  }

  @Override
  public String description() {
    return "Combines results that are identical except for one field into one result whose field"
        + " holds all their values.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the field whose values are combined")
            .alsoPositional(),
        ArgumentSpec.optional(
            "delim",
            ArgumentType.STRING,
            " ",
            "the delimiter of the values' single-value form (results keep the multivalue)"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound(arguments.getString("field"), arguments.getString("delim"));
  }

  record Bound(String field, String delim) implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS;
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(field);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      return new Combiner(context.blockFactory(), field);
    }
  }

  /** One group: the first row's other fields, and the field's distinct values. */
  private static final class Group {
    final Map<String, List<Object>> fields;
    final LinkedHashMap<String, Object> values = new LinkedHashMap<>();

    Group(Map<String, List<Object>> fields) {
      this.fields = fields;
    }
  }

  private static final class Combiner extends QueueOperator {
    private final String field;
    private final Map<String, Group> groups = new HashMap<>();
    private final List<Group> order = new ArrayList<>();
    private final Set<String> names = new LinkedHashSet<>();

    Combiner(BlockFactory factory, String field) {
      super(factory, "mvcombine");
      this.field = field;
    }

    @Override
    protected void process(Page page) {
      add(page); // a throw leaves the page whole: QueueOperator releases it
      factory.release(page); // nothing of the page is passed on
    }

    private void add(Page page) {
      List<String> pageNames = Cells.fieldNames(page);
      names.addAll(pageNames);
      Block target = page.block(field);
      for (int p = 0; p < page.positionCount(); p++) {
        TreeMap<String, List<Object>> others = new TreeMap<>();
        for (String name : pageNames) {
          if (!name.equals(field)) {
            List<Object> values = Values.valuesOf(page.block(name), p);
            if (!values.isEmpty()) {
              others.put(name, values);
            }
          }
        }
        String key = key(others);
        Group group = groups.get(key);
        if (group == null) {
          long bytes = 64L + 2L * key.length();
          for (List<Object> values : others.values()) {
            for (Object value : values) {
              bytes += Cells.bytes(value);
            }
          }
          reserve(bytes);
          group = new Group(others);
          groups.put(key, group);
          order.add(group);
        }
        if (target != null) {
          for (Object value : Values.valuesOf(target, p)) {
            String text = Cells.text(value);
            if (!group.values.containsKey(text)) {
              reserve(32L + Cells.bytes(value) + 2L * text.length());
              group.values.put(text, value);
            }
          }
        }
      }
    }

    /** The other fields' values as one text: names and values kept apart by control characters. */
    private static String key(TreeMap<String, List<Object>> others) {
      StringBuilder key = new StringBuilder();
      others.forEach(
          (name, values) -> {
            key.append(name).append('\u0000');
            for (Object value : values) {
              key.append(Cells.text(value)).append('\u0001');
            }
            key.append('\u0002');
          });
      return key.toString();
    }

    @Override
    protected void onFinish() {
      List<String> columns = new ArrayList<>(names);
      if (!columns.contains(field)) {
        columns.add(field);
      }
      for (int from = 0; from < order.size(); from += PAGE_ROWS) {
        List<Group> chunk = order.subList(from, Math.min(order.size(), from + PAGE_ROWS));
        List<Cells.Column> built = new ArrayList<>(columns.size());
        for (String name : columns) {
          Cells.Column column = new Cells.Column();
          for (Group group : chunk) {
            column.add(
                name.equals(field)
                    ? List.copyOf(group.values.values())
                    : group.fields.getOrDefault(name, List.of()));
          }
          built.add(column);
        }
        emit(Cells.page(columns, Cells.build(factory, columns, built), chunk.size()));
      }
      groups.clear();
      order.clear();
      releaseReserved();
    }
  }
}
