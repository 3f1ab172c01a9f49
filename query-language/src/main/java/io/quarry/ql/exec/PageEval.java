package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.eval.ArrayColumn;
import io.quarry.ql.eval.ColumnBlocks;
import io.quarry.ql.eval.ExpressionCompiler;
import io.quarry.ql.eval.ExpressionEvaluator;
import io.quarry.ql.eval.Frame;
import io.quarry.ql.eval.ValueColumn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code eval}'s assignments over the positions of a page: in order, each assignment seeing the
 * ones before it, as {@code eval} does. {@link #compile} compiles them once per page chain into
 * evaluators over whole pages ({@code io.quarry.ql.eval}: the page chain's {@code eval} stage);
 * {@link #assign} and {@link #assignAt} evaluate with {@link Evaluator} over a {@link PageRow} view
 * of each position (the built-in page commands that evaluate expressions, {@code foreach} and
 * {@code fieldformat}). One instance per thread.
 */
public final class PageEval {
  private final Evaluator evaluator;
  private final Map<String, Object> assigned = new HashMap<>();
  private final PageRow row = new PageRow(assigned);

  public PageEval(Evaluator evaluator) {
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
  }

  /**
   * A value as {@code eval} sets it in {@code field}: into {@code _time} a number of epoch seconds
   * becomes microseconds (anything else: no value); other fields take it as it is.
   */
  static Object assignable(String field, Object value) {
    if (!TimeField.is(field)) {
      return value;
    }
    Object seconds = EvalValues.number(value);
    return seconds == null ? null : Math.round(((Number) seconds).doubleValue() * 1_000_000d);
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
   * {@code assignments} compiled once (their fallbacks through this instance's evaluator): the
   * compiled {@code eval} adds each assigned field to a page as a column, typed as {@link
   * PageBuilder} types it, with the values {@link #assign} computes.
   */
  public Compiled compile(List<EvalCommand.Assignment> assignments) {
    return new Compiled(assignments, new ExpressionCompiler(evaluator));
  }

  /** {@code eval}'s assignments compiled: pages in, pages with the assigned columns out. */
  public static final class Compiled {
    private final List<String> fields = new ArrayList<>(); // by slot: first-assigned order
    private final List<ExpressionEvaluator> evaluators = new ArrayList<>();
    private final int[] slots;

    private Compiled(List<EvalCommand.Assignment> assignments, ExpressionCompiler compiler) {
      this.slots = new int[assignments.size()];
      for (int i = 0; i < assignments.size(); i++) {
        EvalCommand.Assignment assignment = assignments.get(i);
        evaluators.add(compiler.compile(assignment.expression(), List.copyOf(fields)));
        int slot = fields.indexOf(assignment.field());
        if (slot < 0) {
          slot = fields.size();
          fields.add(assignment.field());
        }
        slots[i] = slot;
      }
    }

    /** {@code page} with each assigned field's column added or replaced. */
    public Page apply(Page page) {
      ValueColumn[] assigned = new ValueColumn[fields.size()];
      Frame frame = new Frame(page, assigned);
      for (int i = 0; i < slots.length; i++) {
        ValueColumn column = evaluators.get(i).eval(frame);
        String field = fields.get(slots[i]);
        assigned[slots[i]] = TimeField.is(field) ? assignable(field, column) : column;
      }
      Page result = page;
      for (int slot = 0; slot < assigned.length; slot++) {
        String field = fields.get(slot);
        result = result.withColumn(field, ColumnBlocks.block(field, assigned[slot]));
      }
      return result;
    }

    /**
     * The values as {@code eval} sets them in {@code field} ({@link PageEval#assignable(String,
     * Object)}).
     */
    private static ValueColumn assignable(String field, ValueColumn column) {
      Object[] values = new Object[column.size()];
      for (int p = 0; p < values.length; p++) {
        values[p] = PageEval.assignable(field, column.get(p));
      }
      return ArrayColumn.of(values, values.length);
    }
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
        assigned.put(assignment.field(), PageEval.assignable(assignment.field(), value));
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
        assigned.put(assignment.field(), PageEval.assignable(assignment.field(), value));
      }
    }
    return new LinkedHashMap<>(assigned);
  }
}
