package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.EvalCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code eval}'s assignments over the positions of a page, with the row engine's {@link Evaluator}
 * over a {@link PageRow} view of each position: in order, each assignment seeing the ones before
 * it, as {@code eval} does. Shared by the page chain's {@code eval} stage and the built-in page
 * commands that evaluate expressions ({@code foreach}). One instance per thread.
 */
public final class PageEval {
  private final Evaluator evaluator;
  private final Map<String, Object> assigned = new HashMap<>();
  private final PageRow row = new PageRow(assigned);

  public PageEval(Evaluator evaluator) {
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
  }

  /**
   * The evaluator a page operator of a search uses: the search's (its regex stop signal) when the
   * context is a search's, else one with the context's time and zone.
   */
  public static PageEval of(OperatorContext context) {
    Evaluator evaluator = new Evaluator(context.now(), context.zone());
    if (context instanceof SearchResources.Context search) {
      evaluator.withResources(search.resources());
    }
    return new PageEval(evaluator);
  }

  /**
   * Every assigned field's values, position by position (an empty list: null), in the order the
   * fields were first assigned.
   */
  public Map<String, List<List<Object>>> assign(
      Page page, List<EvalCommand.Assignment> assignments) {
    int positions = page.positionCount();
    Map<String, List<List<Object>>> columns = new LinkedHashMap<>();
    for (EvalCommand.Assignment assignment : assignments) {
      columns.computeIfAbsent(assignment.field(), f -> new ArrayList<>(positions));
    }
    for (int p = 0; p < positions; p++) {
      assigned.clear();
      row.at(page, p);
      for (EvalCommand.Assignment assignment : assignments) {
        Object value = evaluator.evaluate(assignment.expression(), row);
        assigned.put(assignment.field(), EvalOperator.assignable(assignment.field(), value));
      }
      for (Map.Entry<String, List<List<Object>>> column : columns.entrySet()) {
        Object value = assigned.get(column.getKey());
        column
            .getValue()
            .add(
                value == null
                    ? List.of()
                    : value instanceof List<?> list ? List.copyOf(list) : List.of(value));
      }
    }
    return columns;
  }

  /**
   * The fields assigned at one position by {@code steps} run one after the other (each seeing what
   * the ones before assigned), by name: a null value removes the field.
   */
  public Map<String, Object> assignAt(
      Page page, int position, List<List<EvalCommand.Assignment>> steps) {
    assigned.clear();
    row.at(page, position);
    for (List<EvalCommand.Assignment> step : steps) {
      for (EvalCommand.Assignment assignment : step) {
        Object value = evaluator.evaluate(assignment.expression(), row);
        assigned.put(assignment.field(), EvalOperator.assignable(assignment.field(), value));
      }
    }
    return new LinkedHashMap<>(assigned);
  }
}
