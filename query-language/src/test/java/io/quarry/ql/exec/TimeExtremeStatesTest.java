package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.engine.aggregation.TimeExtremeStates;
import io.quarry.ql.parser.Parser;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Counts and {@code _time} extremes by key handed to a {@code stats} as intermediate states ({@link
 * TimeExtremeStates}, what the server's fused key=value scan makes) against the same {@code stats}
 * scanning the rows they stand for, and against the answer computed here by plain Java: random rows
 * (a key or none, a time to the microsecond) of which a random share is folded into states — per
 * "slice", several slices holding the same key — and the rest added as pages, into random partials
 * merged in random order.
 */
class TimeExtremeStatesTest {
  private static final List<String> COMMANDS =
      List.of(
          "stats range(_time), count by s",
          "stats count by s",
          "stats count AS n, min(_time) AS first, max(_time) AS last by s",
          "stats range(_time) AS r, count, count AS c by s",
          "stats max(_time), range(_time) by s");

  private static Command command(String text) {
    return new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  private record Event(String key, long micros) {}

  @Test
  void statesAnswerAsTheRowsTheyStandFor() {
    for (long seed = 0; seed < 8; seed++) {
      Random random = new Random(seed);
      List<Event> events = new ArrayList<>();
      int keys = 1 + random.nextInt(40);
      for (int i = 0; i < 600; i++) {
        String key = random.nextInt(8) == 0 ? null : "k" + random.nextInt(keys);
        // whole seconds and odd microseconds, some before the epoch
        long micros = (random.nextLong(4_000_000_000L) - 1_000_000_000L) * 1000 + random.nextInt(3);
        events.add(new Event(key, micros));
      }
      for (String text : COMMANDS) {
        Command command = command(text);
        assertThat(TimeExtremeStates.supports(command)).as(text).isTrue();
        List<Map<String, Object>> scanned = TestPages.rows(allScanned(command, events));
        List<Map<String, Object>> folded = TestPages.rows(someFolded(command, events, random));
        assertThat(folded).as(text + " (seed " + seed + ")").isEqualTo(scanned);
        assertThat(scanned).as(text + " by hand").isEqualTo(byHand(text, events));
      }
    }
  }

  /**
   * States pages of up to {@link TimeExtremeStates#BATCH} keys have their keys looked up together,
   * larger ones key by key: pages of both sizes (keys cut at random, some pages just past the
   * batch, keys repeated across pages), and a page with a null key, answer as the rows do.
   */
  @Test
  void statesPagesOfEverySizeAnswerAsTheRows() {
    for (long seed = 0; seed < 4; seed++) {
      Random random = new Random(seed);
      List<Event> events = new ArrayList<>();
      int keys = 1_500 + random.nextInt(2_500);
      for (int i = 0; i < 12_000; i++) {
        events.add(new Event("k" + random.nextInt(keys), random.nextLong(1L << 50)));
      }
      for (String text : COMMANDS) {
        Command command = command(text);
        PageAggregator total =
            PageAggregator.of(command, ZoneOffset.UTC, MemoryTracker.unbounded("states"), 512);
        for (int from = 0; from < events.size(); ) {
          int to =
              Math.min(
                  events.size(),
                  from
                      + switch (random.nextInt(3)) {
                        case 0 -> 1 + random.nextInt(TimeExtremeStates.BATCH);
                        case 1 -> TimeExtremeStates.BATCH + 1 + random.nextInt(8);
                        default -> 3 * TimeExtremeStates.BATCH;
                      });
          Map<String, long[]> folded = new java.util.LinkedHashMap<>();
          events.subList(from, to).forEach(e -> fold(folded, e));
          total.addIntermediateInput(states(folded));
          from = to;
        }
        total.addIntermediateInput(withNullKey());
        assertThat(TestPages.rows(answer(total)))
            .as(text + " (seed " + seed + ")")
            .isEqualTo(TestPages.rows(allScanned(command, events)));
      }
    }
  }

  /** A states page of one position whose key is null: it joins no group. */
  private static Page withNullKey() {
    BytesBlock.Builder keys = BytesBlock.builder(1);
    keys.appendNull();
    LongBlock.Builder counts = LongBlock.builder(DataType.LONG, 1);
    counts.append(7);
    LongBlock.Builder mins = LongBlock.builder(DataType.TIMESTAMP, 1);
    mins.append(1);
    LongBlock.Builder maxes = LongBlock.builder(DataType.TIMESTAMP, 1);
    maxes.append(2);
    return TimeExtremeStates.page("s", keys.build(), counts.build(), mins.build(), maxes.build());
  }

  @Test
  void onlyCountsAndTimeExtremesByOneFieldTakeStates() {
    for (String text :
        List.of(
            "stats count",
            "stats count by s, t",
            "stats count(s) by s",
            "stats min(n) by s",
            "stats avg(_time) by s",
            "stats dc(_time) by s",
            "stats count by _time",
            "stats count(eval(s=\"a\")) by s",
            "eventstats count by s",
            "top s")) {
      assertThat(TimeExtremeStates.supports(command(text))).as(text).isFalse();
    }
  }

  @Test
  void aStatsThatDoesNotTakeThemRefusesStates() {
    PageAggregator stats =
        PageAggregator.of(
            command("stats count, sum(n) by s"), ZoneOffset.UTC, MemoryTracker.unbounded("s"), 16);
    Map<String, long[]> one = new TreeMap<>(Map.of("a", new long[] {1, 5, 5}));
    assertThatThrownBy(() -> stats.addIntermediateInput(states(one)))
        .isInstanceOf(IllegalStateException.class);
  }

  /** The answer by plain Java: per key its rows, first and last time, range in seconds. */
  private static List<Map<String, Object>> byHand(String text, List<Event> events) {
    Map<String, long[]> states = new TreeMap<>(); // count, min, max (keys sort as text here)
    for (Event e : events) {
      if (e.key() != null) {
        fold(states, e);
      }
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    states.forEach(
        (key, s) -> {
          Map<String, Object> row = new java.util.LinkedHashMap<>();
          row.put("s", key);
          Object range = TimeField.exactRange(s[1] / 1e6, s[2] / 1e6);
          Object min = TimeField.exactSeconds(s[1] / 1e6);
          Object max = TimeField.exactSeconds(s[2] / 1e6);
          switch (text) {
            case "stats range(_time), count by s" -> {
              row.put("range(_time)", range);
              row.put("count", s[0]);
            }
            case "stats count by s" -> row.put("count", s[0]);
            case "stats count AS n, min(_time) AS first, max(_time) AS last by s" -> {
              row.put("n", s[0]);
              row.put("first", min);
              row.put("last", max);
            }
            case "stats range(_time) AS r, count, count AS c by s" -> {
              row.put("r", range);
              row.put("count", s[0]);
              row.put("c", s[0]);
            }
            default -> {
              row.put("max(_time)", max);
              row.put("range(_time)", range);
            }
          }
          rows.add(row);
        });
    return rows; // keys in text order (the TreeMap's), as stats sorts texts
  }

  private static void fold(Map<String, long[]> states, Event e) {
    long[] s = states.computeIfAbsent(e.key(), k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
    s[0]++;
    s[1] = Math.min(s[1], e.micros());
    s[2] = Math.max(s[2], e.micros());
  }

  private static List<Page> allScanned(Command command, List<Event> events) {
    PageAggregator total =
        PageAggregator.of(command, ZoneOffset.UTC, MemoryTracker.unbounded("scanned"), 10_000);
    total.addInput(page(events));
    return answer(total);
  }

  private static List<Page> someFolded(Command command, List<Event> events, Random random) {
    PageAggregator total =
        PageAggregator.of(
            command, ZoneOffset.UTC, MemoryTracker.unbounded("states"), 1 + random.nextInt(64));
    List<Map<String, long[]>> slices = new ArrayList<>();
    List<Event> scanned = new ArrayList<>();
    for (Event e : events) {
      if (e.key() == null || random.nextBoolean()) {
        scanned.add(e);
        continue;
      }
      if (slices.isEmpty() || random.nextInt(60) == 0) {
        slices.add(new TreeMap<>());
      }
      fold(slices.get(random.nextInt(slices.size())), e);
    }
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < scanned.size(); ) {
      int to = Math.min(scanned.size(), from + 1 + random.nextInt(50));
      pages.add(page(scanned.subList(from, to)));
      from = to;
    }
    List<PageAggregator> partials = new ArrayList<>();
    int statesLeft = slices.size();
    while (!pages.isEmpty() || statesLeft > 0) {
      if (partials.isEmpty() || random.nextInt(4) == 0) {
        partials.add(total.newPartial());
      }
      PageAggregator partial = partials.get(random.nextInt(partials.size()));
      if (statesLeft > 0 && (pages.isEmpty() || random.nextInt(3) == 0)) {
        Page page = states(slices.get(--statesLeft));
        (random.nextInt(5) == 0 ? total : partial).addIntermediateInput(page);
      } else {
        partial.addInput(pages.remove(0));
      }
      if (random.nextInt(10) == 0) {
        total.merge(partials.get(random.nextInt(partials.size())));
      }
    }
    partials.forEach(total::merge);
    return answer(total);
  }

  private static List<Page> answer(PageAggregator total) {
    total.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      out.add(page);
    }
    total.close();
    return out;
  }

  /** Rows as a scan's page has them: the key (null: none) and {@code _time}. */
  private static Page page(List<Event> events) {
    BytesBlock.Builder keys = BytesBlock.builder(events.size());
    LongBlock.Builder times = LongBlock.builder(DataType.TIMESTAMP, events.size());
    for (Event e : events) {
      if (e.key() == null) {
        keys.appendNull();
      } else {
        keys.append(e.key());
      }
      times.append(e.micros());
    }
    return new Page(
        new Schema(
            List.of(
                new Schema.Column("s", DataType.STRING),
                new Schema.Column(TimeField.NAME, DataType.TIMESTAMP))),
        List.of(keys.build(), times.build()));
  }

  private static Page states(Map<String, long[]> states) {
    BytesBlock.Builder keys = BytesBlock.builder(states.size());
    LongBlock.Builder counts = LongBlock.builder(DataType.LONG, states.size());
    LongBlock.Builder mins = LongBlock.builder(DataType.TIMESTAMP, states.size());
    LongBlock.Builder maxes = LongBlock.builder(DataType.TIMESTAMP, states.size());
    states.forEach(
        (key, s) -> {
          keys.append(key);
          counts.append(s[0]);
          mins.append(s[1]);
          maxes.append(s[2]);
        });
    return TimeExtremeStates.page("s", keys.build(), counts.build(), mins.build(), maxes.build());
  }
}
