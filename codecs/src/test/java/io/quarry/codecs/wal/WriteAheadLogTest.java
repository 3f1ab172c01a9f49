package io.quarry.codecs.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
            quarantine(),
            (firstSeq, events) -> {
              for (int i = 0; i < events.size(); i++) {
                seen.add((firstSeq + i) + ":" + events.get(i).raw());
              }
            })
        .close();
    return seen;
  }

  @TempDir Path quarantineDirectory; // its own: a sibling of the log's was left behind in /tmp

  private Path quarantine() {
    return quarantineDirectory;
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.sorted().toList();
    }
  }

  @Test
  void replaysEveryBatchInOrderAcrossGenerations() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
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
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.append(0, batch("kept"));
      log.append(1, batch("torn"));
    }
    Path last = files().get(files().size() - 1);
    try (FileChannel channel = FileChannel.open(last, StandardOpenOption.WRITE)) {
      channel.truncate(channel.size() - 3);
    }
    assertThat(replay()).containsExactly("0:kept");
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.sync(log.append(1, batch("after")));
    }
    assertThat(replay()).containsExactly("0:kept", "1:after");
  }

  @Test
  void aTornTailKeepsItsBytesInQuarantine() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.append(0, batch("kept"));
      log.append(1, batch("torn"));
    }
    Path last = files().get(files().size() - 1);
    long size = Files.size(last);
    try (FileChannel channel = FileChannel.open(last, StandardOpenOption.WRITE)) {
      channel.truncate(size - 3);
    }
    assertThat(replay()).containsExactly("0:kept");
    try (Stream<Path> kept = Files.list(quarantine())) {
      assertThat(kept.map(p -> p.getFileName().toString()))
          .singleElement()
          .satisfies(name -> assertThat(name).startsWith(last.getFileName() + ".torn-at-"));
    }
  }

  @Test
  void aFlippedBitInTheLastRecordOfTheNewestFileIsATornTail() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.append(0, batch("first"));
      log.append(1, batch("second"));
    }
    flip(files().get(files().size() - 1), "second");
    WriteAheadLog opened = WriteAheadLog.open(directory, quarantine(), (s, e) -> {});
    opened.close();
    assertThat(opened.damage()).isEmpty();
    assertThat(replay()).containsExactly("0:first");
  }

  @Test
  void zerosAfterTheLastRecordAreATornTail() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.append(0, batch("first"));
    }
    Path last = files().get(files().size() - 1);
    Files.write(last, new byte[4096], StandardOpenOption.APPEND);
    WriteAheadLog opened = WriteAheadLog.open(directory, quarantine(), (s, e) -> {});
    opened.close();
    assertThat(opened.damage()).isEmpty();
    assertThat(replay()).containsExactly("0:first");
  }

  @Test
  void aFlippedBitInTheMiddleIsDamageThatLosesNothingElse() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.append(0, batch("first"));
      log.append(1, batch("second"));
      log.append(2, batch("third"));
      log.roll();
      log.sync(log.append(3, batch("fourth")));
    }
    List<Path> before = files();
    Path damaged = before.get(before.size() - 2);
    flip(damaged, "second");

    List<String> seen = new ArrayList<>();
    WriteAheadLog opened =
        WriteAheadLog.open(
            directory,
            quarantine(),
            (firstSeq, events) -> events.forEach(e -> seen.add(firstSeq + ":" + e.raw())));
    opened.close();

    assertThat(seen)
        .as("the records before the damage and every later file")
        .containsExactly("0:first", "3:fourth");
    assertThat(opened.damage())
        .singleElement()
        .satisfies(
            damage -> {
              assertThat(damage.problem()).isEqualTo("a record failing its checksum");
              assertThat(damage.lastGoodSeq()).isZero();
              assertThat(damage.file()).isEqualTo(quarantine().resolve(damaged.getFileName()));
              assertThat(damage.unreadBytes()).isGreaterThan(0);
            });
    assertThat(Files.readAllBytes(quarantine().resolve(damaged.getFileName())))
        .as("the damaged file is kept whole for recovery")
        .contains("third".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    assertThat(directory.resolve(damaged.getFileName())).doesNotExist();
  }

  @Test
  void aCorruptRecordFollowedByGoodOnesInTheNewestFileIsDamageNotATornTail() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.append(0, batch("first"));
      log.append(1, batch("second"));
      log.append(2, batch("third"));
    }
    Path newest = files().get(files().size() - 1);
    flip(newest, "second");
    WriteAheadLog opened = WriteAheadLog.open(directory, quarantine(), (s, e) -> {});
    opened.close();
    assertThat(opened.damage()).hasSize(1);
    assertThat(Files.readAllBytes(quarantine().resolve(newest.getFileName())))
        .as("the acknowledged record after the damage is not cut away")
        .contains("third".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
  }

  @Test
  void checkReportsDamageAndATornTailWithoutChangingAFile() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.append(0, batch("first"));
      log.append(1, batch("second"));
      log.roll();
      log.append(2, batch("third"));
      log.sync(log.append(3, batch("fourth")));
    }
    List<Path> files = files();
    Path older = files.get(files.size() - 2);
    Path newest = files.get(files.size() - 1);
    flip(older, "first");
    try (FileChannel channel = FileChannel.open(newest, StandardOpenOption.WRITE)) {
      channel.truncate(channel.size() - 2);
    }
    long olderSize = Files.size(older);
    long newestSize = Files.size(newest);

    List<WalFileCheck> checks = WalFileCheck.checkAll(directory);

    assertThat(checks)
        .extracting(c -> c.file().getFileName())
        .contains(older.getFileName(), newest.getFileName());
    WalFileCheck damaged =
        checks.stream().filter(c -> c.file().equals(older)).findFirst().orElseThrow();
    assertThat(damaged.clean()).isFalse();
    assertThat(damaged.tornTail()).isFalse();
    assertThat(damaged.problem()).isEqualTo("a record failing its checksum");
    WalFileCheck torn =
        checks.stream().filter(c -> c.file().equals(newest)).findFirst().orElseThrow();
    assertThat(torn.tornTail()).isTrue();
    assertThat(Files.size(older)).isEqualTo(olderSize);
    assertThat(Files.size(newest)).as("check changes nothing").isEqualTo(newestSize);
  }

  @Test
  void checkReportsAFileOfAnUnknownVersionWithTheVersionsItReads() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.sync(log.append(0, batch("first")));
    }
    Path file = files().getLast();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.write(java.nio.ByteBuffer.allocate(Integer.BYTES).putInt(0, 3), 8); // the version
    }

    List<WalFileCheck> checks = WalFileCheck.checkAll(directory);

    assertThat(checks).hasSize(1);
    WalFileCheck check = checks.getFirst();
    assertThat(check.file()).isEqualTo(file);
    assertThat(check.clean()).isFalse();
    assertThat(check.unsupported()).isTrue();
    assertThat(check.tornTail()).isFalse();
    assertThat(check.problem())
        .contains(file.toString())
        .contains("is version 3; this build reads versions 1..2");
  }

  @Test
  void aFailedFsyncStopsTheLogUntilItIsReopened() throws IOException {
    java.util.concurrent.atomic.AtomicBoolean diskFails =
        new java.util.concurrent.atomic.AtomicBoolean();
    WriteAheadLog log =
        WriteAheadLog.open(
            directory,
            quarantine(),
            (s, e) -> {},
            channel -> {
              if (diskFails.get()) {
                throw new IOException("EIO");
              }
              channel.force(false);
            });
    log.sync(log.append(0, batch("durable")));
    diskFails.set(true);
    long position = log.append(1, batch("maybe lost"));
    assertThatThrownBy(() -> log.sync(position))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("stopped accepting writes");
    diskFails.set(false); // a retry would now "succeed": the log must not believe it
    assertThat(log.failed()).isTrue();
    assertThatThrownBy(() -> log.append(2, batch("refused")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("restart the server");
    assertThatThrownBy(() -> log.sync(position)).isInstanceOf(IOException.class);
    assertThatThrownBy(log::roll).isInstanceOf(IOException.class);
    log.close();
    assertThat(replay()).as("reopened, the log replays what is on disk").startsWith("0:durable");
  }

  @Test
  void aNewFileThatCannotStartStopsTheLog() throws IOException {
    WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {});
    log.sync(log.append(0, batch("durable")));
    long next;
    try (Stream<Path> files = Files.list(directory)) {
      next =
          files
                  .map(f -> f.getFileName().toString())
                  .filter(n -> n.matches("wal-\\d+\\.log"))
                  .mapToLong(n -> Long.parseLong(n.substring(4, n.length() - 4)))
                  .max()
                  .orElseThrow()
              + 1;
    }
    Path squatter = Files.writeString(directory.resolve("wal-" + next + ".log"), "not ours");
    assertThatThrownBy(log::roll)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("starting log file " + next + " failed")
        .hasMessageContaining("restart the server");
    assertThat(log.failed()).as("no file is open for appends: the log fails stop").isTrue();
    assertThatThrownBy(() -> log.append(1, batch("refused")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("starting log file " + next + " failed");
    assertThat(Files.readString(squatter))
        .as("a file it did not create is left alone")
        .isEqualTo("not ours");
    log.close();
    Files.delete(squatter);
    assertThat(replay())
        .as("reopened, the log replays what is on disk")
        .containsExactly("0:durable");
  }

  private static void flip(Path file, String inside) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int at = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf(inside);
    assertThat(at).as("'%s' in %s", inside, file).isPositive();
    bytes[at] ^= 0x20;
    Files.write(file, bytes);
  }

  @Test
  void deletesGenerationsOnceCovered() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(directory, quarantine(), (s, e) -> {})) {
      log.append(0, batch("a"));
      long next = log.roll();
      log.append(1, batch("b"));
      log.deleteBefore(next);
    }
    assertThat(replay()).containsExactly("1:b");
  }
}
