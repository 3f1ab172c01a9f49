package io.quarry.server.search.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.metricstore.MetricScanVisitor;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link MstatsRun} fed directly: its memory is counted on the search's account. */
class MstatsRunTest {
  private static MstatsCommand mstats(String query) {
    return (MstatsCommand) new Parser(CommandRegistry.builtIns()).parse(query).commands().get(0);
  }

  @Test
  void groupsAndPercentileValuesCountAgainstTheSearchsMemory() {
    MemoryAccount account = new MemoryAccount("search", 64 * 1024);
    MstatsRun run =
        new MstatsRun(
            mstats("| mstats perc50(x) where index=m by host span=1s"),
            ZoneOffset.UTC,
            () -> false,
            account);
    MetricScanVisitor.Points points = run.series(SeriesKey.of("x", Map.of("host", "a")));
    assertThatThrownBy(
            () -> {
              for (long second = 0; second < 1_000_000; second++) {
                points.point(second * 1_000_000L, second);
              }
            })
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("mstats");

    MemoryAccount roomy = new MemoryAccount("search", 1 << 20);
    MstatsRun small =
        new MstatsRun(
            mstats("| mstats perc50(x) AS p where index=m"), ZoneOffset.UTC, () -> false, roomy);
    MetricScanVisitor.Points one = small.series(SeriesKey.of("x", Map.of()));
    for (int i = 0; i < 10_000; i++) {
      one.point(i, i);
    }
    assertThat(roomy.used()).isBetween(10_000L * Double.BYTES, 3L * 10_000 * Double.BYTES);
    assertThat(small.rows().get(0).values("p")).containsExactly(4999.5);
  }
}
