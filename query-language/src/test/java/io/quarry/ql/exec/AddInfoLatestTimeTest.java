package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Review: Splunk's time modifiers: "Because the search does not specify the latest time modifier,
 * the default value now is used for latest" — so {@code earliest=-24h | addinfo} has info_max_time
 * = the search's time, not +Infinity (only All time has +Infinity); a dashboard's {@code eval
 * age=info_max_time - _time} is null with the text.
 */
class AddInfoLatestTimeTest {
  @Test
  void anEarliestWithoutLatestEndsNow() {
    Instant now = Instant.parse("2026-01-07T12:00:00Z");
    long dayAgo = (now.getEpochSecond() - 86_400) * 1_000_000L;
    Evaluator evaluator =
        new Evaluator(now, ZoneOffset.UTC)
            .withResources(
                new SearchResources(MemoryAccount.unbounded("test"), () -> false, w -> {}))
            .withSearchInfo(new SearchInfo(dayAgo, Long.MAX_VALUE, "sid-1"));
    List<Page> out =
        PageRun.run("* | addinfo", List.of(TestPages.of(List.of(Map.of("a", 1L)))), 100, evaluator);
    Map<String, Object> row = TestPages.rows(out).get(0);
    assertThat(row.get("info_min_time")).isEqualTo(now.getEpochSecond() - 86_400.0);
    assertThat(row.get("info_max_time")).isEqualTo((double) now.getEpochSecond());
  }
}
