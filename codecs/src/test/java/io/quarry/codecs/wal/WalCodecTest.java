package io.quarry.codecs.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/** The log's record bytes are Lucene's {@code writeString} bytes, whichever encoder made them. */
class WalCodecTest {
  private static final String[] PIECES = {
    "GET /a?b=c HTTP/1.1",
    "?",
    "é",
    "ü?",
    "日本",
    "\uD83D\uDE00",
    "\uD800",
    "\uDC00",
    "x",
    " ",
    "\u007F",
    "\u0080",
    "\u07FF",
    "\u0800",
    "\uFFFF"
  };

  @Test
  void stringsAreWrittenAsLuceneWritesThem() throws IOException {
    Random random = new Random(42);
    List<String> texts = new ArrayList<>(List.of("", "?", "\uD800?", "?\uDBFF", "plain ascii"));
    for (int i = 0; i < 2_000; i++) {
      StringBuilder text = new StringBuilder();
      int pieces = random.nextInt(i % 100 == 0 ? 400 : 8);
      for (int p = 0; p < pieces; p++) {
        text.append(PIECES[random.nextInt(PIECES.length)]);
      }
      texts.add(text.toString());
    }
    for (String text : texts) {
      ByteBuffersDataOutput ours = new ByteBuffersDataOutput();
      int written = WalCodec.writeString(ours, text);
      ByteBuffersDataOutput lucene = new ByteBuffersDataOutput();
      lucene.writeString(text);
      assertThat(ours.toArrayCopy())
          .as(() -> text.chars().mapToObj(c -> Integer.toHexString(c)).toList().toString())
          .isEqualTo(lucene.toArrayCopy());
      assertThat(written).isEqualTo(new BytesRef(text).length);
    }
    // the log's own output (short ASCII strings written straight into its array, a string that
    // turns out not to be ASCII written by the general path): all texts back to back, from a
    // small array that has to grow
    WalCodec.Output array = new WalCodec.Output(0);
    ByteBuffersDataOutput lucene = new ByteBuffersDataOutput();
    for (String text : texts) {
      WalCodec.writeString(array, text);
      lucene.writeString(text);
    }
    assertThat(Arrays.copyOf(array.bytes, array.length)).isEqualTo(lucene.toArrayCopy());
  }

  @Test
  void rawBytesGivenBeforehandEncodeAsTheTexts() throws IOException {
    Random random = new Random(23);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      StringBuilder raw = new StringBuilder();
      int pieces = random.nextInt(i % 50 == 0 ? 300 : 40);
      for (int p = 0; p < pieces; p++) {
        raw.append(random.nextInt(3) == 0 ? PIECES[random.nextInt(PIECES.length)] : "GET /a");
      }
      String value = random.nextBoolean() ? "v" + i : PIECES[random.nextInt(PIECES.length)];
      events.add(new Event(i, raw.toString(), "h", "s", "st", Map.of("f", List.of(value))));
    }
    byte[][] ascii = new byte[events.size()][];
    for (int i = 0; i < ascii.length; i++) {
      ascii[i] = AsciiText.bytesOf(events.get(i).raw());
    }
    EncodedBatch plain = EncodedBatch.of(events);
    EncodedBatch given = EncodedBatch.of(events, ascii);
    assertThat(Arrays.copyOf(given.events(), given.length()))
        .isEqualTo(Arrays.copyOf(plain.events(), plain.length()));
    assertThat(given.rawBytes()).isEqualTo(plain.rawBytes());
  }

  @Test
  void eventsRoundTripAndCountTheirRawBytes() throws IOException {
    List<Event> events =
        List.of(
            new Event(1, "a?b", "h", "s", "st", Map.of()),
            new Event(-7, "é \uD83D\uDE00", "h", "s", "st", Map.of("f", List.of("1", "?"))));
    EncodedBatch batch = EncodedBatch.of(events);
    assertThat(batch.rawBytes()).isEqualTo(3 + 2 + 1 + 4);
    ByteBuffersDataOutput record = new ByteBuffersDataOutput();
    record.writeVLong(1L << 40);
    record.writeBytes(batch.events(), batch.length());
    WalCodec.Batch decoded = WalCodec.decode(record.toArrayCopy());
    assertThat(decoded.firstSeq()).isEqualTo(1L << 40);
    assertThat(decoded.events()).isEqualTo(events);
  }
}
