package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code bin _time span=…} on a timestamp column (floored block-wise, a bucket reused while the
 * events stay in it) against the row command's binning of each value, over random times spanning
 * two years — daylight-saving changes, month ends, leap day — in zones with and without DST and
 * with a half-hour offset. Nulls stay null.
 */
class BinStageTest {
  @ParameterizedTest
  @CsvSource({
    "1h, UTC",
    "1h, Europe/Berlin",
    "30m, Asia/Kolkata",
    "7m, America/New_York",
    "1d, Europe/Berlin",
    "1w, America/New_York",
    "1mon, Asia/Kolkata",
    "3mon, UTC",
    "12mon, Europe/Berlin",
  })
  void floorsAsTheRowCommandBins(String span, String zoneName) {
    ZoneId zone = ZoneId.of(zoneName);
    BinCommand bin = bin("bin _time span=" + span);
    Random random = new Random(span.hashCode() * 31L + zoneName.hashCode());
    long from = Instant.parse("2027-01-01T00:00:00Z").toEpochMilli() * 1000;
    List<Long> times = new ArrayList<>();
    long time = from;
    for (int i = 0; i < 5_000; i++) {
      // mostly close together (runs share a bucket), sometimes a jump of up to 40 days
      time += random.nextInt(10) == 0 ? (long) (random.nextDouble() * 40 * 86_400e6) : 37_000_000;
      times.add(random.nextInt(50) == 0 ? null : time);
    }
    LongBlock.Builder builder = LongBlock.builder(DataType.TIMESTAMP, times.size());
    times.forEach(
        t -> {
          if (t == null) {
            builder.appendNull();
          } else {
            builder.append(t);
          }
        });
    Page page =
        new Page(
            new Schema(List.of(new Schema.Column("_time", DataType.TIMESTAMP))),
            List.<Block>of(builder.build()));
    List<Page> out = new ArrayList<>();
    PageChain.pulling(
            PagesSource.of(List.of(page).iterator()),
            List.<Command>of(bin),
            new Evaluator(Instant.now(), zone),
            out::add,
            new StageStats(List.of("bin")),
            0)
        .run();
    LongBlock binned = (LongBlock) out.get(0).block("_time");
    for (int p = 0; p < times.size(); p++) {
      if (times.get(p) == null) {
        assertThat(binned.isNull(p)).isTrue();
      } else {
        assertThat(binned.getLong(p))
            .as("%s in %s: %s", span, zone, Instant.ofEpochMilli(times.get(p) / 1000))
            .isEqualTo(Bins.binned(bin, bin.span().orElseThrow(), times.get(p), zone));
      }
    }
  }

  private static BinCommand bin(String command) {
    return (BinCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + command).commands().get(1);
  }
}
