package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlockTimes;
import io.quarry.codecs.journal.JournalCodec;
import io.quarry.codecs.journal.JournalPrefix;
import io.quarry.codecs.journal.JournalStoredFieldsReader;
import java.io.IOException;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReader;

/**
 * A block document's times without its texts (session 33): its journal block decoded only as far as
 * the event block's {@code Times} section ({@link JournalPrefix}, {@link EventBlockTimes}), for a
 * scan whose visitor asks a block's events for their times and for fields read from doc values
 * alone ({@link BlockEvents}). One per slice of a scan; not thread-safe.
 *
 * <p>A prefix read checks no checksum (the journal's covers the whole decoded block, the event
 * block's sits after its last section): what it reads is checked against what the doc values hold —
 * the event count and the block's oldest and newest times ({@link BlockBounds}) — and the decoder's
 * own checks. A damaged byte in the texts or columns is left for the reads that decode them and for
 * {@code quarry fsck}.
 */
final class PrefixTimes {
  private static final int FIRST_BYTES = 256; // a block's header and section table, most often

  private final JournalStoredFieldsReader journal;
  private final int blockField; // the field number of a block document's event block
  private final JournalPrefix prefix = new JournalPrefix();

  private PrefixTimes(JournalStoredFieldsReader journal, int blockField) {
    this.journal = journal;
    this.blockField = blockField;
  }

  /**
   * The prefix reader of a segment's journal, or null when its stored fields are not a journal or
   * its blocks are not compressed (an uncompressed block has no decode to stop: it is read whole,
   * checksum checked and cached, by the ordinary read). zstd and, since session 40, lz4 blocks (the
   * default's fast segments) decode no further than asked.
   */
  static PrefixTimes of(LeafReader reader) {
    FieldInfo block = reader.getFieldInfos().fieldInfo(BlockDocuments.BLOCK);
    return block != null
            && reader instanceof CodecReader codec
            && codec.getFieldsReader() instanceof JournalStoredFieldsReader journal
            && journal.codec() != JournalCodec.NONE
        ? new PrefixTimes(journal.clone(), block.number)
        : null;
  }

  /**
   * Block document {@code doc}'s times, newest first, checked against its doc values: {@code
   * events} events, the oldest and newest {@code oldest} and {@code newest}; null when {@code doc}
   * shares its journal block with other documents (blocks as ingest flushed them, before a
   * compaction): reading it by prefix would decode the documents before it, each time again, where
   * the whole decode is cached for the block's next document.
   *
   * @throws CorruptIndexException when they do not match, or the prefix is not an event block's
   */
  long[] read(int doc, int events, long oldest, long newest) throws IOException {
    if (!journal.soleDocument(doc)) {
      return null; // a prefix read would decode the documents before it again: decode it whole
    }
    journal.readPrefix(doc, prefix);
    if (prefix.fieldNumber() != blockField) {
      throw new CorruptIndexException(
          "block document starts with field " + prefix.fieldNumber() + ", not its event block",
          "doc " + doc);
    }
    byte[] bytes = prefix.bytes();
    int start = prefix.valueStart();
    int length = prefix.valueLength();
    int want = Math.min(length, FIRST_BYTES);
    int end;
    while (true) {
      prefix.ensure(start + want);
      end = EventBlockTimes.end(bytes, start, want, length);
      if (end >= 0) {
        break;
      }
      want = Math.min(length, want * 4);
    }
    prefix.ensure(start + end);
    long[] times = EventBlockTimes.read(bytes, start, end);
    prefix.account();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long time : times) {
      min = Math.min(min, time);
      max = Math.max(max, time);
    }
    if (times.length != events || (events > 0 && (min != oldest || max != newest))) {
      throw new CorruptIndexException(
          "block of "
              + times.length
              + " events from "
              + min
              + " to "
              + max
              + ", its doc values say "
              + events
              + " from "
              + oldest
              + " to "
              + newest,
          "doc " + doc);
    }
    return times;
  }
}
