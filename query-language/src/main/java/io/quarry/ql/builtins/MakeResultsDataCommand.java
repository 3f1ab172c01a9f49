package io.quarry.ql.builtins;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code | makeresults format=csv|json data="…"}: results from inline data, one per CSV line after
 * the header (a field per non-empty cell, as text; {@code "…"} quotes a cell, {@code ""} a quote in
 * it) or per JSON object (an object or an array of objects: numbers stay numbers, an array is a
 * multivalue, a nested object its JSON text). No {@code _time} is added. The plain {@code
 * makeresults [count=] [annotate=]} is the registry's own; its parser hands a use with {@code
 * format=} or {@code data=} to this definition. The data is parsed when the query is.
 */
final class MakeResultsDataCommand implements CommandDefinition {
  static final int MAX_ROWS = 100_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public String name() {
    return "makeresults";
  }

  @Override
  public String description() {
    return "Generates results from inline CSV or JSON data.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.GENERATING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("format", ArgumentType.STRING, "csv or json"),
        ArgumentSpec.required(
            "data", ArgumentType.STRING, "the results: CSV with a header line, or JSON objects"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String format = arguments.getString("format").toLowerCase(Locale.ROOT);
    String data = arguments.getString("data");
    List<Map<String, List<Object>>> rows =
        switch (format) {
          case "csv" -> csv(data);
          case "json" -> json(data);
          default ->
              throw new IllegalArgumentException(
                  "makeresults format must be csv or json, not '" + format + "'");
        };
    if (rows.size() > MAX_ROWS) {
      throw new IllegalArgumentException("makeresults data has more than " + MAX_ROWS + " rows");
    }
    return new Bound(format, data, rows);
  }

  /** CSV lines (a literal newline or the two characters {@code \n} end one), header first. */
  static List<Map<String, List<Object>>> csv(String data) {
    List<List<String>> lines = CsvCells.parse(data.replace("\\n", "\n"));
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("makeresults format=csv needs a header line");
    }
    List<String> header = lines.get(0);
    Set<String> seen = new LinkedHashSet<>();
    for (String name : header) {
      if (name.isEmpty() || !seen.add(name)) {
        throw new IllegalArgumentException(
            "makeresults csv header has an empty or repeated field name: " + header);
      }
    }
    List<Map<String, List<Object>>> rows = new ArrayList<>();
    for (List<String> line : lines.subList(1, lines.size())) {
      if (line.size() == 1 && line.get(0).isEmpty()) {
        continue; // a blank line
      }
      if (line.size() > header.size()) {
        throw new IllegalArgumentException(
            "makeresults csv line " + (rows.size() + 2) + " has more cells than the header");
      }
      Map<String, List<Object>> row = new LinkedHashMap<>();
      for (int i = 0; i < line.size(); i++) {
        if (!line.get(i).isEmpty()) {
          row.put(header.get(i), List.of(line.get(i)));
        }
      }
      rows.add(row);
    }
    return rows;
  }

  static List<Map<String, List<Object>>> json(String data) {
    JsonNode root;
    try {
      root = JSON.readTree(data);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "makeresults format=json: the data is not JSON: " + e.getOriginalMessage());
    }
    List<JsonNode> objects = new ArrayList<>();
    if (root != null && root.isArray()) {
      root.forEach(objects::add);
    } else if (root != null) {
      objects.add(root);
    }
    List<Map<String, List<Object>>> rows = new ArrayList<>();
    for (JsonNode object : objects) {
      if (!object.isObject()) {
        throw new IllegalArgumentException(
            "makeresults format=json takes objects or an array of objects, not " + object);
      }
      Map<String, List<Object>> row = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        List<Object> values = new ArrayList<>();
        if (field.getValue().isArray()) {
          field.getValue().forEach(v -> addValue(values, v));
        } else {
          addValue(values, field.getValue());
        }
        if (!values.isEmpty()) {
          row.put(field.getKey(), values);
        }
      }
      rows.add(row);
    }
    return rows;
  }

  private static void addValue(List<Object> values, JsonNode node) {
    if (node.isNull() || node.isMissingNode()) {
      return;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      values.add(node.asLong());
    } else if (node.isNumber()) {
      values.add(node.asDouble());
    } else if (node.isBoolean()) {
      values.add(node.asBoolean() ? "true" : "false");
    } else if (node.isTextual()) {
      values.add(node.asText());
    } else {
      values.add(node.toString());
    }
  }

  record Bound(String format, String data, List<Map<String, List<Object>>> rows)
      implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.of();
    }

    @Override
    public Set<String> producedFields() {
      Set<String> fields = new LinkedHashSet<>();
      rows.forEach(r -> fields.addAll(r.keySet()));
      return fields;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Bound that && format.equals(that.format) && data.equals(that.data);
    }

    @Override
    public int hashCode() {
      return format.hashCode() * 31 + data.hashCode();
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new QueueOperator(factory, "makeresults") {
        @Override
        protected void process(Page page) {
          factory.release(page); // generating: no input is expected
        }

        @Override
        protected void onFinish() {
          for (int from = 0; from < rows.size(); from += 1024) {
            List<Map<String, List<Object>>> slice =
                rows.subList(from, Math.min(rows.size(), from + 1024));
            List<String> names = new ArrayList<>(producedFields());
            List<Cells.Column> columns = new ArrayList<>();
            for (String name : names) {
              Cells.Column column = new Cells.Column();
              for (Map<String, List<Object>> row : slice) {
                column.add(row.getOrDefault(name, List.of()));
              }
              columns.add(column);
            }
            emit(Cells.page(names, Cells.build(factory, names, columns), slice.size()));
          }
        }
      };
    }
  }
}
