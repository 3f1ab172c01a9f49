package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal block decoded only as far as asked ({@link JournalPrefix}): the first bytes of a
 * document's binary field come out as written, from the first or a later document of a block, with
 * no more of the block decoded than asked; a damaged byte past them goes unnoticed by the prefix
 * read (it checks no checksum) but not by a full read of the document nor by {@code
 * checkIntegrity}.
 */
class JournalPrefixTest {
  @TempDir Path directory;

  private static final int FIRST = 1000;

  /** Log-like text (compressible, so a block is several zstd blocks), different per document. */
  private static byte[] payload(int doc, int bytes) {
    Random random = new Random(doc);
    StringBuilder text = new StringBuilder();
    while (text.length() < bytes) {
      text.append(doc)
          .append(" GET /item/")
          .append(random.nextInt(100_000))
          .append(" HTTP/1.1 200 ")
          .append(random.nextInt(5000))
          .append('\n');
    }
    return text.substring(0, bytes).getBytes(StandardCharsets.US_ASCII);
  }

  private List<byte[]> write(JournalCompression compression, int blockSize, int bytes)
      throws IOException {
    List<byte[]> payloads = new ArrayList<>();
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer =
            new IndexWriter(
                fs,
                new IndexWriterConfig()
                    .setUseCompoundFile(false)
                    .setCodec(new QuarryCodec(compression, blockSize)))) {
      for (int doc = 0; doc < 3; doc++) {
        byte[] payload = payload(doc, bytes);
        Document document = new Document();
        document.add(new StoredField("block", payload));
        writer.addDocument(document);
        payloads.add(payload);
      }
    }
    return payloads;
  }

  private static JournalStoredFieldsReader journal(DirectoryReader reader) {
    return (JournalStoredFieldsReader)
        ((CodecReader) reader.leaves().get(0).reader()).getFieldsReader();
  }

  @Test
  void aPrefixReadsTheFirstBytesAndNoMore() throws IOException {
    // zstd's streaming decoder, lz4's (the default's fast segments since session 40), lz4hc's,
    // and a copy of the bytes asked from an uncompressed block (none-zstd's fast segments, none)
    for (JournalCompression compression :
        List.of(
            JournalCompression.ZSTD,
            JournalCompression.LZ4_ZSTD,
            JournalCompression.LZ4,
            JournalCompression.NONE_ZSTD,
            JournalCompression.NONE)) {
      for (String file : directory.toFile().list()) {
        Files.delete(directory.resolve(file));
      }
      aPrefixReadsTheFirstBytesAndNoMore(compression);
    }
  }

  private void aPrefixReadsTheFirstBytesAndNoMore(JournalCompression compression)
      throws IOException {
    List<byte[]> payloads = write(compression, 64, 400_000); // a block each
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      JournalStoredFieldsReader journal = journal(reader);
      assertThat(journal.blockCount()).isEqualTo(3);
      JournalPrefix prefix = new JournalPrefix();
      for (int doc = 0; doc < 3; doc++) {
        long[] before = JournalReads.read();
        journal.readPrefix(doc, prefix);
        prefix.ensure(prefix.valueStart() + FIRST);
        prefix.account();
        int start = prefix.valueStart();
        assertThat(prefix.valueLength()).isEqualTo(400_000);
        assertThat(Arrays.copyOfRange(prefix.bytes(), start, start + FIRST))
            .isEqualTo(Arrays.copyOf(payloads.get(doc), FIRST));
        assertThat(prefix.decoded()).isEqualTo(start + FIRST);
        long[] after = JournalReads.read();
        assertThat(after[3] - before[3]).as("one prefix read").isEqualTo(1);
        assertThat(after[0] - before[0]).as("%s: no block decoded whole", compression).isZero();
        assertThat(after[1] - before[1]).as("bytes decoded").isEqualTo(start + FIRST);
      }
    }
  }

  @Test
  void aLaterDocumentOfABlockStartsAfterTheOnesBefore() throws IOException {
    for (JournalCompression compression : JournalCompression.values()) {
      for (String file : directory.toFile().list()) {
        Files.delete(directory.resolve(file));
      }
      List<byte[]> payloads = write(compression, 1 << 20, 30_000); // the three in one block
      try (FSDirectory fs = FSDirectory.open(directory);
          DirectoryReader reader = DirectoryReader.open(fs)) {
        JournalStoredFieldsReader journal = journal(reader);
        assertThat(journal.blockCount()).isEqualTo(1);
        JournalPrefix prefix = new JournalPrefix();
        for (int doc = 2; doc >= 0; doc--) {
          journal.readPrefix(doc, prefix);
          int start = prefix.valueStart();
          prefix.ensure(start + FIRST);
          assertThat(Arrays.copyOfRange(prefix.bytes(), start, start + FIRST))
              .as("%s doc %d", compression, doc)
              .isEqualTo(Arrays.copyOf(payloads.get(doc), FIRST));
        }
      }
    }
  }

  @Test
  void anUncompressedBlockIsCopiedAsFarAsAskedAndNoFurther() throws IOException {
    byte[] stored = payload(7, 100);
    ByteBuffer source = ByteBuffer.wrap(stored);
    ByteBuffer target = ByteBuffer.allocate(100).limit(10);
    assertThat(JournalCodec.NONE.decompressPrefix(source, target, true)).isTrue();
    target.limit(40);
    assertThat(JournalCodec.NONE.decompressPrefix(source, target, false)).isTrue();
    assertThat(source.position()).isEqualTo(40);
    assertThat(Arrays.copyOf(target.array(), 40)).isEqualTo(Arrays.copyOf(stored, 40));
    assertThat(target.array()[40]).as("nothing copied past the limit").isZero();
    ByteBuffer cut = ByteBuffer.wrap(stored, 0, 30);
    assertThatThrownBy(
            () -> JournalCodec.NONE.decompressPrefix(cut, ByteBuffer.allocate(100).limit(31), true))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cut after 30 bytes");
  }

  @Test
  void anUncompressedBlockWhoseStoredAndRawLengthsDifferIsRefused() {
    for (int stored : new int[] {50, 200}) {
      assertThatThrownBy(() -> new JournalPrefix().start(JournalCodec.NONE, stored, 100, 0, 1, "t"))
          .as("%d stored bytes for 100 raw", stored)
          .isInstanceOf(CorruptIndexException.class)
          .hasMessageContaining(stored + " stored bytes where its index says 100");
    }
  }

  @Test
  void aDamagedByteAfterThePrefixIsCaughtByFullReadsOnly() throws IOException {
    List<byte[]> payloads = write(JournalCompression.ZSTD, 64, 400_000);
    Path data;
    try (var files = Files.list(directory)) {
      data =
          files
              .filter(f -> f.toString().endsWith("." + JournalStoredFieldsFormat.DATA_EXTENSION))
              .findFirst()
              .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(data);
    int damaged = bytes.length - CodecUtil.footerLength() - 3; // the last block's last zstd block
    bytes[damaged] ^= 0x5A;
    Files.write(data, bytes);
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      JournalStoredFieldsReader journal = journal(reader);
      JournalPrefix prefix = new JournalPrefix();
      journal.readPrefix(2, prefix);
      int start = prefix.valueStart();
      prefix.ensure(start + FIRST);
      assertThat(Arrays.copyOfRange(prefix.bytes(), start, start + FIRST))
          .as("the prefix read does not notice")
          .isEqualTo(Arrays.copyOf(payloads.get(2), FIRST));
      assertThatThrownBy(() -> journal.decodeBlock(2, new JournalBlock()))
          .isInstanceOf(CorruptIndexException.class);
      assertThatThrownBy(journal::checkIntegrity).isInstanceOf(CorruptIndexException.class);
    }
  }
}
