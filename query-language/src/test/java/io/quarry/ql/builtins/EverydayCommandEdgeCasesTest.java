package io.quarry.ql.builtins;

import static io.quarry.ql.builtins.CommandHarness.row;
import static io.quarry.ql.builtins.CommandHarness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Review of session 33's everyday commands: each test fails on cb0b616c. */
class EverydayCommandEdgeCasesTest {

  /**
   * A number far from start: the numeric bucket count {@code last - first + 1} overflows to a
   * negative number, passes the MAX_BUCKETS check, and the fill loop runs without end (until the
   * heap is gone: an uncounted OutOfMemoryError in the server's search thread).
   */
  @Test
  void makecontinuousFarNumberIsCutByTheBucketLimit() {
    var out =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () -> run("makecontinuous x span=1 start=0", List.of(row("x", 1e300))));
    assertThat(out).hasSizeLessThanOrEqualTo(MakeContinuousCommand.MAX_BUCKETS + 1);
  }

  /**
   * A numeric span over _time (Splunk: seconds, as bin _time span=3600) writes the bucket's seconds
   * into the _time column, which is read as microseconds: 1970.
   */
  @Test
  void makecontinuousNumericSpanOverTimeKeepsMicroseconds() {
    long nine = 1_767_603_600_000_000L; // 2026-01-05T09:00:00Z in microseconds
    var out =
        run(
            "makecontinuous _time span=3600",
            List.of(row("_time", nine, "n", 1L), row("_time", nine + 7_200_000_000L, "n", 2L)));
    assertThat(out)
        .extracting(r -> r.get("_time"))
        .containsExactly(nine, nine + 3_600_000_000L, nine + 7_200_000_000L);
  }

  /**
   * Splunk's xmlkv: maxinputs is how many results go into one invocation; the command is invoked
   * again until every result is read. Quarry leaves the results after the first maxinputs unread.
   */
  @Test
  void xmlkvReadsEveryResultWhateverMaxinputs() {
    var out = run("xmlkv maxinputs=1", List.of(row("_raw", "<v>1</v>"), row("_raw", "<v>2</v>")));
    assertThat(out).extracting(r -> r.get("v")).containsExactly("1", "2");
  }

  /**
   * clean_keys=f keeps a leading underscore, and FoundFields replaces any field found: an event
   * text holding "_time=soon" turns the result's _time (a TIMESTAMP) into the text "soon" and
   * "_raw=x" replaces _raw itself. Splunk's extractions never set internal (underscore) fields.
   */
  @Test
  void extractNeverOverwritesInternalFields() {
    long nine = 1_767_603_600_000_000L;
    var out =
        run("extract clean_keys=f", List.of(row("_raw", "a=1 _time=soon _raw=x", "_time", nine)));
    assertThat(out.get(0))
        .containsEntry("a", "1")
        .containsEntry("_time", nine)
        .containsEntry("_raw", "a=1 _time=soon _raw=x");
  }

  /**
   * Axis writes a bucket's value as index × span in binary floating point; bin (Bins.multiple)
   * writes the decimal it stands for: 3 × 0.1 is 0.3 there, 0.30000000000000004 here.
   */
  @Test
  void makecontinuousDecimalSpanGivesTheDecimalBucket() {
    var out =
        run("makecontinuous x span=0.1", List.of(row("x", 0.1, "n", 1L), row("x", 0.4, "n", 2L)));
    assertThat(out)
        .extracting(r -> io.quarry.ql.exec.Values.toText(r.get("x")))
        .containsExactly("0.1", "0.2", "0.3", "0.4");
  }

  /**
   * One value past Long.MAX_VALUE buckets, no start/end: first = last = Long.MAX_VALUE, the count
   * is 1, but the loop's {@code b <= last; b = b + 1} wraps to Long.MIN_VALUE and never ends.
   */
  @Test
  void makecontinuousOneHugeValueEnds() {
    var out =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10), () -> run("makecontinuous x span=1", List.of(row("x", 1e19))));
    assertThat(out).hasSize(1);
  }
}
