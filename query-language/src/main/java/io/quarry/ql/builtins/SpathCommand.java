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
import io.quarry.ql.exec.JsonPaths;
import io.quarry.ql.exec.Spath;
import io.quarry.ql.exec.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code spath [input=<field>] [output=<field>] [path=]<path>}: the value at a JSON or XML path of
 * a field ({@code _raw} by default) into a field (the path itself by default); {@code {}} steps
 * give a multivalue, {@code {@name}} an XML attribute ({@link io.quarry.ql.exec.Spath}). Without a
 * path, every leaf of the document becomes a field named by its path. A row whose input is neither,
 * or where the path finds nothing, keeps the output field as it was.
 */
final class SpathCommand implements CommandDefinition {

  @Override
  public String name() {
    return "spath";
  }

  @Override
  public String description() {
    return "Extracts values from JSON or XML at a path (a.b{0}.c, {} for every element, {@attr}"
        + " for an XML attribute), or every path when none is given.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional(
            "input", ArgumentType.FIELD, "_raw", "the field holding the JSON or XML"),
        ArgumentSpec.optional(
            "output", ArgumentType.FIELD, null, "the field the value goes to (default: the path)"),
        ArgumentSpec.optional(
                "path",
                ArgumentType.STRING,
                null,
                "the location path, a.b{0}.c; none: extract every path")
            .alsoPositional());
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String path = arguments.has("path") ? arguments.getString("path") : null;
    String output = arguments.has("output") ? arguments.getString("output") : null;
    if (path == null && output != null) {
      throw new IllegalArgumentException(
          "output= needs a path (without one spath extracts every path)");
    }
    List<JsonPaths.Step> steps = path == null ? null : JsonPaths.parse(path);
    return new Bound(arguments.getString("input"), output == null ? path : output, path, steps);
  }

  record Bound(String input, String output, String path, List<JsonPaths.Step> steps)
      implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return path == null ? ALL_FIELDS : new LinkedHashSet<>(List.of(input, output));
    }

    @Override
    public Set<String> producedFields() {
      return path == null ? Set.of() : Set.of(output);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page page) {
          Block json = page.block(input);
          if (json == null) {
            return page;
          }
          return path == null ? everyPath(factory, page, json) : onePath(factory, page, json);
        }
      };
    }

    private Page onePath(BlockFactory factory, Page page, Block json) {
      Block existing = page.block(output);
      Cells.Column column = new Cells.Column();
      boolean found = false;
      for (int p = 0; p < page.positionCount(); p++) {
        List<Object> values =
            json.isNull(p) ? List.of() : Spath.extract(Cells.text(json.getObject(p)), steps);
        if (values.isEmpty() && existing != null) {
          values = Values.valuesOf(existing, p);
        }
        found |= !values.isEmpty();
        column.add(values);
      }
      if (!found && existing == null) {
        return page;
      }
      return factory.withColumn(page, output, column.build(factory, output));
    }

    private static Page everyPath(BlockFactory factory, Page page, Block json) {
      List<Map<String, List<Object>>> rows = new ArrayList<>(page.positionCount());
      Set<String> names = new LinkedHashSet<>();
      for (int p = 0; p < page.positionCount(); p++) {
        Map<String, List<Object>> fields = new LinkedHashMap<>();
        if (!json.isNull(p)) {
          Spath.flatten(Cells.text(json.getObject(p)), fields);
        }
        names.addAll(fields.keySet());
        rows.add(fields);
      }
      List<Cells.Column> columns = new ArrayList<>(names.size());
      for (String name : names) {
        Block existing = page.block(name);
        Cells.Column column = new Cells.Column();
        for (int p = 0; p < rows.size(); p++) {
          List<Object> values = rows.get(p).get(name);
          column.add(
              values != null
                  ? values
                  : existing != null ? Values.valuesOf(existing, p) : List.of());
        }
        columns.add(column);
      }
      return Cells.withColumns(factory, page, List.copyOf(names), columns);
    }
  }
}
