package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.ql.exec.SearchResources;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link EventListing} as a pull operator: it takes rows while it holds less than a page, hands a
 * whole page per pull (its rows in arrival order, across the input pages), the rest once its input
 * is over, none past the answer's room, and closed it drops what it holds. The rows it holds count
 * in the search's memory until handed on, what it reserved given back once when closed, and over
 * the search's limit it takes nothing more.
 */
class EventListingOperatorTest {
  private static final int PAGE = 4;

  @Test
  void handsWholePagesAcrossInputPagesThenTheRestOnceFinished() {
    EventListing listing = listing(() -> Long.MAX_VALUE);
    List<Page> out = new ArrayList<>();
    assertThat(listing.needsInput()).isTrue();
    listing.addInput(events(0, 3));
    assertThat(listing.getOutput()).isNull(); // three rows: less than a page
    assertThat(listing.needsInput()).isTrue();
    listing.addInput(events(3, 3));
    assertThat(listing.needsInput()).isFalse(); // a page's rows held: it waits to be pulled
    out.add(listing.getOutput());
    assertThat(listing.getOutput()).isNull();
    assertThat(listing.isFinished()).isFalse();
    listing.finish();
    out.add(listing.getOutput());
    assertThat(listing.getOutput()).isNull();
    assertThat(listing.isFinished()).isTrue();
    listing.close();
    assertThat(out).extracting(Page::positionCount).containsExactly(4, 2);
    assertThat(raws(out)).containsExactly("e0", "e1", "e2", "e3", "e4", "e5");
    assertThatThrownBy(() -> listing.addInput(events(6, 1)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void cutsTheLastPageToTheAnswersRoomAndIsFinishedOnceItIsFull() {
    AtomicLong room = new AtomicLong(5);
    EventListing listing = listing(room::get);
    List<Page> out = new ArrayList<>();
    listing.addInput(events(0, 10));
    for (Page page = listing.getOutput(); page != null; page = listing.getOutput()) {
      out.add(page);
      room.addAndGet(-page.positionCount()); // the answer took it
    }
    assertThat(out).extracting(Page::positionCount).containsExactly(4, 1);
    assertThat(listing.isFinished()).isTrue(); // no room left: finished before its input is over
    assertThat(listing.needsInput()).isFalse();
    listing.close();
  }

  @Test
  void closedItDropsWhatItHoldsAndHandsNothingMore() {
    EventListing listing = listing(() -> Long.MAX_VALUE);
    listing.addInput(events(0, 3));
    listing.close();
    listing.close(); // once: a second close does nothing
    assertThat(listing.getOutput()).isNull();
    assertThat(listing.isFinished()).isTrue();
  }

  @Test
  void theRowsItHoldsCountUntilHandedOnAndItsReservationGoesBackOnClose() {
    MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
    MemoryTracker memory = new SearchResources(account, () -> false, w -> {}).tracker("listing");
    EventListing listing = listing(() -> Long.MAX_VALUE, memory);
    listing.addInput(events(0, 3));
    assertThat(memory.used()).isEqualTo(3 * MemoryTracker.ROW_BYTES);
    assertThat(account.used()).isGreaterThanOrEqualTo(3 * MemoryTracker.ROW_BYTES);
    listing.addInput(events(3, 3));
    assertThat(memory.used()).isEqualTo(6 * MemoryTracker.ROW_BYTES);
    assertThat(listing.getOutput().positionCount()).isEqualTo(PAGE);
    assertThat(memory.used()).as("a page handed on").isEqualTo(2 * MemoryTracker.ROW_BYTES);
    listing.close();
    listing.close();
    assertThat(memory.used()).isZero();
    assertThat(account.used()).as("given back once").isZero();
  }

  @Test
  void overTheSearchsLimitItTakesNothingMoreAndClosedLeavesNothingReserved() {
    // room for one row's chunk: the tracker reserves in chunks, so the limit is a chunk's bytes
    MemoryAccount account = new MemoryAccount("test", 300 << 10);
    MemoryTracker memory = new SearchResources(account, () -> false, w -> {}).tracker("listing");
    EventListing listing = listing(() -> Long.MAX_VALUE, memory);
    listing.addInput(events(0, 1)); // one row: within the first chunk
    assertThatThrownBy(() -> listing.addInput(events(1, 1_000))) // 512,000 bytes more
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("listing");
    listing.finish();
    assertThat(listing.getOutput().positionCount())
        .as("the row it held, nothing more")
        .isEqualTo(1);
    assertThat(listing.getOutput()).isNull();
    listing.close();
    assertThat(account.used()).isZero();
  }

  private static EventListing listing(java.util.function.LongSupplier room) {
    return listing(room, MemoryTracker.unbounded("listing"));
  }

  private static EventListing listing(java.util.function.LongSupplier room, MemoryTracker memory) {
    return new EventListing(
        Set.of(),
        Sourcetypes.builtIn(),
        false,
        false,
        ListedFields.of(List.of()),
        new SearchControl(),
        memory,
        room,
        PAGE);
  }

  /** {@code count} events numbered from {@code from}, each with every default field. */
  private static Page events(int from, int count) {
    List<List<List<Object>>> columns = new ArrayList<>();
    for (String field : EventListing.DEFAULT_ORDER) {
      List<List<Object>> cells = new ArrayList<>();
      for (int e = from; e < from + count; e++) {
        cells.add(
            List.of(
                switch (field) {
                  case "_time" -> (Object) (1_700_000_000_000_000L + e);
                  case "_raw" -> "e" + e;
                  default -> field + e % 2;
                }));
      }
      columns.add(cells);
    }
    return PageBuilder.toPage(EventListing.DEFAULT_ORDER, columns, count);
  }

  private static List<Object> raws(List<Page> pages) {
    List<Object> raws = new ArrayList<>();
    for (Page page : pages) {
      for (int p = 0; p < page.positionCount(); p++) {
        raws.add(page.block("_raw").getValues(p).iterator().next());
      }
    }
    return raws;
  }
}
