package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Bytes a caller hands the writer as a text's ASCII form are checked in production too (assertions
 * off, as a server runs): a caller's mistake records the block as not all ASCII, so no search views
 * such bytes one byte per character (review-c, session 32: the check was an {@code assert}).
 */
class EventBlockGivenBytesTest {
  static {
    EventBlockGivenBytesTest.class
        .getClassLoader()
        .setClassAssertionStatus("io.quarry.codecs.block.EventBlockWriter", false);
  }

  @Test
  void givenBytesThatAreNotAsciiAreNotRecordedAsAscii() throws Exception {
    String raw = "caf\u00e9 ok";
    byte[] given = ("x" + raw).getBytes(StandardCharsets.UTF_8); // a caller's mistake
    Event event =
        Event.ofAscii(1_000_000L, given, 1, given.length - 1, null, "h", "s", "st", Map.of());
    byte[] bytes = EventBlockWriter.write(List.of(event), Set.of());
    EventBlock block = EventBlock.open(bytes, 0, bytes.length);
    assertThat(block.texts()).isNotEqualTo(EventBlock.Texts.ALL_ASCII);
  }
}
