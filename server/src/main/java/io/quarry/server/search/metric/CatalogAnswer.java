package io.quarry.server.search.metric;

import io.quarry.codecs.metricstore.MetricStore;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.McatalogCommand;
import io.quarry.ql.plan.SearchPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code mcatalog}: per group of its {@code by} fields' values (in their order), the sorted set of
 * each {@code values(…)} field's values over the series the where clause selects, read from the
 * series dictionaries (no point is decoded). Answered as rows or as typed pages: every column a
 * string, a set of several values a multivalue, an empty set null (absent from the row).
 */
final class CatalogAnswer {
  private final McatalogCommand catalog;
  private final TreeMap<List<String>, List<TreeSet<String>>> groups =
      new TreeMap<>(
          (a, b) -> {
            for (int i = 0; i < a.size(); i++) {
              int order = a.get(i).compareTo(b.get(i));
              if (order != 0) {
                return order;
              }
            }
            return 0;
          });

  private CatalogAnswer(McatalogCommand catalog) {
    this.catalog = catalog;
  }

  /** The groups of the series of {@code indexes} that have points in [{@code from}, {@code to}). */
  static CatalogAnswer read(
      McatalogCommand catalog,
      MetricStore store,
      SearchPlan plan,
      List<String> indexes,
      long from,
      long to)
      throws IOException {
    CatalogAnswer answer = new CatalogAnswer(catalog);
    for (String index : indexes) {
      store
          .index(index)
          .seriesKeys(
              SeriesFilter.selector(plan.filter(), index, key -> true),
              from,
              to,
              key -> answer.add(key, index));
    }
    return answer;
  }

  private void add(SeriesKey key, String index) {
    List<String> group = new ArrayList<>();
    for (String field : catalog.groupBy()) {
      String value = MetricSearch.field(key, field, index);
      if (value == null) {
        return;
      }
      group.add(value);
    }
    List<TreeSet<String>> sets =
        groups.computeIfAbsent(
            group,
            g -> {
              List<TreeSet<String>> fresh = new ArrayList<>();
              catalog.values().forEach(v -> fresh.add(new TreeSet<>()));
              return fresh;
            });
    for (int i = 0; i < catalog.values().size(); i++) {
      String value = MetricSearch.field(key, catalog.values().get(i), index);
      if (value != null) {
        sets.get(i).add(value);
      }
    }
  }

  /**
   * The same answer as pages of at most {@code pageSize} positions: a string column per by field,
   * then one per {@code values(…)} (a multivalue where the set has several values, null where it is
   * empty); none when no series matched.
   */
  List<Page> pages(int pageSize) {
    List<Schema.Column> schema = new ArrayList<>();
    for (String field : catalog.groupBy()) {
      schema.add(new Schema.Column(field, DataType.STRING));
    }
    for (String name : catalog.names()) {
      schema.add(new Schema.Column(name, DataType.STRING));
    }
    List<Map.Entry<List<String>, List<TreeSet<String>>>> all = new ArrayList<>(groups.entrySet());
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < all.size(); from += pageSize) {
      int to = Math.min(all.size(), from + pageSize);
      List<Block> blocks = new ArrayList<>();
      for (int f = 0; f < catalog.groupBy().size(); f++) {
        BytesBlock.Builder column = BytesBlock.builder(to - from);
        for (int r = from; r < to; r++) {
          column.append(all.get(r).getKey().get(f));
        }
        blocks.add(column.build());
      }
      for (int v = 0; v < catalog.values().size(); v++) {
        BytesBlock.Builder column = BytesBlock.builder(to - from);
        for (int r = from; r < to; r++) {
          TreeSet<String> values = all.get(r).getValue().get(v);
          if (values.isEmpty()) {
            column.appendNull();
          } else if (values.size() == 1) {
            column.append(values.first());
          } else {
            column.beginPositionEntry();
            values.forEach(column::append);
            column.endPositionEntry();
          }
        }
        blocks.add(column.build());
      }
      pages.add(new Page(new Schema(schema), blocks));
    }
    return pages;
  }
}
