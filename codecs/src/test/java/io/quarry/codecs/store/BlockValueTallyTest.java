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

  /**
   * A tally reset between blocks (as the blocks of a batch share one) writes each block's document
   * exactly as a new tally does: a field of an earlier block that this one lacks writes nothing, a
   * field some events lack gets its partial codes, counts and codes start again.
   */
  @Test
  void aResetTallyWritesWhatANewOneDoes() {
    Random random = new Random(11);
    BlockValueTally reused = new BlockValueTally(1);
    for (int round = 0; round < 60; round++) {
      int events = 1 + random.nextInt(round % 5 == 0 ? 2_000 : 40);
      List<Event> block = new ArrayList<>();
      for (int e = 0; e < events; e++) {
        block.add(new Event(e, "event " + e, "h", "s", "t", java.util.Map.of()));
      }
      reused.reset(events);
      BlockValueTally fresh = new BlockValueTally(events);
      String[] fields = {"a", "b", "c"};
      boolean[] inBlock = {random.nextBoolean(), random.nextBoolean(), random.nextBoolean()};
      int[] spread = {1 + random.nextInt(events), 1 + random.nextInt(3), 1 + random.nextInt(700)};
      for (int e = 0; e < events; e++) {
        for (BlockValueTally tally : List.of(reused, fresh)) {
          tally.hosts.addDefault(e % 3 == 0 ? "h1" : "h2", e);
          tally.sources.addDefault("s", e);
          tally.sourcetypes.addDefault("t", e);
        }
        for (int f = 0; f < fields.length; f++) {
          boolean lacks = f == 1 && random.nextInt(4) == 0; // b: some events lack it
          if (!inBlock[f] || lacks) {
            continue;
          }
          String value = "v" + random.nextInt(spread[f]);
          String second = f == 2 && random.nextInt(50) == 0 ? "w" + random.nextInt(3) : null;
          for (BlockValueTally tally : List.of(reused, fresh)) {
            BlockValueTally.FieldCounts counts = tally.field(fields[f]);
            counts.countEvent();
            counts.add(value, e);
            if (second != null) {
              counts.add(second, e);
            }
          }
        }
      }
      Document reusedDocument = new Document();
      Document freshDocument = new Document();
      assertThat(reused.write(reusedDocument, block))
          .as("round %d", round)
          .isEqualTo(fresh.write(freshDocument, block));
      assertThat(fieldsOf(reusedDocument)).as("round %d", round).isEqualTo(fieldsOf(freshDocument));
    }
  }

  /** A document's fields as name and bytes, sorted (the tally's field order is a map's). */
  private static List<String> fieldsOf(Document document) {
    List<String> fields = new ArrayList<>();
    for (IndexableField field : document.getFields()) {
      fields.add(field.name() + "=" + field.binaryValue());
    }
    java.util.Collections.sort(fields);
    return fields;
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
