package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.BucketFormat;
import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.server.sourcetype.Sourcetypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The scan's pages ({@link EventPages}) over a real store in either layout: a keyword index-time
 * field every event has once is a dictionary block from the segment's ordinals ({@link
 * OrdinalColumn}) whose dictionary holds the page's values, each once, and is shared by the next
 * pages of the same segment while they add few values; a field some events lack (their value
 * extracted from the text at search time) reads the same values, plain where a page mixes the two.
 * The values are checked against the events written, by hand.
 */
class OrdinalColumnTest {
  @TempDir Path data;

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void keywordColumnsAreDictionariesOfThePageValues(BucketFormat format) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String why = format + ", seed " + seed;
    String[] methods = {"GET", "POST", "DELETE"};
    Map<String, List<String>> expected = new HashMap<>(); // _raw → method, status, user
    IndexOptions options = IndexOptions.builder().format(format).build();
    try (EventStore store = EventStore.open(data, Map.of("main", options))) {
      for (int batch = 0; batch < 3; batch++) { // several segments: ordinals of each
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
          String method = methods[random.nextInt(batch == 1 ? 1 : methods.length)];
          String status = Integer.toString(200 + random.nextInt(5) * 100 + random.nextInt(2));
          String indexedUser = random.nextInt(5) == 0 ? null : "u" + random.nextInt(7);
          String raw = "event " + batch + "-" + i + " user=kv" + random.nextInt(3);
          Map<String, List<String>> fields = new LinkedHashMap<>();
          fields.put("method", List.of(method));
          fields.put("status", List.of(status));
          if (indexedUser != null) {
            fields.put("user", List.of(indexedUser));
          }
          events.add(
              new Event(1_700_000_000_000_000L + batch * 10_000L + i, raw, "h", "s", "st", fields));
          String user = indexedUser != null ? indexedUser : raw.substring(raw.indexOf("user=") + 5);
          expected.put(raw, List.of(method, status, user));
        }
        store.write("main", events);
      }
      List<Page> pages = pages(store, List.of("_raw", "method", "status", "user"));

      Map<String, List<String>> read = new HashMap<>();
      int dictionaryPages = 0;
      java.util.Set<BytesBlock> statusDictionaries =
          java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      for (Page page : pages) {
        for (String field : List.of("method", "status")) {
          BytesBlock block = (BytesBlock) page.block(field);
          assertThat(block.dictionary()).as(why + " " + field).isNotNull();
          java.util.Set<String> values = new java.util.HashSet<>();
          for (int p = 0; p < page.positionCount(); p++) {
            values.add(block.getString(p));
          }
          java.util.List<String> entries = new ArrayList<>();
          for (int e = 0; e < block.dictionary().positionCount(); e++) {
            entries.add(block.dictionary().getString(e));
          }
          assertThat(entries).as(why + " " + field).doesNotHaveDuplicates().containsAll(values);
          // a segment's values, at most: 3 methods, 10 statuses
          assertThat(entries.size()).as(why + " " + field).isLessThanOrEqualTo(10);
          if (field.equals("status") && !block.isConstant()) {
            statusDictionaries.add(block.dictionary());
          }
          dictionaryPages++;
        }
        for (int p = 0; p < page.positionCount(); p++) {
          read.put(
              page.block("_raw").getObject(p).toString(),
              List.of(
                  (String) page.block("method").getObject(p),
                  (String) page.block("status").getObject(p),
                  (String) page.block("user").getObject(p)));
        }
      }
      assertThat(read).as(why).isEqualTo(expected);
      assertThat(dictionaryPages).as(why).isEqualTo(2 * pages.size());
      // 24 pages of 64 events from 3 segments of 10 statuses: the pages of a segment share a
      // dictionary once it holds them all
      assertThat(statusDictionaries.size()).as(why).isLessThan(pages.size() / 2);
      assertThat(pages)
          .as(why)
          .anySatisfy(
              page -> assertThat(((BytesBlock) page.block("method")).isConstant()).isTrue());
    }
  }

  /**
   * Over blocks, a field some events lack whose texts do not mention it (its blocks' codes say "no
   * value", session 33) stays a dictionary block with null cells: no page goes plain.
   */
  @org.junit.jupiter.api.Test
  void aFieldSomeEventsLackStaysByOrdinalWithNulls() throws Exception {
    Map<String, String> expected = new HashMap<>(); // _raw → sid or null
    IndexOptions options = IndexOptions.builder().format(BucketFormat.BLOCKS).build();
    try (EventStore store = EventStore.open(data, Map.of("main", options))) {
      for (int batch = 0; batch < 2; batch++) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
          String raw = "event " + batch + "-" + i;
          String sid = i % 4 == 1 ? null : "s" + (i % 37);
          events.add(
              new Event(
                  1_700_000_000_000_000L + batch * 10_000L + i,
                  raw,
                  "h",
                  "s",
                  "st",
                  sid == null ? Map.of() : Map.of("sid", List.of(sid))));
          expected.put(raw, sid);
        }
        store.write("main", events);
      }
      List<Page> pages = pages(store, List.of("_raw", "sid"));
      Map<String, String> read = new HashMap<>();
      for (Page page : pages) {
        BytesBlock sids = (BytesBlock) page.block("sid");
        assertThat(sids.dictionary()).isNotNull();
        for (int p = 0; p < page.positionCount(); p++) {
          read.put(page.block("_raw").getObject(p).toString(), (String) sids.getObject(p));
        }
      }
      assertThat(read).isEqualTo(expected);
    }
  }

  /**
   * A page whose first positions are nulls (events coded "no value") takes the first valued event's
   * segment as its scope: it stays by ordinal, the nulls kept (review-d, finding 5).
   */
  @org.junit.jupiter.api.Test
  void aPageStartingWithNullsStaysByOrdinal() {
    OrdinalColumn column = new OrdinalColumn("sid", 8);
    Object segment = new Object();
    OrdinalColumn.Texts texts = (field, ordinal) -> "s" + ordinal;
    column.appendNull();
    column.appendNull();
    assertThat(column.append(7, segment, texts)).isTrue();
    assertThat(column.append(3, segment, texts)).isTrue();
    assertThat(column.append(7, new Object(), texts)).isFalse(); // another segment's value
    BytesBlock block = column.build();
    assertThat(block.dictionary()).isNotNull();
    List<Object> cells = new ArrayList<>();
    for (int p = 0; p < block.positionCount(); p++) {
      cells.add(block.getObject(p));
    }
    assertThat(cells).containsExactly(null, null, "s7", "s3");
  }

  /** Every event of index main as pages of 64 positions of {@code fields}. */
  private static List<Page> pages(EventStore store, List<String> fields) throws Exception {
    List<Page> pages = new ArrayList<>();
    EventPages source =
        new EventPages(
            fields,
            List.of(),
            () -> false,
            false,
            Sourcetypes.builtIn(),
            new SearchControl(),
            null,
            new AtomicLong(),
            64,
            pages::add,
            () -> {},
            () -> {});
    store.scan(List.of("main"), new MatchAllDocsQuery(), Long.MIN_VALUE, Long.MAX_VALUE, source);
    return pages;
  }
}
