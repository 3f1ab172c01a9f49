package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs commands on the page engine alone — {@link PageReduce}, the stages a search's answer goes
 * through — over pages built straight from field values, for the tests that check a command's
 * answer against values computed by hand. Nothing here goes through the row engine: the input pages
 * are typed column by column ({@link PageCollector#toPage(List, List, int)}, the page builder that
 * outlives the row collector) and the answer is read from the blocks.
 */
final class PageRun {
  private static final Evaluator EVALUATOR = new Evaluator(Instant.now(), ZoneOffset.UTC);

  private PageRun() {}

  /** The commands after {@code *} of {@code query}, parsed with the built-in commands. */
  static List<Command> commands(String query) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse(query);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  /**
   * The answer of {@code query}'s commands over {@code input}, the output cut into pages of at most
   * {@code pageSize} positions where a stage pages its own output; fails the test when the page
   * engine has no stage for some command.
   */
  static List<Page> run(String query, List<Page> input, int pageSize, Evaluator evaluator) {
    List<Command> commands = commands(query);
    assertThat(ReduceCoverage.supportsOverEvents(commands))
        .as("every command of %s has a page stage", query)
        .isTrue();
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            commands,
            evaluator,
            page -> {
              out.add(page);
              return true;
            },
            new StageStats(commands.stream().map(Command::name).toList()),
            0,
            pageSize);
    for (Page page : input) {
      if (!reduce.add(page)) {
        break;
      }
    }
    reduce.finish();
    reduce.close();
    return out;
  }

  /** As above, with an evaluator whose clock is the run's start, in UTC. */
  static List<Page> run(String query, List<Page> input, int pageSize) {
    return run(query, input, pageSize, EVALUATOR);
  }

  /**
   * One page of rows given as field → values (a position's values: none is a null, several a
   * multivalue), a column per field any row has, in first-seen order.
   */
  static Page page(List<Map<String, List<Object>>> rows) {
    Set<String> names = new LinkedHashSet<>();
    rows.forEach(row -> names.addAll(row.keySet()));
    List<List<List<Object>>> columns = new ArrayList<>();
    for (String name : names) {
      List<List<Object>> cells = new ArrayList<>(rows.size());
      for (Map<String, List<Object>> row : rows) {
        cells.add(row.getOrDefault(name, List.of()));
      }
      columns.add(cells);
    }
    return PageCollector.toPage(List.copyOf(names), columns, rows.size());
  }

  /** {@code rows} cut into pages of {@code pageSize} rows (one empty page for no rows). */
  static List<Page> pages(List<Map<String, List<Object>>> rows, int pageSize) {
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); from += pageSize) {
      pages.add(page(rows.subList(from, Math.min(rows.size(), from + pageSize))));
    }
    return pages;
  }

  /** Rows given as field → value ({@code List}: a multivalue), as {@link #page} takes them. */
  static List<Map<String, List<Object>>> cells(List<Map<String, Object>> rows) {
    List<Map<String, List<Object>>> cells = new ArrayList<>(rows.size());
    for (Map<String, Object> row : rows) {
      Map<String, List<Object>> values = new LinkedHashMap<>();
      row.forEach(
          (name, value) ->
              values.put(name, value instanceof List<?> list ? List.copyOf(list) : List.of(value)));
      cells.add(values);
    }
    return cells;
  }

  /**
   * Every position of the pages as its non-null fields in column order: a value, or a {@code List}
   * for a position with several values.
   */
  static List<Map<String, Object>> rows(List<Page> pages) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page page : pages) {
      Schema schema = page.schema();
      for (int p = 0; p < page.positionCount(); p++) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int c = 0; c < schema.size(); c++) {
          List<Object> values = page.block(c).getValues(p);
          if (!values.isEmpty()) {
            row.put(schema.column(c).name(), values.size() == 1 ? values.get(0) : values);
          }
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
