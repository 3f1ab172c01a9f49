package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.journal.QuarryCodec;
import java.io.IOException;
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

/**
 * Segments of blocks carrying their term filter entries ({@link TermFilterEntries}) in a real index
 * directory, for the tests of {@link CommonTerms}: each block holds 200 entries of its own and the
 * shared terms it is given; every entry of every live block is checked to be a "maybe".
 */
final class FilteredSegments {
  private final Path dir;
  private final Map<Long, List<Long>> entriesById = new HashMap<>();

  FilteredSegments(Path dir) {
    this.dir = dir;
  }

  /** The entries of each block written, by its id. */
  Map<Long, List<Long>> entriesById() {
    return entriesById;
  }

  static long hash(String term) {
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

  void forceMerge(Term... deleted) throws IOException {
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
  void segment(Codec codec, long from, long to, java.util.function.LongFunction<String[]> shared)
      throws IOException {
    try (IndexWriter writer = writer(codec)) {
      for (long id = from; id < to; id++) {
        writer.addDocument(block(id, shared.apply(id)));
      }
    }
  }

  static TermFilterValues values(LeafReader segment) throws IOException {
    return (TermFilterValues) segment.getBinaryDocValues(TermFilterFormat.FIELD);
  }

  /** Every entry of every live block is a "maybe"; the values read, by segment. */
  List<TermFilterValues> checkEveryEntry(DirectoryReader reader) throws IOException {
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
  static int filtersHolding(TermFilterValues values, String term) throws IOException {
    int holding = 0;
    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
      holding += values.filterMayContain(hash(term)) ? 1 : 0;
    }
    return holding;
  }

  /** QuarryCodec but for the term filters' format, written at {@code version}. */
  static Codec writing(int version) {
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

  Path qtf() throws IOException {
    try (var files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".qtf")).findFirst().orElseThrow();
    }
  }
}
