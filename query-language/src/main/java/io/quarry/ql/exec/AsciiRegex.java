package io.quarry.ql.exec;

/**
 * A regular expression's first match in ASCII bytes, found in one pass without a {@code String} of
 * them, for an expression in {@link SimpleRegex}'s subset (literals, classes, greedy quantifiers on
 * them, unquantified groups; see that class): what the ingest's index-time {@code regex}
 * extractions run over an event's bytes. Where it answers {@link #MATCH} or {@link #NO_MATCH}, the
 * answer and every group's bounds are {@code java.util.regex}'s ({@code Matcher.find} from the
 * start) over the same text decoded a byte a character; {@link #UNDECIDED} (a byte above 127 met
 * while matching) leaves the text to {@code java.util.regex}. Not thread-safe: one per thread.
 */
public final class AsciiRegex {
  /** {@link #find}'s answer: no match in the text. */
  public static final int NO_MATCH = SimpleRegex.NO_MATCH;

  /** {@link #find}'s answer: a match, whose groups {@link #start} and {@link #end} give. */
  public static final int MATCH = SimpleRegex.MATCH;

  /** {@link #find}'s answer: not decided here; {@code java.util.regex} must answer. */
  public static final int UNDECIDED = SimpleRegex.UNDECIDED;

  private final SimpleRegex simple;

  private AsciiRegex(SimpleRegex simple) {
    this.simple = simple;
  }

  /**
   * The one-pass matcher of {@code regex} (as {@code Pattern.compile} reads it, no flags), or null
   * when the expression is outside the subset.
   */
  public static AsciiRegex compile(String regex) {
    SimpleRegex simple = SimpleRegex.compile(regex);
    return simple == null ? null : new AsciiRegex(simple);
  }

  /**
   * Looks for the first match in {@code bytes[offset, offset + length)}, a byte a character.
   *
   * @return {@link #MATCH}, {@link #NO_MATCH} or {@link #UNDECIDED}
   */
  public int find(byte[] bytes, int offset, int length) {
    return simple.find(bytes, offset, length);
  }

  /**
   * Where group {@code group} (numbered as {@code java.util.regex} numbers them, from 1) of the
   * last {@link #MATCH} began, counted from the {@code offset} given to {@link #find}. Every group
   * takes part in a match of the subset (none is quantified or an alternative).
   */
  public int start(int group) {
    return simple.start(group);
  }

  /** Where group {@code group} of the last {@link #MATCH} ended, counted as {@link #start}. */
  public int end(int group) {
    return simple.end(group);
  }
}
