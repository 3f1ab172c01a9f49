package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Random pipelines of everyday commands over random events, each run on the page engine with the
 * row engine refused, in pages of 1,024 rows and again in pages of a size drawn per pipeline (1 to
 * 300), and their answers compared row by row ({@link EnginePages#disagreement}: as many rows,
 * every field both list with the same value): page boundaries fall elsewhere, and a stage that
 * carries state from page to page must carry it right. The hand-written engine tests ({@link
 * EventListingTest}, {@link EventOverlaysTest}, {@link PluginOverEventsTest}, {@link
 * OwnTextSearchTest}) pin the forms someone thought of, the golden files the answers on fixed data;
 * this finds the combinations nobody wrote down.
 *
 * <p>Outcomes per pipeline besides agreement: the page engine refuses it (it would still need a row
 * operator: counted and listed by the first command the refusal names, so the census says which
 * forms are left), it fails otherwise (a failure of the census), the two page sizes answer
 * differently (a failure), or an answer breaks a rule of its own (a failure: a row naming a field
 * twice, more rows than a last {@code head} keeps). {@code -Dquarry.census.pipelines=N} runs more
 * pipelines, {@code -Dquarry.census.seed=S} another draw; the default draw is fixed, so CI runs the
 * same pipelines every time.
 */
class RandomPipelineCensusTest {
  @RegisterExtension static final RandomEventStore STORE = new RandomEventStore("census-pw");

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
          "convert num(n) AS nn",
          // rows left without _raw, whose bare words then ask every field (FieldValueTerm,
          // session 29): removed, renamed away, caught by a wildcard rename
          "fields - _raw",
          "rename _raw AS r",
          "rename _r* AS x*");

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
  void sameAnswersPagedAnyWay() throws Exception {
    Random random = new Random(SEED);
    Map<String, List<String>> refusedBy = new TreeMap<>();
    Map<String, String> differing = new LinkedHashMap<>();
    Map<String, String> failed = new LinkedHashMap<>();
    int agreed = 0;
    int pipelines = QUERY == null ? PIPELINES : 1;
    for (int i = 0; i < pipelines; i++) {
      String query = QUERY == null ? pipeline(random) : QUERY;
      int pageSize = 1 + random.nextInt(300);
      List<String> whole;
      List<String> paged;
      try {
        whole = rows(query, SearchService.PAGE_SIZE);
        paged = rows(query, pageSize);
      } catch (RuntimeException failure) {
        List<String> refused = refusal(failure);
        if (refused == null) {
          failed.put(query, String.valueOf(failure));
        } else {
          refusedBy.computeIfAbsent(String.join(", ", refused), k -> new ArrayList<>()).add(query);
        }
        continue;
      }
      String broken = brokenRule(query, whole);
      if (broken != null) {
        failed.put(query, broken);
      } else if (PageSizeAgreement.readsTheBatch(query)
          || PageSizeAgreement.disagreement(query, whole, paged) == null) {
        agreed++;
      } else {
        differing.put(
            query,
            "in pages of %d: %s%n"
                .formatted(pageSize, PageSizeAgreement.disagreement(query, whole, paged)));
      }
    }
    StringBuilder census = new StringBuilder();
    census.append(
        ("census (seed %d, events seed %d): %d pipelines, %d agree, %d refused, %d differ by page"
                + " size, %d fail%n")
            .formatted(
                SEED,
                STORE.seed(),
                pipelines,
                agreed,
                refusedBy.values().stream().mapToInt(List::size).sum(),
                differing.size(),
                failed.size()));
    refusedBy.forEach(
        (reason, queries) -> {
          census.append("  refused (").append(queries.size()).append("): ").append(reason);
          census.append("\n    e.g. ").append(queries.get(0)).append('\n');
        });
    differing.forEach(
        (query, difference) ->
            census.append("  differs: ").append(query).append("\n    ").append(difference));
    failed.forEach(
        (query, failure) ->
            census.append("  fails: ").append(query).append("\n    ").append(failure).append('\n'));
    System.out.println(census);
    assertThat(differing).as(census.toString()).isEmpty();
    assertThat(failed).as(census.toString()).isEmpty();
  }

  /** The rows of a search's answer ({@link EnginePages#rows}) in pages of {@code pageSize}. */
  private static List<String> rows(String query, int pageSize) throws Exception {
    return EnginePages.rows(STORE.server(), query, false, pageSize);
  }

  /**
   * The rule of its own an answer breaks, null when none: no row names a field twice, and no answer
   * has more rows than a {@code head} ending the search keeps.
   */
  private static String brokenRule(String query, List<String> rows) {
    for (String row : rows) {
      java.util.Set<String> names = new java.util.HashSet<>();
      for (String cell : row.split("\u0001")) {
        if (!cell.isEmpty() && !names.add(cell.substring(0, cell.indexOf(':')))) {
          return "a row names " + cell.substring(0, cell.indexOf(':')) + " twice: " + row;
        }
      }
    }
    java.util.regex.Matcher head =
        java.util.regex.Pattern.compile("\\| head (\\d+)$").matcher(query);
    if (head.find() && rows.size() > Integer.parseInt(head.group(1))) {
      return rows.size() + " rows after head " + head.group(1);
    }
    return null;
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

  /**
   * The commands of a refusal among {@code failed}'s causes (400 {@code SEARCH_NOT_SUPPORTED}), or
   * null when the search failed otherwise.
   */
  @SuppressWarnings("unchecked")
  private static List<String> refusal(Throwable failed) {
    for (Throwable cause = failed; cause != null; cause = cause.getCause()) {
      if (cause instanceof io.quarry.server.http.ApiException refused
          && "SEARCH_NOT_SUPPORTED".equals(refused.code())) {
        return (List<String>)
            ((java.util.Map<String, Object>) refused.body().get("error")).get("commands");
      }
    }
    return null;
  }
}
