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
 * {@link #assign} and {@link #assignEach} give the values as cells, compiled the same way, for the
 * built-in page commands that evaluate expressions ({@code foreach}, {@code fieldformat}). One
 * instance per thread.
 */
public final class PageEval {
  private final Evaluator evaluator;

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
      ValueColumn[] assigned = columns(page);
      Page result = page;
      for (int slot = 0; slot < assigned.length; slot++) {
        String field = fields.get(slot);
        result = result.withColumn(field, ColumnBlocks.block(field, assigned[slot]));
      }
      return result;
    }

    /**
     * Each assigned field's values over {@code page}, by slot (the fields in the order they were
     * first assigned), as {@code eval} sets them.
     */
    ValueColumn[] columns(Page page) {
      ValueColumn[] assigned = new ValueColumn[fields.size()];
      Frame frame = new Frame(page, assigned);
      for (int i = 0; i < slots.length; i++) {
        ValueColumn column = evaluators.get(i).eval(frame);
        String field = fields.get(slots[i]);
        assigned[slots[i]] = TimeField.is(field) ? assignable(field, column) : column;
      }
      return assigned;
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
   * fields were first assigned: the assignments compiled ({@link #compile}) and evaluated over the
   * whole page.
   */
  public Map<String, List<List<Object>>> assign(
      Page page, List<EvalCommand.Assignment> assignments) {
    Compiled compiled = compiled(assignments);
    ValueColumn[] columns = compiled.columns(page);
    Map<String, List<List<Object>>> cells = new LinkedHashMap<>();
    for (int slot = 0; slot < columns.length; slot++) {
      List<List<Object>> column = new ArrayList<>(page.positionCount());
      for (int p = 0; p < page.positionCount(); p++) {
        column.add(EvalValues.values(columns[slot].get(p)));
      }
      cells.put(compiled.fields.get(slot), column);
    }
    return cells;
  }

  /**
   * The fields assigned at each position by its own assignments ({@code assignmentsAt.get(p)}, run
   * in order, each seeing the ones before), by name — a null value removes the field; no
   * assignments: an empty map. The positions that run the same assignments are evaluated together,
   * compiled once ({@code foreach}'s per-value evals).
   */
  public List<Map<String, Object>> assignEach(
      Page page, List<List<EvalCommand.Assignment>> assignmentsAt) {
    int positions = page.positionCount();
    Map<List<EvalCommand.Assignment>, Integer> index = new HashMap<>();
    List<List<EvalCommand.Assignment>> keys = new ArrayList<>();
    int[][] groups = new int[positions][];
    int[] counts = new int[positions];
    for (int p = 0; p < positions; p++) {
      List<EvalCommand.Assignment> assignments = assignmentsAt.get(p);
      if (assignments.isEmpty()) {
        continue;
      }
      int g = index.computeIfAbsent(assignments, k -> keys.size());
      if (g == keys.size()) {
        keys.add(assignments);
        groups[g] = new int[positions - p];
      }
      groups[g][counts[g]++] = p;
    }
    List<Map<String, Object>> assigned = new ArrayList<>(positions);
    for (int p = 0; p < positions; p++) {
      assigned.add(Map.of());
    }
    for (int g = 0; g < keys.size(); g++) {
      int[] group = groups[g];
      Compiled compiled = compiled(keys.get(g));
      ValueColumn[] columns =
          compiled.columns(io.quarry.ql.engine.BlockCopies.filter(page, group, counts[g]));
      for (int i = 0; i < counts[g]; i++) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int slot = 0; slot < columns.length; slot++) {
          values.put(compiled.fields.get(slot), columns[slot].get(i));
        }
        assigned.set(group[i], values);
      }
    }
    return assigned;
  }

  /** The assignments compiled, once for each distinct list (up to {@value #COMPILED} kept). */
  private Compiled compiled(List<EvalCommand.Assignment> assignments) {
    Compiled compiled = compiledByAssignments.get(assignments);
    if (compiled == null) {
      compiled = compile(assignments);
      if (compiledByAssignments.size() >= COMPILED) {
        compiledByAssignments.clear();
      }
      compiledByAssignments.put(List.copyOf(assignments), compiled);
    }
    return compiled;
  }

  private static final int COMPILED = 4_096;
  private final Map<List<EvalCommand.Assignment>, Compiled> compiledByAssignments = new HashMap<>();
}
