package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.exec.RowStages;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Random pipelines of everyday commands over random events, each run twice — on the page engine
 * with the row engine refused, and on the row engine — and their answers compared row by row (each
 * row's cells, names and types in column order; not where the pages part). The hand-written engine
 * tests ({@link EventListingTest}, {@link EventOverlaysTest}, {@link PluginOverEventsTest}, {@link
 * OwnTextSearchTest}) pin the forms someone thought of; this finds the combinations nobody wrote
 * down before the row engine, their reference, goes away.
 *
 * <p>Two outcomes per pipeline besides agreement: the page engine refuses it (it would still need a
 * row operator: counted and listed by the first command the refusal names, so the census says which
 * forms are left), or both run and answer differently (a failure: the page engine must give what
 * the row engine gives). {@code -Dquarry.census.pipelines=N} runs more pipelines, {@code
 * -Dquarry.census.seed=S} another draw; the default draw is fixed, so CI runs the same pipelines
 * every time.
 */
class RandomPipelineCensusTest {
  @RegisterExtension
  static final EnginePages.RandomEventStore STORE = new EnginePages.RandomEventStore("census-pw");

  /** Commands that keep the events (or change their fields) — what a listing is made of. */
  private static final List<String> EVENT_COMMANDS =
      List.of(
          "eval y=n*2",
          "eval a=len(_raw), level=lower(level)",
          "eval region=if(n%3==0, null(), region)",
          "eval t=mvcount(team)",
          "rex \"n=(?<num>\\d+)\"",
          "rex \"level=(?<lvl>\\w+)\"",
          "rename level AS lvl",
          "rename region AS reg, zone AS z",
          "fields - zone",
          "where n % 2 == 0",
          "where isnotnull(region) OR n < 200",
          "search level=WARN",
          "search n<1500",
          "search WARN",
          "search NOT region=eu",
          "head 700",
          "sort - n",
          "sort region, -n",
          "dedup host",
          "dedup region keepempty=true",
          "reverse",
          "lookup regions.csv region OUTPUT label",
          "lookup regions.csv region OUTPUTNEW zone",
          "bin _time span=5m",
          "eventstats count AS c by host",
          "streamstats count AS k by level",
          "fillnull value=0",
          "fillnull value=none region zone",
          "mvexpand team",
          "eval _raw=upper(_raw)",
          // a wildcard rename (every field a row can yield) and an append's subsearch rows among
          // the events (since session 26)
          "rename re* AS x*",
          "append [search * | head 3]",
          // join without fields (on the fields both sides have) and a plugin command among the
          // events (session 27: through the plugin adapter's overlay rows, PluginOverEvents)
          "join [search * | stats count by host]",
          "join type=left [search * | head 40 | eval extra=n]",
          "convert num(n) AS nn");

  /** Commands that end the events: aggregations and column choices. */
  private static final List<String> RESULT_COMMANDS =
      List.of(
          "stats count by host",
          "stats count, avg(n) AS avg, max(n) AS max by level",
          "stats dc(region) AS regions, values(zone) AS zones by host",
          "stats count",
          "top region",
          "rare host",
          "timechart span=10m count by level",
          "chart count over host by level",
          "table n, level, region",
          "fields host, n, team",
          "table *",
          "transaction host maxevents=20");

  /** Commands that run after results (or events). */
  private static final List<String> AFTER_COMMANDS =
      List.of(
          "sort - count",
          "head 3",
          "eval z=1",
          "where isnotnull(host)",
          "fillnull value=0",
          "rename host AS h",
          "fields - host",
          "search h1");

  private static final int PIPELINES = Integer.getInteger("quarry.census.pipelines", 120);
  private static final long SEED = Long.getLong("quarry.census.seed", 24L);

  /** {@code -Dquarry.census.query=…}: that pipeline alone, to reproduce one the census found. */
  private static final String QUERY = System.getProperty("quarry.census.query");

  @Test
  void pageEngineAnswersAsTheRowEngine() throws Exception {
    Random random = new Random(SEED);
    Map<String, List<String>> refusedBy = new TreeMap<>();
    Map<String, String> differing = new LinkedHashMap<>();
    Map<String, String> ordered = new LinkedHashMap<>();
    Map<String, String> rowOrder = new LinkedHashMap<>();
    int agreed = 0;
    int pipelines = QUERY == null ? PIPELINES : 1;
    for (int i = 0; i < pipelines; i++) {
      String query = QUERY == null ? pipeline(random) : QUERY;
      List<String> onPages;
      try {
        onPages = EnginePages.rows(STORE.server(), query, PageBatch.PAGES_ONLY);
      } catch (RuntimeException failed) {
        RowStages.RowEngineRefused refused = refusal(failed);
        if (refused == null) {
          throw new AssertionError(query + " failed on pages", failed);
        }
        refusedBy
            .computeIfAbsent(String.join(", ", refused.commands()), k -> new ArrayList<>())
            .add(query);
        continue;
      }
      List<String> onRows = EnginePages.rows(STORE.server(), query, "rows");
      if (onPages.equals(onRows)) {
        agreed++;
      } else if (onPages.equals(setLast(onRows, setAfterResults(query)))) {
        rowOrder.put(query, firstDifference(onPages, onRows));
      } else if (EnginePages.cellsByName(onPages).equals(EnginePages.cellsByName(onRows))) {
        ordered.put(query, firstDifference(onPages, onRows));
      } else {
        differing.put(query, firstDifference(onPages, onRows));
      }
    }
    StringBuilder census = new StringBuilder();
    census.append(
        ("census (seed %d, events seed %d): %d pipelines, %d agree, %d refused, %d differ, %d"
                + " differ in column order only, %d in the row engine's known order%n")
            .formatted(
                SEED,
                STORE.seed(),
                pipelines,
                agreed,
                refusedBy.values().stream().mapToInt(List::size).sum(),
                differing.size(),
                ordered.size(),
                rowOrder.size()));
    refusedBy.forEach(
        (reason, queries) -> {
          census.append("  refused (").append(queries.size()).append("): ").append(reason);
          census.append("\n    e.g. ").append(queries.get(0)).append('\n');
        });
    differing.forEach(
        (query, difference) ->
            census.append("  differs: ").append(query).append("\n    ").append(difference));
    ordered.forEach(
        (query, difference) ->
            census.append("  column order: ").append(query).append("\n    ").append(difference));
    rowOrder.forEach(
        (query, difference) ->
            census
                .append("  row engine's order: ")
                .append(query)
                .append("\n    ")
                .append(difference));
    System.out.println(census);
    assertThat(differing).as(census.toString()).isEmpty();
  }

  /**
   * The fields an {@code eval} sets after a command whose rows list different fields ({@code
   * transaction}, {@code table *}): pages list them after the page's columns — as Splunk adds a
   * field after a table's columns —, the row engine's collector among them in the order the rows
   * first name them, so where the first rows lack a later column the set field comes before it (a
   * known row-engine difference, not a page-engine fault: the census lists it apart).
   */
  static java.util.Set<String> setAfterResults(String query) {
    int results = Math.max(query.lastIndexOf("| table *"), query.lastIndexOf("| transaction"));
    java.util.Set<String> set = new java.util.LinkedHashSet<>();
    if (results >= 0) {
      java.util.regex.Matcher eval =
          java.util.regex.Pattern.compile("\\| eval (\\w+)=").matcher(query.substring(results));
      while (eval.find()) {
        set.add(eval.group(1));
      }
    }
    return set;
  }

  /** Each row of {@link EnginePages#rows} with the cells of {@code names} moved last. */
  private static List<String> setLast(List<String> rows, java.util.Set<String> names) {
    if (names.isEmpty()) {
      return rows;
    }
    List<String> moved = new ArrayList<>(rows.size());
    for (String row : rows) {
      StringBuilder kept = new StringBuilder();
      StringBuilder last = new StringBuilder();
      for (String cell : row.split("\u0001")) {
        if (!cell.isEmpty()) {
          (names.contains(cell.substring(0, cell.indexOf(':'))) ? last : kept)
              .append(cell)
              .append('\u0001');
        }
      }
      moved.add(kept.append(last).toString());
    }
    return moved;
  }

  /** A source, up to three event commands, maybe a result command, maybe one after it. */
  private static String pipeline(Random random) {
    StringBuilder query = new StringBuilder(random.nextInt(4) == 0 ? "level=INFO" : "*");
    int events = random.nextInt(4);
    for (int c = 0; c < events; c++) {
      query.append(" | ").append(EVENT_COMMANDS.get(random.nextInt(EVENT_COMMANDS.size())));
    }
    if (random.nextInt(3) != 0) {
      query.append(" | ").append(RESULT_COMMANDS.get(random.nextInt(RESULT_COMMANDS.size())));
      if (random.nextBoolean()) {
        query.append(" | ").append(AFTER_COMMANDS.get(random.nextInt(AFTER_COMMANDS.size())));
      }
    } else if (events == 0 || random.nextBoolean()) {
      query.append(" | head ").append(1 + random.nextInt(1500));
    }
    return query.toString();
  }

  /** The refusal among {@code failed}'s causes, or null when the search failed otherwise. */
  private static RowStages.RowEngineRefused refusal(Throwable failed) {
    for (Throwable cause = failed; cause != null; cause = cause.getCause()) {
      if (cause instanceof RowStages.RowEngineRefused refused) {
        return refused;
      }
    }
    return null;
  }

  /** Where two answers first part: the row count, or the first row that differs. */
  private static String firstDifference(List<String> onPages, List<String> onRows) {
    for (int r = 0; r < Math.min(onPages.size(), onRows.size()); r++) {
      if (!onPages.get(r).equals(onRows.get(r))) {
        return "row %d of %d/%d:%n  pages: %s%n  rows:  %s%n"
            .formatted(r, onPages.size(), onRows.size(), onPages.get(r), onRows.get(r));
      }
    }
    return "pages %d vs rows %d rows%n".formatted(onPages.size(), onRows.size());
  }
}
