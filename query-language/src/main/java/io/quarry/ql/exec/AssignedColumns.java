package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The aggregations' results set on a page's positions, as {@code eventstats} and {@code
 * streamstats} set them on each event: a column per output name (one named twice takes the last
 * aggregation's result, in the first's place), replacing the page's column of that name in place or
 * added at the end; a null result is no value; a position given no results keeps its own values.
 * Each column is typed from its values as every result cell is ({@link PageBuilder#column}); a
 * column of only numbers set on every position is built straight as a long or double block.
 */
final class AssignedColumns {
  private final List<String> names = new ArrayList<>();
  private final int[] function; // per name, the aggregation whose result it takes

  AssignedColumns(StatsCommand command) {
    Map<String, Integer> last = new LinkedHashMap<>();
    List<Aggregation> aggregations = command.aggregations();
    for (int f = 0; f < aggregations.size(); f++) {
      last.put(aggregations.get(f).outputName(), f);
    }
    names.addAll(last.keySet());
    this.function = last.values().stream().mapToInt(Integer::intValue).toArray();
  }

  /** The output names, each once, in order. */
  List<String> names() {
    return names;
  }

  /**
   * {@code page} with the results set: {@code results[p]} holds position p's result per
   * aggregation, or is null for a position left as it is.
   */
  Page apply(Page page, Object[][] results) {
    int positions = page.positionCount();
    Page out = page;
    for (int c = 0; c < names.size(); c++) {
      String name = names.get(c);
      Block numbers = numbers(name, function[c], results);
      if (numbers != null) {
        out = out.withColumn(name, numbers);
        continue;
      }
      Block own = page.block(name);
      List<List<Object>> cells = new ArrayList<>(positions);
      for (int p = 0; p < positions; p++) {
        Object[] row = results[p];
        if (row == null) {
          cells.add(own == null ? List.of() : Values.valuesOf(own, p));
        } else {
          cells.add(cell(row[function[c]]));
        }
      }
      out = out.withColumn(name, PageBuilder.column(name, cells));
    }
    return out;
  }

  /**
   * The column straight from the results when every position has results and those of aggregation
   * {@code f} are numbers or null (not all null): a long block (a timestamp one for {@code _time})
   * or, with a fraction anywhere, a double block — as {@link PageBuilder#column} types them, no
   * cell list made. Null otherwise.
   */
  private static Block numbers(String name, int f, Object[][] results) {
    boolean anyLong = false;
    boolean anyDouble = false;
    for (Object[] row : results) {
      if (row == null) {
        return null; // a position keeps its own values
      }
      switch (row[f]) {
        case null -> {}
        case Long l -> anyLong = true;
        case Double d -> anyDouble = true;
        default -> {
          return null;
        }
      }
    }
    if (anyDouble) {
      DoubleBlock.Builder builder = DoubleBlock.builder(results.length);
      for (Object[] row : results) {
        if (row[f] == null) {
          builder.appendNull();
        } else {
          builder.append(((Number) row[f]).doubleValue());
        }
      }
      return builder.build();
    }
    if (!anyLong) {
      return null;
    }
    LongBlock.Builder builder =
        LongBlock.builder(
            name.equals(PageBuilder.TIME_FIELD) ? DataType.TIMESTAMP : DataType.LONG,
            results.length);
    for (Object[] row : results) {
      if (row[f] == null) {
        builder.appendNull();
      } else {
        builder.append((Long) row[f]);
      }
    }
    return builder.build();
  }

  /** A result as a position's values: none for null, a list's values for a multivalue. */
  private static List<Object> cell(Object result) {
    if (result == null) {
      return List.of();
    }
    return result instanceof List<?> list ? List.copyOf(list) : List.of(result);
  }
}
