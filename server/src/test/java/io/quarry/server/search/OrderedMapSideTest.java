package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A batch search whose map side has no page stage for a command before the aggregation (one that
 * reads every field an event has — {@code addtotals}, {@code foreach}, {@code spath} of {@code
 * _raw} — which a slice's pages of the named fields cannot feed) runs time-ordered on pages instead
 * ({@code BatchPlan.runsTimeOrdered}: the events' every-field listing through the page stages),
 * never on rows: with the row engine refused ({@code pages-only}) it answers the same rows whatever
 * the page size, some as computed here from the events sent, and {@code explain} says so. On random
 * events ({@link EnginePages}).
 */
class OrderedMapSideTest {
  @RegisterExtension
  static final RandomEventStore STORE = new RandomEventStore("ordered-map-side-pw");

  @Test
  void aMapSideWithoutPageStagesRunsTimeOrderedOnPages() throws Exception {
    for (String query :
        List.of(
            "* | addtotals | stats count, sum(Total) AS total by level",
            "* | addtotals fieldname=t | stats max(t) AS most, dc(t) AS kinds by host",
            "* | foreach n [eval <<FIELD>>=<<FIELD>>*2] | stats sum(n) AS twice by level",
            "* | foreach * [eval <<FIELD>>=1] | stats count by level, n",
            "* | spath | stats count by status",
            "* | spath | eval s=status*1 | stats values(s) AS s, first(n) AS f, last(n) AS l by host",
            "level=WARN | addtotals | timechart span=10m count by host",
            "* | spath | top limit=3 status")) {
      List<String> onPages =
          PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
      assertThat(onPages).as(query + " (seed " + STORE.seed() + ")").isNotEmpty();
      assertThat(EnginePages.explain(STORE.server(), query))
          .as(query)
          .containsEntry("mode", "time-ordered")
          .containsEntry("engine", "pages");
    }
    // computed from the events sent: twice the numbers by level (the JSON events have none), the
    // JSON events' status
    java.util.Map<String, Long> twice = new java.util.TreeMap<>();
    java.util.Map<String, Long> statuses = new java.util.TreeMap<>();
    List<String> texts = STORE.texts();
    for (int n = 0; n < texts.size(); n++) {
      java.util.regex.Matcher level =
          java.util.regex.Pattern.compile("level=(\\w+)").matcher(texts.get(n));
      if (level.find()) {
        twice.merge(level.group(1), 2L * n, Long::sum);
      }
      java.util.regex.Matcher status =
          java.util.regex.Pattern.compile("\"status\": (\\d+)").matcher(texts.get(n));
      if (status.find()) {
        statuses.merge(status.group(1), 1L, Long::sum);
      }
    }
    List<String> expected = new java.util.ArrayList<>();
    twice.forEach((level, sum) -> expected.add(level + "=" + sum));
    assertThat(
            pairs(
                "* | foreach n [eval <<FIELD>>=<<FIELD>>*2] | stats sum(n) AS twice by level",
                "level",
                "twice"))
        .as("seed %d", STORE.seed())
        .isEqualTo(expected);
    List<String> counted = new java.util.ArrayList<>();
    statuses.forEach((status, count) -> counted.add(status + "=" + count));
    assertThat(pairs("* | spath | stats count by status", "status", "count"))
        .as("seed %d", STORE.seed())
        .isEqualTo(counted);
    // a map side with page stages stays batch
    assertThat(EnginePages.explain(STORE.server(), "* | addtotals n | stats count by level"))
        .containsEntry("mode", "batch");
  }

  /** Each answer row's {@code key} and {@code value} cells as {@code key=value}. */
  private static List<String> pairs(String query, String key, String value) throws Exception {
    List<String> rows = EnginePages.rows(STORE.server(), query);
    List<String> keys = EnginePages.cells(rows, key);
    List<String> values = EnginePages.cells(rows, value);
    assertThat(keys).as(query).hasSameSizeAs(rows);
    List<String> pairs = new java.util.ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      pairs.add(keys.get(i) + "=" + values.get(i));
    }
    return pairs;
  }
}
