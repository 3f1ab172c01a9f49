package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.OperatorContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A user's regular expression run with the project's safety rules, for page operators ({@code
 * regex}, {@code makemv tokenizer=}): a test for a match goes through {@link SimpleRegex}'s one
 * pass when the expression is in its subset and the text ASCII, else through {@code
 * java.util.regex} reading the text through {@link StoppableText}, so a backtracking expression
 * ends when the search must stop (cancelled, finalized, past its time limit). A stopped match
 * counts as no match; the search itself reports why it stopped. One per operator (not thread-safe).
 */
public final class UserRegex {
  private final Pattern pattern;
  private final SimpleRegex simple;
  private final StoppableText guarded;
  private Matcher matcher;

  /**
   * @param pattern the compiled expression
   * @param stopped whether the search must stop
   */
  public UserRegex(Pattern pattern, BooleanSupplier stopped) {
    this.pattern = requireNonNull(pattern, "pattern is null");
    this.simple = SimpleRegex.compile(pattern.pattern());
    this.guarded = new StoppableText(requireNonNull(stopped, "stopped is null"));
  }

  /**
   * What a page operator asks to know whether to stop: the search's {@code stopped} when it runs in
   * a search ({@link SearchResources.Context}), else its cancellation.
   */
  public static BooleanSupplier stopSignal(OperatorContext context) {
    return context instanceof SearchResources.Context search
        ? search.stopped()
        : context::isCancelled;
  }

  /** Whether the expression matches somewhere in {@code text} ({@code Matcher.find}). */
  public boolean find(CharSequence text) {
    if (simple != null) {
      int found = simple.find(text);
      if (found != SimpleRegex.UNDECIDED) {
        return found == SimpleRegex.MATCH;
      }
    }
    try {
      return matcher(text).find();
    } catch (StoppableText.Stopped stopped) {
      return false;
    }
  }

  /**
   * Every match in {@code text}, in order: its first group when the expression has one (a group
   * that took no part is the empty string), else the whole match. Empty values are kept only when
   * {@code keepEmpty}. A stopped match ends the list.
   */
  public List<String> tokens(CharSequence text, boolean keepEmpty) {
    List<String> tokens = new ArrayList<>();
    try {
      Matcher m = matcher(text);
      while (m.find()) {
        String token = m.groupCount() > 0 ? m.group(1) : m.group();
        if (token == null) {
          token = "";
        }
        if (keepEmpty || !token.isEmpty()) {
          tokens.add(token);
        }
      }
    } catch (StoppableText.Stopped stopped) {
      // the search is stopping: what was found so far
    }
    return tokens;
  }

  private Matcher matcher(CharSequence text) {
    guarded.reset(text);
    if (matcher == null) {
      matcher = pattern.matcher(guarded);
    } else {
      matcher.reset(guarded);
    }
    return matcher;
  }
}
