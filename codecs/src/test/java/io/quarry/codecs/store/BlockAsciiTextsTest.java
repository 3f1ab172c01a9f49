package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.block.EventBlock;
import io.quarry.codecs.journal.QuarryCodec;
import io.quarry.codecs.tokens.TermSet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan is handed an event's text as ASCII characters over the block's bytes ({@link
 * BlockEvents#rawView}) exactly when its bytes are ASCII, whatever the block's header records: all
 * ASCII, some text not (a UTF-8 multi-byte character in one event of many), or nothing (a block
 * written before the header recorded it, whose bytes the reader checks). Blocks of each kind go
 * into a real index over several segments merged into one: the merge copies each payload as it is,
 * its record with it, and every event reads back as written.
 */
class BlockAsciiTextsTest {
  @TempDir Path data;

  private static final String[] ODD = {"caf\u00e9", "\uD83D\uDE00", "\u65e5\u672c", "x\u0080"};

  @Test
  void aNonAsciiTextIsNeverViewedAsAscii() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String why = "seed " + seed;
    List<List<Event>> blocks = new ArrayList<>();
    List<EventBlock.Texts> records = new ArrayList<>();
    BlockDocuments documents =
        new BlockDocuments(IndexOptions.builder().format(BucketFormat.BLOCKS).build());
    TermSet terms = new TermSet();
    try (FSDirectory directory = FSDirectory.open(data);
        IndexWriter writer =
            new IndexWriter(
                directory,
                new IndexWriterConfig()
                    .setCodec(new QuarryCodec())
                    .setMergePolicy(new LogDocMergePolicy()))) { // block b stays document b
      long sequence = 0;
      for (int b = 0; b < 60; b++) {
        List<Event> block = block(random, b, b % 3 == 1);
        Document document = documents.document(block, sequence, terms);
        boolean ascii = b % 3 != 1;
        EventBlock.Texts record =
            ascii ? EventBlock.Texts.ALL_ASCII : EventBlock.Texts.SOME_NOT_ASCII;
        if (b % 5 == 4) { // as written before the header recorded the texts
          byte[] payload = document.getBinaryValue(BlockDocuments.BLOCK).bytes;
          document.removeField(BlockDocuments.BLOCK);
          document.add(new StoredField(BlockDocuments.BLOCK, unrecorded(payload)));
          record = EventBlock.Texts.UNRECORDED;
        }
        writer.addDocument(document);
        blocks.add(block);
        records.add(record);
        sequence += block.size();
        if (b % 10 == 9) {
          writer.flush();
        }
      }
      writer.forceMerge(1);
      writer.commit();
    }
    try (FSDirectory directory = FSDirectory.open(data);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      assertThat(reader.leaves()).hasSize(1);
      LeafReader leaf = reader.leaves().get(0).reader();
      BlockColumns columns = new BlockColumns(leaf);
      for (int doc = 0; doc < blocks.size(); doc++) {
        byte[] payload =
            leaf.storedFields().document(doc).getBinaryValue(BlockDocuments.BLOCK).bytes;
        assertThat(EventBlock.open(payload, 0, payload.length).texts())
            .as(why + ", block " + doc)
            .isEqualTo(records.get(doc));
        BlockEvents events = BlockEvents.read("i", leaf.storedFields(), columns, doc);
        List<Event> block = blocks.get(doc);
        assertThat(events.count()).isEqualTo(block.size());
        for (int i = 0; i < block.size(); i++) {
          String raw = block.get(i).raw();
          CharSequence view = events.rawView(i);
          if (isAscii(raw)) {
            assertThat(view).as(why + ", block " + doc + " event " + i).isNotNull();
            assertThat(view.toString()).isEqualTo(raw);
          } else {
            assertThat(view).as(why + ", block " + doc + " event " + i + ": " + raw).isNull();
          }
          assertThat(events.raw(i)).isEqualTo(raw);
        }
      }
      assertThat(BlockBucketCheck.firstProblem(data)).as(why).isNull();
    }
  }

  /** Up to 300 access-log-like events, newest first; with one or a few non-ASCII texts if asked. */
  private static List<Event> block(Random random, int b, boolean odd) {
    int count = 1 + random.nextInt(300);
    List<Event> events = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String raw =
          "10.0." + random.nextInt(256) + "." + random.nextInt(256) + " GET /p" + b + "/" + i;
      events.add(new Event(1_700_000_000_000_000L - i, raw, "h", "access.log", "st", Map.of()));
    }
    for (int n = odd ? 1 + random.nextInt(3) : 0; n > 0; n--) {
      int at = random.nextInt(count);
      Event was = events.get(at);
      events.set(
          at,
          new Event(
              was.timeMicros(),
              was.raw() + " " + ODD[random.nextInt(ODD.length)],
              was.host(),
              was.source(),
              was.sourcetype(),
              was.indexedFields()));
    }
    return events;
  }

  /** The payload as a block written before session 32 has it: the header its version alone. */
  private static byte[] unrecorded(byte[] payload) {
    byte[] old = payload.clone();
    old[0] &= 0x3F;
    int body = old.length - Integer.BYTES;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(old, 0, body);
    java.nio.ByteBuffer.wrap(old, body, Integer.BYTES).putInt((int) crc.getValue());
    return old;
  }

  private static boolean isAscii(String raw) {
    for (byte b : raw.getBytes(StandardCharsets.UTF_8)) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }
}
