package io.quarry.codecs.block;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.DocValuesConsumer;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/** Writes a segment's {@link TermFilterFormat} file: each binary field's values, then its ends. */
final class TermFilterWriter extends DocValuesConsumer {
  private final IndexOutput out;
  private final int maxDoc;
  private final List<long[]> directory = new ArrayList<>(); // number, start, endsStart

  TermFilterWriter(SegmentWriteState state) throws IOException {
    maxDoc = state.segmentInfo.maxDoc();
    String name =
        IndexFileNames.segmentFileName(
            state.segmentInfo.name, state.segmentSuffix, TermFilterFormat.EXTENSION);
    IndexOutput output = state.directory.createOutput(name, state.context);
    boolean done = false;
    try {
      CodecUtil.writeIndexHeader(
          output,
          TermFilterFormat.CODEC,
          TermFilterFormat.VERSION,
          state.segmentInfo.getId(),
          state.segmentSuffix);
      done = true;
    } finally {
      if (!done) {
        IOUtils.closeWhileHandlingException(output);
      }
    }
    out = output;
  }

  @Override
  public void addBinaryField(FieldInfo field, DocValuesProducer producer) throws IOException {
    long start = out.getFilePointer();
    long[] ends = new long[maxDoc];
    long end = 0;
    int next = 0;
    BinaryDocValues values = producer.getBinary(field);
    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
      for (; next < doc; next++) {
        ends[next] = -1 - end;
      }
      BytesRef value = values.binaryValue();
      out.writeBytes(value.bytes, value.offset, value.length);
      end += value.length;
      ends[next++] = end;
    }
    for (; next < maxDoc; next++) {
      ends[next] = -1 - end;
    }
    long endsStart = out.getFilePointer();
    for (long e : ends) {
      out.writeLong(e);
    }
    directory.add(new long[] {field.number, start, endsStart});
  }

  @Override
  public void addNumericField(FieldInfo field, DocValuesProducer producer) {
    throw onlyBinary(field);
  }

  @Override
  public void addSortedField(FieldInfo field, DocValuesProducer producer) {
    throw onlyBinary(field);
  }

  @Override
  public void addSortedNumericField(FieldInfo field, DocValuesProducer producer) {
    throw onlyBinary(field);
  }

  @Override
  public void addSortedSetField(FieldInfo field, DocValuesProducer producer) {
    throw onlyBinary(field);
  }

  static UnsupportedOperationException onlyBinary(FieldInfo field) {
    return new UnsupportedOperationException(
        TermFilterFormat.NAME + " holds binary doc values only, not " + field.name + "'s");
  }

  @Override
  public void close() throws IOException {
    boolean done = false;
    try {
      long directoryStart = out.getFilePointer();
      out.writeVInt(directory.size());
      for (long[] entry : directory) {
        out.writeVInt((int) entry[0]);
        out.writeLong(entry[1]);
        out.writeLong(entry[2]);
      }
      out.writeLong(directoryStart);
      CodecUtil.writeFooter(out);
      done = true;
    } finally {
      if (done) {
        out.close();
      } else {
        IOUtils.closeWhileHandlingException(out);
      }
    }
  }
}
