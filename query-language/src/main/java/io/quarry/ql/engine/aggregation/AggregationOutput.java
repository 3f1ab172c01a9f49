package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.ql.exec.TimeField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * A hash aggregation's answer as typed pages ({@link HashAggregationOperator#snapshot}): one row
 * per group sorted by the by-fields' values (numbers before text, as Splunk sorts), at most {@code
 * pageSize} rows a page; by-fields as string blocks straight from the keys, numeric results as long
 * or double blocks (doubles throughout when a column has fractions anywhere), everything else —
 * text, multivalues, {@code _time} — typed as {@link PageBuilder#toPage} types a field.
 *
 * <p>Given an executor (the search pool, once the scan is over), the work is shared between the
 * caller and the pool's threads ({@link SharedTasks}): the sort of the groups beside each
 * function's results, then the pages, each page by one thread. Neither step writes the keys or the
 * states, and the pages are in the same order, so the answer is the same as on one thread.
 */
final class AggregationOutput {
  private final StatsCommand command;
  private final GroupKeys keys;
  private final GroupingFunction[] functions;
  private final int pageSize;
  private final Executor parallel; // null: all on the caller
  private final int helpers;
  private final BooleanSupplier stop;

  /**
   * The answer of {@code keys} and {@code functions}, made with up to {@code helpers} threads of
   * {@code parallel} besides the caller ({@code parallel} null: on the caller alone); no task
   * started once {@code stop} says so ({@link SharedTasks}: {@link #pages} then throws a {@link
   * java.util.concurrent.CancellationException}).
   */
  AggregationOutput(
      StatsCommand command,
      GroupKeys keys,
      GroupingFunction[] functions,
      int pageSize,
      Executor parallel,
      int helpers,
      BooleanSupplier stop) {
    this.command = command;
    this.keys = keys;
    this.functions = functions;
    this.pageSize = pageSize;
    this.parallel = parallel;
    this.helpers = helpers;
    this.stop = stop;
  }

  /** The groups sorted by their by-field values, with their results, as pages. */
  List<Page> pages() {
    int groups = keys.size();
    int width = command.groupBy().size();
    // every result first: a column whose numbers are whole in some groups and not in others is
    // doubles throughout; task 0 sorts, task 1 + f asks function f for its results
    int[][] order = new int[1][];
    ResultColumn[] results = new ResultColumn[functions.length];
    SharedTasks.run(
        1 + functions.length,
        task -> {
          if (task == 0) {
            order[0] = GroupOrder.of(keys, width);
          } else {
            results[task - 1] = ResultColumn.of(functions[task - 1], groups);
          }
        },
        groups >= PARALLEL_GROUPS ? parallel : null,
        helpers,
        stop);
    List<String> names = new ArrayList<>(command.groupBy());
    for (Aggregation aggregation : command.aggregations()) {
      names.add(aggregation.outputName());
    }
    Page[] pages = new Page[(groups + pageSize - 1) / pageSize];
    SharedTasks.run(
        pages.length,
        page -> {
          int from = page * pageSize;
          pages[page] = page(names, order[0], results, from, Math.min(groups, from + pageSize));
        },
        groups >= PARALLEL_GROUPS ? parallel : null,
        helpers,
        stop);
    return new ArrayList<>(Arrays.asList(pages));
  }

  /** Fewer groups than this are answered on the caller alone: handing over would cost more. */
  static final int PARALLEL_GROUPS = 8192;

  /** The page of the groups {@code order[from, to)}. */
  private Page page(List<String> names, int[] order, ResultColumn[] results, int from, int to) {
    int width = command.groupBy().size();
    Block[] blocks = new Block[names.size()];
    List<String> generic = new ArrayList<>();
    List<List<List<Object>>> cells = new ArrayList<>();
    List<Integer> genericAt = new ArrayList<>();
    for (int c = 0; c < names.size(); c++) {
      Block block =
          c < width
              ? keyBlock(c, order, from, to)
              : TimeField.is(names.get(c)) ? null : results[c - width].block(order, from, to);
      if (block != null) {
        blocks[c] = block;
        continue;
      }
      List<List<Object>> column = new ArrayList<>(to - from);
      for (int i = from; i < to; i++) {
        int id = order[i];
        if (c < width) {
          column.add(List.of(groupValue(names.get(c), keys.keyText(id, c))));
        } else {
          column.add(cell(names.get(c), results[c - width].result(id)));
        }
      }
      generic.add(names.get(c));
      cells.add(column);
      genericAt.add(c);
    }
    if (!generic.isEmpty()) { // typed as PageBuilder types a field
      Page typed = PageBuilder.toPage(generic, cells, to - from);
      for (int i = 0; i < generic.size(); i++) {
        blocks[genericAt.get(i)] = typed.block(i);
      }
    }
    List<Schema.Column> schema = new ArrayList<>(names.size());
    for (int c = 0; c < names.size(); c++) {
      schema.add(new Schema.Column(names.get(c), blocks[c].dataType()));
    }
    return new Page(new Schema(schema), List.of(blocks), to - from);
  }

  /**
   * By-field {@code k}'s values for groups {@code order[from, to)} as a string block straight from
   * the keys (no {@code String}); null for {@code _time}, whose groups are times again.
   */
  private Block keyBlock(int k, int[] order, int from, int to) {
    if (TimeField.is(command.groupBy().get(k))) {
      return null;
    }
    BytesBlock.Builder builder = BytesBlock.builder(to - from);
    for (int i = from; i < to; i++) {
      keys.appendKey(order[i], k, builder);
    }
    return builder.build();
  }

  /** A by-field's group value: a {@code _time} group is a time again (its microseconds). */
  private static Object groupValue(String field, String key) {
    if (TimeField.is(field)) {
      try {
        return Long.parseLong(key);
      } catch (NumberFormatException notMicros) {
        return key;
      }
    }
    return key;
  }

  /** A result as a cell: a list is a multivalue; one named {@code _time} is a time again. */
  private static List<Object> cell(String name, Object result) {
    if (result == null) {
      return List.of();
    }
    if (TimeField.is(name)) {
      result = TimeField.micros(result);
    }
    return result instanceof List<?> list ? List.copyOf(list) : List.of(result);
  }
}
