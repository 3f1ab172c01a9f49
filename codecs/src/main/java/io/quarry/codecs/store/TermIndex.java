package io.quarry.codecs.store;

import java.util.Locale;

/**
 * How new block buckets index their events' terms (config {@code storage.termIndex}, or an index's
 * own {@code storage.indexes.<name>.termIndex}): a term filter per block ({@link #FILTERS}, block
 * layout 3, the default since session 39) or {@code _tok} postings pointing at blocks ({@link
 * #POSTINGS}, layout 2). Fixed per bucket when it is created and recorded with its format ({@link
 * BucketFormat}), so a bucket is searched by its own term index whatever the configuration says
 * later; buckets of the event layout have postings per event whatever this says.
 *
 * <p>What each costs, at 10M access-log lines (docs/design/block-index.md, "Term filters at 10M"):
 * filters take the {@code _tok} inversion and postings off the ingest (server CPU in the ingest
 * 61.1 against 71.2 s, −14%) for +8% bytes (0.165 against 0.153 bytes per raw byte) and ~1.5× the
 * candidate blocks of a rare term (15 against 10, each decoded and checked); wildcards whose
 * literal prefix is under 4 bytes, and regular expressions or ranges over terms, read every block
 * in the time range instead of their postings.
 */
public enum TermIndex {
  FILTERS(BucketFormat.BLOCKS_VERSION),
  POSTINGS(2);

  /**
   * The developer setting of session 39 ({@code -Dquarry.storage.termFilters=true|false}), kept for
   * the benchmark harness, which forwards it: the term index of indexes whose configuration names
   * none ({@link #unconfigured}). A configured {@code termIndex} wins over it.
   */
  public static final String TERM_FILTERS_PROPERTY = "quarry.storage.termFilters";

  private final int blocksVersion;

  TermIndex(int blocksVersion) {
    this.blocksVersion = blocksVersion;
  }

  /** The block layout version a new block bucket with this term index records. */
  int blocksVersion() {
    return blocksVersion;
  }

  /** The name in configuration: {@code filters} or {@code postings}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The term index of a configuration name.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static TermIndex fromName(String name) {
    for (TermIndex index : values()) {
      if (index.configName().equals(name)) {
        return index;
      }
    }
    throw new IllegalArgumentException("must be filters or postings, not '" + name + "'");
  }

  /**
   * The term index of new block buckets of an index whose configuration names none: {@link
   * #POSTINGS} where {@link #TERM_FILTERS_PROPERTY} is {@code false}, else {@link #FILTERS}. Read
   * when a bucket is created, so a test or a harness that sets the property meanwhile is heard.
   */
  static TermIndex unconfigured() {
    return Boolean.parseBoolean(System.getProperty(TERM_FILTERS_PROPERTY, "true"))
        ? FILTERS
        : POSTINGS;
  }
}
