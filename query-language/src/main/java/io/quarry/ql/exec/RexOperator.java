package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.RexCommand;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
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

  /** Extraction mode's matching, else null (sed mode). */
  private final RexExtraction extraction;

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
        command.sed() != null && !command.sed().transliterate()
            ? Pattern.compile(command.sed().from())
            : null;
    this.extraction = command.sed() == null ? new RexExtraction(command, stopped) : null;
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
    String text = EvalValues.text(input.get(0));
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
    Map<String, Object> assigned = extraction.assignments(text);
    return downstream.accept(assigned.isEmpty() ? row : new AssignedRow(row, assigned));
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
