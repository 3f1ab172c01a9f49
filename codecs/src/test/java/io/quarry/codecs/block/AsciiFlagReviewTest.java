package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * review-c: without -ea (production), a caller's asciiRaws entry that is not ASCII is trusted: the
 * header records ALL_ASCII for bytes that are not, which every search then views one byte per
 * character (before the flag, the reader checked the bytes itself).
 */
class AsciiFlagReviewTest {
  static {
    AsciiFlagReviewTest.class
        .getClassLoader()
        .setClassAssertionStatus("io.quarry.codecs.block.EventBlockWriter", false);
  }

  @Test
  void givenBytesThatAreNotAsciiAreNotRecordedAsAscii() throws Exception {
    String raw = "caf\u00e9 ok";
    Event event = new Event(1_000_000L, raw, "h", "s", "st", Map.of());
    byte[][] given = {raw.getBytes(StandardCharsets.UTF_8)}; // a caller's mistake
    byte[] bytes = EventBlockWriter.write(List.of(event), given, Set.of());
    EventBlock block = EventBlock.open(bytes, 0, bytes.length);
    assertThat(block.texts()).isNotEqualTo(EventBlock.Texts.ALL_ASCII);
  }
}
