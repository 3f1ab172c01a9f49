package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry fsck} on a write-ahead log file this build cannot read: it names the file and the
 * versions it reads, counts it as damage and exits 1 (it threw before, ending the whole check), and
 * says what the server does with it: it does not start (mendc: fsck said it did not open the index,
 * but the store's open throws), never deleting the file.
 */
class FsckCommandTest {
  @TempDir Path data;

  @Test
  void aWalFileOfAnUnknownVersionIsReportedByName() throws Exception {
    Path wal = Files.createDirectories(data.resolve("indexes/main/wal"));
    ByteBuffer header = ByteBuffer.allocate(20);
    header.put("QUARRYWL".getBytes(StandardCharsets.US_ASCII)).putInt(99).putLong(7);
    Files.write(wal.resolve("wal-7.log"), header.array());
    Files.write(wal.resolve("wal-8.log"), "NOTAWAL!".repeat(3).getBytes(StandardCharsets.US_ASCII));

    String printed = CliRun.printed(1, "fsck", "--data-dir=" + data);

    assertThat(printed)
        .containsPattern(
            "main\\s+wal wal-7\\.log\\s+UNREADABLE: Quarry WAL file \\S*wal-7\\.log is"
                + " version 99; this build reads versions 1\\.\\.2")
        .containsPattern("main\\s+wal wal-8\\.log\\s+UNREADABLE: not a Quarry WAL file")
        .contains("2 WAL files checked, 2 damaged")
        .contains("the server does not start while the file is there");

    // what fsck says is true: the store does not open, and keeps both files
    assertThatThrownBy(
            () ->
                EventStore.open(data, java.util.Map.of("main", IndexOptions.builder().build()))
                    .close())
        .isInstanceOf(java.io.IOException.class)
        .hasMessageContaining("wal-7.log");
    assertThat(wal.resolve("wal-7.log")).exists();
    assertThat(wal.resolve("wal-8.log")).exists();
  }
}
