package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The blocks of one batch share one {@link BlockKeywords}, reset for each: every block's document
 * still holds each of its own keywords, those an earlier block had too (a set not emptied between
 * blocks left them out of the later ones) — a keyword field's, the default fields' (host, source,
 * sourcetype: the same in every event) and a LONG field's whose value repeats in every block (a
 * field that is not a keyword gives the keywords its every value, with no counts) — and a keyword's
 * term is the bytes Lucene's own encoding gives it, whatever its characters (an ASCII term is
 * encoded by the JDK: an unpaired surrogate and other non-ASCII characters must come out as Lucene
 * makes them).
 */
class BatchOfBlocksKeywordsTest {
  private static final String[] VALUES = {"GET", "a?b", "Caf\u00e9", "x\uD800", "\uD83D\uDE00y"};

  @TempDir Path data;

  @Test
  void everyBlockOfABatchHasItsOwnKeywords() throws Exception {
    int perBlock = VALUES.length;
    int blocks = 3;
    IndexOptions options =
        IndexOptions.builder()
            .format(BucketFormat.BLOCKS)
            .blockEvents(perBlock)
            .fieldTypes(Map.of("status", IndexedFieldType.LONG))
            .build();
    List<Event> batch = new ArrayList<>();
    for (int b = 0; b < blocks; b++) {
      for (int i = 0; i < perBlock; i++) {
        // each block has every value once, in another order; the same host, source, sourcetype
        // and status throughout
        String value = VALUES[(i + b) % VALUES.length];
        batch.add(
            new Event(
                (b * perBlock + i) * 1000L,
                "block " + b + " event " + i,
                "Web-1",
                "/Var/Log/Access.log",
                "Access_Combined",
                Map.of("f", List.of(value), "status", List.of("200"))));
      }
    }
    try (EventStore store = EventStore.open(data, Map.of("main", options))) {
      store.write("main", batch);
      for (String value : VALUES) {
        assertThat(blocksWith(store, "f", value)).as(value).hasSize(blocks);
      }
      assertThat(blocksWith(store, EventFields.HOST, "Web-1")).hasSize(blocks);
      assertThat(blocksWith(store, EventFields.SOURCE, "/Var/Log/Access.log")).hasSize(blocks);
      assertThat(blocksWith(store, EventFields.SOURCETYPE, "Access_Combined")).hasSize(blocks);
      assertThat(blocksWith(store, "status", "200")).hasSize(blocks);
    }
  }

  /** The blocks (by their events' texts) whose {@code _kw} term of {@code field} is the value's. */
  private static TreeSet<String> blocksWith(EventStore store, String field, String value)
      throws Exception {
    TreeSet<String> blocks = new TreeSet<>();
    store.scan(
        List.of("main"),
        new TermQuery(
            new Term(
                EventFields.keywordField(field),
                new BytesRef(EventFields.keywordTerm(value)))), // Lucene's encoding
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        e -> {
          blocks.add(e.raw().substring(0, "block 0".length()));
          return true;
        });
    return blocks;
  }

  @Test
  void aTermsBytesAreLucenesEncoding() {
    for (String term :
        List.of(
            "",
            "get",
            "a?b",
            "?",
            "a\u0000b",
            "\t",
            "\u007F",
            "\u0080",
            "caf\u00e9",
            "x\uD800",
            "\uDC00",
            "\uD83D\uDE00")) {
      assertThat(BlockKeywords.utf8(term)).as(term).isEqualTo(new BytesRef(term));
    }
  }
}
