package io.quarry.codecs.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a version-2 record costs and what it may hold, at the edges the grammar's tests do not
 * reach: a batch of many distinct hosts and sources (a HEC batch from many machines), a batch whose
 * first event carries much larger index-time fields than the rest, and a batch larger than a record
 * the log reads back.
 */
class WalRecordBoundsTest {
  @TempDir Path directory;

  @Test
  void aBatchOfManyDistinctHostsAndSourcesEncodesInLinearTime() throws IOException {
    // 100,000 events, each from a host and a source of its own: the record's string table has
    // 200,000 entries; looking each up by a linear search is ~10^10 comparisons (minutes)
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      events.add(
          new Event(i, "GET /" + i, "host-" + i, "/var/log/app-" + i + ".log", "st", Map.of()));
    }
    List<Event> decoded =
        assertTimeoutPreemptively(
            Duration.ofSeconds(20), () -> WalCodecTest.decode(EncodedBatch.of(events), 0).events());
    assertThat(decoded).isEqualTo(events);
  }

  @Test
  void aFirstEventWithLargeFieldsDoesNotSizeTheRecordForEveryEvent() throws IOException {
    // the first event carries a 50,000-character index-time field (a HEC event's "fields"), the
    // 5,000 others none: the record is ~250 KB, so an array of hundreds of MB (the first event's
    // field bytes times the event count, up to 1 GiB) is memory an ingest request never needed
    List<Event> events = new ArrayList<>();
    events.add(new Event(0, "first", "h", "s", "st", Map.of("blob", List.of("x".repeat(50_000)))));
    for (int i = 1; i < 5_000; i++) {
      events.add(new Event(i, "event " + i, "h", "s", "st", Map.of()));
    }
    WalCodec.Encoded encoded = WalCodec.encode(events);
    assertThat(encoded.out().length).isLessThan(1 << 20);
    assertThat(encoded.out().bytes.length)
        .as("the array sized for a %d-byte record", encoded.out().length)
        .isLessThan(8 << 20);
  }

  @Test
  void aBatchLargerThanARecordTheLogReadsIsRefusedOrReplayed() throws IOException {
    // one event over a body just past the log's record limit (1 GiB, WalFile.MAX_RECORD_BYTES),
    // as a /raw request under a server.maxRequestBytes above 1 GiB would make: either the append
    // refuses it (never acknowledged) or the log replays it; it must not be acknowledged and then
    // cut off on replay as a "torn tail"
    int length = WalFile.MAX_RECORD_BYTES + 1024;
    byte[] body = new byte[length];
    java.util.Arrays.fill(body, (byte) 'a');
    Event huge = Event.ofAscii(1, body, 0, length, null, "h", "s", "st", Map.of());
    Path wal = directory.resolve("wal");
    Path quarantine = directory.resolve("quarantine");
    boolean acknowledged;
    try (WriteAheadLog log = WriteAheadLog.open(wal, quarantine, (s, e) -> {})) {
      try {
        log.sync(log.append(0, List.of(huge)));
        acknowledged = true;
      } catch (WriteAheadLog.RecordTooLarge refused) {
        acknowledged = false; // the request is too large (HEC: 413), not the server busy
      }
    }
    body = null;
    huge = null;
    List<Integer> replayedLengths = new ArrayList<>();
    try (WriteAheadLog log =
        WriteAheadLog.open(
            wal,
            quarantine,
            (s, events) -> events.forEach(e -> replayedLengths.add(e.rawLength())))) {
      if (acknowledged) {
        assertThat(replayedLengths).as("an acknowledged batch replays").containsExactly(length);
      } else {
        assertThat(replayedLengths).isEmpty();
        assertThat(log.damage()).isEmpty();
      }
    }
  }
}
