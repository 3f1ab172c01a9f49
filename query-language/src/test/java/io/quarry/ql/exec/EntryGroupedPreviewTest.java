package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.parser.Parser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Review a37: one search thread's partial (one partial: the search's only thread, or the only one
 * that met these groups) merged into the final aggregation for a preview while it reads a segment,
 * then reading on and moving to another segment, merged again at the end. Over plain blocks — and
 * on main over dictionary pages — the final aggregation holds every group's values in the order the
 * partial read them: the preview's merge takes the partial's groups whole, the end's appends the
 * rest. Grouped by dictionary entry ({@code EntryPartial}), the preview's merge hands the final the
 * partial's entry groups whole and they are handed to its keys only when it is finished — after the
 * groups the partial read later: {@code list} answers the later values first, and among values of
 * one time ({@code earliest}, {@code first}: the first one seen stays) a later one wins. Whether
 * the UI asked for a preview then changes the search's final answer.
 */
class EntryGroupedPreviewTest {
  private static final String STATS =
      "stats list(n) AS li, earliest(n) AS e, first(n) AS fi, count by session";

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  /** A dictionary of 1,500 session texts in its own (shuffled) order: a segment's. */
  private static BytesBlock dictionary(Random random) {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 1_500; i++) {
      texts.add("s%05d".formatted(i));
    }
    Collections.shuffle(texts, random);
    BytesBlock.Builder builder = BytesBlock.builder(texts.size());
    texts.forEach(t -> builder.append(t.getBytes(StandardCharsets.UTF_8)));
    return builder.build();
  }

  /**
   * Page {@code number}: 20 rows of sessions s00000 to s00009, all of one time (a second's events),
   * n = number * 100 + row; [plain, by entry of {@code dictionary}].
   */
  private static Page[] page(BytesBlock dictionary, int number) {
    List<Map<String, Object>> rows = new ArrayList<>();
    BytesBlock.OrdinalBuilder ordinals = BytesBlock.ordinalBuilder(dictionary, 20);
    for (int row = 0; row < 20; row++) {
      String session = "s%05d".formatted(row % 10);
      Map<String, Object> values = new LinkedHashMap<>();
      values.put("_time", 1_767_780_000_000_000L);
      values.put("session", session);
      values.put("n", (long) number * 100 + row);
      rows.add(values);
      for (int entry = 0; entry < dictionary.positionCount(); entry++) {
        if (dictionary.getString(entry).equals(session)) {
          ordinals.appendOrdinal(entry);
          break;
        }
      }
    }
    Page plain = TestPages.page(TestPages.cells(rows), List.of("_time", "session", "n"));
    return new Page[] {plain, plain.withColumn("session", ordinals.build())};
  }

  private static List<Map<String, Object>> run(int form, BytesBlock first, BytesBlock second) {
    HashAggregationOperator total =
        new HashAggregationOperator(stats(STATS), MemoryTracker.unbounded("total"), 64);
    HashAggregationOperator partial = total.newPartial();
    partial.addInput(page(first, 1)[form]);
    partial.addInput(page(first, 2)[form]);
    total.merge(partial); // a preview asked while the partial reads the first segment
    partial.addInput(page(first, 3)[form]);
    partial.addInput(page(second, 4)[form]); // the next segment
    total.merge(partial); // the end of the scan
    partial.close();
    total.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      out.add(page);
    }
    total.close();
    return TestPages.rows(out);
  }

  @Test
  void aPreviewMergeLeavesTheAnswerAsOverPlainBlocks() {
    Random random = new Random(37);
    BytesBlock first = dictionary(random);
    BytesBlock second = dictionary(random);
    List<Map<String, Object>> plain = run(0, first, second);
    assertThat(plain.get(0).get("li"))
        .as("over plain blocks: the values in the order read")
        .isEqualTo(List.of(100L, 110L, 200L, 210L, 300L, 310L, 400L, 410L));
    assertThat(plain.get(0).get("e")).isEqualTo(100L);
    assertThat(run(1, first, second)).isEqualTo(plain);
  }
}
