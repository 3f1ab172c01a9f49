package io.quarry.server.search;

import io.quarry.server.RunningServer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Review (session 34, review-d): a field some events lack, held by "no value" codes, reaches the
 * page engine as dictionary blocks with null positions ({@code OrdinalColumn.appendNull}); every
 * command and aggregation must answer over the block layout as over the event layout.
 */
class NoValueCodesCommandsTest {
  private static final String PASSWORD = "partial-queries-password";
  private static final String TOKEN = "partial-queries-token";

  @RegisterExtension
  static final RunningServer SERVER =
      LayoutEvents.running(PASSWORD, TOKEN, NoValueCodesCommandsTest::envelope);

  /** Event {@code i}: {@code level} and {@code full} in every one, {@code session} in most. */
  private static String envelope(String index, int i) {
    return String.format(
        "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"opt\",\"index\":\"%s\","
            + "\"event\":\"event %d GET /x\",\"fields\":{\"level\":\"%s\",\"full\":\"f%d\"%s}}%n",
        LayoutEvents.START + i * 3L,
        index,
        i,
        i % 3 == 0 ? "warn" : "info",
        i % 23,
        i % 4 != 1 && i % 11 != 0 ? ",\"session\":\"s" + (i % 23) + "\"" : "");
  }

  @Test
  void everyCommandAnswersAsOverEvents() throws Exception {
    LayoutEvents.assertSameOverBoth(
        SERVER,
        List.of(
            "| stats values(session) AS v, dc(session) AS d, count(session) AS c by level",
            "| stats first(session) AS f, last(session) AS l, earliest(session) AS e,"
                + " latest(session) AS t by level",
            "| stats min(session) AS mn, max(session) AS mx by level",
            "| stats list(session) AS l by level | eval n=mvcount(l) | fields level n",
            "| top limit=50 session",
            "| rare limit=50 session",
            "| chart count over level by session limit=0",
            "| timechart span=10m dc(session) AS d, count(session) AS c",
            "| fillnull value=none session | stats count by session",
            "| eval n=len(session), e=isnull(session) | stats count by n, e",
            "| where session!=\"s1\" | stats count",
            "| search session!=s2 | stats count",
            "| dedup session | stats count",
            "| sort 0 session, _time | head 30 | table _time session level",
            "| eventstats dc(session) AS d by level | stats count by d, level",
            "| streamstats count(session) AS c | stats max(c) AS m",
            "| stats count by session, level",
            "| eval k=coalesce(session, level) | stats count by k",
            "| stats range(_time) AS r, count by session",
            "| stats count by session | sort 0 session"));
  }

  /**
   * Not from codes2 (a field every event has, {@code full}, too): with tied counts, {@code mode}
   * answered the value first met over the event layout and another over the block layout; now one
   * rule by {@code _time} (ModeFunction) gives both the same.
   */
  @Test
  void modeOfTiedValuesIsTheSameOverBothLayouts() throws Exception {
    LayoutEvents.assertSameOverBoth(
        SERVER, List.of("| stats mode(full) AS m by level", "| stats mode(session) AS m by level"));
  }
}
