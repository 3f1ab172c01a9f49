package io.quarry.server.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transforming plugin command (the SPI's map/reduce kind) loaded from the plugin path as a
 * search's aggregation runs on the page engine ({@code io.quarry.ql.exec.TransformingPlugin}: a map
 * operator per segment slice, the last step of its chain, one reduce operator after the scan) with
 * every row operator refused ({@code pages-only}), over events in several segments (several
 * slices), after page stages, before commands over its answer, after a generator and after {@code
 * stats}; its answers against sums computed here from the events' own numbers, the same in pages of
 * 1,024 rows and of a few, and the same over the events split into three segments as over one
 * segment holding them all.
 */
class TransformingPluginTest {
  private static final String PASSWORD = "transforming-test-password";
  private static final String TOKEN = "transforming-hec-token";

  /** Events per load; each load its own segment. */
  private static final int PER_LOAD = 700;

  private static final int LOADS = 3;

  /**
   * {@code groupsum field=<f> [by=<g>]}: per value of g (all rows one group without it) the count
   * of rows whose f is a whole number and their sum. Map side: a state page (g, c, s) of the groups
   * it saw; reduce side: the states added up, one row per group in g's order, the count as {@code
   * count} and the sum as {@code sum}.
   */
  private static final TestPlugins.Command GROUPSUM =
      new TestPlugins.Command(
          "groupsum",
          "count and sum of a whole-number field by group",
          "TRANSFORMING",
          """
          List.of(
              ArgumentSpec.required("field", ArgumentType.FIELD, "the field summed"),
              ArgumentSpec.optional("by", ArgumentType.FIELD, null, "the group field"))""",
          """
          String field = arguments.getString("field");
          String by = arguments.has("by") ? arguments.getString("by") : null;
          return new BoundCommand() {
            public Set<String> requiredFields() {
              Set<String> read = new LinkedHashSet<>();
              if (by != null) read.add(by);
              read.add(field);
              return read;
            }
            public Set<String> producedFields() {
              return by == null ? Set.of("count", "sum") : Set.of(by, "count", "sum");
            }
            public Operator createOperator(OperatorContext context) {
              return new Sums(context, by, false) {
                public void addInput(Page page) {
                  if (field.equals("boom_map")) throw new IllegalStateException("map boom");
                  Block values = page.block(field);
                  Block groups = by == null ? null : page.block(by);
                  for (int p = 0; p < page.positionCount(); p++) {
                    Object value = values == null ? null : values.getObject(p);
                    Long number = null;
                    if (value instanceof Long l) number = l;
                    else if (value != null) {
                      try { number = Long.parseLong(value.toString()); }
                      catch (NumberFormatException notWhole) { }
                    }
                    Object group = groups == null ? "" : groups.getObject(p);
                    if (group == null) continue;
                    long[] sums = groups(group.toString());
                    if (number != null) { sums[0]++; sums[1] += number; }
                  }
                  context.blockFactory().release(page);
                }
              };
            }
            public Operator createReduceOperator(OperatorContext context) {
              return new Sums(context, by, true) {
                public void addInput(Page state) {
                  if (field.equals("boom_reduce")) {
                    context.blockFactory().release(state);
                    throw new IllegalStateException("reduce boom");
                  }
                  Block g = state.block("g");
                  Block c = state.block("c");
                  Block s = state.block("s");
                  for (int p = 0; p < state.positionCount(); p++) {
                    long[] sums = groups(g.getObject(p).toString());
                    sums[0] += (Long) c.getObject(p);
                    sums[1] += (Long) s.getObject(p);
                  }
                  context.blockFactory().release(state);
                }
              };
            }
          };
          """);

  /** {@code fieldcount}: per field, the rows holding a value of it (a state page by field). */
  private static final TestPlugins.Command FIELDCOUNT =
      new TestPlugins.Command(
          "fieldcount",
          "per field, the rows holding a value of it",
          "TRANSFORMING",
          "List.of()",
          """
          return new BoundCommand() {
            public Set<String> requiredFields() { return Set.of("*"); }
            public Set<String> producedFields() { return Set.of("field", "count", "sum"); }
            public Operator createOperator(OperatorContext context) {
              return new Sums(context, "field", false) {
                public void addInput(Page page) {
                  for (int c = 0; c < page.schema().size(); c++) {
                    long[] sums = groups(page.schema().column(c).name());
                    for (int p = 0; p < page.positionCount(); p++) {
                      if (!page.block(c).isNull(p)) sums[0]++;
                    }
                  }
                  context.blockFactory().release(page);
                }
              };
            }
            public Operator createReduceOperator(OperatorContext context) {
              return new Sums(context, "field", true) {
                public void addInput(Page state) {
                  Block g = state.block("g");
                  Block c = state.block("c");
                  for (int p = 0; p < state.positionCount(); p++) {
                    groups(g.getObject(p).toString())[0] += (Long) c.getObject(p);
                  }
                  context.blockFactory().release(state);
                }
              };
            }
          };
          """);

