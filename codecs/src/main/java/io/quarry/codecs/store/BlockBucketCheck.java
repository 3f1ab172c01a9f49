package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlock;
import io.quarry.codecs.block.TermFilter;
import io.quarry.codecs.tokens.TermSet;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * {@code quarry fsck}'s check of a block bucket beyond Lucene's {@code CheckIndex} (which verifies
 * the files' checksums and reads every stored field, so each journal block's CRC): every event
 * block is opened (its own CRC) and decoded whole ({@link EventBlock#verify}), and agrees with its
 * document's doc values — its event count with {@code _n}, its newest time with {@code _time}, its
 * events' values with the value counts and codes ({@link BlockValueCounts}, {@link
 * BlockValueCodes}). A column the payload holds only in those doc values (event block version 2) is
 * read back through them ({@link BlockColumns}), so for it the check is each value's count against
 * the events its codes give it. In a layout 3 bucket every term of every event is probed against
 * its block's {@link TermFilter}: a filter that would miss one would hide the event from a search.
 */
final class BlockBucketCheck {
  private BlockBucketCheck() {}

  /** The first problem found in the block bucket at {@code bucket}, or null when there is none. */
  static String firstProblem(Path bucket) throws IOException {
    try (FSDirectory directory = FSDirectory.open(bucket);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        String problem = firstProblem(leaf.reader());
        if (problem != null) {
          return "segment " + leaf.ord + ", " + problem;
        }
      }
    }
    return null;
  }

  private static String firstProblem(LeafReader reader) throws IOException {
    StoredFields journal = reader.storedFields();
    NumericDocValues counts = DocValues.getNumeric(reader, BlockDocuments.COUNT);
    NumericDocValues newest = DocValues.getNumeric(reader, EventFields.TIME);
    Bits live = reader.getLiveDocs();
    BlockColumns elsewhere = new BlockColumns(reader);
    java.util.Map<String, BlockValueCounts> counted = new java.util.TreeMap<>();
    java.util.Map<String, BlockValueCodes[]> coded = new java.util.HashMap<>();
    for (org.apache.lucene.index.FieldInfo info : reader.getFieldInfos()) {
      if (info.name.startsWith(BlockValueCounts.VALUES)) {
        String field = info.name.substring(BlockValueCounts.VALUES.length());
        BlockValueCounts values = BlockValueCounts.openValues(reader, field);
        if (values != null) {
          counted.put(field, values);
          coded.put(
              field,
              new BlockValueCodes[] {
                BlockValueCodes.open(reader, field), BlockValueCodes.openPartial(reader, field)
              });
        }
      }
    }
    BinaryDocValues filters = reader.getBinaryDocValues(BlockDocuments.TERM_FILTER);
    TermSet terms = new TermSet();
    for (int doc = 0; doc < reader.maxDoc(); doc++) {
      if (live != null && !live.get(doc)) {
        continue;
      }
      try {
        BlockEvents block = BlockEvents.read("fsck", journal, elsewhere, doc);
        block.verify();
        if (!counts.advanceExact(doc) || counts.longValue() != block.count()) {
          return "block " + doc + ": " + block.count() + " events, its _n says otherwise";
        }
        if (!newest.advanceExact(doc)
            || (block.count() > 0 && newest.longValue() != block.time(0))) {
          return "block " + doc + ": newest event at " + block.time(0) + ", its _time differs";
        }
        if (filters != null) {
          String problem = filterProblem(block, doc, filters, terms);
          if (problem != null) {
            return "block " + doc + ": " + problem;
          }
        }
        for (java.util.Map.Entry<String, BlockValueCounts> field : counted.entrySet()) {
          String problem =
              valuesProblem(
                  block, doc, field.getKey(), field.getValue(), coded.get(field.getKey()));
          if (problem != null) {
            return "block " + doc + ": " + problem;
          }
        }
      } catch (IOException | RuntimeException e) {
        return "block " + doc + ": " + e.getMessage();
      }
    }
    return null;
  }

  /** Whether the block's term filter may hold every term of its events. */
  private static String filterProblem(
      BlockEvents block, int doc, BinaryDocValues filters, TermSet terms) throws IOException {
    if (!filters.advanceExact(doc)) {
      return "no term filter";
    }
    BytesRef filter = filters.binaryValue();
    terms.clear();
    for (int e = 0; e < block.count(); e++) {
      terms.add(block.raw(e));
    }
    for (String term : terms.terms()) {
      BytesRef bytes = new BytesRef(term);
      if (!mayContain(filters, filter, TermFilter.hash(bytes))) {
        return "the term filter misses '" + term + "'";
      }
      if (bytes.length >= TermFilter.PREFIX
          && !mayContain(filters, filter, TermFilter.prefixHash(bytes.bytes, bytes.offset))) {
        return "the term filter misses the prefix of '" + term + "'";
      }
    }
    return null;
  }

  /**
   * Whether a block's filter (and its group's, read in place), or its segment's common terms, may
   * hold an entry; the copied filter asked too.
   */
  private static boolean mayContain(BinaryDocValues filters, BytesRef filter, long hash)
      throws IOException {
    return filters instanceof io.quarry.codecs.block.TermFilterValues inPlace
        ? inPlace.mayContain(hash)
            && (inPlace.isCommon(hash) || TermFilter.mayContain(filter, hash))
        : TermFilter.mayContain(filter, hash);
  }

  /**
   * Whether a block's value counts of {@code field} ({@link BlockValueCounts}) and its codes
   * ({@link BlockValueCodes}) say what its events' own values say: each value's count is the number
   * of events that have it, and each event's code names its value; for a block some events of which
   * lack the field, that its codes with "no value" name each event's one value or its lack, and
   * every value of the block is some event's.
   */
  private static String valuesProblem(
      BlockEvents block, int doc, String field, BlockValueCounts counts, BlockValueCodes[] codes)
      throws IOException {
    if (!counts.advanceValues(doc)) {
      return null; // no values of the field in this block: its events are read
    }
    if (!counts.counted()) {
      return partialProblem(block, doc, field, counts, codes[1]);
    }
    int events = block.count();
    java.util.Map<String, Integer> valueIndex = new java.util.HashMap<>();
    int[] seen = new int[counts.size()];
    for (int i = 0; i < counts.size(); i++) {
      valueIndex.put(counts.dictionary().lookupOrd(counts.ord(i)).utf8ToString(), i);
    }
    int[] codesOf = new int[events];
    boolean withCodes =
        counts.total() == events && codes[0].read(doc, events, counts.size(), codesOf);
    for (int e = 0; e < events; e++) {
      java.util.List<String> values = valuesOf(block, e, field);
      if (values.isEmpty()) {
        return "event " + e + " has no " + field + " though the block counts it";
      }
      for (String value : values) {
        Integer index = valueIndex.get(value);
        if (index == null) {
          return "event " + e + "'s " + field + " '" + value + "' is not among the block's values";
        }
        seen[index]++;
        if (withCodes && codesOf[e] != index) {
          return "event "
              + e
              + "'s "
              + field
              + " code "
              + codesOf[e]
              + " is not its value's "
              + index;
        }
      }
    }
    for (int i = 0; i < seen.length; i++) {
      if (seen[i] != counts.count(i)) {
        return field + " value " + i + " counted " + counts.count(i) + ", held by " + seen[i];
      }
    }
    return null;
  }

  /**
   * {@link #valuesProblem} of a block some events of which lack the field: also an event coded "no
   * value" whose text may give the field ({@link TextMentions}), which a search would trust and so
   * never extract.
   */
  private static String partialProblem(
      BlockEvents block, int doc, String field, BlockValueCounts counts, BlockValueCodes codes)
      throws IOException {
    int events = block.count();
    int size = counts.size();
    int[] codesOf = new int[events];
    if (!codes.read(doc, events, size + 1, codesOf)) {
      return field + " has values but neither counts nor codes";
    }
    boolean[] seen = new boolean[size];
    for (int e = 0; e < events; e++) {
      java.util.List<String> values = valuesOf(block, e, field);
      if (codesOf[e] == size) {
        if (!values.isEmpty()) {
          return "event " + e + " has " + field + " " + values + " though its code says none";
        }
        if (TextMentions.mayGive(block.raw(e), field)) { // the writer keeps such a block's column
          return "event " + e + " is coded no " + field + " though its text may give it";
        }
        continue;
      }
      String coded = counts.dictionary().lookupOrd(counts.ord(codesOf[e])).utf8ToString();
      if (!values.equals(java.util.List.of(coded))) {
        return "event " + e + "'s " + field + " " + values + " is not its code's '" + coded + "'";
      }
      seen[codesOf[e]] = true;
    }
    for (int i = 0; i < size; i++) {
      if (!seen[i]) {
        return field + " value " + i + " is no event's";
      }
    }
    return null;
  }

  private static java.util.List<String> valuesOf(BlockEvents block, int event, String field)
      throws IOException {
    return switch (field) {
      case EventFields.HOST, EventFields.SOURCE, EventFields.SOURCETYPE -> {
        String value = block.defaultField(event, field);
        yield value.isEmpty() ? java.util.List.of() : java.util.List.of(value);
      }
      default -> {
        java.util.List<String> values = block.field(event, field);
        yield values == null ? java.util.List.of() : values;
      }
    };
  }
}
