package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * A block's values are written in UTF-8 byte order whatever their characters (UTF-16 order differs
 * from it once a value has a surrogate pair and another a character from U+E000 up), each value's
 * count and each event's code point at its value, and a value is new to the block exactly once.
 */
class BlockValueTallyTest {
  private static final String[] VALUES = {
    "get",
    "GET",
    "a",
    "ab",
    "é",
    "\uE000x",
    "\uD83D\uDE00",
    "\uFFFD",
    "z\uD83D\uDE00",
    "z\uE000",
    ""
  };

  @Test
  void valuesInByteOrderWithTheirCountsAndEveryEventsCode() {
    Random random = new Random(5);
    for (int round = 0; round < 50; round++) {
      int events = 1 + random.nextInt(300);
      boolean plainOnly = round % 2 == 0; // half the rounds take the strings' own order
      BlockValueTally tally = new BlockValueTally(events);
      BlockValueTally.FieldCounts counts = tally.field("f");
      String[] valueOf = new String[events];
      Set<String> seen = new HashSet<>();
      for (int e = 0; e < events; e++) {
        String value = VALUES[random.nextInt(plainOnly ? 5 : VALUES.length)];
        valueOf[e] = value;
        counts.countEvent();
        assertThat(counts.add(value, e)).as("new: %s", value).isEqualTo(seen.add(value));
        tally.hosts.addDefault("h", e);
        tally.sources.addDefault("s", e);
        tally.sourcetypes.addDefault("t", e);
      }
      Document document = new Document();
      assertThat(tally.write(document, List.of())).contains("f", EventFields.HOST);

      List<BytesRef> written = new ArrayList<>();
      for (IndexableField field : document.getFields(BlockValueCounts.VALUES + "f")) {
        written.add(field.binaryValue());
      }
      List<BytesRef> expected = new ArrayList<>();
      for (String value : seen) {
        expected.add(new BytesRef(value));
      }
      expected.sort(BytesRef::compareTo);
      assertThat(written).isEqualTo(expected);

      int[] perValue = new int[expected.size()];
      for (int e = 0; e < events; e++) {
        int code = expected.indexOf(new BytesRef(valueOf[e]));
        perValue[code]++;
        if (expected.size() > 1) {
          assertThat(code(document, e, BlockValueCodes.bits(expected.size())))
              .as("event %d", e)
              .isEqualTo(code);
        }
      }
      BytesRef countBytes = document.getField(BlockValueCounts.COUNTS + "f").binaryValue();
      assertThat(countBytes.bytes[countBytes.offset]).isEqualTo(BlockValueCounts.VERSION);
      for (int v = 0; v < perValue.length; v++) { // each count below 128: one byte
        assertThat((int) countBytes.bytes[countBytes.offset + 1 + v]).isEqualTo(perValue[v]);
      }
    }
  }

  /** Event {@code e}'s code as the codes' grammar packs it. */
  private static int code(Document document, int e, int bits) {
    BytesRef packed = document.getField(BlockValueCodes.CODES + "f").binaryValue();
    byte[] bytes = packed.bytes;
    int base = packed.offset + 2;
    if (bits == 16) {
      return (bytes[base + 2 * e] & 0xFF) | (bytes[base + 2 * e + 1] & 0xFF) << 8;
    }
    int bit = e * bits;
    return (bytes[base + (bit >>> 3)] >>> (bit & 7)) & ((1 << bits) - 1);
  }
}
