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
 * share between threads).
 */
final class TermFilterReader extends DocValuesProducer {
  private final IndexInput in;
  private final int maxDoc;
  private final Map<Integer, long[]> fields = new HashMap<>(); // number -> start, endsStart

  TermFilterReader(SegmentReadState state) throws IOException {
    maxDoc = state.segmentInfo.maxDoc();
    String name =
        IndexFileNames.segmentFileName(
            state.segmentInfo.name, state.segmentSuffix, TermFilterFormat.EXTENSION);
    IndexInput input = state.directory.openInput(name, state.context);
    boolean done = false;
    try {
      CodecUtil.checkIndexHeader(
          input,
          TermFilterFormat.CODEC,
          TermFilterFormat.VERSION,
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
        if (start < headerEnd
            || endsStart < start
            || endsStart + (long) Long.BYTES * maxDoc > directoryStart) {
          throw new CorruptIndexException(
              "field " + number + ": values at " + start + ", ends at " + endsStart, input);
        }
        fields.put(number, new long[] {start, endsStart});
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

  @Override
  public BinaryDocValues getBinary(FieldInfo field) throws IOException {
    long[] entry = fields.get(field.number);
    if (entry == null) {
      throw new CorruptIndexException("no values of field " + field.name, in);
    }
    RandomAccessInput file = in.randomAccessSlice(0, in.length());
    return new TermFilterValues(file, entry[0], entry[1], maxDoc);
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
