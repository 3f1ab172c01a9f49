package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.RexCommand;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rewriting half of {@code rex} ({@code mode=sed}), for the page stage ({@link RexOperator}):
 * {@code s/regex/replacement/[g|N]} with {@code \1} group references and {@code &}, or {@code
 * y/from/to/}. The match reads the text through {@link StoppableText}: when the search must stop,
 * {@link #rewrite} throws {@link StoppableText.Stopped} and the caller leaves the value as it was.
 * One instance per thread: it keeps its matcher.
 */
final class RexSed {
  private final RexCommand.Sed sed;
  private final Matcher matcher; // null for y///
  private final String replacement;
  private final StoppableText guarded;

  /**
   * @param command a {@code rex} in sed mode
   * @param stopped whether the search must stop now
   */
  RexSed(RexCommand command, BooleanSupplier stopped) {
    this.sed = requireNonNull(command.sed(), "rex is not in sed mode");
    this.guarded = new StoppableText(requireNonNull(stopped, "stopped is null"));
    this.matcher = sed.transliterate() ? null : Pattern.compile(sed.from()).matcher("");
    this.replacement = sed.transliterate() ? null : javaReplacement(sed.to());
  }

  /**
   * {@code text} rewritten.
   *
   * @throws StoppableText.Stopped when the search must stop during the match
   */
  String rewrite(String text) {
    if (sed.transliterate()) {
      StringBuilder out = new StringBuilder(text.length());
      for (int i = 0; i < text.length(); i++) {
        int at = sed.from().indexOf(text.charAt(i));
        out.append(at < 0 ? text.charAt(i) : sed.to().charAt(at));
      }
      return out.toString();
    }
    matcher.reset(guarded.reset(text));
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
}
