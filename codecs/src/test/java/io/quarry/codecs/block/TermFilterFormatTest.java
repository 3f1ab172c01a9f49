package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.journal.QuarryCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortingCodecReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TermFilterFormat} on a real index on disk: every value reads back as written (documents
 * without one skipped), a probe in place answers as {@link TermFilter#mayContain} does on a copy,
 * values survive merges with deletions and doc values updates, threads probe one segment at once
 * through a buffered (not memory-mapped) directory, a flipped byte fails the checksum and a cut
 * file fails to open, and filters written in Lucene's format before it still read.
 */
class TermFilterFormatTest {
  @TempDir Path dir;

  private final Random random = new Random(28);
  private final Map<Long, List<String>> termsById = new HashMap<>();

  /** A document {@code id}, with a filter of fresh random terms unless {@code id % 3 == 1}. */
  private Document document(long id) {
    Document document = new Document();
    document.add(new StringField("key", Long.toString(id), Field.Store.NO));
    document.add(new NumericDocValuesField("id", id));
    if (id % 3 != 1) {
      List<String> terms = new ArrayList<>();
      int count = 1 + random.nextInt(id % 5 == 0 ? 3000 : 40);
      TermFilter.Builder builder = new TermFilter.Builder().reset(count);
      for (int i = 0; i < count; i++) {
        String term = "t" + id + "-" + random.nextInt(1_000_000);
        terms.add(term);
        builder.add(TermFilter.hash(bytes(term)));
      }
      termsById.put(id, terms);
      document.add(
          new BinaryDocValuesField(TermFilterFormat.FIELD, new BytesRef(builder.toBytes())));
    }
    return document;
  }

  private static BytesRef bytes(String text) {
    return new BytesRef(text.getBytes(StandardCharsets.UTF_8));
  }

  private IndexWriter writer(Codec codec, MergePolicy merges) throws IOException {
    return new IndexWriter(
        FSDirectory.open(dir),
        new IndexWriterConfig()
            .setCodec(codec)
            .setMergePolicy(merges)
            .setUseCompoundFile(false)); // the test finds the .qtf files
  }

  private IndexWriter writer(Codec codec) throws IOException {
    return writer(codec, NoMergePolicy.INSTANCE);
  }

  /** Checks every document of every segment against what was written; the values seen. */
  private int checkAll(boolean inPlace) throws IOException {
    int seen = 0;
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        LeafReader segment = leaf.reader();
        BinaryDocValues values = segment.getBinaryDocValues(TermFilterFormat.FIELD);
        assertThat(values instanceof TermFilterValues).isEqualTo(inPlace);
        NumericDocValues ids = segment.getNumericDocValues("id");
        int expectedNext = 0;
        for (int doc = values.nextDoc();
            doc != DocIdSetIterator.NO_MORE_DOCS;
            doc = values.nextDoc()) {
          for (; expectedNext < doc; expectedNext++) { // skipped: no filter, or deleted
            assertThat(ids.advanceExact(expectedNext)).isTrue();
            assertThat(
                    termsById.get(ids.longValue()) == null
                        || (segment.getLiveDocs() != null
                            && !segment.getLiveDocs().get(expectedNext)))
                .isTrue();
          }
          expectedNext = doc + 1;
          if (segment.getLiveDocs() != null && !segment.getLiveDocs().get(doc)) {
            continue;
          }
          assertThat(ids.advanceExact(doc)).isTrue();
          List<String> terms = termsById.get(ids.longValue());
          assertThat(terms).as("document %d", ids.longValue()).isNotNull();
          BytesRef copy = BytesRef.deepCopyOf(values.binaryValue());
          for (String term : terms) {
            long hash = TermFilter.hash(bytes(term));
            assertThat(TermFilter.mayContain(copy, hash)).isTrue();
            if (values instanceof TermFilterValues probe) {
              assertThat(probe.mayContain(hash)).isTrue();
            }
          }
          if (values instanceof TermFilterValues probe) {
            for (int i = 0; i < 2_000; i++) {
              long hash = random.nextLong();
              assertThat(probe.mayContain(hash)).isEqualTo(TermFilter.mayContain(copy, hash));
            }
          }
          seen++;
        }
        // advanceExact on a document without a value says so
        for (int doc = 0; doc < segment.maxDoc(); doc++) {
          if (segment.getLiveDocs() != null && !segment.getLiveDocs().get(doc)) {
            continue;
          }
          BinaryDocValues exact = segment.getBinaryDocValues(TermFilterFormat.FIELD);
          assertThat(ids.advanceExact(doc)).isTrue();
          assertThat(exact.advanceExact(doc)).isEqualTo(termsById.containsKey(ids.longValue()));
        }
        segment.checkIntegrity();
      }
    }
    return seen;
  }

  @Test
  void valuesReadInPlaceAsWritten() throws Exception {
    try (IndexWriter writer = writer(new QuarryCodec())) {
      for (long id = 0; id < 60; id++) {
        writer.addDocument(document(id));
        if (id % 25 == 24) {
          writer.commit(); // three segments
        }
      }
    }
    assertThat(checkAll(true)).isEqualTo(termsById.size()).isEqualTo(40);
    assertThat(Files.list(dir).filter(f -> f.toString().endsWith(".qtf")).count()).isEqualTo(3);
  }

  @Test
  void mergesAndUpdatesKeepEveryValue() throws Exception {
    try (IndexWriter writer = writer(new QuarryCodec())) {
      for (long id = 0; id < 90; id++) {
        writer.addDocument(document(id));
        if (id % 20 == 19) {
          writer.commit();
        }
      }
      for (long id = 0; id < 90; id += 7) {
        writer.deleteDocuments(new Term("key", Long.toString(id)));
        termsById.remove(id);
      }
      // a doc values update: document 2's filter replaced by one of other terms
      Document replaced = document(1_000_002);
      termsById.put(2L, termsById.remove(1_000_002L));
      writer.updateBinaryDocValue(
          new Term("key", "2"),
          TermFilterFormat.FIELD,
          (BytesRef) replaced.getField(TermFilterFormat.FIELD).binaryValue());
    }
    assertThat(checkAll(true)).isEqualTo(termsById.size());
    try (IndexWriter writer = writer(new QuarryCodec(), new TieredMergePolicy())) {
      writer.forceMerge(1);
    }
    assertThat(checkAll(true)).isEqualTo(termsById.size());
  }

  @Test
  void aFlippedByteFailsTheChecksumAndACutOrMisreadFileFailsToOpenNamingIt() throws Exception {
    try (IndexWriter writer = writer(new QuarryCodec())) {
      for (long id = 0; id < 10; id++) {
        writer.addDocument(document(id));
      }
    }
    Path file =
        Files.list(dir).filter(f -> f.toString().endsWith(".qtf")).findFirst().orElseThrow();
    byte[] original = Files.readAllBytes(file);
    byte[] flipped = original.clone();
    flipped[original.length / 2] ^= 0x10; // inside the values
    Files.write(file, flipped);
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      assertThatThrownBy(() -> reader.leaves().get(0).reader().checkIntegrity())
          .isInstanceOf(CorruptIndexException.class);
    }
    String name = file.getFileName().toString();
    for (int cut : new int[] {20, original.length / 2, original.length - 40}) {
      Files.write(file, java.util.Arrays.copyOf(original, cut));
      try (FSDirectory directory = FSDirectory.open(dir)) {
        assertThatThrownBy(() -> DirectoryReader.open(directory))
            .as("cut to %d bytes", cut)
            .isInstanceOf(CorruptIndexException.class)
            .hasMessageContaining(name);
      }
    }
    byte[] codec = original.clone();
    codec[8] ^= 0x01; // in the codec name of the header
    Files.write(file, codec);
    try (FSDirectory directory = FSDirectory.open(dir)) {
      assertThatThrownBy(() -> DirectoryReader.open(directory))
          .isInstanceOf(CorruptIndexException.class)
          .hasMessageContaining("codec mismatch")
          .hasMessageContaining(name);
    }
    byte[] directoryStart = original.clone();
    directoryStart[original.length - 16 - 8] ^= 0x40; // the directory's start, past the directory
    Files.write(file, directoryStart);
    try (FSDirectory directory = FSDirectory.open(dir)) {
      assertThatThrownBy(() -> DirectoryReader.open(directory))
          .isInstanceOf(CorruptIndexException.class)
          .hasMessageContaining(name);
    }
  }

  @Test
  void threadsProbeOneSegmentAtOnceThroughABufferedDirectory() throws Exception {
    try (IndexWriter writer = writer(new QuarryCodec())) {
      for (long id = 0; id < 60; id++) {
        writer.addDocument(document(id));
      }
    }
    // NIOFSDirectory's random-access views are buffered: each iterator must have its own
    try (NIOFSDirectory directory = new NIOFSDirectory(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      LeafReader segment = reader.leaves().get(0).reader();
      List<Thread> threads = new ArrayList<>();
      AtomicInteger wrong = new AtomicInteger();
      AtomicInteger probed = new AtomicInteger();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < 4; t++) {
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        for (int round = 0; round < 20; round++) {
                          TermFilterValues values =
                              (TermFilterValues) segment.getBinaryDocValues(TermFilterFormat.FIELD);
                          NumericDocValues ids = segment.getNumericDocValues("id");
                          for (int doc = values.nextDoc();
                              doc != DocIdSetIterator.NO_MORE_DOCS;
                              doc = values.nextDoc()) {
                            ids.advanceExact(doc);
                            for (String term : termsById.get(ids.longValue())) {
                              probed.incrementAndGet();
                              if (!values.mayContain(TermFilter.hash(bytes(term)))) {
                                wrong.incrementAndGet();
                              }
                            }
                          }
                        }
                      } catch (IOException | RuntimeException | AssertionError e) {
                        failures.add(e); // a worker that dies must fail the test, not go quiet
                      }
                    }));
      }
      for (Thread thread : threads) {
        thread.join();
      }
      assertThat(failures).isEmpty();
      assertThat(probed.get())
          .isEqualTo(4 * 20 * termsById.values().stream().mapToInt(List::size).sum());
      assertThat(wrong.get()).isZero();
    }
  }

  @Test
  void filtersInLucenesDocValuesStillRead() throws Exception {
    // a segment written as before session 28: the same codec name, the filters in Lucene's format
    FilterCodec before =
        new FilterCodec(QuarryCodec.NAME, new QuarryCodec()) {
          private final DocValuesFormat lucenes = new Lucene104Codec().docValuesFormat();

          @Override
          public DocValuesFormat docValuesFormat() {
            return lucenes;
          }
        };
    try (IndexWriter writer = writer(before)) {
      for (long id = 0; id < 20; id++) {
        writer.addDocument(document(id));
      }
    }
    assertThat(checkAll(false)).isEqualTo(termsById.size());
    assertThat(Files.list(dir).noneMatch(f -> f.toString().endsWith(".qtf"))).isTrue();
  }

  @Test
  void aMergeOfWrappedFiltersFailsRatherThanDropTheirCommonTerms() throws Exception {
    try (IndexWriter writer = writer(new QuarryCodec())) {
      for (long id = 0; id < 20; id++) {
        writer.addDocument(document(id));
      }
    }
    Path other = dir.resolve("other");
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory);
        IndexWriter target =
            new IndexWriter(
                FSDirectory.open(other), new IndexWriterConfig().setCodec(new QuarryCodec()))) {
      CodecReader wrapped =
          SortingCodecReader.wrap(
              (CodecReader) reader.leaves().get(0).reader(),
              new Sort(new SortField("id", SortField.Type.LONG, true)));
      assertThatThrownBy(() -> target.addIndexes(wrapped))
          .hasStackTraceContaining("common-terms list unreadable");
    }
  }
}
