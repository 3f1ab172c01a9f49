package io.quarry.codecs.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteAheadLogTest {
  @TempDir Path directory;

  private static List<Event> batch(String... raws) {
    List<Event> events = new ArrayList<>();
    for (String raw : raws) {
      events.add(new Event(raw.length(), raw, "h", "s", "st", Map.of("f", List.of("a", "b"))));
    }
    return events;
  }

  private List<String> replay() throws IOException {
    List<String> seen = new ArrayList<>();
    WriteAheadLog.open(
            directory,
            (firstSeq, events) -> {
              for (int i = 0; i < events.size(); i++) {
                seen.add((firstSeq + i) + ":" + events.get(i).raw());
              }
            })
        .close();
    return seen;
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.sorted().toList();
    }
  }

  @Test
  void replaysEveryBatchInOrderAcrossGenerations() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, (s, e) -> {})) {
      log.sync(log.append(0, batch("a", "b")));
      log.roll();
      long position = log.append(2, batch("c"));
      log.append(3, batch("d", "e"));
      log.sync(position);
    }
    assertThat(replay()).containsExactly("0:a", "1:b", "2:c", "3:d", "4:e");
    assertThat(replay())
        .as("replay is repeatable")
        .containsExactly("0:a", "1:b", "2:c", "3:d", "4:e");
  }

  @Test
  void aTornTailIsDroppedAndTheLogStaysUsable() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, (s, e) -> {})) {
      log.append(0, batch("kept"));
      log.append(1, batch("torn"));
    }
    Path last = files().get(files().size() - 1);
    try (FileChannel channel = FileChannel.open(last, StandardOpenOption.WRITE)) {
      channel.truncate(channel.size() - 3);
    }
    assertThat(replay()).containsExactly("0:kept");
    try (WriteAheadLog log = WriteAheadLog.open(directory, (s, e) -> {})) {
      log.sync(log.append(1, batch("after")));
    }
    assertThat(replay()).containsExactly("0:kept", "1:after");
  }

  @Test
  void aFlippedBitEndsTheLogAtThatRecord() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, (s, e) -> {})) {
      log.append(0, batch("first"));
      log.append(1, batch("second"));
      log.append(2, batch("third"));
    }
    Path file = files().get(files().size() - 1);
    byte[] bytes = Files.readAllBytes(file);
    int second = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("second");
    bytes[second] ^= 0x20;
    Files.write(file, bytes);
    assertThat(replay()).containsExactly("0:first");
  }

  @Test
  void deletesGenerationsOnceCovered() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, (s, e) -> {})) {
      log.append(0, batch("a"));
      long next = log.roll();
      log.append(1, batch("b"));
      log.deleteBefore(next);
    }
    assertThat(replay()).containsExactly("1:b");
  }
}
