package io.quarry.codecs.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.junit.jupiter.api.Test;

/**
 * A record whose texts are ranges of one body, byte for byte against the grammar written out
 * independently (WalCodecTest's grammar case copies its texts: a non-ASCII one is among them): the
 * gaps (CRLF line ends, a blank line, a first text not at the body's start), lengths, an empty
 * text, and the body as the span from the first text's start to the last one's end.
 */
class WalOneBodyGrammarTest {
  @Test
  void textsInOneBodyAreTheirGapsAndLengthsAndTheBodysSpan() throws IOException {
    String body = "junk\r\nGET /a 200\r\n\r\nPOST /b 404\r\nx\r\n\r\nlast line";
    byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
    int[][] ranges = {
      {6, 10}, // GET /a 200
      {20, 11}, // POST /b 404 (after a blank CRLF line)
      {33, 1}, // x
      {33 + 1, 0}, // an empty text right after it (ranges never overlap; an empty one may touch)
      {38, 9} // last line, at the body's very end
    };
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < ranges.length; i++) {
      events.add(
          Event.ofAscii(
              1_000L * i - 500,
              bytes,
              ranges[i][0],
              ranges[i][1],
              null,
              i < 2 ? "web-1" : "web-2",
              "access.log",
              "access_combined",
              i == 1 ? Map.of("status", List.of("404")) : Map.of()));
    }
    assertThat(events.get(0).raw()).isEqualTo("GET /a 200");
    assertThat(events.get(1).raw()).isEqualTo("POST /b 404");
    assertThat(events.get(4).raw()).isEqualTo("last line");

    ByteBuffersDataOutput grammar = new ByteBuffersDataOutput();
    grammar.writeVInt(5);
    grammar.writeVInt(5); // strings: web-1, access.log, access_combined, status, web-2
    for (String s : List.of("web-1", "access.log", "access_combined", "status", "web-2")) {
      grammar.writeString(s);
    }
    int previousEnd = 6;
    int[] hosts = {0, 0, 4, 4, 4};
    for (int i = 0; i < ranges.length; i++) {
      grammar.writeZLong(1_000L * i - 500);
      grammar.writeVInt(ranges[i][0] - previousEnd);
      grammar.writeVInt(ranges[i][1]);
      previousEnd = ranges[i][0] + ranges[i][1];
      grammar.writeVInt(hosts[i]);
      grammar.writeVInt(1);
      grammar.writeVInt(2);
      if (i == 1) {
        grammar.writeVInt(1);
        grammar.writeVInt(3);
        grammar.writeVInt(1);
        grammar.writeString("404");
      } else {
        grammar.writeVInt(0);
      }
    }
    grammar.writeBytes(bytes, 6, bytes.length - 6); // the span: first start to the body's end

    EncodedBatch batch = EncodedBatch.of(events);
    assertThat(batch.pieces()[1].array()).as("written from the body itself").isSameAs(bytes);
    assertThat(WalCodecTest.bytes(batch)).isEqualTo(grammar.toArrayCopy());
    WalCodec.Batch decoded = WalCodecTest.decode(batch, 77);
    assertThat(decoded.firstSeq()).isEqualTo(77);
    assertThat(decoded.events()).isEqualTo(events);
    assertThat(decoded.events().get(3).raw()).isEmpty();
  }
}
