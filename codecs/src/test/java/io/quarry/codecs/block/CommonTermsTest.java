package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.journal.QuarryCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.perfield.PerFieldDocValuesFormat;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CommonTerms} through {@link TermFilterFormat} on a real index: documents carrying their
 * entries ({@link TermFilterEntries}) flush to filters without the entries in at least {@link
 * CommonTerms#SHARE} of the segment's blocks, which the segment lists instead; every entry of every
 * block stays a "maybe"; a merge keeps what its inputs' lists cover and adds what it drops to the
 * filters of the inputs that listed it; the file is the grammar's (parsed by hand here, not by the
 * reader); files of the first version (no lists) still read and merge; a list out of order fails to
 * open, naming the file.
 */
class CommonTermsTest {
  @TempDir Path dir;

  private final Map<Long, List<Long>> entriesById = new HashMap<>();

  private static long hash(String term) {
    return TermFilter.hash(new BytesRef(term.getBytes(StandardCharsets.UTF_8)));
  }

  /** A block {@code id} holding 200 entries of its own and {@code shared}. */
  private Document block(long id, String... shared) {
    List<Long> entries = new ArrayList<>();
    for (String term : shared) {
      entries.add(hash(term));
    }
    for (int i = 0; i < 200; i++) {
      entries.add(hash("own-" + id + "-" + i));
    }
    entriesById.put(id, entries);
    Document document = new Document();
    document.add(new StringField("key", Long.toString(id), Field.Store.NO));
    document.add(new NumericDocValuesField("id", id));
    long[] hashes = entries.stream().mapToLong(Long::longValue).toArray();
    document.add(
        new BinaryDocValuesField(
            TermFilterFormat.FIELD, TermFilterEntries.of(hashes, hashes.length)));
    return document;
  }

  private IndexWriter writer(Codec codec) throws IOException {
    return new IndexWriter(
        FSDirectory.open(dir),
        new IndexWriterConfig()
            .setCodec(codec)
            .setMergePolicy(NoMergePolicy.INSTANCE)
            .setUseCompoundFile(false));
  }

  private void forceMerge(Term... deleted) throws IOException {
    try (IndexWriter writer =
        new IndexWriter(
            FSDirectory.open(dir),
            new IndexWriterConfig()
                .setCodec(new QuarryCodec())
                .setMergePolicy(new TieredMergePolicy())
                .setUseCompoundFile(false))) {
      writer.deleteDocuments(deleted);
      writer.forceMerge(1);
    }
  }

  /** A segment of blocks {@code from} to {@code to}: block i holds {@code shared.of(i)}. */
  private void segment(
      Codec codec, long from, long to, java.util.function.LongFunction<String[]> shared)
      throws IOException {
    try (IndexWriter writer = writer(codec)) {
      for (long id = from; id < to; id++) {
        writer.addDocument(block(id, shared.apply(id)));
      }
    }
  }

  private static TermFilterValues values(LeafReader segment) throws IOException {
    return (TermFilterValues) segment.getBinaryDocValues(TermFilterFormat.FIELD);
  }

  /** Every entry of every live block is a "maybe"; the values read, by segment. */
  private List<TermFilterValues> checkEveryEntry(DirectoryReader reader) throws IOException {
    List<TermFilterValues> segments = new ArrayList<>();
    for (var leaf : reader.leaves()) {
      LeafReader segment = leaf.reader();
      TermFilterValues values = values(segment);
      NumericDocValues ids = segment.getNumericDocValues("id");
      int doc;
      while ((doc = values.nextDoc()) != DocIdSetIterator.NO_MORE_DOCS) {
        if (segment.getLiveDocs() != null && !segment.getLiveDocs().get(doc)) {
          continue;
        }
        assertThat(ids.advanceExact(doc)).isTrue();
        for (long entry : entriesById.get(ids.longValue())) {
          assertThat(values.mayContain(entry)).as("block %d", ids.longValue()).isTrue();
          BytesRef copy = values.binaryValue();
          assertThat(values.isCommon(entry) || TermFilter.mayContain(copy, entry)).isTrue();
        }
      }
      segment.checkIntegrity();
      segments.add(values(segment));
    }
    return segments;
  }

