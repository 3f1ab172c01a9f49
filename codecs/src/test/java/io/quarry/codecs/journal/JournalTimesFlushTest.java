package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import io.quarry.codecs.block.EventBlockTimes;
import io.quarry.codecs.block.EventBlockWriter;
import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteArrayDataOutput;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The zstd writer ends a zstd block where a journal block's first event block's times end (session
 * 33, flush): the block still decodes whole to the same bytes at both levels; a prefix read of the
 * times is right on blocks written with and without that boundary and, with it, reads only the
 * first piece of the input; blocks whose first document is no event block are written as before,
 * byte for byte.
 */
class JournalTimesFlushTest {
  private static final String[] WORDS = {
    "GET", "POST", "/cart", "/item", "HTTP/1.1", "200", "404", "Mozilla/5.0", "JSESSIONID=",
  };

  /** An event block of {@code events} log-like events, newest first. */
  private static byte[] eventBlock(Random random, int events) {
    List<Event> list = new ArrayList<>();
    long time = 1_700_000_000_000_000L;
    for (int e = 0; e < events; e++) {
      StringBuilder raw = new StringBuilder().append(random.nextInt(256)).append(".0.0.1 ");
      for (int w = 0; w < 12; w++) {
        raw.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(10_000)).append(' ');
      }
      list.add(
          new Event(
              time - random.nextInt(60_000_000),
              raw.toString(),
              "host",
              "src",
              "access_combined",
              Map.of()));
    }
    list.sort(Comparator.comparingLong(Event::timeMicros).reversed());
    return EventBlockWriter.write(list);
  }

  /** A journal block as the writer lays it out: the documents' lengths, then each document. */
  private static byte[] journalBlock(byte[]... firstFields) throws IOException {
    byte[] documents = new byte[16 + Arrays.stream(firstFields).mapToInt(f -> f.length + 16).sum()];
    ByteArrayDataOutput out = new ByteArrayDataOutput(documents);
    int[] lengths = new int[firstFields.length];
    for (int d = 0; d < firstFields.length; d++) {
      int before = out.getPosition();
      out.writeVInt(1); // one field
      out.writeVInt(JournalStoredFieldsWriter.BINARY); // field number 0, binary
      out.writeVInt(firstFields[d].length);
      out.writeBytes(firstFields[d], firstFields[d].length);
      lengths[d] = out.getPosition() - before;
    }
    byte[] block = new byte[documents.length + 5 * lengths.length];
    ByteArrayDataOutput whole = new ByteArrayDataOutput(block);
    for (int length : lengths) {
      whole.writeVInt(length);
    }
    whole.writeBytes(documents, out.getPosition());
    return Arrays.copyOf(block, whole.getPosition());
  }

  private static byte[] compress(byte[] raw, int documents, boolean compact) throws IOException {
    byte[] target = new byte[JournalCodec.ZSTD.maxCompressedLength(raw.length)];
    int length = JournalCodec.ZSTD.compress(raw, raw.length, documents, target, compact);
    return Arrays.copyOf(target, length);
  }

  /** As the journal wrote every zstd block before: one call, no boundary chosen. */
  private static byte[] unflushed(byte[] raw, boolean compact) {
    try (ZstdCompressCtx context = new ZstdCompressCtx()) {
      context.setLevel(JournalCodec.ZSTD.level(compact));
      return context.compress(raw);
    }
  }

  /** Decodes {@code compressed} up to {@code end} by prefix reads in steps; the input read. */
  private static int prefix(byte[] compressed, byte[] into, int... ends) throws IOException {
    ByteBuffer source = ByteBuffer.wrap(compressed);
    ByteBuffer target = ByteBuffer.wrap(into).limit(0);
    for (int i = 0; i < ends.length; i++) {
      target.limit(ends[i]);
      assertThat(JournalCodec.ZSTD.decompressPrefix(source, target, i == 0)).isTrue();
      assertThat(target.position()).isEqualTo(ends[i]);
    }
    return source.position();
  }

  @Test
  void eventBlocksEndAZstdBlockAtTheirTimesAndDecodeTheSame() throws IOException {
    Random random = new Random(33);
    for (int round = 0; round < 6; round++) {
      byte[] first = eventBlock(random, 1000 + random.nextInt(2000));
      byte[] raw =
          round % 2 == 0
              ? journalBlock(first)
              : journalBlock(first, eventBlock(random, 500), "tail".getBytes());
      int documents = round % 2 == 0 ? 1 : 3;
      int timesEnd = JournalTimesEnd.of(raw, raw.length, documents);
      assertThat(timesEnd).isGreaterThan(0).isLessThan(raw.length / 4);
      int payloadStart = timesEnd - EventBlockTimes.end(first, 0, first.length, first.length);
      assertThat(Arrays.copyOfRange(raw, payloadStart, payloadStart + first.length))
          .isEqualTo(first);
      for (boolean compact : new boolean[] {false, true}) {
        byte[] flushed = compress(raw, documents, compact);
        byte[] before = unflushed(raw, compact);
        assertThat(flushed).as("a boundary chosen").isNotEqualTo(before);
        assertThat(Zstd.decompress(flushed, raw.length)).isEqualTo(raw);
        assertThat(Zstd.decompress(before, raw.length)).isEqualTo(raw);
        byte[] into = new byte[raw.length];
        int[] reads = new int[2]; // the input a prefix read took: flushed, before
        for (byte[] compressed : new byte[][] {flushed, before}) {
          Arrays.fill(into, (byte) 0);
          int read = prefix(compressed, into, 8, payloadStart + 30, timesEnd);
          assertThat(Arrays.copyOf(into, timesEnd)).isEqualTo(Arrays.copyOf(raw, timesEnd));
          reads[compressed == flushed ? 0 : 1] = read;
          Arrays.fill(into, (byte) 0);
          prefix(compressed, into, raw.length); // a prefix read to the end is a whole read
          assertThat(into).isEqualTo(raw);
        }
        // with the boundary, the times' compressed bytes and at most one more piece; without, the
        // first zstd block of up to 128 KiB, a piece or more beyond
        assertThat(reads[0]).as("flushed").isLessThanOrEqualTo(timesEnd + 64 + (2 << 10));
        assertThat(reads[1]).as("unflushed").isGreaterThanOrEqualTo(reads[0] + (8 << 10));
      }
    }
  }

  /**
   * The journal's own writer (not this test's layout above): a prefix read of a real segment's
   * event block stops within a piece of the times' end, so a layout the writer and {@link
   * JournalTimesEnd} no longer agree on (no boundary, or one elsewhere) fails here (review-d,
   * finding 8).
   */
  @Test
  void aRealSegmentsPrefixReadStopsAtTheTimes(@TempDir Path directory) throws IOException {
    Random random = new Random(34);
    List<byte[]> blocks = new ArrayList<>();
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer =
            new IndexWriter(
                fs,
                new IndexWriterConfig()
                    .setUseCompoundFile(false)
                    .setCodec(new QuarryCodec(JournalCompression.ZSTD, 64)))) {
      for (int doc = 0; doc < 3; doc++) {
        byte[] block = eventBlock(random, 2000 + random.nextInt(1000));
        Document document = new Document();
        document.add(new StoredField("block", block));
        writer.addDocument(document);
        blocks.add(block);
      }
    }
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      JournalStoredFieldsReader journal =
          (JournalStoredFieldsReader)
              ((CodecReader) reader.leaves().get(0).reader()).getFieldsReader();
      assertThat(journal.blockCount()).as("a journal block each").isEqualTo(3);
      JournalPrefix prefix = new JournalPrefix();
      for (int doc = 0; doc < 3; doc++) {
        byte[] block = blocks.get(doc);
        journal.readPrefix(doc, prefix);
        int timesEnd =
            prefix.valueStart() + EventBlockTimes.end(block, 0, block.length, block.length);
        prefix.ensure(timesEnd);
        assertThat(Arrays.copyOfRange(prefix.bytes(), prefix.valueStart(), timesEnd))
            .isEqualTo(Arrays.copyOf(block, timesEnd - prefix.valueStart()));
        assertThat(journal.compressedLength(doc)).isGreaterThan(timesEnd + (16 << 10));
        assertThat(prefix.consumed())
            .as("doc " + doc)
            .isLessThanOrEqualTo(timesEnd + 64 + (2 << 10));
      }
    }
  }

  @Test
  void otherBlocksAreWrittenAsBefore() throws IOException {
    byte[] text = new byte[200_000];
    Random random = new Random(7);
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) ('a' + random.nextInt(8));
    }
    byte[] notEvents = journalBlock(text, "x".getBytes(StandardCharsets.US_ASCII));
    assertThat(JournalTimesEnd.of(notEvents, notEvents.length, 2)).isEqualTo(-1);
    for (boolean compact : new boolean[] {false, true}) {
      assertThat(compress(notEvents, 2, compact)).isEqualTo(unflushed(notEvents, compact));
    }
  }
}
