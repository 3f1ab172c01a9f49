package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.command.EvalParser;
import io.quarry.ql.exec.JsonPaths;
import io.quarry.ql.exec.PageEval;
import io.quarry.ql.parser.QueryParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code foreach mode=multivalue <field> [eval …]}: for each result, the evals run once per value
 * of the field, in order, with {@code <<ITEM>>} (or {@code itemstr}) replaced by the value's text,
 * each run seeing what the runs before it assigned ({@code eval total=0 | foreach mode=multivalue
 * mv [eval total=total+<<ITEM>>]}). The eval text is parsed once per distinct value (at most
 * {@value #CACHED} kept parsed). {@code mode=json_array}: once per element of the JSON array the
 * field holds, {@code <<ITEM>>} replaced by the element's JSON text ({@code 3}, {@code "a"}), so a
 * string element is a string literal in the eval.
 */
final class ForeachValues {
  static final int CACHED = 4_096;

  private ForeachValues() {}

  static Operator operator(
      String field, String item, List<String> evals, boolean jsonArray, OperatorContext context) {
    BlockFactory factory = context.blockFactory();
    PageEval eval = PageEval.of(context);
    Map<String, List<EvalCommand.Assignment>> parsed = new HashMap<>();
    return new PageTransformOperator() {
      @Override
      protected Page process(Page input) {
        Block block = input.block(field);
        if (block == null) {
          return input;
        }
        int positions = input.positionCount();
        List<List<EvalCommand.Assignment>> assignmentsAt = new ArrayList<>(positions);
        for (int p = 0; p < positions; p++) {
          List<EvalCommand.Assignment> steps = new ArrayList<>(); // each item's, in order
          for (String text : items(block, p, jsonArray)) {
            List<EvalCommand.Assignment> step = parsed.get(text);
            if (step == null) {
              step = parse(evals, item, text);
              if (parsed.size() < CACHED) {
                parsed.put(text, step);
              }
            }
            steps.addAll(step);
          }
          assignmentsAt.add(steps);
        }
        List<Map<String, Object>> assigned = eval.assignEach(input, assignmentsAt);
        Set<String> names = new LinkedHashSet<>();
        assigned.forEach(values -> names.addAll(values.keySet()));
        Page out = input;
        for (String name : names) {
          Block previous = input.block(name);
          Cells.Column column = new Cells.Column();
          for (int p = 0; p < positions; p++) {
            Map<String, Object> values = assigned.get(p);
            if (values.containsKey(name)) {
              Object value = values.get(name);
              column.add(
                  value instanceof List<?> list
                      ? list
                      : value == null ? List.of() : List.of(value));
            } else {
              column.add(previous == null ? List.of() : Cells.values(previous, p));
            }
          }
          out = factory.withColumn(out, name, column.build(factory, name));
        }
        return out;
      }
    };
  }

  /**
   * The items of a position: the texts of its values, or with {@code jsonArray} the JSON texts of
   * the elements of the JSON array its first value holds (none when it holds none).
   */
  private static List<String> items(Block block, int position, boolean jsonArray) {
    List<Object> values = Cells.values(block, position);
    if (jsonArray) {
      List<String> elements =
          values.isEmpty() ? null : JsonPaths.elementTexts(Cells.text(values.get(0)));
      return elements == null ? List.of() : elements;
    }
    List<String> texts = new ArrayList<>(values.size());
    values.forEach(value -> texts.add(Cells.text(value)));
    return texts;
  }

  private static List<EvalCommand.Assignment> parse(List<String> evals, String item, String value) {
    List<EvalCommand.Assignment> assignments = new ArrayList<>();
    for (String template : evals) {
      String text = template.replace(item, value);
      try {
        assignments.addAll(EvalParser.assignments(text, 0, text.length()));
      } catch (QueryParseException e) {
        throw new IllegalArgumentException(
            "foreach: for the value '"
                + value
                + "' the eval '"
                + text
                + "' does not parse: "
                + e.getMessage(),
            e);
      }
    }
    return assignments;
  }
}
