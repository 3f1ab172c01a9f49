package io.quarry.codecs.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log written in WAL format version 1 (before session 35) still replays: the file in {@code
 * src/test/resources/wal/v1} was written by session 34's code, as its README there says, and holds
 * the events listed here (ASCII ranges of one body, texts with multi-byte and four-byte characters,
 * an empty text, fields of several values).
 */
class WalVersion1ReplayTest {
  @TempDir Path directory;

  @Test
  void aVersion1FileReplaysItsEventsAndTheLogGoesOn() throws IOException {
    Path wal = directory.resolve("wal");
    Files.createDirectories(wal);
    try (InputStream in = getClass().getResourceAsStream("/wal/v1/wal-1.log")) {
      Files.copy(in, wal.resolve("wal-1.log"));
    }
    List<Long> firstSeqs = new ArrayList<>();
    List<Event> replayed = new ArrayList<>();
    try (WriteAheadLog log =
        WriteAheadLog.open(
            wal,
            directory.resolve("quarantine"),
            (firstSeq, events) -> {
              firstSeqs.add(firstSeq);
              replayed.addAll(events);
            })) {
      assertThat(log.damage()).isEmpty();
      log.sync(log.append(4, List.of(new Event(7L, "after", "h", "s", "t", Map.of()))));
    }
    assertThat(firstSeqs).containsExactly(0L, 2L);
    assertThat(replayed).hasSize(4);
    expect(
        replayed.get(0),
        1_700_000_000_000_000L,
        "1.2.3.4 - - GET /a 200",
        "web-1",
        "access.log",
        "access_combined",
        Map.of("status", List.of("200")));
    expect(
        replayed.get(1),
        1_700_000_000_500_000L,
        "5.6.7.8 - - POST /b 404",
        "web-1",
        "access.log",
        "access_combined",
        Map.of("status", List.of("404")));
    expect(
        replayed.get(2),
        -5L,
        "h\u00e9llo \u65e5\u672c \uD83D\uDE00",
        "h\u00f6st",
        "src",
        "st",
        Map.of());
    expect(
        replayed.get(3),
        42L,
        "",
        "h",
        "s",
        "t",
        Map.of("multi", List.of("a", "\u00fc", ""), "one", List.of("x")));
    // the log went on in a file of its own format after the old one; both replay
    assertThat(Files.exists(wal.resolve("wal-2.log"))).isTrue();
    List<Event> again = new ArrayList<>();
    try (WriteAheadLog log =
        WriteAheadLog.open(
            wal, directory.resolve("quarantine"), (s, events) -> again.addAll(events))) {
      assertThat(log.damage()).isEmpty();
    }
    assertThat(again.subList(0, 4)).isEqualTo(replayed);
    assertThat(again).hasSize(5);
    expect(again.get(4), 7L, "after", "h", "s", "t", Map.of());
  }

  private static void expect(
      Event event,
      long time,
      String raw,
      String host,
      String source,
      String sourcetype,
      Map<String, List<String>> fields) {
    assertThat(event.timeMicros()).isEqualTo(time);
    assertThat(event.raw()).isEqualTo(raw);
    assertThat(event.host()).isEqualTo(host);
    assertThat(event.source()).isEqualTo(source);
    assertThat(event.sourcetype()).isEqualTo(sourcetype);
    assertThat(Map.copyOf(event.indexedFields())).isEqualTo(fields);
  }
}
