package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One field's file as the grammar of {@link TermFilterFormat} reads, parsed by hand here (not by
 * the reader) for the tests of {@link CommonTerms}.
 */
record TermFilterFile(
    int version,
    int maxDoc,
    List<byte[]> values,
    long[] common,
    long commonStart,
    List<Group> groups) {

  /** A group of {@link TermFilterGroups}' grammar: its documents and its filter. */
  record Group(int first, int end, byte[] filter) {}

  /**
   * Parses a file of one field of a segment of {@code maxDoc} documents by the grammar of the
   * javadoc: Lucene's index header (big-endian magic, codec name, version, 16-byte id, suffix),
   * then from the end the footer (16 bytes), the directory's start, the directory, the ends, the
   * values, the common terms and the groups.
   */
  static TermFilterFile parse(Path path, int maxDoc) throws IOException {
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
    return new TermFilterFile(version, maxDoc, values, common, commonStart, groups);
  }
}
