package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A batch search whose map side has no page stage for a command before the aggregation (one that
 * reads every field an event has — {@code addtotals}, {@code foreach}, {@code spath} of {@code
 * _raw} — which a slice's pages of the named fields cannot feed) runs time-ordered on pages instead
 * ({@code SearchService.orderedInstead}: the events' every-field listing through the page stages),
 * never on rows: with the row engine refused ({@code pages-only}) it answers what the row engine's
 * batch answers, and {@code explain} says so. On random events ({@link EnginePages}).
 */
class OrderedMapSideTest {
  @RegisterExtension
  static final EnginePages.RandomEventStore STORE =
      new EnginePages.RandomEventStore("ordered-map-side-pw");

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
      List<String> onPages = EnginePages.rows(STORE.server(), query, "pages-only");
      assertThat(onPages).as(query + " (seed " + STORE.seed() + ")").isNotEmpty();
      assertThat(onPages)
          .as(query + " (seed " + STORE.seed() + ")")
          .isEqualTo(EnginePages.rows(STORE.server(), query, "rows"));
      assertThat(EnginePages.explain(STORE.server(), query))
          .as(query)
          .containsEntry("mode", "time-ordered")
          .containsEntry("engine", "pages");
    }
    // a map side with page stages stays batch
    assertThat(EnginePages.explain(STORE.server(), "* | addtotals n | stats count by level"))
        .containsEntry("mode", "batch");
  }
}
