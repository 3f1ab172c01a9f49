package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.CountPages;
import io.quarry.ql.engine.aggregation.CountShortcut;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.parser.Parser;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Counts handed to a page aggregation as intermediate input ({@link CountPages}, what the index
 * counting shortcuts make: {@code stats count}, {@code stats count by f}, {@code top}/{@code rare
 * f}, {@code timechart count by f}) against the same aggregation scanning the rows they stand for
 * (none counted): random rows (multivalued, numeric and missing fields) of which a random share is
 * counted — per "segment", as the index counts them — and the rest added as pages, into random
 * partials merged in random order. The answer and its column types must not depend on which rows
 * were counted.
 */
class CountPagesTest {
  private static final List<String> COMMANDS =
      List.of(
          "stats count",
          "stats count AS n, count",
          "stats count by ip",
          "stats count AS hits by status",
          "stats count by ip, status",
          "stats count AS n, count by status, ip",
          "top ip",
          "rare ip",
          "top limit=3 status countfield=c percentfield=p",
          "top ip showperc=false",
          "rare status showcount=false",
          "timechart span=10s count by ip",
          "timechart count by ip limit=3",
          "timechart span=30s limit=2 useother=false count by status",
          "timechart span=20s usenull=false count AS n by ip");

  private static Command command(String text) {
    return new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  @Test
  void countsAnswerAsTheRowsTheyStandForScanned() {
    for (long seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      List<Row> input = RandomRows.asRows(RandomRows.of(random, 400));
      for (String text : COMMANDS) {
        Command command = command(text);
        CountShortcut shortcut = CountShortcut.of(command);
        assertThat(shortcut).as(text).isNotNull();
        List<Page> expected = noneCounted(command, input);
        List<Page> actual = pageEngine(command, shortcut, input, random);
        assertThat(rows(actual)).as(text + " (seed " + seed + ")").isEqualTo(rows(expected));
        assertThat(types(actual)).as(text + " column types").isEqualTo(types(expected));
      }
    }
  }

  @Test
  void onlyAggregationsThatOnlyCountHaveAShortcut() {
    assertThat(CountShortcut.of(command("stats count")))
        .isEqualTo(new CountShortcut(CountShortcut.Kind.ROWS, null, null));
    assertThat(CountShortcut.of(command("stats count by ip")))
        .isEqualTo(new CountShortcut(CountShortcut.Kind.VALUES, "ip", null));
    assertThat(CountShortcut.of(command("rare ip")))
        .isEqualTo(new CountShortcut(CountShortcut.Kind.VALUES, "ip", null));
    assertThat(CountShortcut.of(command("stats count by ip, status")))
        .isEqualTo(
            new CountShortcut(CountShortcut.Kind.GROUPS, "ip", null, List.of("ip", "status")));
    assertThat(CountShortcut.of(command("timechart span=1h count by ip")).kind())
        .isEqualTo(CountShortcut.Kind.TIMED);
    for (String text :
        List.of(
            "stats count(ip)",
            "stats count, sum(n)",
            "stats count by ip, ip",
            "stats count(ip) by ip, status",
            "top ip by status",
            "top ip, status",
            "timechart span=1h count",
            "timechart span=1h avg(n) by ip",
            "timechart span=1h count by n span=10",
            "chart count over ip by status",
            "eventstats count")) {
      assertThat(CountShortcut.of(command(text))).as(text).isNull();
    }
  }

  @Test
  void anAggregationThatDoesNotOnlyCountRefusesCounts() {
    PageAggregator stats =
        PageAggregator.of(
            command("stats count, sum(n) by ip"),
            ZoneOffset.UTC,
            MemoryTracker.unbounded("stats"),
            16);
    assertThatThrownBy(() -> stats.addIntermediateInput(CountPages.rows(3)))
        .isInstanceOf(IllegalStateException.class);
  }

  /**
   * The same aggregation fed every row as one page, nothing counted: the answer the counts must not
   * change (what each function answers is checked by hand elsewhere: {@code PipelineTest}, {@code
   * TimechartTest}, {@code HashAggregationTest}).
   */
  private static List<Page> noneCounted(Command command, List<Row> input) {
    PageAggregator total =
        PageAggregator.of(command, ZoneOffset.UTC, MemoryTracker.unbounded("scanned"), 10_000);
    if (!input.isEmpty()) {
      total.addInput(
          TestPages.page(PipelineTest.cells(input), PageAggregator.inputFields(command)));
    }
    total.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      out.add(page);
    }
    total.close();
    return out;
  }

  /** The rows a source counted in one segment, as the index counts them. */
  private static final class Segment {
    long rows;
    final Map<String, Long> values = new TreeMap<>();
    final Map<Long, Map<String, Long>> timed = new TreeMap<>();
  }

