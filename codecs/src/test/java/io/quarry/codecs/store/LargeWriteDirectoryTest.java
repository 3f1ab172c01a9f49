package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;

/**
 * Lucene's conformance suite for directories, run against what a store opens for its buckets
 * ({@link BucketDirectories#DEFAULT}: {@link LargeWriteDirectory}), plus its own cases: outputs are
 * its large-write ones, and bytes written across many buffer lengths, small and large writes mixed,
 * read back equal with the checksum Lucene's footer records.
 */
public class LargeWriteDirectoryTest extends BaseDirectoryTestCase {
  @Override
  protected Directory getDirectory(Path path) throws IOException {
    return BucketDirectories.DEFAULT.open(path);
  }

  public void testTheStoreWritesThroughLargeOutputs() throws IOException {
    try (Directory directory = getDirectory(createTempDir());
        IndexOutput out = directory.createOutput("a", IOContext.DEFAULT)) {
      assertTrue(out.toString(), out.toString().startsWith("LargeWriteOutput("));
    }
  }

  public void testMixedWritesAcrossManyBuffersReadBackEqual() throws IOException {
    byte[] expected = new byte[LargeWriteDirectory.WRITE_BYTES * 5 + 12_345];
    random().nextBytes(expected);
    try (Directory directory = getDirectory(createTempDir())) {
      long checksum;
      try (IndexOutput out = directory.createOutput("mixed", IOContext.DEFAULT)) {
        int at = 0;
        while (at < expected.length) {
          int kind = random().nextInt(4);
          int length =
              Math.min(
                  expected.length - at,
                  switch (kind) {
                    case 0 -> 1;
                    case 1 -> random().nextInt(100);
                    case 2 -> random().nextInt(70_000);
                    default -> LargeWriteDirectory.WRITE_BYTES + random().nextInt(100_000);
                  });
          if (length == 1) {
            out.writeByte(expected[at]);
          } else {
            out.writeBytes(expected, at, length);
          }
          at += length;
        }
        checksum = out.getChecksum();
      }
      java.util.zip.CRC32 crc = new java.util.zip.CRC32();
      crc.update(expected);
      assertEquals(crc.getValue(), checksum);
      try (IndexInput in = directory.openInput("mixed", IOContext.DEFAULT)) {
        byte[] actual = new byte[expected.length];
        in.readBytes(actual, 0, actual.length);
        assertArrayEquals(expected, actual);
        assertEquals(expected.length, directory.fileLength("mixed"));
      }
    }
  }
}
