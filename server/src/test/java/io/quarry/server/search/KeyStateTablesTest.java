package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.SearchResources;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.parser.Parser;
import io.quarry.server.sourcetype.Sourcetypes;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The state tables a key=value fused scan keeps over a thread's slices ({@link KeyStateTables}):
 * tables taken and put back as slices would, drained into a real {@code stats} whose answer holds
 * every key's count once; their memory charged to a real search account as they grow and given back
 * exactly once — when drained, and when released after a failure (a second release a no-op); over
 * the search's limit the typed memory error naming the stage; a table's judgement of its keyed
 * events ({@link KeyStateTables#judge}): repeating keys and session-id-like draws kept, unique keys
 * page the search.
 */
class KeyStateTablesTest {
  private static final String STATS = "stats range(_time), count by k";

  private static Command command() {
    return new Parser(CommandRegistry.builtIns()).parse("* | " + STATS).commands().get(1);
  }

  /**
   * Tables of {@code k}'s keys (timed unless told) handed on into {@code total} ({@value #STATS}
   * unless given; its groups charged to {@code totals}), charged to {@code search} (a search
   * account of {@code limit} bytes): every case's setup.
   */
  private record Fixture(
      MemoryAccount search, MemoryTracker totals, PageAggregator total, KeyStateTables tables) {
    static Fixture of() {
      return of(256L << 20, command(), true);
    }

    static Fixture of(long limit, Command stats, boolean timed) {
      MemoryAccount search = new MemoryAccount("search", limit);
      MemoryTracker totals = MemoryTracker.unbounded("total");
      PageAggregator total = PageAggregator.of(stats, ZoneOffset.UTC, totals, 1024);
      SearchResources resources = new SearchResources(search, () -> false, w -> {});
      KeyStateTables tables =
          new KeyStateTables(
              "k",
              total,
              timed,
              () -> resources.tracker("stats"),
              () -> false,
              new StageStats(List.of("stats")),
              0);
      return new Fixture(search, totals, total, tables);
    }
  }

  private static void fill(KeyStateTables.Held held, int keys, int repeats) {
    for (int r = 0; r < repeats; r++) {
      for (int i = 0; i < keys; i++) {
        byte[] key = ("key-" + i).getBytes(StandardCharsets.US_ASCII);
        held.counts.addRow(key, 0, key.length, 1_000_000L * (i + r));
        held.rows++;
        held.keyed++;
      }
    }
  }

  @Test
  void aTableJudgesItsKeyedEventsOnceAfterTheirNumberAndOnlyDistinctKeysPageTheSearch() {
    Fixture fixture = Fixture.of();
    MemoryAccount search = fixture.search();
    PageAggregator total = fixture.total();
    KeyStateTables tables = fixture.tables();
    KeyStateTables.Held repeating = tables.take();
    fill(repeating, 4_096, KeyStateTables.JUDGED_AFTER / 4_096 - 1);
    assertThat(tables.judge(repeating)).as("not yet: too few keyed events").isFalse();
    fill(repeating, 4_096, 1); // 65,536 keyed over 4,096 keys: one in sixteen distinct
    assertThat(tables.judge(repeating)).isFalse();
    assertThat(tables.paged()).isFalse();
    // 65,536 events drawn over 200,000 keys as session ids are (~85% distinct): kept
    KeyStateTables.Held spread = tables.take();
    java.util.Random random = new java.util.Random(42);
    for (int i = 0; i < KeyStateTables.JUDGED_AFTER; i++) {
      byte[] key = ("s-" + random.nextInt(200_000)).getBytes(StandardCharsets.US_ASCII);
      spread.counts.addRow(key, 0, key.length, i);
      spread.rows++;
      spread.keyed++;
    }
    assertThat(spread.counts.size() * 16L)
        .isLessThan(spread.keyed * KeyStateTables.DISTINCT_IN_SIXTEEN);
    assertThat(tables.judge(spread)).isFalse();
    KeyStateTables.Held unique = tables.take();
    fill(unique, KeyStateTables.JUDGED_AFTER - 1, 1);
    assertThat(tables.judge(unique)).isFalse();
    fill(unique, 1, 1); // "key-0" again: 65,535 distinct keys in 65,536
    assertThat(tables.judge(unique)).as("keys do not repeat: the rest to pages").isTrue();
    assertThat(tables.paged()).isTrue();
    assertThat(tables.judge(unique)).as("judged once until handed on").isFalse();
    tables.release();
    assertThat(search.used()).isZero();
  }

  @Test
  void drainedIntoTheAggregationAndTheirMemoryGivenBackOnce() {
    Fixture fixture = Fixture.of();
    MemoryAccount search = fixture.search();
    PageAggregator total = fixture.total();
    KeyStateTables tables = fixture.tables();
    KeyStateTables.Held first = tables.take();
    KeyStateTables.Held second = tables.take(); // two slices at once: two tables
    assertThat(second).isNotSameAs(first);
    fill(first, 20_000, 2);
    fill(second, 30_000, 1);
    long held = search.used();
    assertThat(held).as("the grown tables charged").isGreaterThan(2L << 20);
    tables.put(first);
    tables.put(second);
    assertThat(tables.take()).as("a table put back is taken again").isIn(first, second);
    tables.drain();
    assertThat(search.used()).as("given back when drained").isZero();
    tables.release();
    assertThat(search.used()).as("once").isZero();
    assertThat(groupsAndRows(total)).containsExactly(30_000L, 20_000L * 2 + 30_000);
  }

  /**
   * No slice left to start: the tables put back are handed on at once for good, their memory given
   * back, while a table still held waits for the drain; the answer is the same.
   */
  @Test
  void idleTablesHandedOnWhenNoSliceIsLeftTheHeldOneAtTheDrain() {
    Fixture fixture = Fixture.of();
    MemoryAccount search = fixture.search();
    PageAggregator total = fixture.total();
    KeyStateTables tables = fixture.tables();
    KeyStateTables.Held done = tables.take();
    KeyStateTables.Held running = tables.take();
    fill(done, 20_000, 2);
    fill(running, 30_000, 1);
    long both = search.used();
    tables.put(done); // its thread's last slice ended
    assertThat(tables.handOnIdle()).as("the idle table").isEqualTo(1);
    long left = search.used();
    assertThat(left).as("the idle table's memory given back").isPositive().isLessThan(both);
    assertThat(tables.take()).as("not taken again: a new table").isNotSameAs(done);
    assertThat(tables.handOnIdle()).as("nothing idle: nothing handed on twice").isZero();
    tables.put(running);
    tables.drain();
    assertThat(search.used()).isZero();
    assertThat(groupsAndRows(total)).containsExactly(30_000L, 20_000L * 2 + 30_000);
  }

  /**
   * A table a slice took and put back with nothing in it (a slice takes one when it is made, and
   * may answer no event) hands nothing on: the early hand-on counts only tables whose states went
   * to the aggregation.
   */
  @Test
  void anEmptyIdleTableIsNotCountedAsHandedOn() {
    Fixture fixture = Fixture.of();
    KeyStateTables tables = fixture.tables();
    KeyStateTables.Held empty = tables.take();
    KeyStateTables.Held full = tables.take();
    fill(full, 1_000, 1);
    tables.put(empty);
    assertThat(tables.handOnIdle()).as("the empty table alone idle").isZero();
    tables.put(full);
    assertThat(tables.handOnIdle()).as("the one with keys").isEqualTo(1);
    assertThat(fixture.search().used()).isZero();
    tables.drain();
    assertThat(groupsAndRows(fixture.total())).containsExactly(1_000L, 1_000L);
  }

  /**
   * A slice takes its table when it is made ({@link KeyValueStates}), before the scan counts it
   * started: once no slice is left to start, no slice still takes an idle table. The table a
   * thread's slice put back goes to the slice made next on that thread, not to the early hand-on
   * another thread's ending slice makes; it is handed on when that slice ends, once.
   */
  @Test
  void aSliceTakesItsTableWhenMadeSoTheEarlyHandOnLeavesItToIt() {
    Fixture fixture = Fixture.of();
    KeyStateTables tables = fixture.tables();
    KeyStateTables.Held before = tables.take();
    fill(before, 20_000, 1);
    tables.put(before); // a thread's slice ended, the scan's last one to start still to come
    SearchControl control = new SearchControl();
    KeyValueStates last = // its last slice made: the scan counts it started after this
        new KeyValueStates(
            "k", tables, Sourcetypes.builtIn(), control, new AtomicLong(), event -> true);
    long held = fixture.search().used();
    assertThat(tables.handOnIdle())
        .as("another thread's slice ended: no table left that no slice takes")
        .isZero();
    assertThat(fixture.search().used()).as("the table kept for the last slice").isEqualTo(held);
    last.close(); // the last slice ended: its table put back
    assertThat(tables.handOnIdle()).as("the same table, handed on once").isEqualTo(1);
    assertThat(fixture.search().used()).isZero();
    tables.drain();
    assertThat(groupsAndRows(fixture.total())).containsExactly(20_000L, 20_000L);
  }

  @Test
  void aCountAloneKeepsNoTimesInHalfTheRecordsAndAnswersTheSameCounts() {
    long[] held = new long[2];
    for (boolean timed : new boolean[] {true, false}) {
      Fixture fixture =
          Fixture.of(
              256L << 20,
              new Parser(CommandRegistry.builtIns())
                  .parse("* | stats count by k")
                  .commands()
                  .get(1),
              timed);
      MemoryAccount search = fixture.search();
      PageAggregator total = fixture.total();
      KeyStateTables tables = fixture.tables();
      assertThat(tables.timed()).isEqualTo(timed);
      KeyStateTables.Held table = tables.take();
      assertThat(table.counts.timed()).isEqualTo(timed);
      fill(table, 100_000, 2);
      held[timed ? 0 : 1] = search.used();
      tables.put(table);
      tables.drain();
      assertThat(search.used()).as("given back when drained").isZero();
      assertThat(groupsAndRows(total)).as("timed " + timed).containsExactly(100_000L, 200_000L);
    }
    // each key's record four longs shorter (index, arena and ids the same): at least 3.2 MB
    assertThat(held[0] - held[1])
        .as("timed against counts alone")
        .isGreaterThanOrEqualTo(100_000L * 4 * 8);
  }

  /** The finished aggregation's groups and the rows they count; the aggregation closed. */
  /**
   * An interrupted scan stops waiting for its slices, releases the tables and closes the total; a
   * slice that ends after that hands nothing on into it (its groups would never be given back).
   */
  @Test
  void aHandOnAfterTheReleaseAddsNothing() {
    Fixture fixture = Fixture.of();
    KeyStateTables tables = fixture.tables();
    KeyStateTables.Held late = tables.take();
    fill(late, 20_000, 1);
    tables.release(); // the interrupted scan gave up waiting
    tables.put(late); // the late slice ended
    assertThat(tables.handOnIdle()).as("nothing handed on after the release").isZero();
    assertThat(fixture.search().used()).isZero();
    assertThat(fixture.totals().used())
        .as("no group added to the total after the release")
        .isZero();
    fixture.total().close();
  }

  private static List<Long> groupsAndRows(PageAggregator total) {
    total.finish();
    long groups = 0;
    long rows = 0;
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      groups += page.positionCount();
      var counts = (io.quarry.plugin.api.data.LongBlock) page.block("count");
      for (int p = 0; p < page.positionCount(); p++) {
        rows += counts.getLongValue(p);
      }
    }
    total.close();
    return List.of(groups, rows);
  }

  @Test
  void releasedAfterAFailureAndOverTheLimitTheTypedError() {
    Fixture fixture = Fixture.of(1L << 20, command(), true);
    MemoryAccount search = fixture.search();
    PageAggregator total = fixture.total();
    KeyStateTables tables = fixture.tables();
    KeyStateTables.Held held = tables.take();
    assertThatThrownBy(() -> fill(held, 100_000, 1))
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("stats");
    assertThat(search.used()).isPositive().isLessThanOrEqualTo(1L << 20);
    tables.release();
    assertThat(search.used()).isZero();
    tables.release();
    assertThat(search.used()).isZero();
    total.close();
  }
}
