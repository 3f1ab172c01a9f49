package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.EvalCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code eval}: sets fields on each row, left to right, so a later assignment reads an earlier one.
 * A null result removes the field. Assigning {@code _time} takes epoch seconds.
 */
public final class EvalOperator implements RowSink {
  private final EvalCommand command;
  private final Evaluator evaluator;
  private final RowSink downstream;

  public EvalOperator(EvalCommand command, Evaluator evaluator, RowSink downstream) {
    this.command = requireNonNull(command, "command is null");
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    Assigned assigned = new Assigned(row, new LinkedHashMap<>());
    for (EvalCommand.Assignment assignment : command.assignments()) {
      Object value = evaluator.evaluate(assignment.expression(), assigned);
      if (assignment.field().equals("_time")) {
        Object seconds = Evaluator.number(value);
        value = seconds == null ? null : Math.round(((Number) seconds).doubleValue() * 1_000_000d);
      }
      assigned.values().put(assignment.field(), value);
    }
    return downstream.accept(assigned);
  }

  @Override
  public void finish() {
    downstream.finish();
  }

  /** A row with some fields set by eval (null: removed). */
  private record Assigned(Row row, Map<String, Object> values) implements Row {
    @Override
    public List<Object> values(String field) {
      if (values.containsKey(field)) {
        Object value = values.get(field);
        if (value == null) {
          return List.of();
        }
        return value instanceof List<?> list ? List.copyOf(list) : List.of(value);
      }
      return row.values(field);
    }

    @Override
    public List<String> fieldNames() {
      List<String> names = new ArrayList<>(row.fieldNames());
      for (Map.Entry<String, Object> entry : values.entrySet()) {
        if (entry.getValue() == null) {
          names.remove(entry.getKey());
        } else if (!names.contains(entry.getKey())) {
          names.add(entry.getKey());
        }
      }
      return names;
    }

    @Override
    public boolean matchesTerm(SearchTerm term) {
      return row.matchesTerm(term);
    }
  }
}
