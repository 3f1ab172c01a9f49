package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merges copy the compressed blocks they would write the same way (same codec, same level), byte
 * for byte and without decoding them (the merge's thread counts no decoded block: {@link
 * JournalReads}), and re-encode the rest: blocks with deleted documents, short blocks, blocks of
 * another level, and every document when an index sort reorders them.
 */
class JournalBlockCopyTest {
  private static final int BLOCK_SIZE = 1024;

  @TempDir Path directory;

  @Test
  void aMergeOfFastSegmentsCopiesTheirBlocksByteForByte() throws IOException {
    List<String> events = largeEvents(60); // one event per block: every block full
    for (JournalCompression compression :
        List.of(JournalCompression.ZSTD, JournalCompression.LZ4, JournalCompression.NONE)) {
      try (Index index = new Index(directory.resolve(compression.configName()), compression)) {
        index.add(events, 3);
        List<List<byte[]>> sources = index.blocks();
        assertThat(sources).hasSize(3);
        assertThat(index.forceMerge()).as("blocks decoded").isZero();
        List<List<byte[]>> merged = index.blocks();
        assertThat(merged).hasSize(1);
        assertThat(merged.get(0))
            .as(compression.toString())
            .containsExactlyElementsOf(flat(sources));
        assertThat(index.journal(0).level()).isEqualTo(compression.codec(false).level(false));
        index.assertHolds(events);
      }
    }
  }

  @Test
  void shortBlocksAreReencodedAndTheFullOnesAroundThemCopied() throws IOException {
    List<String> lines = loghub().subList(0, 700); // ~100-byte lines: ~10 to a 1 KiB block
    try (Index index = new Index(directory.resolve("short"), JournalCompression.ZSTD)) {
      index.add(lines, 3);
      List<List<byte[]>> sources = index.blocks();
      List<byte[]> full = new ArrayList<>();
      int shortBlocks = 0;
      for (int segment = 0; segment < sources.size(); segment++) {
        JournalStoredFieldsReader source = index.journal(segment);
        for (int block = 0; block < source.blockCount(); block++) {
          if (source.rawLength(block) >= BLOCK_SIZE / 2) {
            full.add(sources.get(segment).get(block));
          } else {
            shortBlocks++;
          }
        }
      }
      assertThat(shortBlocks).isPositive(); // each flush ends on a short block
      assertThat(index.forceMerge()).as("blocks decoded").isEqualTo(shortBlocks);
      List<byte[]> merged = index.blocks().get(0);
      assertThat(merged).containsSubsequence(full);
      // the short blocks are re-encoded: each ends up in a block of its own (the next copied
      // block flushes it) — unless two in a row meet
      assertThat(merged.size()).isBetween(full.size() + 1, full.size() + shortBlocks);
      index.assertHolds(lines);
    }
  }

  @Test
  void blocksWithDeletedDocumentsAreReencodedTheOthersCopied() throws IOException {
    List<String> events = largeEvents(40);
    List<String> lines = loghub().subList(0, 400);
    try (Index index = new Index(directory.resolve("deletes"), JournalCompression.ZSTD)) {
      index.add(events, 2);
      index.add(lines, 2);
      List<List<byte[]>> before = index.blocks();
      List<String> live = new ArrayList<>();
      List<Integer> deleted = new ArrayList<>();
      for (int i = 0; i < events.size(); i++) {
        if (i % 7 == 3) {
          deleted.add(i);
        } else {
          live.add(events.get(i));
        }
      }
      for (int i = 0; i < lines.size(); i++) {
        if (i % 50 == 0) {
          deleted.add(events.size() + i);
        } else {
          live.add(lines.get(i));
        }
      }
      index.delete(deleted);
      int touched = 0; // blocks with a deleted document or short, and a live one (decoded)
      int base = 0;
      for (int segment = 0; segment < before.size(); segment++) {
        JournalStoredFieldsReader source = index.journal(segment);
        for (int block = 0; block < source.blockCount(); block++) {
          int first = base + source.docBase(block);
          int last = first + source.docCount(block);
          long gone = deleted.stream().filter(id -> id >= first && id < last).count();
          if ((gone > 0 || source.rawLength(block) < BLOCK_SIZE / 2) && gone < last - first) {
            touched++;
          }
        }
        base += source.docBase(source.blockCount() - 1) + source.docCount(source.blockCount() - 1);
      }
      assertThat(index.forceMerge()).as("blocks decoded").isEqualTo(touched);
      List<byte[]> merged = index.blocks().get(0);
      // the large events' blocks hold one event each: the deleted ones are gone, the others copied
      List<byte[]> kept = new ArrayList<>();
      List<byte[]> all = flat(before.subList(0, 2));
      for (int i = 0; i < events.size(); i++) {
        if (i % 7 != 3) {
          kept.add(all.get(i));
        }
      }
      assertThat(merged.subList(0, kept.size())).containsExactlyElementsOf(kept);
      // a line block with a deleted line is re-encoded
      List<byte[]> lineBlocks = flat(before.subList(2, 4));
      assertThat(merged.subList(kept.size(), merged.size()))
          .doesNotContainAnyElementsOf(lineBlocks.subList(0, 1)); // line 0 is in the first
      index.assertHolds(live);
    }
  }

