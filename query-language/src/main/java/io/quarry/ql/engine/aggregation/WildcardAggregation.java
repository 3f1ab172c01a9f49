package io.quarry.ql.engine.aggregation;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.ql.exec.Values;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * {@code stats} with wildcard fields ({@code stats avg(*)}, {@code max(*_ms) AS *_max}) on pages:
 * each wildcard aggregation applies to every column of the input its pattern matches (the by-fields
 * aside; a column starting with {@code _} only when the pattern does), one {@link
 * HashAggregationOperator} per matched field by the same by-fields, fed the positions that hold a
 * value of it (the rows that have the field); the other aggregations — or, when every one is a
 * wildcard, a hidden count — are one more, which gives the groups and their order. At the end the
 * field's results are joined to those groups by their by-field values, a field's column named
 * {@code f(field)} or by the {@code AS} name with its {@code *} replaced, the fields of a wildcard
 * in name order, a column no group has a value in left out — except that {@code count}/{@code
 * dc}/{@code estdc} of a field the input has answer 0 for a group without a value of it, as {@code
 * count(f)} does; the answer is typed as {@link PageBuilder} types a field. The input must carry
 * every field its rows have (event pages with every search-time field, a generator's or an
 * aggregation's pages).
 */
public final class WildcardAggregation implements PageAggregator {
  private final StatsCommand command;
  private final MemoryTracker memory;
  private final int pageSize;
  private final HashAggregationOperator plain;
  private final List<Integer> wildcards = new ArrayList<>(); // aggregation indexes
  private final List<Pattern> patterns = new ArrayList<>();

  /** Per wildcard aggregation (by index) and matched field, its aggregation. */
  private final Map<Integer, TreeMap<String, HashAggregationOperator>> expanded = new HashMap<>();

  private final Deque<Page> output = new ArrayDeque<>();
  private boolean finishing;

  /** Whether {@code command} has a wildcard aggregation and its others have page forms. */
  public static boolean supports(StatsCommand command) {
    return WildcardFields.hasWildcards(command)
        && HashAggregationOperator.supports(plainCommand(command));
  }

  /** The fields read besides every field a wildcard matches ({@code *}). */
  public static List<String> inputFields(StatsCommand command) {
    List<String> fields =
        new ArrayList<>(HashAggregationOperator.inputFields(plainCommand(command)));
    fields.add("*");
    return fields;
  }

  public WildcardAggregation(StatsCommand command, MemoryTracker memory, int pageSize) {
    this.command = requireNonNull(command, "command is null");
    this.memory = requireNonNull(memory, "memory is null");
    this.pageSize = pageSize;
    List<Aggregation> aggregations = command.aggregations();
    for (int i = 0; i < aggregations.size(); i++) {
      if (WildcardFields.isWildcard(aggregations.get(i))) {
        wildcards.add(i);
        patterns.add(WildcardFields.pattern(aggregations.get(i).field().orElseThrow()));
        expanded.put(i, new TreeMap<>());
      }
    }
    this.plain = new HashAggregationOperator(plainCommand(command), memory.sibling(), pageSize);
  }

  /** The command's other aggregations, or a hidden count when every one is a wildcard. */
  private static StatsCommand plainCommand(StatsCommand command) {
    List<Aggregation> others = new ArrayList<>();
    for (Aggregation aggregation : command.aggregations()) {
      if (!WildcardFields.isWildcard(aggregation)) {
        others.add(aggregation);
      }
    }
    if (others.isEmpty()) {
      others.add(new Aggregation(AggregateFunction.COUNT, Optional.empty(), WildcardFields.GROUPS));
    }
    return new StatsCommand(others, command.groupBy(), command.position());
  }

  /** The aggregation of wildcard aggregation {@code index} over one matched field. */
  private HashAggregationOperator expandedOf(int index, String field) {
    Aggregation wildcard = command.aggregations().get(index);
    Aggregation concrete =
        new Aggregation(
            wildcard.function(),
            Optional.of(field),
            outputName(index, field),
            wildcard.percentile());
    return new HashAggregationOperator(
        new StatsCommand(List.of(concrete), command.groupBy(), command.position()),
        memory.sibling(),
        pageSize);
  }

  private String outputName(int index, String field) {
    return WildcardFields.outputName(
        command.aggregations().get(index), patterns.get(wildcards.indexOf(index)), field);
  }

  @Override
  public PageAggregator newPartial() {
    return new WildcardAggregation(command, memory, pageSize);
  }

  @Override
  public boolean needsInput() {
    return !finishing;
  }

  @Override
  public void addInput(Page page) {
    if (finishing) {
      throw new IllegalStateException("input after finish");
    }
    plain.addInput(page);
    Schema schema = page.schema();
    for (int c = 0; c < schema.size(); c++) {
      String field = schema.column(c).name();
      if (command.groupBy().contains(field)) {
        continue;
      }
      int[] positions = null; // those holding a value of the field, found once
      int count = 0;
      for (int w = 0; w < wildcards.size(); w++) {
        int index = wildcards.get(w);
        String wildcard = command.aggregations().get(index).field().orElseThrow();
        if (field.startsWith("_") && !wildcard.startsWith("_")
            || !patterns.get(w).matcher(field).matches()) {
          continue;
        }
        if (positions == null) {
          Block block = page.block(c);
          positions = new int[page.positionCount()];
          for (int p = 0; p < page.positionCount(); p++) {
            if (!block.isNull(p)) {
              positions[count++] = p;
            }
          }
        }
        if (count == 0) {
          break; // no row has the field here
        }
        Page holding =
            count == page.positionCount() ? page : BlockCopies.filter(page, positions, count);
        expanded.get(index).computeIfAbsent(field, f -> expandedOf(index, f)).addInput(holding);
      }
    }
  }

  @Override
  public void merge(PageAggregator other) {
    if (!(other instanceof WildcardAggregation partial) || !partial.command.equals(command)) {
      throw new IllegalArgumentException("cannot merge stats of another command");
    }
    plain.merge(partial.plain);
    partial.expanded.forEach(
        (index, fields) ->
            fields.forEach(
                (field, theirs) ->
                    expanded
                        .get(index)
                        .computeIfAbsent(field, f -> expandedOf(index, f))
                        .merge(theirs)));
    partial.close();
  }

  @Override
  public List<Page> snapshot() {
    return joined();
  }

  @Override
  public void finish() {
    if (!finishing) {
      finishing = true;
      output.addAll(joined());
      close();
    }
  }

  @Override
  public boolean isFinished() {
    return finishing && output.isEmpty();
  }

  @Override
  public Page getOutput() {
    return output.poll();
  }

  @Override
  public void close() {
    plain.close();
    expanded.values().forEach(fields -> fields.values().forEach(HashAggregationOperator::close));
    expanded.values().forEach(Map::clear);
  }

  /**
   * The groups of the plain aggregation in its order, each with its by-fields, then per aggregation
   * its column, or a wildcard's columns that some group has a value in.
   */
  private List<Page> joined() {
    Map<List<String>, Map<String, List<Object>>> rows = new LinkedHashMap<>();
    for (Page page : plain.snapshot()) {
      for (int p = 0; p < page.positionCount(); p++) {
        Map<String, List<Object>> row = new HashMap<>();
        for (int c = 0; c < page.schema().size(); c++) {
          row.put(page.schema().column(c).name(), Values.valuesOf(page.block(c), p));
        }
        rows.put(key(page, p), row);
      }
    }
    List<String> columns = new ArrayList<>(command.groupBy());
    for (int i = 0; i < command.aggregations().size(); i++) {
      if (!wildcards.contains(i)) {
        columns.add(command.aggregations().get(i).outputName());
        continue;
      }
      for (Map.Entry<String, HashAggregationOperator> entry : expanded.get(i).entrySet()) {
        String column = outputName(i, entry.getKey());
        boolean any = false;
        for (Page page : entry.getValue().snapshot()) {
          int result = page.schema().indexOf(column);
          for (int p = 0; p < page.positionCount(); p++) {
            Map<String, List<Object>> row = rows.get(key(page, p));
            List<Object> values = Values.valuesOf(page.block(result), p);
            if (row != null && !values.isEmpty()) {
              row.put(column, values);
              any = true;
            }
          }
        }
        if (countsValues(i)) { // a group without a value of the field counts none of them
          rows.values().forEach(row -> row.putIfAbsent(column, List.of(0L)));
          any = true;
        }
        if (any && !columns.contains(column)) {
          columns.add(column);
        }
      }
    }
    List<Map<String, List<Object>>> all = new ArrayList<>(rows.values());
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < all.size(); from += pageSize) {
      List<Map<String, List<Object>>> slice =
          all.subList(from, Math.min(all.size(), from + pageSize));
      List<Schema.Column> schema = new ArrayList<>(columns.size());
      List<Block> blocks = new ArrayList<>(columns.size());
      for (String column : columns) {
        List<List<Object>> cells = new ArrayList<>(slice.size());
        for (Map<String, List<Object>> row : slice) {
          cells.add(row.getOrDefault(column, List.of()));
        }
        Block block = PageBuilder.column(column, cells);
        schema.add(new Schema.Column(column, block.dataType()));
        blocks.add(block);
      }
      pages.add(new Page(new Schema(schema), blocks, slice.size()));
    }
    return pages;
  }

  /**
   * Whether aggregation {@code index} counts its field's values ({@code count}, {@code dc}, {@code
   * estdc}): a group without any value of a matched field answers 0, as {@code count(f)} named
   * outright does — the wildcard stands for one call per field it matches.
   */
  private boolean countsValues(int index) {
    return switch (command.aggregations().get(index).function()) {
      case COUNT, DISTINCT_COUNT, ESTIMATED_DISTINCT_COUNT -> true;
      default -> false;
    };
  }

  /** A group's by-field values at position {@code p} of an aggregation's page, as text. */
  private List<String> key(Page page, int p) {
    List<String> key = new ArrayList<>(command.groupBy().size());
    for (String field : command.groupBy()) {
      Block block = page.block(field);
      List<Object> values = block == null ? List.of() : Values.valuesOf(block, p);
      key.add(values.isEmpty() ? "" : Values.toText(values.get(0)));
    }
    return key;
  }
}
