package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.block.EventBlockWriter;
import io.quarry.codecs.store.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.lucene.store.ByteArrayDataOutput;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 34, review-d): a frame with a zstd block ended at the times is one that the zstd
 * CLI decodes.
 */
class FlushedFrameZstdCliTest {
  @TempDir Path dir;

  @Test
  void theZstdCommandDecodesAFlushedFrame() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/zstd")));
    List<Event> events = new ArrayList<>();
    for (int e = 0; e < 3000; e++) {
      events.add(
          new Event(
              1_700_000_000_000_000L - e * 1000L,
              "10.0.0." + (e % 250) + " GET /item/" + (e * 7919 % 10007) + " HTTP/1.1 200",
              "h",
              "s",
              "access_combined",
              Map.of()));
    }
    byte[] field = EventBlockWriter.write(events);
    byte[] doc = new byte[field.length + 32];
    ByteArrayDataOutput out = new ByteArrayDataOutput(doc);
    out.writeVInt(1);
    out.writeVInt(JournalStoredFieldsWriter.BINARY);
    out.writeVInt(field.length);
    out.writeBytes(field, field.length);
    int docLength = out.getPosition();
    byte[] raw = new byte[docLength + 5];
    ByteArrayDataOutput whole = new ByteArrayDataOutput(raw);
    whole.writeVInt(docLength);
    whole.writeBytes(doc, docLength);
    raw = Arrays.copyOf(raw, whole.getPosition());
    assertThat(JournalTimesEnd.of(raw, raw.length, 1)).isPositive();
    for (boolean compact : new boolean[] {false, true}) {
      byte[] target = new byte[JournalCodec.ZSTD.maxCompressedLength(raw.length)];
      int length = JournalCodec.ZSTD.compress(raw, raw.length, 1, target, compact);
      Path frame = dir.resolve("f" + compact + ".zst");
      Path decoded = dir.resolve("f" + compact);
      Files.write(frame, Arrays.copyOf(target, length));
      Process zstd =
          new ProcessBuilder(
                  "/usr/bin/zstd", "-q", "-d", "-f", frame.toString(), "-o", decoded.toString())
              .redirectErrorStream(true)
              .start();
      String said = new String(zstd.getInputStream().readAllBytes());
      assertThat(zstd.waitFor()).as(said).isZero();
      assertThat(Files.readAllBytes(decoded)).isEqualTo(raw);
    }
  }
}
