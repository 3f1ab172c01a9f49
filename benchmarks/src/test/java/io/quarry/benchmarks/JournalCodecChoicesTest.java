package io.quarry.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.journal.JournalCompression;
import io.quarry.codecs.journal.QuarryCodec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JournalCodecChoices} over a small real index: every candidate of a prefix reads the stored
 * blocks back unchanged (the tool checks each decoded block) and prints its line.
 */
class JournalCodecChoicesTest {

  @Test
  void measuresEveryCandidateOverTheStoredBlocks(@TempDir Path bucket) throws Exception {
    IndexWriterConfig config = new IndexWriterConfig();
    config.setCodec(new QuarryCodec(JournalCompression.ZSTD, 4 * 1024));
    try (FSDirectory directory = FSDirectory.open(bucket);
        IndexWriter writer = new IndexWriter(directory, config)) {
      for (int i = 0; i < 2_000; i++) {
        Document document = new Document();
        document.add(
            new StoredField(
                "_raw", "10.0.0." + (i % 7) + " GET /item?id=" + i + "&JSESSIONID=SD" + i * 31));
        writer.addDocument(document);
      }
    }
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      JournalCodecChoices.main(new String[] {bucket.toString(), "1", "zstd 3"});
    } finally {
      System.setOut(out);
    }
    String table = printed.toString(StandardCharsets.UTF_8);
    assertThat(table)
        .contains("zstd 3 ", "zstd 3 minMatch 7", "zstd 3 blocks x2", "zstd 3 blocks /2");
    assertThat(table).doesNotContain("zstd 9", "lz4");
  }
}