  @Test
  void anIndexSortReordersDocumentsThroughTheDocumentAtATimeMerge() throws IOException {
    List<String> events = largeEvents(30);
    Sort byNumberDescending = new Sort(new SortField("n", SortField.Type.LONG, true));
    try (Index index =
        new Index(directory.resolve("sorted"), JournalCompression.ZSTD, byNumberDescending)) {
      index.add(events, 3);
      List<byte[]> sources = flat(index.blocks());
      assertThat(index.forceMerge()).as("blocks decoded").isEqualTo(events.size());
      List<String> expected = new ArrayList<>(events);
      Collections.reverse(expected);
      index.assertHolds(expected);
      // every event re-encoded — at the same level, to the same bytes — in the sorted order
      assertThat(index.blocks().get(0)).containsExactlyInAnyOrderElementsOf(sources);
    }
  }

  @Test
  void aCompactMergeRecompressesFastBlocksAndCopiesCompactOnes() throws IOException {
    List<String> events = largeEvents(40);
    for (JournalCompression compression :
        List.of(JournalCompression.ZSTD, JournalCompression.ZSTD_LZ4)) {
      try (Index index =
          new Index(directory.resolve("compact-" + compression.configName()), compression, 0)) {
        index.add(events.subList(0, 20), 2);
        List<byte[]> fast = flat(index.blocks());
        assertThat(index.forceMerge()).isEqualTo(fast.size()); // every merge is compact here
        List<byte[]> compact = index.blocks().get(0);
        assertThat(index.journal(0).level()).isEqualTo(compression.codec(true).level(true));
        assertThat(compact).hasSameSizeAs(fast).doesNotContainAnyElementsOf(fast);

        index.add(events.subList(20, 40), 2);
        List<byte[]> newFast = flat(index.blocks().subList(1, 3));
        assertThat(index.forceMerge()).as("blocks decoded").isEqualTo(newFast.size());
        List<byte[]> merged = index.blocks().get(0);
        assertThat(merged.subList(0, compact.size())).containsExactlyElementsOf(compact);
        assertThat(merged.subList(compact.size(), merged.size()))
            .hasSameSizeAs(newFast)
            .doesNotContainAnyElementsOf(newFast);
        index.assertHolds(events);
      }
    }
  }

  /** A journal written before the data file named its level is re-encoded, never copied. */
  @Test
  void aJournalThatDoesNotNameItsLevelIsReencoded() throws IOException {
    Path old = directory.resolve("v0");
    Files.createDirectories(old);
    for (String file : List.of("_0.fnm", "_0.qjd", "_0.qjx", "_0.si", "segments_1")) {
      try (InputStream in = getClass().getResourceAsStream("/journal-v0/" + file)) {
        Files.copy(in, old.resolve(file));
      }
    }
    try (Index index = new Index(old, JournalCompression.ZSTD)) {
      JournalStoredFieldsReader v0 = index.journal(0);
      assertThat(v0.level()).isEqualTo(-1);
      int v0Blocks = v0.blockCount();
      List<String> raws = new ArrayList<>(index.raws());
      List<String> events = largeEvents(3);
      index.add(events, 1);
      assertThat(index.forceMerge()).as("blocks decoded").isEqualTo(v0Blocks);
      assertThat(index.journal(0).level()).isEqualTo(JournalCodec.ZSTD.level(false));
      raws.addAll(events);
      index.assertHolds(raws);
    }
  }

  private static List<byte[]> flat(List<List<byte[]>> segments) {
    return segments.stream().flatMap(List::stream).toList();
  }

  /** Events of 1-3 KiB (Loghub lines joined), each filling a 1 KiB block alone. */
  private static List<String> largeEvents(int count) throws IOException {
    List<String> lines = loghub();
    List<String> events = new ArrayList<>();
    int line = 0;
    for (int i = 0; i < count; i++) {
      StringBuilder event = new StringBuilder();
      int size = BLOCK_SIZE + (i * 397) % (2 * BLOCK_SIZE);
      while (event.length() < size) {
        event.append(lines.get(line++ % lines.size())).append('\n');
      }
      events.add(event.toString());
    }
    return events;
  }

