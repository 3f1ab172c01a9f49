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
 * {@code rex}: extraction sets each named group's field from the first match (with {@code
 * max_match} above 1, from up to that many matches, as multivalues); a row whose field does not
 * match passes unchanged. Sed mode rewrites the field's value ({@code s///} with {@code \1} group
 * references, or {@code y///}).
 */
public final class RexOperator implements RowSink {
  private final RexCommand command;
  private final Pattern pattern;
  private final RowSink downstream;

  /** The regex's group numbers of {@link RexCommand#groups}, in order (extraction only). */
  private final int[] groupNumbers;

  /** Reset for each row: an operator runs on one thread (one per slice in batch mode). */
  private final Matcher matcher;

  /**
   * The fast path for {@code max_match=1} with a regex in {@link SimpleRegex}'s subset, else null.
   */
  private final SimpleRegex simple;

  /** What the regex engine reads: the row's text, ending the match when the search must stop. */
  private final StoppableText guarded;

  /**
   * @param stopped whether the search must stop now (a running match ends; see {@link
   *     StoppableText})
   */
  public RexOperator(RexCommand command, RowSink downstream, BooleanSupplier stopped) {
    this.command = requireNonNull(command, "command is null");
    this.guarded = new StoppableText(requireNonNull(stopped, "stopped is null"));
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.pattern =
        command.sed() != null
            ? (command.sed().transliterate() ? null : Pattern.compile(command.sed().from()))
            : Pattern.compile(command.regex());
    this.matcher = pattern == null ? null : pattern.matcher("");
    this.groupNumbers =
        command.sed() != null
            ? new int[0]
            : command.groups().stream()
                .mapToInt(group -> pattern.namedGroups().get(group.javaName()))
                .toArray();
    this.simple =
        command.sed() == null && command.maxMatch() == 1
            ? SimpleRegex.compile(command.regex())
            : null;
  }

  @Override
  public boolean accept(Row row) {
    if (command.sed() == null) {
      CharSequence view = row.text(command.field()); // _raw unread: match the journal's bytes
      if (view != null) {
        return extract(row, view);
      }
    }
    List<Object> input = row.values(command.field());
    if (input.isEmpty()) {
      return downstream.accept(row);
    }
    String text = Evaluator.text(input.get(0));
    if (command.sed() != null) {
      String replaced;
      try {
        replaced = sed(text);
      } catch (StoppableText.Stopped stopped) {
        return downstream.accept(row); // the search is ending: it says so itself
      }
      return downstream.accept(new AssignedRow(row, Map.of(command.field(), replaced)));
    }
    return extract(row, text);
  }

  private boolean extract(Row row, CharSequence text) {
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
    return downstream.accept(assigned.isEmpty() ? row : new AssignedRow(row, assigned));
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

  private String sed(String text) {
    RexCommand.Sed sed = command.sed();
    if (sed.transliterate()) {
      StringBuilder out = new StringBuilder(text.length());
      for (int i = 0; i < text.length(); i++) {
        int at = sed.from().indexOf(text.charAt(i));
        out.append(at < 0 ? text.charAt(i) : sed.to().charAt(at));
      }
      return out.toString();
    }
    String replacement = javaReplacement(sed.to());
    Matcher matcher = pattern.matcher(guarded.reset(text));
    if (sed.occurrence() == 0) {
      return matcher.replaceAll(replacement);
    }
    StringBuilder out = new StringBuilder();
    int seen = 0;
    while (matcher.find()) {
      if (++seen == sed.occurrence()) {
        matcher.appendReplacement(out, replacement);
        break;
      }
    }
    matcher.appendTail(out);
    return out.toString();
  }

  /** sed's {@code \1} and {@code &} as Java's {@code $1} and {@code $0}. */
  private static String javaReplacement(String sed) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < sed.length(); i++) {
      char c = sed.charAt(i);
      if (c == '\\' && i + 1 < sed.length()) {
        char next = sed.charAt(++i);
        if (Character.isDigit(next)) {
          out.append('$').append(next);
        } else {
          out.append(Matcher.quoteReplacement(String.valueOf(next)));
        }
      } else if (c == '&') {
        out.append("$0");
      } else {
        out.append(Matcher.quoteReplacement(String.valueOf(c)));
      }
    }
    return out.toString();
  }

  @Override
  public void finish() {
    downstream.finish();
  }
}
