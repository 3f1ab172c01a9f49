package io.quarry.codecs.block;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.DocValuesConsumer;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.codecs.perfield.PerFieldDocValuesFormat;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocIDMerger;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * Writes a segment's {@link TermFilterFormat} file: each binary field's values, then its ends, then
 * (version 1) its {@link CommonTerms}, then (version 2) its {@link TermFilterGroups}. At a flush a
 * value in the {@link TermFilterEntries} form becomes the filter of its entries but the listed
 * ones, and joins a group (its filter then {@link TermFilterGroups#BLOCK_BITS} an entry); at a
 * merge each input's filters and groups are copied with the hashes its list had and the merged list
 * has not added ({@link #mergeBinaryField}).
 */
final class TermFilterWriter extends DocValuesConsumer {
  private final IndexOutput out;
  private final int maxDoc;
  private final int version;
  // number, start, endsStart, commons, groups
  private final List<long[]> directory = new ArrayList<>();
  private long[] kept = new long[256]; // a flushed block's entries but the listed ones, in order

  TermFilterWriter(SegmentWriteState state, int version) throws IOException {
    maxDoc = state.segmentInfo.maxDoc();
    this.version = version;
    String name =
        IndexFileNames.segmentFileName(
            state.segmentInfo.name, state.segmentSuffix, TermFilterFormat.EXTENSION);
    IndexOutput output = state.directory.createOutput(name, state.context);
    boolean done = false;
    try {
      CodecUtil.writeIndexHeader(
          output, TermFilterFormat.CODEC, version, state.segmentInfo.getId(), state.segmentSuffix);
      done = true;
    } finally {
      if (!done) {
        IOUtils.closeWhileHandlingException(output);
      }
    }
    out = output;
  }

  /** A flush: the values of the in-memory segment, entries or filters. */
  @Override
  public void addBinaryField(FieldInfo field, DocValuesProducer producer) throws IOException {
    long[] common = version == 0 ? CommonTerms.NONE : CommonTerms.count(producer.getBinary(field));
    BinaryDocValues values = producer.getBinary(field);
    CommonTerms.Lookup listed = new CommonTerms.Lookup(common);
    TermFilter.Builder builder = new TermFilter.Builder();
    TermFilterGroups.Written groups = new TermFilterGroups.Written();
    boolean grouped = version >= TermFilterFormat.VERSION_GROUPS;
    write(
        field,
        values,
        (doc, value) -> {
          if (!TermFilterEntries.is(value)) {
            groups.close(); // a filter already: in no group
            return value;
          }
          int count = TermFilterEntries.count(value);
          if (kept.length < count) {
            kept = new long[Math.max(count, kept.length * 2)];
          }
          long[] hashes = kept;
          int keptCount = 0;
          for (int i = 0; i < count; i++) {
            long hash = TermFilterEntries.get(value, i);
            if (!listed.contains(hash)) {
              hashes[keptCount++] = hash;
            }
          }
          builder.reset(
              keptCount, grouped ? TermFilterGroups.BLOCK_BITS : TermFilter.BITS_PER_TERM);
          for (int i = 0; i < keptCount; i++) {
            builder.add(hashes[i]);
            if (grouped) {
              groups.add(hashes[i]);
            }
          }
          if (grouped) {
            groups.block(doc);
          }
          return new BytesRef(builder.toBytes());
        },
        common,
        groups);
  }

  /**
   * A merge: the merged list from the inputs' ({@link MergedCommonTerms}), each input's filters
   * with the hashes it listed and the merge does not added, in the merged document order.
   */
  @Override
  public void mergeBinaryField(FieldInfo field, MergeState merge) throws IOException {
    int inputs = merge.docValuesProducers.length;
    long[][] lists = new long[inputs][];
    int[] blocks = new int[inputs];
    List<Input> subs = new ArrayList<>();
    for (int i = 0; i < inputs; i++) {
      BinaryDocValues values = values(merge, i, field);
      lists[i] = common(merge, i, field, values);
      blocks[i] = values == null ? 0 : merge.maxDocs[i];
    }
    long[] common = CommonTerms.NONE;
    if (version > 0) {
      MergedCommonTerms.Input[] counted = new MergedCommonTerms.Input[inputs];
      for (int i = 0; i < inputs; i++) {
        counted[i] = new MergedCommonTerms.Input(lists[i], blocks[i], values(merge, i, field));
      }
      common = MergedCommonTerms.of(counted);
    }
    TermFilterGroups.Written groups = new TermFilterGroups.Written();
    for (int i = 0; i < inputs; i++) {
      BinaryDocValues values = values(merge, i, field);
      if (values != null) {
        long[] added = CommonTerms.without(lists[i], common);
        subs.add(new Input(merge.docMaps[i], values, added));
        if (version >= TermFilterFormat.VERSION_GROUPS
            && !merge.needsIndexSort
            && values instanceof TermFilterValues own) {
          groups.carry(own, merge.docMaps[i], added);
        }
      }
    }
    DocIDMerger<Input> merger = DocIDMerger.of(subs, merge.needsIndexSort);
    BinaryDocValues merged =
        new BinaryDocValues() {
          private Input current;
          private int doc = -1;

          @Override
          public int nextDoc() throws IOException {
            current = merger.next();
            doc = current == null ? NO_MORE_DOCS : current.mappedDocID;
            return doc;
          }

          @Override
          public BytesRef binaryValue() throws IOException {
            BytesRef value = current.values.binaryValue();
            return current.added.length == 0
                ? value
                : new BytesRef(TermFilter.addTo(value, current.added));
          }

          @Override
          public int docID() {
            return doc;
          }

          @Override
          public int advance(int target) {
            throw new UnsupportedOperationException();
          }

          @Override
          public boolean advanceExact(int target) {
            throw new UnsupportedOperationException();
          }

          @Override
          public long cost() {
            return maxDoc;
          }
        };
    write(field, merged, (doc, value) -> value, common, groups);
  }

  /**
   * Input {@code i}'s common-terms list: its {@link TermFilterValues}'; none where its filters are
   * in another format (Lucene's, before session 28). A reader of this format whose values come
   * wrapped (a {@code SortingCodecReader}, a {@code FilterCodecReader}) hides its list, which its
   * filters lack: the merge fails rather than write filters that miss those terms.
   */
  private static long[] common(MergeState merge, int i, FieldInfo field, BinaryDocValues values) {
    if (values == null) {
      return CommonTerms.NONE;
    }
    if (values instanceof TermFilterValues own) {
      return own.common();
    }
    FieldInfo input = merge.fieldInfos[i].fieldInfo(field.name);
    if (TermFilterFormat.NAME.equals(
        input.getAttribute(PerFieldDocValuesFormat.PER_FIELD_FORMAT_KEY))) {
      throw new IllegalStateException(
          "merging into segment "
              + merge.segmentInfo.name
              + ": input "
              + i
              + "'s term filters of field "
              + field.name
              + " come wrapped ("
              + values.getClass().getName()
              + "), their common-terms list unreadable");
    }
    return CommonTerms.NONE;
  }

  private static BinaryDocValues values(MergeState merge, int i, FieldInfo field)
      throws IOException {
    DocValuesProducer producer = merge.docValuesProducers[i];
    FieldInfo own = producer == null ? null : merge.fieldInfos[i].fieldInfo(field.name);
    return own == null || own.getDocValuesType() != DocValuesType.BINARY
        ? null
        : producer.getBinary(own);
  }

  /** One input segment of a merge: its values, and the hashes to add to each of its filters. */
  private static final class Input extends DocIDMerger.Sub {
    final BinaryDocValues values;
    final long[] added;

    Input(MergeState.DocMap docMap, BinaryDocValues values, long[] added) {
      super(docMap);
      this.values = values;
      this.added = added;
    }

    @Override
    public int nextDoc() throws IOException {
      return values.nextDoc();
    }
  }

  /** What document {@code doc}'s value is written as. */
  private interface Written {
    BytesRef of(int doc, BytesRef value) throws IOException;
  }

  private void write(
      FieldInfo field,
      BinaryDocValues values,
      Written written,
      long[] common,
      TermFilterGroups.Written groups)
      throws IOException {
    long start = out.getFilePointer();
    long[] ends = new long[maxDoc];
    long end = 0;
    int next = 0;
    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
      for (; next < doc; next++) {
        ends[next] = -1 - end;
      }
      BytesRef value = written.of(doc, values.binaryValue());
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
    if (version > 0) {
      for (long hash : common) {
        out.writeLong(hash);
      }
    }
    if (version >= TermFilterFormat.VERSION_GROUPS) {
      groups.write(out);
    }
    directory.add(new long[] {field.number, start, endsStart, common.length, groups.count()});
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
        if (version > 0) {
          out.writeVInt((int) entry[3]);
        }
        if (version >= TermFilterFormat.VERSION_GROUPS) {
          out.writeVInt((int) entry[4]);
        }
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
