package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.RexCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The matching half of {@code rex} in extraction mode, shared by the page stage ({@link
 * RexOperator}) and the event scan ({@code search.EventPages}): {@link SimpleRegex}'s one pass for
 * {@code max_match=1} with a regex in its subset, else {@code java.util.regex} reading the text
 * through {@link StoppableText} (a match ends when the search must stop). One instance per thread:
 * it keeps its matcher.
 */
public final class RexExtraction {
  private final RexCommand command;

  /** The regex's group numbers of {@link RexCommand#groups}, in order. */
  private final int[] groupNumbers;

  /** Reset for each text. */
  private final Matcher matcher;

  /**
   * The fast path for {@code max_match=1} with a regex in {@link SimpleRegex}'s subset, else null.
   */
  private final SimpleRegex simple;

  /** What the regex engine reads: the text, ending the match when the search must stop. */
  private final StoppableText guarded;

  /**
   * @param command a {@code rex} in extraction mode (no sed)
   * @param stopped whether the search must stop now
   */
  public RexExtraction(RexCommand command, BooleanSupplier stopped) {
    this.command = requireNonNull(command, "command is null");
    if (command.sed() != null) {
      throw new IllegalArgumentException("rex in sed mode extracts nothing");
    }
    this.guarded = new StoppableText(requireNonNull(stopped, "stopped is null"));
    Pattern pattern = Pattern.compile(command.regex());
    this.matcher = pattern.matcher("");
    this.groupNumbers =
        command.groups().stream()
            .mapToInt(group -> pattern.namedGroups().get(group.javaName()))
            .toArray();
    this.simple = command.maxMatch() == 1 ? SimpleRegex.compile(command.regex()) : null;
  }

  /** {@link #span}: no match here. */
  public static final long NO_SPAN = -1;

  /** {@link #span}: ask {@link #assignments} instead. */
  public static final long UNDECIDED_SPAN = -2;

  /**
   * For a regex of one group that the one-pass matcher takes, where the group's value lies in
   * {@code text}: {@code start << 32 | end}, or {@link #NO_SPAN}; {@link #UNDECIDED_SPAN} when the
   * one-pass matcher cannot tell (another regex, several groups, a non-ASCII character) — then
   * {@link #assignments} answers. Lets a page source copy the value's bytes without a {@code
   * String}.
   */
  public long span(CharSequence text) {
    return oneGroup() ? span(simple.find(text)) : UNDECIDED_SPAN;
  }

  /**
   * As {@link #span(CharSequence)} for the text {@code bytes[offset, offset + length)} read a byte
   * a character (an ASCII text's UTF-8 bytes; any byte above 127 makes it {@link #UNDECIDED_SPAN}),
   * the span counted from {@code offset}: what a scan over decoded bytes calls, with no {@code
   * CharSequence} between the matcher and the bytes.
   */
  public long span(byte[] bytes, int offset, int length) {
    return oneGroup() ? span(simple.find(bytes, offset, length)) : UNDECIDED_SPAN;
  }

  /**
   * Whether {@link #span} can answer at all (one named group, a regex the one-pass matcher takes):
   * else it always says {@link #UNDECIDED_SPAN}.
   */
  public boolean spans() {
    return oneGroup();
  }

  private boolean oneGroup() {
    return simple != null && groupNumbers.length == 1;
  }

  private long span(int found) {
    if (found == SimpleRegex.UNDECIDED) {
      return UNDECIDED_SPAN;
    }
    if (found == SimpleRegex.NO_MATCH) {
      return NO_SPAN;
    }
    return ((long) simple.start(groupNumbers[0]) << 32) | simple.end(groupNumbers[0]);
  }

  /** The fields {@code rex} may assign. */
  public List<String> fields() {
    return command.groups().stream().map(RexCommand.Group::field).distinct().toList();
  }

  /**
   * What {@code rex} assigns for one text: each named group's field from the first match (with
   * {@code max_match} above 1, up to that many matches, a field found more than once multivalued);
   * empty when nothing matched or the search is ending.
   */
  public Map<String, Object> assignments(CharSequence text) {
    int simpleFound = simple == null ? SimpleRegex.UNDECIDED : simple.find(text);
    Map<String, Object> assigned;
    if (simpleFound != SimpleRegex.UNDECIDED) {
      assigned =
          simpleFound == SimpleRegex.NO_MATCH
              ? Map.of()
              : firstMatch(
                  i ->
                      text.subSequence(simple.start(groupNumbers[i]), simple.end(groupNumbers[i]))
                          .toString());
    } else {
      matcher.reset(guarded.reset(text));
      try {
        if (command.maxMatch() == 1) {
          assigned = matcher.find() ? firstMatch(i -> matcher.group(groupNumbers[i])) : Map.of();
        } else {
          assigned = everyMatch(matcher);
        }
      } catch (StoppableText.Stopped stopped) {
        assigned = Map.of(); // the search is ending (time limit, cancel): it says so itself
      }
    }
    return assigned;
  }

  /**
   * The fields of one match ({@code max_match=1}), given each group's value by its index in {@link
   * RexCommand#groups} (null when it did not take part); one group, the usual case, builds no map.
   */
  private Map<String, Object> firstMatch(IntFunction<String> group) {
    if (groupNumbers.length == 1) {
      String value = group.apply(0);
      return value == null ? Map.of() : Map.of(command.groups().get(0).field(), value);
    }
    Map<String, List<Object>> found = new HashMap<>();
    for (int i = 0; i < groupNumbers.length; i++) {
      String value = group.apply(i);
      if (value != null) {
        found.computeIfAbsent(command.groups().get(i).field(), k -> new ArrayList<>()).add(value);
      }
    }
    return assigned(found);
  }

  /** The groups of up to {@code max_match} matches: a field found more than once is multivalued. */
  private Map<String, Object> everyMatch(Matcher matcher) {
    Map<String, List<Object>> found = new HashMap<>();
    long matches = 0;
    while (matches < command.maxMatch() && matcher.find()) {
      matches++;
      for (int i = 0; i < groupNumbers.length; i++) {
        String value = matcher.group(groupNumbers[i]);
        if (value != null) {
          found.computeIfAbsent(command.groups().get(i).field(), k -> new ArrayList<>()).add(value);
        }
      }
    }
    return assigned(found);
  }

  /** Found values by field as assignments: a field found more than once is multivalued. */
  private static Map<String, Object> assigned(Map<String, List<Object>> found) {
    Map<String, Object> assigned = new HashMap<>();
    found.forEach(
        (field, values) -> assigned.put(field, values.size() == 1 ? values.get(0) : values));
    return assigned;
  }
}