  /** How many of a segment's blocks' filters hold {@code term} (common or not). */
  private static int filtersHolding(TermFilterValues values, String term) throws IOException {
    int holding = 0;
    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
      holding += values.filterMayContain(hash(term)) ? 1 : 0;
    }
    return holding;
  }

  @Test
  void entriesInNearlyEveryBlockAreListedAndLeftOutOfTheFilters() throws Exception {
    // 40 blocks: "every" in all, "most" in 38 (95%), "half" in 20; a segment of 10 lists nothing
    segment(
        new QuarryCodec(),
        0,
        40,
        id ->
            id < 2
                ? new String[] {"every", "half"}
                : id % 2 == 0
                    ? new String[] {"every", "most", "half"}
                    : new String[] {"every", "most"});
    segment(new QuarryCodec(), 100, 110, id -> new String[] {"every"});
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      List<TermFilterValues> segments = checkEveryEntry(reader);
      TermFilterValues large = segments.get(0);
      assertThat(large.isCommon(hash("every"))).isTrue();
      assertThat(large.isCommon(hash("most"))).isTrue();
      assertThat(large.isCommon(hash("half"))).isFalse();
      assertThat(large.common()).hasSize(2);
      // left out of the filters (a false "maybe" now and then), which are sized without them
      assertThat(filtersHolding(large, "every")).isLessThan(4);
      large = values(reader.leaves().get(0).reader());
      assertThat(large.advanceExact(5)).isTrue();
      assertThat(large.binaryValue().length)
          .isEqualTo(2 + 32 * TermFilter.blocksFor(200, TermFilterGroups.BLOCK_BITS));
      assertThat(large.advanceExact(4)).isTrue();
      assertThat(large.binaryValue().length)
          .isEqualTo(2 + 32 * TermFilter.blocksFor(201, TermFilterGroups.BLOCK_BITS));
      TermFilterValues small = segments.get(1);
      assertThat(small.common()).isEmpty();
      assertThat(filtersHolding(small, "every")).isEqualTo(10);
    }
  }

  @Test
  void aMergeKeepsWhatItsInputsListCoverAndAddsBackWhatItDrops() throws Exception {
    segment(new QuarryCodec(), 0, 40, id -> new String[] {"every", "onlya"});
    segment(new QuarryCodec(), 100, 140, id -> new String[] {"every"});
    segment(new QuarryCodec(), 200, 204, id -> new String[] {"every"}); // too small to list
    forceMerge(new Term("key", "7"), new Term("key", "120"));
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      assertThat(reader.leaves()).hasSize(1);
      TermFilterValues merged = checkEveryEntry(reader).get(0);
      // "every": listed by inputs of 80 of the 84 blocks; "onlya": by 40, dropped and added back
      assertThat(merged.common())
          .as("every %d, onlya %d", hash("every"), hash("onlya"))
          .containsExactly(hash("every"));
      LeafReader segment = reader.leaves().get(0).reader();
      NumericDocValues ids = segment.getNumericDocValues("id");
      int fromA = 0;
      int othersHolding = 0;
      for (int doc = merged.nextDoc();
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = merged.nextDoc()) {
        assertThat(ids.advanceExact(doc)).isTrue();
        boolean inA = ids.longValue() < 100;
        if (inA) {
          fromA++;
          assertThat(merged.filterMayContain(hash("onlya"))).isTrue();
        } else if (merged.filterMayContain(hash("onlya"))) {
          othersHolding++;
        }
      }
      assertThat(fromA).isEqualTo(39);
      assertThat(othersHolding).isLessThan(3);
      // each input's groups carried over its live blocks ("onlya" added to the first's filters)
      TermFilterGroups groups = merged.groups();
      // 16 blocks a group at a flush: the first input's 0-15 (7 deleted), 16-31, 32-39; the
      // second's 0-15, 16-31 (20 deleted), 32-39; the third's 4
      assertThat(groups.count()).isEqualTo(7);
      int[] bounds = new int[14];
      for (int g = 0; g < 7; g++) {
        bounds[2 * g] = groups.first(g);
        bounds[2 * g + 1] = groups.end(g);
      }
      assertThat(bounds).containsExactly(0, 15, 15, 31, 31, 39, 39, 55, 55, 70, 70, 78, 78, 82);
      assertThat(merged.groupMayContain(0, hash("onlya"))).isTrue();
    }
  }

  /** QuarryCodec but for the term filters' format, written at {@code version}. */
  private static Codec writing(int version) {
    DocValuesFormat filters = new TermFilterFormat(version);
    Lucene104Codec lucene = new Lucene104Codec();
    DocValuesFormat perField =
        new PerFieldDocValuesFormat() {
          @Override
          public DocValuesFormat getDocValuesFormatForField(String field) {
            return TermFilterFormat.FIELD.equals(field)
                ? filters
                : lucene.getDocValuesFormatForField(field);
          }
        };
    return new FilterCodec(QuarryCodec.NAME, new QuarryCodec()) {
      @Override
      public DocValuesFormat docValuesFormat() {
        return perField;
      }
    };
  }

  @Test
  void filesOfTheFirstVersionStillReadAndMerge() throws Exception {
    segment(writing(TermFilterFormat.VERSION_START), 0, 40, id -> new String[] {"every"});
    Path first = qtf();
    assertThat(parse(first, 40).version).isEqualTo(TermFilterFormat.VERSION_START);
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      TermFilterValues values = checkEveryEntry(reader).get(0);
      assertThat(values.common()).isEmpty();
      assertThat(filtersHolding(values, "every")).isEqualTo(40);
    }
    segment(new QuarryCodec(), 100, 140, id -> new String[] {"every"});
    forceMerge();
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      checkEveryEntry(reader);
    }
    File merged = parse(qtf(), 80);
    assertThat(merged.version).isEqualTo(TermFilterFormat.VERSION);
    // listed by the input of 40 of the 80 blocks, and held by the other's 40 (their filters say
    // "maybe": MergedCommonTerms)
    assertThat(merged.common).containsExactly(hash("every"));
    // the first version's blocks are in no group; the second input's are carried as flushed, 16
    // blocks a group (the merge orders its inputs as its policy likes: before or after the first's)
    assertThat(merged.groups).hasSize(3);
    int from = merged.groups.get(0).first();
    assertThat(from).isIn(0, 40);
    assertThat(merged.groups.get(1).first()).isEqualTo(from + 16);
    assertThat(merged.groups.get(2).first()).isEqualTo(from + 32);
    assertThat(merged.groups.get(2).end()).isEqualTo(from + 40);
  }

  @Test
  void theFileIsTheGrammars() throws Exception {
    segment(new QuarryCodec(), 0, 20, id -> new String[] {"every", "also"});
    File file = parse(qtf(), 20);
    assertThat(file.version).isEqualTo(TermFilterFormat.VERSION);
    assertThat(file.maxDoc).isEqualTo(20);
    long[] expected = {hash("every"), hash("also")};
    java.util.Arrays.sort(expected);
    assertThat(file.common).containsExactly(expected);
    assertThat(file.values).hasSize(20);
    for (int doc = 0; doc < 20; doc++) {
      BytesRef filter = new BytesRef(file.values.get(doc));
      for (long entry : entriesById.get((long) doc)) {
        assertThat(CommonTerms.contains(file.common, entry) || TermFilter.mayContain(filter, entry))
            .isTrue();
      }
    }
    // two groups of the 20 blocks (16 and 4), each holding its blocks' entries but the common ones
    assertThat(file.groups).hasSize(2);
    assertThat(file.groups.get(0).first()).isZero();
    assertThat(file.groups.get(0).end()).isEqualTo(16);
    assertThat(file.groups.get(1).first()).isEqualTo(16);
    assertThat(file.groups.get(1).end()).isEqualTo(20);
    int held = 0;
    for (var block : entriesById.entrySet()) {
      Group group = file.groups.get(block.getKey() < 16 ? 0 : 1);
      for (long entry : block.getValue()) {
        if (!CommonTerms.contains(file.common, entry)) {
          assertThat(
                  TermFilter.mayContain(new BytesRef(group.filter()), TermFilter.groupHash(entry)))
              .isTrue();
          held++;
        }
      }
    }
    assertThat(held).isGreaterThan(20);
  }

  @Test
  void aListOutOfOrderFailsToOpenNamingTheFile() throws Exception {
    segment(new QuarryCodec(), 0, 20, id -> new String[] {"every", "also"});
    Path path = qtf();
    File file = parse(path, 20);
    byte[] bytes = Files.readAllBytes(path);
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putLong((int) file.commonStart, file.common[1]);
    buffer.putLong((int) file.commonStart + 8, file.common[0]);
    Files.write(path, bytes);
    assertThatThrownBy(() -> DirectoryReader.open(FSDirectory.open(dir)))
        .isInstanceOf(CorruptIndexException.class)
        .hasMessageContaining("common terms out of order")
        .hasMessageContaining(path.getFileName().toString());
  }

  private Path qtf() throws IOException {
    try (var files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".qtf")).findFirst().orElseThrow();
    }
  }

  /** One field's file as the grammar of {@link TermFilterFormat} reads. */
  private record File(
      int version,
      int maxDoc,
      List<byte[]> values,
      long[] common,
      long commonStart,
      List<Group> groups) {}

  /** A group of {@link TermFilterGroups}' grammar: its documents and its filter. */
  private record Group(int first, int end, byte[] filter) {}

  /**
   * Parses a file of one field of a segment of {@code maxDoc} documents by the grammar of the
   * javadoc: Lucene's index header (big-endian magic, codec name, version, 16-byte id, suffix),
   * then from the end the footer (16 bytes), the directory's start, the directory, the ends, the
   * values, the common terms and the groups.
   */
  private static File parse(Path path, int maxDoc) throws IOException {
    ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(path));
    assertThat(file.getInt(0)).isEqualTo(0x3fd76c17); // CodecUtil's header magic
    int nameLength = file.get(4);
    assertThat(new String(file.array(), 5, nameLength, StandardCharsets.US_ASCII))
        .isEqualTo("QuarryTermFilters");
    int version = file.getInt(5 + nameLength);
    int suffixLength = file.get(5 + nameLength + 4 + 16);
    int headerEnd = 5 + nameLength + 4 + 16 + 1 + suffixLength;
    file.order(ByteOrder.LITTLE_ENDIAN);
    int directoryEnd = file.capacity() - 16 - 8;
    int p = (int) file.getLong(directoryEnd);
    assertThat(p).isBetween(headerEnd, directoryEnd);
    assertThat(file.get(p++)).isEqualTo((byte) 1); // one field
    p++; // its number
    long start = file.getLong(p);
    long endsStart = file.getLong(p + 8);
    p += 16;
    int commons = version == 0 ? 0 : file.get(p++); // fewer than 128 here
    int groupCount = version < 2 ? 0 : file.get(p++);
    assertThat(p).isEqualTo(directoryEnd);
    long commonStart = endsStart + 8L * maxDoc;
    List<byte[]> values = new ArrayList<>();
    long previous = 0;
    for (long e = endsStart; e < commonStart; e += 8) {
      long end = file.getLong((int) e);
      if (end >= 0) {
        byte[] value = new byte[(int) (end - previous)];
        file.get((int) (start + previous), value);
        values.add(value);
        previous = end;
      } else {
        previous = -1 - end;
      }
    }
    assertThat(start + previous).isEqualTo(endsStart);
    long[] common = new long[commons];
    for (int i = 0; i < commons; i++) {
      common[i] = file.getLong((int) commonStart + 8 * i);
    }
    int table = (int) commonStart + 8 * commons;
    int filters = table + 16 * groupCount;
    List<Group> groups = new ArrayList<>();
    long filterStart = 0;
    for (int g = 0; g < groupCount; g++) {
      long filterEnd = file.getLong(table + 16 * g + 8);
      byte[] filter = new byte[(int) (filterEnd - filterStart)];
      file.get((int) (filters + filterStart), filter);
      groups.add(new Group(file.getInt(table + 16 * g), file.getInt(table + 16 * g + 4), filter));
      filterStart = filterEnd;
    }
    assertThat(filters + filterStart).isEqualTo(file.getLong(directoryEnd));
    return new File(version, maxDoc, values, common, commonStart, groups);
  }
}