  /** The plugin's groups of (count, sum), handed out as one page at finish (both commands'). */
  private static final String SUMS =
      """
        /** Groups' (count, sum), handed out as one page at finish. */
        private abstract static class Sums implements Operator {
          private final Map<String, long[]> groups = new TreeMap<>();
          private final ArrayDeque<Page> out = new ArrayDeque<>();
          private final OperatorContext context;
          private final String by;
          private final boolean answer;
          private boolean finished;

          Sums(OperatorContext context, String by, boolean answer) {
            this.context = context;
            this.by = by;
            this.answer = answer;
          }

          long[] groups(String group) { return groups.computeIfAbsent(group, k -> new long[2]); }

          public boolean needsInput() { return !finished; }

          public void finish() {
            if (finished) return;
            finished = true;
            if (groups.isEmpty()) return;
            BlockFactory factory = context.blockFactory();
            BytesBlock.Builder g = factory.newBytesBlockBuilder(groups.size());
            LongBlock.Builder c = factory.newLongBlockBuilder(groups.size());
            LongBlock.Builder s = factory.newLongBlockBuilder(groups.size());
            for (Map.Entry<String, long[]> group : groups.entrySet()) {
              g.append(group.getKey());
              c.append(group.getValue()[0]);
              s.append(group.getValue()[1]);
            }
            List<Block> blocks = List.of(g.build(), c.build(), s.build());
            List<String> names =
                !answer ? List.of("g", "c", "s") : List.of(by == null ? "" : by, "count", "sum");
            Page page = new Page(new Schema(List.of(
                new Schema.Column(names.get(0), blocks.get(0).dataType()),
                new Schema.Column(names.get(1), blocks.get(1).dataType()),
                new Schema.Column(names.get(2), blocks.get(2).dataType()))), blocks, groups.size());
            out.add(answer && by == null
                ? new Page(new Schema(page.schema().columns().subList(1, 3)),
                    blocks.subList(1, 3), groups.size())
                : page);
            groups.clear();
          }

          public boolean isFinished() { return finished && out.isEmpty(); }

          public Page getOutput() { return out.poll(); }
        }
      """;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    Path plugins = root.resolve("plugins");
    TestPlugins.install(
        plugins,
        "groupsum",
        List.of(
            "java.util.ArrayDeque",
            "java.util.LinkedHashSet",
            "java.util.Map",
            "java.util.TreeMap"),
        List.of(GROUPSUM, FIELDCOUNT),
        SUMS);
    // an index (a segment) a load, the events split in s0, s1, s2; all of them in one load into
    // whole (one segment): searches over s* read the split ones
    List<String> indexes = List.of("main", "s0", "s1", "s2", "whole");
    server =
        QuarryServer.start(
            TestServers.settings(root.resolve("data"), PASSWORD)
                .put("indexes", indexes)
                .put("hec.tokens", List.of(new HecToken(TOKEN, "test", "main", indexes, null)))
                .put("plugins.dir", plugins.toString())
                .build(),
            java.time.Clock.systemUTC());
    for (int load = 0; load <= LOADS; load++) {
      boolean whole = load == LOADS;
      StringBuilder lines = new StringBuilder();
      for (int i = whole ? 0 : load * PER_LOAD; i < (whole ? LOADS : load + 1) * PER_LOAD; i++) {
        lines.append(line(i)).append('\n');
      }
      HttpResponse<String> loaded =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(
                              server.url()
                                  + "/services/collector/raw?sourcetype=app&index="
                                  + (whole ? "whole" : "s" + load)))
                      .header("Authorization", "Splunk " + TOKEN)
                      .POST(java.net.http.HttpRequest.BodyPublishers.ofString(lines.toString()))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    }
  }

  /** Event i: g = h(i mod 3), v = i mod 10 (every 50th "n/a", every 70th none). */
  private static String line(int i) {
    String v = i % 70 == 0 ? "" : " v=" + (i % 50 == 7 ? "n/a" : String.valueOf(i % 10));
    return "2026-01-07T10:%02d:%02dZ g=h%d%s".formatted(i / 60 % 60, i % 60, i % 3, v);
  }

  /** The (count, sum) per group of the events' whole numbers v, optionally only where v > above. */
  private static Map<String, long[]> expected(int above) {
    Map<String, long[]> sums = new TreeMap<>();
    for (int i = 0; i < LOADS * PER_LOAD; i++) {
      if (i % 70 == 0 || i % 50 == 7 || i % 10 <= above) {
        continue;
      }
      long[] group = sums.computeIfAbsent("h" + i % 3, k -> new long[2]);
      group[0]++;
      group[1] += i % 10;
    }
    return sums;
  }

  private static List<Map<String, String>> rows(Map<String, long[]> sums, String by) {
    List<Map<String, String>> rows = new ArrayList<>();
    sums.forEach(
        (group, s) -> {
          Map<String, String> row = new LinkedHashMap<>();
          row.put(by, group);
          row.put("count", String.valueOf(s[0]));
          row.put("sum", String.valueOf(s[1]));
          rows.add(row);
        });
    return rows;
  }

  @Test
  void answersTheGroupsSumsOnPages() throws Exception {
    assertThat(results("index=s* | groupsum field=v by=g")).isEqualTo(rows(expected(-1), "g"));
    // a page stage before it (the filter of v > 4 as a where), commands over its answer after it
    assertThat(results("index=s* | where v>4 | groupsum field=v by=g | sort - g"))
        .isEqualTo(rows(expected(4), "g").reversed());
    assertThat(results("index=s* | eval w=v*2 | groupsum field=w | eval half=sum/2"))
        .containsExactly(
            Map.of(
                "count",
                String.valueOf(expected(-1).values().stream().mapToLong(s -> s[0]).sum()),
                "sum",
                String.valueOf(2 * expected(-1).values().stream().mapToLong(s -> s[1]).sum()),
                "half",
                String.valueOf(expected(-1).values().stream().mapToLong(s -> s[1]).sum())));
    // a field no event has: every group of g, nothing counted
    assertThat(results("index=s* | groupsum field=nosuch by=g"))
        .isEqualTo(
            List.of(
                Map.of("g", "h0", "count", "0", "sum", "0"),
                Map.of("g", "h1", "count", "0", "sum", "0"),
                Map.of("g", "h2", "count", "0", "sum", "0")));
  }

  /**
   * Over three segments (a map operator per slice, their states reduced together) the answer is the
   * one over a single segment holding the same events, grouped or not, after page stages and with
   * commands over its answer.
   */
  @Test
  void answersOverSeveralSegmentsAsOverOne() throws Exception {
    for (String commands :
        List.of(
            "groupsum field=v by=g",
            "groupsum field=v",
            "where v>4 | groupsum field=v by=g | sort - g",
            "eval w=v*2 | groupsum field=w by=g | where count>200",
            "rex \"g=h(?<k>\\d)\" | groupsum field=k by=v | sort v")) {
      List<Map<String, String>> split = results("index=s* | " + commands);
      assertThat(split).as(commands).isNotEmpty();
      assertThat(results("index=whole | " + commands)).as(commands).isEqualTo(split);
    }
    assertThat(results("index=whole | groupsum field=v by=g")).isEqualTo(rows(expected(-1), "g"));
  }

  /**
   * A plugin throwing in its map side (in a slice's chain) or in its reduce side (after the scan)
   * fails its search naming the command and its plugin; the server answers the next search.
   */
  @Test
  void aThrowingMapOrReduceSideFailsItsSearchNamingThePlugin() throws Exception {
    for (String side : List.of("map", "reduce")) {
      HttpResponse<String> failed =
          io.quarry.server.TestServers.export(
              server, PASSWORD, "index=s* | groupsum field=boom_" + side + " by=g");
      assertThat(failed.statusCode()).as(side).isEqualTo(500);
      assertThat(failed.body())
          .as(side)
          .contains("PLUGIN_FAILED")
          .contains("command 'groupsum' of plugin 'groupsum' failed: " + side + " boom");
    }
    assertThat(results("index=s* | groupsum field=v by=g")).isEqualTo(rows(expected(-1), "g"));
  }

  @Test
  void runsAfterAGeneratorAndAfterStats() throws Exception {
    assertThat(
            results(
                "| makeresults count=5 | streamstats count AS v | eval g=if(v<3, \"a\", \"b\")"
                    + " | groupsum field=v by=g"))
        .containsExactly(
            Map.of("g", "a", "count", "2", "sum", "3"),
            Map.of("g", "b", "count", "3", "sum", "12"));
    // per (g, v) the number of events (v's ten digits and "n/a" in every g: 11 rows), summed per
    // g: the events of g that have a v
    Map<String, Long> withV = new TreeMap<>();
    for (int i = 0; i < LOADS * PER_LOAD; i++) {
      if (i % 70 != 0) {
        withV.merge("h" + i % 3, 1L, Long::sum);
      }
    }
    List<Map<String, String>> counted = new ArrayList<>();
    withV.forEach(
        (group, events) ->
            counted.add(Map.of("g", group, "count", "11", "sum", String.valueOf(events))));
    assertThat(results("index=s* | stats count AS n by g, v | groupsum field=n by=g"))
        .isEqualTo(counted);
  }

  @Test
  void answersTheSamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            "index=s* | groupsum field=v by=g",
            "index=s* | groupsum field=v",
            "index=s* v>2 | groupsum field=v by=g | where count>100 | table g, sum",
            "index=s* | rex \"g=h(?<k>\\d)\" | groupsum field=k by=v | sort v",
            "index=s* | groupsum field=v by=nosuch",
            "| makeresults count=4 | eval v=3, g=\"x\" | groupsum field=v by=g",
            "index=s* | stats count AS n by g, v | groupsum field=n by=g",
            // time-ordered: after head, dedup, sort (one page aggregation over the ordered events)
            "index=s* | head 500 | groupsum field=v by=g",
            "index=s* | dedup v | groupsum field=v by=g",
            "index=s* | sort - v | head 40 | groupsum field=v")) {
      // an aggregation's answer names its fields: the same, by name, in pages of any size
      List<Map<String, String>> onPages = results(query);
      assertThat(results(query, 3)).as(query + " in pages of 3").isEqualTo(onPages);
      assertThat(results(query, 100)).as(query + " in pages of 100").isEqualTo(onPages);
    }
  }

  /**
   * A transforming command reading every field ({@code fieldcount}: per field, the rows holding a
   * value) takes the events with every field, search-time extracted ones included, also in
   * time-ordered mode (after {@code head}, {@code dedup}, {@code eval}: the every-field listing
   * into a page aggregation, {@code EveryFieldPlan}). Expected answers computed from the events as
   * {@link #line} writes them: the internal fields and g in every event, v in all but every 70th;
   * the newest events are the last written. Not compared with the row engine: its adapter hands the
   * map operator its own row-id column too ({@code _quarry_row}, counted as a field), which no
   * event has.
   */
  @Test
  void aCommandReadingEveryFieldTakesTheEventsEveryField() throws Exception {
    int events = LOADS * PER_LOAD;
    assertThat(fieldCounts("index=s* | fieldcount"))
        .isEqualTo(everyField(events, events - (events + 69) / 70, Map.of()));
    // the newest 500: i in [1600, 2100), of which 1610, 1680 … 2030 have no v
    assertThat(fieldCounts("index=s* | head 500 | fieldcount"))
        .isEqualTo(everyField(500, 493, Map.of()));
    assertThat(fieldCounts("index=s* | eval w=1 | head 300 | fieldcount"))
        .isEqualTo(everyField(300, 300 - 4, Map.of("w", "300"))); // 1820, 1890, 1960, 2030
    // one event per value of v: ten digits and n/a
    assertThat(fieldCounts("index=s* | dedup v | fieldcount | sort - count"))
        .isEqualTo(everyField(11, 11, Map.of()));
    assertThat(fieldCounts("index=s* | where v > 4 | head 200 | fieldcount | where count > 10"))
        .isEqualTo(everyField(200, 200, Map.of()));
  }

  /** The answer of {@code fieldcount} over n events, {@code withV} of them with a v. */
  private static Map<String, String> everyField(int n, int withV, Map<String, String> more) {
    Map<String, String> counts = new TreeMap<>(more);
    for (String field : List.of("_raw", "_time", "g", "host", "index", "source", "sourcetype")) {
      counts.put(field, String.valueOf(n));
    }
    counts.put("v", String.valueOf(withV));
    return counts;
  }

  /** A {@code fieldcount} answer as field name to count. */
  private static Map<String, String> fieldCounts(String query) throws Exception {
    return fieldCounts(results(query));
  }

  /** A {@code fieldcount} answer as field name to count. */
  private static Map<String, String> fieldCounts(List<Map<String, String>> rows) {
    Map<String, String> counts = new TreeMap<>();
    rows.forEach(row -> counts.put(row.get("field"), row.get("count")));
    return counts;
  }

  private static List<Map<String, String>> results(String query) throws Exception {
    return results(query, io.quarry.server.search.SearchService.PAGE_SIZE);
  }

  /** A search's results in pages of {@code pageSize} rows, each its fields by name. */
  private static List<Map<String, String>> results(String query, int pageSize) throws Exception {
    List<Map<String, String>> rows = new ArrayList<>();
    for (JsonNode result : exportRows(query, pageSize)) {
      Map<String, String> row = new java.util.TreeMap<>();
      result.fields().forEachRemaining(f -> row.put(f.getKey(), f.getValue().asText()));
      rows.add(row);
    }
    return rows;
  }

  /** A search's exported rows in pages of {@code pageSize} rows (answered: 200). */
  private static List<JsonNode> exportRows(String query, int pageSize) throws Exception {
    String property = io.quarry.server.search.SearchService.PAGE_SIZE_PROPERTY;
    System.setProperty(property, Integer.toString(pageSize));
    try {
      return io.quarry.server.TestServers.exportRows(server, PASSWORD, query);
    } finally {
      System.clearProperty(property);
    }
  }
}