  private static List<String> loghub() throws IOException {
    try (InputStream in = JournalBlockCopyTest.class.getResourceAsStream("/loghub/Linux_2k.log")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  /** A real index on disk whose documents are the events, in order, with a number each. */
  private static final class Index implements AutoCloseable {
    private final Path path;
    private final FSDirectory fs;
    private final IndexWriter writer;
    private int added;

    Index(Path path, JournalCompression compression) throws IOException {
      this(path, compression, null, Long.MAX_VALUE);
    }

    Index(Path path, JournalCompression compression, long compactMergeBytes) throws IOException {
      this(path, compression, null, compactMergeBytes);
    }

    Index(Path path, JournalCompression compression, Sort sort) throws IOException {
      this(path, compression, sort, Long.MAX_VALUE);
    }

    private Index(Path path, JournalCompression compression, Sort sort, long compactMergeBytes)
        throws IOException {
      this.path = path;
      this.fs = FSDirectory.open(path);
      IndexWriterConfig config =
          new IndexWriterConfig()
              .setUseCompoundFile(false)
              .setMergePolicy(new LogDocMergePolicy()) // merges neighbours, in order
              .setMergeScheduler(new SerialMergeScheduler()) // on the caller's thread
              .setCodec(new QuarryCodec(compression, BLOCK_SIZE, compactMergeBytes));
      config.getMergePolicy().setNoCFSRatio(0);
      if (sort != null) {
        config.setIndexSort(sort);
      }
      this.writer = new IndexWriter(fs, config);
    }

    /** Adds the events in {@code segments} flushes of about the same size. */
    void add(List<String> events, int segments) throws IOException {
      for (int i = 0; i < events.size(); i++) {
        Document document = new Document();
        document.add(new StringField("id", Integer.toString(added), Field.Store.NO));
        document.add(new NumericDocValuesField("n", added));
        document.add(new StoredField("_raw", events.get(i)));
        writer.addDocument(document);
        added++;
        if ((i + 1) % ((events.size() + segments - 1) / segments) == 0) {
          writer.flush();
        }
      }
      writer.commit();
    }

    void delete(List<Integer> ids) throws IOException {
      for (int id : ids) {
        writer.deleteDocuments(new Term("id", Integer.toString(id)));
      }
      writer.commit();
    }

    /** Merges to one segment on this thread; returns the journal blocks the merge decoded. */
    long forceMerge() throws IOException {
      long before = JournalReads.read()[0];
      writer.forceMerge(1);
      long decoded = JournalReads.read()[0] - before;
      writer.commit();
      return decoded;
    }

    /** The compressed bytes of every journal block, per segment in index order. */
    List<List<byte[]>> blocks() throws IOException {
      List<List<byte[]>> segments = new ArrayList<>();
      try (DirectoryReader reader = DirectoryReader.open(fs)) {
        for (LeafReaderContext leaf : reader.leaves()) {
          SegmentReader segment = (SegmentReader) leaf.reader();
          JournalStoredFieldsReader journal = (JournalStoredFieldsReader) segment.getFieldsReader();
          byte[] data =
              Files.readAllBytes(
                  path.resolve(
                      segment.getSegmentName() + "." + JournalStoredFieldsFormat.DATA_EXTENSION));
          // blocks lie back to back after the header, its codec and its level
          int at = CodecUtil.indexHeaderLength(JournalStoredFieldsFormat.DATA_CODEC, "") + 2;
          List<byte[]> blocks = new ArrayList<>();
          for (int block = 0; block < journal.blockCount(); block++) {
            int length = journal.compressedLength(block);
            blocks.add(Arrays.copyOfRange(data, at, at + length));
            at += length;
          }
          assertThat(at).isEqualTo(data.length - CodecUtil.footerLength());
          segments.add(blocks);
        }
      }
      return segments;
    }

    /** The journal reader of one segment, open until the next call (kept for its block index). */
    JournalStoredFieldsReader journal(int segment) throws IOException {
      if (open != null) {
        open.close();
      }
      open = DirectoryReader.open(fs);
      return (JournalStoredFieldsReader)
          ((SegmentReader) open.leaves().get(segment).reader()).getFieldsReader();
    }

    private DirectoryReader open;

    /** The index holds these events in this order (every block's CRC checked on decoding). */
    void assertHolds(List<String> events) throws IOException {
      assertThat(raws()).containsExactlyElementsOf(events);
      try (DirectoryReader reader = DirectoryReader.open(fs)) {
        for (LeafReaderContext leaf : reader.leaves()) {
          leaf.reader().checkIntegrity(); // the data files' checksums, after the copies
        }
      }
    }

    /** The live documents' {@code _raw}, in order. */
    List<String> raws() throws IOException {
      try (DirectoryReader reader = DirectoryReader.open(fs)) {
        List<String> read = new ArrayList<>();
        for (LeafReaderContext leaf : reader.leaves()) {
          StoredFields fields = leaf.reader().storedFields();
          for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
            if (leaf.reader().getLiveDocs() == null || leaf.reader().getLiveDocs().get(doc)) {
              read.add(fields.document(doc).get("_raw"));
            }
          }
        }
        return read;
      }
    }

    @Override
    public void close() throws IOException {
      if (open != null) {
        open.close();
      }
      writer.close();
      fs.close();
    }
  }
}
