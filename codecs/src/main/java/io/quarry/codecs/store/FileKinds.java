package io.quarry.codecs.store;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.store.Directory;

/**
 * What the bytes of a bucket's segments are for, by Lucene file extension: the event journal
 * ({@code _raw} and the stored fields), the term index (dictionary and postings), doc values, a
 * block bucket's term filters ({@code block.TermFilterFormat}; in Lucene's doc values before
 * session 28), points and the rest (segment and field infos, deletions). A compound file is looked
 * inside, so the breakdown is the same whether a segment is packed or not.
 */
final class FileKinds {
  static final String JOURNAL = "journal";
  static final String TERMS = "terms";
  static final String POSTINGS = "postings";
  static final String DOC_VALUES = "docValues";
  static final String TERM_FILTERS = "termFilters";
  static final String POINTS = "points";
  static final String OTHER = "other";

  private FileKinds() {}

  /** The kind of a file, by its extension. */
  static String of(String fileName) {
    int dot = fileName.lastIndexOf('.');
    String extension = dot < 0 ? "" : fileName.substring(dot + 1);
    return switch (extension) {
      case "qjd", "qjx", "fdt", "fdx", "fdm" -> JOURNAL;
      case "tim", "tip", "tmd" -> TERMS;
      case "doc", "pos", "pay", "psm" -> POSTINGS;
      case "dvd", "dvm" -> DOC_VALUES;
      case io.quarry.codecs.block.TermFilterFormat.EXTENSION -> TERM_FILTERS;
      case "kdd", "kdi", "kdm" -> POINTS;
      default -> OTHER;
    };
  }

  /** Adds the bytes of one segment's files to {@code totals}, by kind. */
  static void add(Directory directory, SegmentCommitInfo segment, Map<String, Long> totals)
      throws IOException {
    SegmentInfo info = segment.info;
    for (String file : segment.files()) {
      long length = directory.fileLength(file);
      if (info.getUseCompoundFile() && file.endsWith(".cfs")) {
        try (Directory compound =
            info.getCodec().compoundFormat().getCompoundReader(directory, info)) {
          for (String inner : compound.listAll()) {
            long innerLength = compound.fileLength(inner);
            totals.merge(of(inner), innerLength, Long::sum);
            length -= innerLength; // what is left is the compound file's own header and footer
          }
        }
      }
      totals.merge(of(file), length, Long::sum);
    }
  }

  /** An empty breakdown with every kind present, in a fixed order. */
  static Map<String, Long> empty() {
    Map<String, Long> totals = new TreeMap<>();
    for (String kind :
        new String[] {JOURNAL, TERMS, POSTINGS, DOC_VALUES, TERM_FILTERS, POINTS, OTHER}) {
      totals.put(kind, 0L);
    }
    return totals;
  }
}
