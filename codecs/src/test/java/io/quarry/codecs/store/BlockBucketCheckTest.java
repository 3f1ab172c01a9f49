package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.Term;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry fsck}'s check of a block bucket ({@link BlockBucketCheck}) reads the per-block
 * value counts and codes against the events' own values, and every term of the events against the
 * block's term filter: a real bucket passes, one whose codes were rewritten to name other values
 * does not, nor one whose filter was rewritten to hold no term.
 */
class BlockBucketCheckTest {
  @TempDir Path data;

  private Path oneBlock() throws Exception {
    String[] statuses = {"200", "404", "500"}; // one block: 10 events, three values of status
    return oneBlock(i -> Map.of("status", List.of(statuses[i % 3])));
  }

  /** A bucket of one block of 10 events, event {@code i} with index-time fields {@code fields}. */
  private Path oneBlock(java.util.function.IntFunction<Map<String, List<String>>> fields)
      throws Exception {
    return oneBlock(fields, i -> "event " + i);
  }

  /** {@link #oneBlock(java.util.function.IntFunction)}, event {@code i}'s text {@code texts}. */
  private Path oneBlock(
      java.util.function.IntFunction<Map<String, List<String>>> fields,
      java.util.function.IntFunction<String> texts)
      throws Exception {
    IndexOptions blocks = IndexOptions.builder().format(BucketFormat.BLOCKS).build();
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      events.add(
          new Event(
              1_700_000_000_000_000L + i * 1_000_000L,
              texts.apply(i),
              "h",
              "s",
              "st",
              fields.apply(i)));
    }
    try (EventStore store = EventStore.open(data, Map.of("main", blocks))) {
      store.write("main", events);
      store.index("main").rollHotBucket();
    }
    Path bucket = data.resolve("indexes/main/buckets/1");
    assertThat(BlockBucketCheck.firstProblem(bucket)).isNull();
    return bucket;
  }

  /** Rewrites the one block's binary doc values {@code field} to {@code value}. */
  private static void forge(Path bucket, String field, byte[] value) throws Exception {
    ForgedBucket.rewrite(
        bucket,
        writer ->
            writer.updateBinaryDocValue(
                new Term(EventFields.keywordField(EventFields.HOST), "h"),
                field,
                new BytesRef(value)));
  }

  @Test
  void codesOfAFieldSomeEventsLackThatLeaveAValueUnusedAreFound() throws Exception {
    // one block: "user" u0 or u1 in the even events only
    Path bucket =
        oneBlock(i -> i % 2 == 0 ? Map.of("user", List.<String>of("u" + (i / 2) % 2)) : Map.of());

    // every event coded as the first value (two values and "none": two bits a code, all zero)
    byte[] forged = new byte[2 + (10 * 2 + 7) / 8];
    forged[0] = BlockValueCodes.VERSION;
    forged[1] = 2;
    forge(bucket, BlockValueCodes.PARTIAL + "user", forged);
    // the codes are the column's only copy: what disagrees is the value no event has any more
    assertThat(BlockBucketCheck.firstProblem(bucket)).contains("user value 1 is no event's");

    forged[2] = 3; // event 0 coded 3: past the two values and "none"
    forge(bucket, BlockValueCodes.PARTIAL + "user", forged);
    assertThat(BlockBucketCheck.firstProblem(bucket)).contains("code 3 of event 0 past 3 values");
  }

  /**
   * An event coded "no value" whose text may give the field at search time (review-d, finding 3): a
   * search trusts the code and never extracts, so fsck reports it. The writer keeps the payload
   * column for such a block; the codes are forged here.
   */
  @Test
  void anEventCodedNoValueThatItsTextMayGiveIsFound() throws Exception {
    // one block: the even events have "user" u0 or u1 at index time and say user=… in their text
    Path bucket =
        oneBlock(
            i -> i % 2 == 0 ? Map.of("user", List.<String>of("u" + (i / 2) % 2)) : Map.of(),
            i -> i % 2 == 0 ? "login user=u" + (i / 2) % 2 : "event " + i);
    // the block holds them newest first, coded 2 0 2 1 2 0 2 1 2 0 (u0 0, u1 1, "no value" 2); the
    // first two codes swapped: block event 1 (i = 8, text "login user=u0") coded "no value", event
    // 0 (i = 9, "event 9") coded u0 — every value still some event's
    int[] codes = {0, 2, 2, 1, 2, 0, 2, 1, 2, 0};
    byte[] forged = new byte[2 + (10 * 2 + 7) / 8];
    forged[0] = BlockValueCodes.VERSION;
    forged[1] = 2;
    for (int e = 0; e < codes.length; e++) {
      forged[2 + e / 4] |= (byte) (codes[e] << (2 * (e % 4)));
    }
    forge(bucket, BlockValueCodes.PARTIAL + "user", forged);
    assertThat(BlockBucketCheck.firstProblem(bucket))
        .contains("event 1 is coded no user though its text may give it");
  }

  @Test
  void codesThatNameOtherValuesAreFound() throws Exception {
    Path bucket = oneBlock();

    // every event coded as the first value: two bits for 10 events, all zero
    byte[] forged = new byte[2 + (10 * 2 + 7) / 8];
    forged[0] = BlockValueCodes.VERSION;
    forged[1] = 2;
    forge(bucket, BlockValueCodes.CODES + "status", forged);
    // the block holds status only in its counts and codes (no column in the payload): the codes
    // giving every event the first value disagree with that value's count
    assertThat(BlockBucketCheck.firstProblem(bucket))
        .contains("status value 0 counted 4, held by 10");
  }

  @Test
  void aFilterMissingATermIsFound() throws Exception {
    Path bucket;
    System.setProperty(TermIndex.TERM_FILTERS_PROPERTY, "true"); // a layout 3 bucket
    try {
      bucket = oneBlock();
    } finally {
      System.clearProperty(TermIndex.TERM_FILTERS_PROPERTY);
    }
    // a well-formed filter of no term: every probe of it says no
    forge(
        bucket,
        BlockDocuments.TERM_FILTER,
        new io.quarry.codecs.block.TermFilter.Builder().reset(0).toBytes());
    assertThat(BlockBucketCheck.firstProblem(bucket)).contains("the term filter misses 'event'");
  }
}
