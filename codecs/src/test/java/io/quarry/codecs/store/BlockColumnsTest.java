package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.block.EventBlock;
import io.quarry.codecs.block.EventBlockFormat;
import io.quarry.codecs.journal.QuarryCodec;
import io.quarry.codecs.tokens.TermSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block payload's two layouts read back the same events (issue 23): the old one (event block
 * version 1, every column in the payload) and the new one (version 2, a column of which every event
 * has exactly one value held only by the block's value counts and codes, read back through {@link
 * BlockColumns}). The same random blocks are written both ways into two real indexes; every event
 * of every block reads back field for field as the events written (as the event layout's doc values
 * give them back), in doc order and in reverse doc order (the time-ordered scan over an unsorted
 * segment goes back), and both indexes pass {@code quarry fsck}'s block check.
 */
class BlockColumnsTest {
  @TempDir Path data;

  private static final IndexOptions OPTIONS =
      IndexOptions.builder()
          .format(BucketFormat.BLOCKS)
          .fieldTypes(Map.of("bytes", IndexedFieldType.LONG))
          .build();

  @Test
  void oldAndNewPayloadsReadTheSameEvents() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<List<Event>> blocks = new ArrayList<>();
    for (int b = 0; b < 100; b++) {
      blocks.add(block(random, b));
    }
    Path old = write(data.resolve("old"), blocks, false);
    Path moved = write(data.resolve("new"), blocks, true);
    String why = "seed " + seed;

