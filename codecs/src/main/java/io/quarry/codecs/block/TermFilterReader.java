package io.quarry.codecs.block;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DocValuesSkipper;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.IOUtils;

/**
 * Reads a segment's {@link TermFilterFormat} file: the directory on open, the values and ends in
 * place (a random-access view of the file, memory-mapped under Lucene's default directory; one view
 * per {@link #getBinary} call, as Lucene's own readers slice, since a buffered view is not safe to
 * share between threads), and each field's {@link CommonTerms} and {@link TermFilterGroups} table
 * into memory (the groups' filters read in place). A file that is cut short, of another codec,
 * version or segment, or whose directory points outside it fails to open with a {@link
 * CorruptIndexException} naming it; a flipped byte elsewhere fails {@link #checkIntegrity} (the CRC
 * of the whole file).
 */
final class TermFilterReader extends DocValuesProducer {
  private final IndexInput in;
  private final String name;
  private final int maxDoc;
  private final Map<Integer, Field> fields = new HashMap<>();

  /**
   * Where one field's values and ends begin, its {@link CommonTerms}, its {@link TermFilterGroups}
   * and where their filters begin.
   */
  private record Field(
      long start, long endsStart, long[] common, TermFilterGroups groups, long groupFilters) {}

  TermFilterReader(SegmentReadState state) throws IOException {
    maxDoc = state.segmentInfo.maxDoc();
    name =
        IndexFileNames.segmentFileName(
            state.segmentInfo.name, state.segmentSuffix, TermFilterFormat.EXTENSION);
    IndexInput input = state.directory.openInput(name, state.context);
    boolean done = false;
    try {
      long least =
          CodecUtil.indexHeaderLength(TermFilterFormat.CODEC, state.segmentSuffix)
              + 1 // a directory of no fields
              + Long.BYTES
              + CodecUtil.footerLength();
      if (input.length() < least) {
        throw new CorruptIndexException(
            "cut short: " + input.length() + " bytes, at least " + least + " expected", input);
      }
      int version =
          CodecUtil.checkIndexHeader(
              input,
              TermFilterFormat.CODEC,
              TermFilterFormat.VERSION_START,
              TermFilterFormat.VERSION,
              state.segmentInfo.getId(),
              state.segmentSuffix);
      long headerEnd = input.getFilePointer();
      CodecUtil.retrieveChecksum(input);
      long directoryEnd = input.length() - CodecUtil.footerLength() - Long.BYTES;
      input.seek(directoryEnd);
      long directoryStart = input.readLong();
      if (directoryStart < headerEnd || directoryStart > directoryEnd) {
        throw new CorruptIndexException("directory at " + directoryStart, input);
      }
      input.seek(directoryStart);
      int count = input.readVInt();
      for (int i = 0; i < count; i++) {
        int number = input.readVInt();
        long start = input.readLong();
        long endsStart = input.readLong();
        int commons = version == TermFilterFormat.VERSION_START ? 0 : input.readVInt();
        int groups = version < TermFilterFormat.VERSION_GROUPS ? 0 : input.readVInt();
        long commonStart = endsStart + (long) Long.BYTES * maxDoc;
        if (start < headerEnd
            || endsStart < start
            || commons < 0
            || commonStart + (long) Long.BYTES * commons > directoryStart) {
          throw new CorruptIndexException(
              "field "
                  + number
                  + ": values at "
                  + start
                  + ", ends at "
                  + endsStart
                  + ", "
                  + commons
                  + " common terms",
              input);
        }
        long groupsStart = commonStart + (long) Long.BYTES * commons;
        long position = input.getFilePointer();
        TermFilterGroups table =
            TermFilterGroups.read(input, groupsStart, groups, maxDoc, directoryStart);
        input.seek(position);
        fields.put(
            number,
            new Field(
                start,
                endsStart,
                common(input, commonStart, commons),
                table,
                groupsStart + TermFilterGroups.tableLength(groups)));
      }
      if (input.getFilePointer() != directoryEnd) {
        throw new CorruptIndexException("directory ends at " + input.getFilePointer(), input);
      }
      in = input;
      done = true;
    } finally {
      if (!done) {
        IOUtils.closeWhileHandlingException(input);
      }
    }
  }

  /** A field's list of common terms, checked ascending; the input left where it was. */
  private static long[] common(IndexInput input, long start, int count) throws IOException {
    if (count == 0) {
      return CommonTerms.NONE;
    }
    long[] common = new long[count];
    IndexInput list = input.slice("common terms", start, (long) Long.BYTES * count);
    list.readLongs(common, 0, count);
    for (int i = 1; i < count; i++) {
      if (common[i] <= common[i - 1]) {
        throw new CorruptIndexException("common terms out of order at " + i, input);
      }
    }
    return common;
  }

  @Override
  public BinaryDocValues getBinary(FieldInfo field) throws IOException {
    Field entry = fields.get(field.number);
    if (entry == null) {
      throw new CorruptIndexException("no values of field " + field.name, in);
    }
    RandomAccessInput file = in.randomAccessSlice(0, in.length());
    return new TermFilterValues(
        file,
        entry.start(),
        entry.endsStart(),
        maxDoc,
        entry.common(),
        entry.groups(),
        entry.groupFilters(),
        name);
  }

  @Override
  public NumericDocValues getNumeric(FieldInfo field) {
    throw TermFilterWriter.onlyBinary(field);
  }

  @Override
  public SortedDocValues getSorted(FieldInfo field) {
    throw TermFilterWriter.onlyBinary(field);
  }

  @Override
  public SortedNumericDocValues getSortedNumeric(FieldInfo field) {
    throw TermFilterWriter.onlyBinary(field);
  }

  @Override
  public SortedSetDocValues getSortedSet(FieldInfo field) {
    throw TermFilterWriter.onlyBinary(field);
  }

  @Override
  public DocValuesSkipper getSkipper(FieldInfo field) {
    return null;
  }

  @Override
  public void checkIntegrity() throws IOException {
    CodecUtil.checksumEntireFile(in);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
