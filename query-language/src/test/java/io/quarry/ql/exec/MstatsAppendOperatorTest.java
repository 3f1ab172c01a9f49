package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code mstats prestats=true append=true} as a pull operator ({@link MstatsAppendOperator}) over a
 * read of points given as pages ({@link MetricAppend.Points}, here from a list: the metric store's
 * is the server's), driven by the pull protocol ({@link ProtocolDriver}) and by the {@link Driver}:
 * the rows before it, then the points; a page read only when one is pulled; the read closed once,
 * its messages warned, also when a head after it has its rows or the search is cancelled.
 */
class MstatsAppendOperatorTest {
  private static final int POINT_PAGES = 6;

  /** Pages of 4 points, counting reads and closes. */
  private static final class ListedPoints implements MetricAppend {
    int opened;
    int read;
    int closed;

    @Override
    public Points open(
        io.quarry.ql.ast.MstatsCommand command,
        int pageSize,
        java.util.function.BooleanSupplier stopped) {
      opened++;
      return new Points() {
        @Override
        public Page next() {
          if (read == POINT_PAGES) {
            return null;
          }
          read++;
          List<Map<String, Object>> rows = new ArrayList<>();
          for (int p = 0; p < 4; p++) {
            rows.add(Map.of("metric_name", "cpu", "cpu", (double) (read * 10 + p)));
          }
          return TestPages.of(rows);
        }

        @Override
        public List<String> close() {
          closed++;
          return List.of("read " + read + " pages");
        }
      };
    }
  }

  private final List<String> warnings = new ArrayList<>();

  private PageReduce reduce(String tail, ListedPoints points, List<Page> out) {
    List<Command> commands =
        PageRun.commands("* | mstats prestats=t append=t count(cpu) where index=m" + tail);
    Evaluator evaluator =
        new Evaluator(Instant.EPOCH, ZoneOffset.UTC)
            .withResources(
                new SearchResources(MemoryAccount.unbounded("test"), () -> false, warnings::add))
            .withMetricAppend(points);
    return new PageReduce(
        commands,
        evaluator,
        out::add,
        new StageStats(commands.stream().map(Command::name).toList()),
        0,
        4);
  }

  private static List<Page> before(Random random) {
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < 10; ) {
      int to = Math.min(10, from + 1 + random.nextInt(4));
      List<Map<String, Object>> rows = new ArrayList<>();
      for (int r = from; r < to; r++) {
        rows.add(Map.of("made", (long) r));
      }
      pages.add(TestPages.of(rows));
      from = to;
    }
    return pages;
  }

  @Test
  void theRowsBeforeItThenItsPointsByTheProtocol() {
    for (int seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      ListedPoints points = new ListedPoints();
      warnings.clear();
      List<Operator> operators = reduce("", points, new ArrayList<>()).operators();
      List<Page> out;
      try {
        out = new ProtocolDriver("mstats append", operators, random).run(before(random));
      } finally {
        operators.forEach(Operator::close);
      }
      List<Map<String, Object>> rows = TestPages.rows(out);
      assertThat(rows).as("seed %d", seed).hasSize(10 + 4 * POINT_PAGES);
      for (int r = 0; r < 10; r++) {
        assertThat(rows.get(r)).containsEntry("made", (long) r);
      }
      assertThat(rows.get(10)).containsEntry("cpu", 10.0);
      assertThat(rows.getLast()).containsEntry("cpu", POINT_PAGES * 10 + 3.0);
      assertThat(points.opened).isEqualTo(1);
      assertThat(points.closed).as("closed once").isEqualTo(1);
      assertThat(warnings).containsExactly("read " + POINT_PAGES + " pages");
    }
  }

  @Test
  void aHeadAfterItStopsTheRead() {
    ListedPoints points = new ListedPoints();
    List<Page> out = new ArrayList<>();
    PageReduce reduce = reduce(" | head 12", points, out);
    PageRun.pull(reduce, before(new Random(1)));
    assertThat(TestPages.rows(out)).hasSize(12);
    // 10 rows before it, then pages of 4 points until the head has its 12: one page read
    assertThat(points.read).as("pages read").isEqualTo(1);
    assertThat(points.closed).isEqualTo(1);
    assertThat(warnings).containsExactly("read 1 pages");
  }

  @Test
  void cancelledBeforeItsInputEndsItReadsNothing() {
    ListedPoints points = new ListedPoints();
    List<Operator> operators = reduce("", points, new ArrayList<>()).operators();
    List<Page> input = before(new Random(2));
    try {
      new ProtocolDriver("mstats append", operators, new Random(2))
          .abandon(input.subList(0, input.size() / 2));
    } finally {
      operators.forEach(Operator::close);
    }
    assertThat(points.opened).isZero();
    assertThat(warnings).isEmpty();
  }
}