    int elsewhere = 0;
    try (FSDirectory oldDirectory = FSDirectory.open(old);
        FSDirectory newDirectory = FSDirectory.open(moved);
        DirectoryReader oldReader = DirectoryReader.open(oldDirectory);
        DirectoryReader newReader = DirectoryReader.open(newDirectory)) {
      LeafReader oldLeaf = only(oldReader);
      LeafReader newLeaf = only(newReader);
      assertThat(newLeaf.maxDoc()).isEqualTo(blocks.size());
      BlockColumns oldColumns = new BlockColumns(oldLeaf);
      BlockColumns forward = new BlockColumns(newLeaf);
      for (int doc = 0; doc < blocks.size(); doc++) {
        List<Event> expected = expected(blocks.get(doc));
        BlockEvents before = BlockEvents.read("i", oldLeaf.storedFields(), oldColumns, doc);
        BlockEvents after = BlockEvents.read("i", newLeaf.storedFields(), forward, doc);
        assertThat(payload(oldLeaf.storedFields(), doc).version())
            .as(why)
            .isEqualTo(EventBlockFormat.VERSION);
        EventBlock newPayload = payload(newLeaf.storedFields(), doc);
        for (String field : newPayload.columnNames()) {
          elsewhere += newPayload.isElsewhere(field) ? 1 : 0;
        }
        assertThat(read(before)).as(why + ", old block " + doc).isEqualTo(expected);
        assertThat(read(after)).as(why + ", new block " + doc).isEqualTo(expected);
        assertThat(after.fieldNames()).as(why).isEqualTo(before.fieldNames());
      }
      // backwards, through one reader of the columns: each block opens the iterators again
      BlockColumns backward = new BlockColumns(newLeaf);
      for (int doc = blocks.size() - 1; doc >= 0; doc--) {
        BlockEvents after = BlockEvents.read("i", newLeaf.storedFields(), backward, doc);
        assertThat(read(after)).as(why + ", block " + doc).isEqualTo(expected(blocks.get(doc)));
      }
    }
    // host, source and sourcetype of every block (never empty here), and "code" of most
    assertThat(elsewhere).as(why).isGreaterThan(3 * blocks.size());
    assertThat(BlockBucketCheck.firstProblem(old)).as(why).isNull();
    assertThat(BlockBucketCheck.firstProblem(moved)).as(why).isNull();
    assertThat(sizeOf(moved)).as(why).isLessThan(sizeOf(old));
  }

  /**
   * A field some events of a block lack ({@code user}; {@code code} in every fifth block) is held
   * by its values and codes with "no value" (session 33): the same events read back as from a
   * bucket written before (the field a column of the payload), including through a block left
   * undecoded — the field read from the doc values alone, an event without it having none (no
   * ordinal) — and both pass fsck.
   */
  @Test
  void fieldsSomeEventsLackReadFromTheirCodesAsFromAnOlderBucket() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<List<Event>> blocks = new ArrayList<>();
    for (int b = 0; b < 60; b++) {
      blocks.add(block(random, b));
    }
    Path older = write(data.resolve("older"), blocks, new BlockDocuments(OPTIONS, true, false));
    Path moved = write(data.resolve("new"), blocks, new BlockDocuments(OPTIONS, true, true));
    String why = "seed " + seed;
    int partial = 0;
    try (FSDirectory olderDirectory = FSDirectory.open(older);
        FSDirectory newDirectory = FSDirectory.open(moved);
        DirectoryReader olderReader = DirectoryReader.open(olderDirectory);
        DirectoryReader newReader = DirectoryReader.open(newDirectory)) {
      LeafReader olderLeaf = only(olderReader);
      LeafReader newLeaf = only(newReader);
      BlockColumns olderColumns = new BlockColumns(olderLeaf);
      BlockColumns newColumns = new BlockColumns(newLeaf);
      BlockColumns undecoded = new BlockColumns(newLeaf);
      for (int doc = 0; doc < blocks.size(); doc++) {
        List<Event> expected = expected(blocks.get(doc));
        boolean someUser = expected.stream().anyMatch(e -> e.indexedFields().containsKey("user"));
        boolean everyUser = expected.stream().allMatch(e -> e.indexedFields().containsKey("user"));
        assertThat(payload(olderLeaf.storedFields(), doc).isElsewhere("user"))
            .as(why)
            .isEqualTo(everyUser);
        assertThat(payload(newLeaf.storedFields(), doc).isElsewhere("user"))
            .as(why)
            .isEqualTo(someUser);
        partial += someUser && !everyUser ? 1 : 0;
        BlockEvents before = BlockEvents.read("i", olderLeaf.storedFields(), olderColumns, doc);
        BlockEvents after = BlockEvents.read("i", newLeaf.storedFields(), newColumns, doc);
        assertThat(read(before)).as(why + ", older block " + doc).isEqualTo(expected);
        assertThat(read(after)).as(why + ", new block " + doc).isEqualTo(expected);

        BlockEvents unread =
            BlockEvents.unread("i", newLeaf.storedFields(), undecoded, doc, expected.size());
        for (int e = 0; e < expected.size(); e++) {
          List<String> user = expected.get(e).indexedFields().get("user");
          assertThat(unread.field(e, "user")).as(why + ", block " + doc).isEqualTo(user);
          assertThat(unread.keywordOrdinal(e, "user") >= 0).as(why).isEqualTo(user != null);
        }
        // a block no event of which has the field is decoded to learn so (as before)
        assertThat(unread.decoded()).as(why + ", block " + doc).isEqualTo(!someUser);
        assertThat(unread.hasField("user")).as(why).isEqualTo(someUser);
      }
    }
    assertThat(partial).as(why).isGreaterThan(blocks.size() / 2);
    assertThat(BlockBucketCheck.firstProblem(older)).as(why).isNull();
    assertThat(BlockBucketCheck.firstProblem(moved)).as(why).isNull();
    // no size asserted: five values of user in a quarter of the events cost about what the
    // payload's column did (block-index.md, session 33, for the bytes at 1M)
  }

  /**
   * The one value every event of a block has ({@code BlockColumns.Values#onlyValue}, what a run's
   * sole sourcetype is read from): a field of one value held in every event's doc values gives it;
   * a field of one value that some events lack ("no value" among its codes) gives none, though its
   * values hold only one.
   */
  @Test
  void onlyTheValueOfEveryEventIsTheBlocksOnlyValue() throws Exception {
    List<List<Event>> blocks = new ArrayList<>();
    for (int b = 0; b < 2; b++) {
      List<Event> block = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        Map<String, List<String>> fields = new LinkedHashMap<>();
        if (b == 0 || i % 2 == 0) { // block 1: every other event lacks it
          fields.put("user", List.of("u1"));
        }
        block.add(new Event(1_700_000_000_000_000L - i, "event " + i, "h", "/s", "st", fields));
      }
      blocks.add(block);
    }
    Path moved = write(data.resolve("only"), blocks, new BlockDocuments(OPTIONS, true, true));
    try (FSDirectory directory = FSDirectory.open(moved);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      BlockColumns columns = new BlockColumns(only(reader));
      assertThat(columns.read(0, "user", 10).onlyValue()).isEqualTo("u1");
      BlockColumns.Values some = columns.read(1, "user", 10);
      assertThat(some.value(0)).isEqualTo("u1");
      assertThat(some.value(1)).isNull();
      assertThat(some.onlyValue()).as("some events lack it").isNull();
    }
  }

  /**
   * A block of random events: {@code ip} a single keyword of many values, {@code code} one in every
   * event but in every fifth block (then some events lack it), {@code tag} multivalued, {@code
   * bytes} a long, {@code user} in some events only, and values differing in case and outside
   * ASCII.
   */
  private static List<Event> block(Random random, int b) {
    int count = 1 + random.nextInt(b % 7 == 0 ? 3 : 256);
    String[] codes = {"200", "404", "Ok", "ok", "é", "500"};
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, List<String>> fields = new LinkedHashMap<>();
      if (b % 5 != 0 || random.nextBoolean()) {
        fields.put("code", List.of(codes[random.nextInt(b % 3 == 0 ? 1 : codes.length)]));
      }
      if (random.nextInt(3) == 0) {
        fields.put("tag", List.of("b" + random.nextInt(3), "a" + random.nextInt(3)));
      }
      fields.put("bytes", List.of(Integer.toString(random.nextInt(1000))));
      // many values in the segment: more than a field's cache of texts holds, so slots collide
      fields.put("ip", List.of("10." + random.nextInt(OrdinalTexts.CACHED * 3)));
      if (random.nextInt(4) == 0) {
        fields.put("user", List.of("u" + random.nextInt(5)));
      }
      events.add(
          new Event(
              1_700_000_000_000_000L + random.nextInt(1_000_000),
              "event " + b + " " + i + " " + random.nextInt(),
              "host" + random.nextInt(b % 2 == 0 ? 1 : 3),
              "/var/log/" + random.nextInt(2),
              "st",
              fields));
    }
    events.sort(Comparator.comparingLong(Event::timeMicros).reversed());
    return events;
  }

  /** The block's events as they read back: index-time values as the event layout holds them. */
  private static List<Event> expected(List<Event> block) {
    List<Event> expected = new ArrayList<>();
    for (Event event : block) {
      Map<String, List<String>> fields = new HashMap<>();
      event
          .indexedFields()
          .forEach(
              (name, values) -> {
                List<String> column = BlockFieldColumns.column(OPTIONS.fieldType(name), values);
                if (!column.isEmpty()) {
                  fields.put(name, column);
                }
              });
      expected.add(
          new Event(
              event.timeMicros(),
              event.raw(),
              event.host(),
              event.source(),
              event.sourcetype(),
              fields));
    }
    return expected;
  }

  /** Every event of a block, every field read through the loader. */
  private static List<Event> read(BlockEvents block) {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < block.count(); i++) {
      StoredEvent event = block.event(i);
      events.add(
          new Event(
              event.timeMicros(),
              event.raw(),
              event.host(),
              event.source(),
              event.sourcetype(),
              new HashMap<>(event.indexedFields())));
    }
    return events;
  }

  private static Path write(Path directory, List<List<Event>> blocks, boolean columnsElsewhere)
      throws Exception {
    return write(directory, blocks, new BlockDocuments(OPTIONS, columnsElsewhere));
  }

  private static Path write(Path directory, List<List<Event>> blocks, BlockDocuments documents)
      throws Exception {
    TermSet terms = new TermSet();
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer =
            new IndexWriter(
                fs,
                new IndexWriterConfig()
                    .setCodec(new QuarryCodec())
                    // merges adjacent segments only: block i stays document i
                    .setMergePolicy(new org.apache.lucene.index.LogDocMergePolicy()))) {
      long sequence = 0;
      for (int b = 0; b < blocks.size(); b++) {
        writer.addDocument(documents.document(blocks.get(b), sequence, terms));
        sequence += blocks.get(b).size();
        if (b % 10 == 9) {
          writer.flush(); // several segments, merged into one below
        }
      }
      writer.forceMerge(1);
      writer.commit();
    }
    return directory;
  }

  private static LeafReader only(DirectoryReader reader) {
    List<LeafReaderContext> leaves = reader.leaves();
    assertThat(leaves).hasSize(1);
    return leaves.get(0).reader();
  }

  private static EventBlock payload(StoredFields journal, int doc) throws Exception {
    byte[] bytes = journal.document(doc).getBinaryValue(BlockDocuments.BLOCK).bytes;
    return EventBlock.open(bytes, 0, bytes.length);
  }

  private static long sizeOf(Path directory) throws Exception {
    try (var files = java.nio.file.Files.list(directory)) {
      long total = 0;
      for (Path file : files.toList()) {
        total += java.nio.file.Files.size(file);
      }
      return total;
    }
  }
}