  private static List<Page> pageEngine(
      Command command, CountShortcut shortcut, List<Row> input, Random random) {
    PageAggregator total =
        PageAggregator.of(
            command, ZoneOffset.UTC, MemoryTracker.unbounded("counts"), 1 + random.nextInt(64));
    List<PageAggregator> partials = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    List<Row> scanned = new ArrayList<>();
    for (Row row : input) {
      Set<String> values = new LinkedHashSet<>();
      boolean countable;
      if (shortcut.kind() == CountShortcut.Kind.GROUPS) {
        // one value of each by-field: the combination, its texts joined (as a source counts it)
        countable = shortcut.by().stream().allMatch(f -> row.values(f).size() == 1);
        if (countable) {
          values.add(
              String.join(
                  GROUP_SEPARATOR,
                  shortcut.by().stream().map(f -> Values.toText(row.values(f).get(0))).toList()));
        }
      } else {
        if (shortcut.field() != null) {
          row.values(shortcut.field()).forEach(value -> values.add(Values.toText(value)));
        }
        countable = shortcut.field() == null || !values.isEmpty();
      }
      if (!countable || random.nextBoolean()) {
        scanned.add(row);
        continue;
      }
      if (segments.isEmpty() || random.nextInt(50) == 0) {
        segments.add(new Segment());
      }
      Segment segment = segments.get(random.nextInt(segments.size()));
      segment.rows++;
      Map<String, Long> into =
          shortcut.kind() == CountShortcut.Kind.TIMED
              ? segment.timed.computeIfAbsent(
                  shortcut.span().floor((Long) row.values(TimeField.NAME).get(0), ZoneOffset.UTC),
                  start -> new TreeMap<>())
              : segment.values;
      values.forEach(value -> into.merge(value, 1L, Long::sum));
    }
    List<Page> counts = new ArrayList<>();
    for (Segment segment : segments) {
      switch (shortcut.kind()) {
        case ROWS -> counts.add(CountPages.rows(segment.rows));
        case VALUES ->
            counts.add(
                CountPages.values(
                    shortcut.field(),
                    values(segment.values),
                    counts(segment.values),
                    segment.rows));
        case GROUPS -> counts.add(groups(shortcut.by(), segment.values));
        case TIMED ->
            segment.timed.forEach(
                (bucket, values) ->
                    counts.add(
                        CountPages.timed(
                            shortcut.field(), bucket, values(values), counts(values))));
      }
    }
    List<Page> pages = new ArrayList<>(pages(scanned, PageAggregator.inputFields(command), random));
    int countsLeft = counts.size();
    while (!pages.isEmpty() || countsLeft > 0) {
      if (partials.isEmpty() || random.nextInt(4) == 0) {
        partials.add(total.newPartial());
      }
      PageAggregator partial = partials.get(random.nextInt(partials.size()));
      if (countsLeft > 0 && (pages.isEmpty() || random.nextInt(3) == 0)) {
        Page page = counts.get(--countsLeft);
        (random.nextInt(5) == 0 ? total : partial).addIntermediateInput(page);
      } else {
        partial.addInput(pages.remove(0));
      }
      if (random.nextInt(10) == 0) {
        total.merge(partials.get(random.nextInt(partials.size())));
      }
    }
    partials.forEach(total::merge);
    total.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      out.add(page);
    }
    assertThat(total.isFinished()).isTrue();
    total.close();
    return out;
  }

  private static final String GROUP_SEPARATOR = "\u0001";

  /** A page of counts per combination, from keys of the by-fields' texts joined. */
  private static Page groups(List<String> by, Map<String, Long> counts) {
    List<BytesBlock> columns = new ArrayList<>();
    for (int f = 0; f < by.size(); f++) {
      BytesBlock.Builder column = BytesBlock.builder(counts.size());
      for (String key : counts.keySet()) {
        column.append(key.split(GROUP_SEPARATOR, -1)[f]);
      }
      columns.add(column.build());
    }
    return CountPages.groups(by, columns, counts(counts));
  }

  private static BytesBlock values(Map<String, Long> counts) {
    BytesBlock.Builder values = BytesBlock.builder(counts.size());
    counts.keySet().forEach(values::append);
    return values.build();
  }

  private static LongBlock counts(Map<String, Long> counts) {
    LongBlock.Builder builder = LongBlock.builder(DataType.LONG, counts.size());
    counts.values().forEach(builder::append);
    return builder.build();
  }

  private static List<Map<String, Object>> rows(List<Page> pages) {
    return TestPages.rows(pages);
  }

  private static List<Page> pages(List<Row> rows, List<String> fields, Random random) {
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); ) {
      int to = Math.min(rows.size(), from + 1 + random.nextInt(50));
      pages.add(TestPages.page(PipelineTest.cells(rows.subList(from, to)), fields));
      from = to;
    }
    return pages;
  }

  /** Each column's type, in order, as the answer's pages declare them (one type per column). */
  private static Map<String, Set<DataType>> types(List<Page> pages) {
    Map<String, Set<DataType>> types = new java.util.LinkedHashMap<>();
    for (Page page : pages) {
      for (Schema.Column column : page.schema().columns()) {
        types.computeIfAbsent(column.name(), name -> new LinkedHashSet<>()).add(column.type());
      }
    }
    return types;
  }
}
