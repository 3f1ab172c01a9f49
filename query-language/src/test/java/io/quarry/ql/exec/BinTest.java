package io.quarry.ql.exec;

import static io.quarry.ql.exec.PipelineTest.run;
import static io.quarry.ql.exec.PipelineTest.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.ql.ast.Span;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** bin and bucket: given spans, spans chosen from the data (bins, minspan, start, end). */
class BinTest {
  private static final long T0 = Instant.parse("2026-01-07T00:00:00Z").toEpochMilli() * 1000;

  /** One row per value of field {@code x}. */
  private static List<Row> numbers(Object... values) {
    List<Row> rows = new ArrayList<>();
    for (Object value : values) {
      rows.add(TestRow.of("e", "x", value));
    }
    return rows;
  }

  private static List<Object> column(String query, List<Row> rows) {
    return table(run(query, rows, 100)).stream().map(row -> row.get(0)).toList();
  }

  @Test
  void aGivenSpanBinsEachRow() {
    assertThat(column("* | bin x span=10 | table x", numbers(3L, 17L, "n/a", 20.5)))
        .containsExactly("0-10", "10-20", "n/a", "20-30");
    assertThat(column("* | bucket x span=0.1 AS r | table r", numbers(0.35, 0.01)))
        .as("decimal labels, not 0.30000000000000004")
        .containsExactly("0.3-0.4", "0-0.1");
    assertThat(column("* | bin x span=1h | table x", numbers(T0 / 1_000_000 + 4_000)))
        .as("a time span on a field of epoch seconds")
        .containsExactly(T0 / 1_000_000 + 3_600);
  }

  @Test
  void binsChoosesThePowerOfTenThatFits() {
    List<Row> rows = numbers(IntStream.rangeClosed(1, 95).mapToObj(i -> (long) i).toArray());
    assertThat(column("* | bin x bins=10 | stats count by x | table x", rows))
        .containsExactly(
            "0-10", "10-20", "20-30", "30-40", "40-50", "50-60", "60-70", "70-80", "80-90",
            "90-100");
    assertThat(column("* | bin x bins=5 | stats count by x | table x", rows))
        .as("ten bins of 10 are too many: one of 100")
        .containsExactly("0-100");
    assertThat(column("* | bin x | stats count by x | table x", rows))
        .as("default 100 bins: width 1")
        .hasSize(95)
        .startsWith("1-2", "10-11");
  }

  @Test
  void minspanStartAndEndWidenTheChoice() {
    List<Row> rows = numbers(12L, 18L);
    assertThat(column("* | bin x bins=100 | table x", rows))
        .as("0.1 gives 61 bins over [12, 18]")
        .containsExactly("12-12.1", "18-18.1");
    assertThat(column("* | bin x minspan=5 | table x", rows))
        .as("the smallest power of ten of at least 5")
        .containsExactly("10-20", "10-20");
    assertThat(column("* | bin x bins=10 end=1000 | table x", rows))
        .as("end widens the range to 1000 (exclusive): ten bins of 100")
        .containsExactly("0-100", "0-100");
    assertThat(column("* | bin x bins=10 start=-5 | table x", rows))
        .as("start widens below 0")
        .containsExactly("10-20", "10-20");
    assertThat(column("* | bin x span=2 bins=1 end=1000 | table x", rows))
        .as("a given span wins")
        .containsExactly("12-14", "18-20");
  }

  @Test
  void timeBinsComeFromSplunksAutomaticSpans() {
    List<Row> rows = new ArrayList<>();
    for (int minute = 0; minute < 240; minute += 7) {
      rows.add(TestRow.of("e", "_time", T0 + minute * 60_000_000L));
    }
    // four hours at 100 bins: 5-minute bins (Splunk's default for "last 4 hours")
    List<Object> fiveMinutes = column("* | bin _time | table _time", rows);
    assertThat(fiveMinutes.get(1)).isEqualTo(T0 + 5 * 60_000_000L);
    assertThat(column("* | bin _time bins=3 | stats count by _time | table _time", rows))
        .as("hours are too many for 3 bins: a day")
        .containsExactly(T0);
    assertThat(column("* | bin _time minspan=20m | stats count by _time | table _time", rows))
        .as("at least 20 minutes: 30")
        .hasSize(8)
        .startsWith(T0, T0 + 30 * 60_000_000L);
  }

  @Test
  void automaticSpansAreTheSmallestThatFit() {
    long hour = 3_600_000_000L;
    assertThat(Span.automatic(T0, T0 + 15 * 60_000_000L, 100, 0, ZoneOffset.UTC))
        .isEqualTo(Span.ofSeconds(10));
    assertThat(Span.automatic(T0, T0 + hour, 100, 0, ZoneOffset.UTC)).isEqualTo(Span.ofSeconds(60));
    assertThat(Span.automatic(T0, T0 + 24 * hour - 1, 100, 0, ZoneOffset.UTC))
        .isEqualTo(Span.ofSeconds(1_800));
    assertThat(Span.automatic(T0, T0 + 7 * 24 * hour - 1, 100, 0, ZoneOffset.UTC))
        .isEqualTo(Span.ofSeconds(86_400));
    assertThat(Span.automatic(T0, T0 + 1_000 * 24 * hour, 100, 0, ZoneOffset.UTC).unit())
        .isEqualTo(java.time.temporal.ChronoUnit.MONTHS);
    assertThat(Span.automaticWidth(-3, 5, 1, 0).width())
        .as("a range across zero cannot fit one bin: the search for one ends")
        .isPositive();
    assertThat(Span.automaticWidth(0.012, 0.094, 10, 0).width()).isEqualTo(0.01);
  }

  @Test
  void heldRowsCountAgainstTheSearchsMemory() {
    // the page stage holds its pages (a column of longs: ~8 bytes a row) until it knows the range
    MemoryAccount account = new MemoryAccount("search (search.maxMemoryBytes)", 50_000);
    SearchResources resources = new SearchResources(account, () -> false, w -> {});
    Evaluator evaluator = new Evaluator(Instant.now(), ZoneOffset.UTC).withResources(resources);
    List<io.quarry.ql.ast.Command> commands = PageRun.commands("* | bin x");
    PageReduce reduce =
        new PageReduce(commands, evaluator, page -> true, new StageStats(List.of("bin")), 0, 1024);
    List<io.quarry.plugin.api.data.Page> input = new ArrayList<>();
    for (long from = 0; from < 10_000; from += 100) {
      List<java.util.Map<String, Object>> rows = new ArrayList<>();
      for (long i = from; i < from + 100; i++) {
        rows.add(java.util.Map.of("x", i));
      }
      input.add(TestPages.of(rows));
    }
    assertThatThrownBy(() -> PageRun.pull(reduce, input))
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("bin");
  }

  @Test
  void badOptionsAreParseErrors() {
    Parser parser = new Parser(CommandRegistry.builtIns());
    assertThatThrownBy(() -> parser.parse("* | bin bins=0 x"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("at least 1");
    assertThatThrownBy(() -> parser.parse("* | bin start=abc x"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("'abc' is not a number");
    assertThatThrownBy(() -> parser.parse("* | bin aligntime=@d _time"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("aligntime= is not supported yet");
  }
}
