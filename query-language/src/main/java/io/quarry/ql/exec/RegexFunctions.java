package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.text;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The eval functions that run a user's pattern: {@code like} (and the {@code LIKE} operator),
 * {@code match}, {@code replace} (Splunk's {@code \\1} groups) and {@code mvfind}, each bound to
 * its pattern ({@link BoundFunction}). Patterns are compiled once per search (up to 1,024 of each
 * kind); a pattern that is not a regex matches nothing, as a null would; a match ends (null or
 * false) when the search must stop (time limit, cancel: {@link StoppableText}).
 */
final class RegexFunctions {
  /** Whether the search's work in progress should end now (its resources may change). */
  private final Supplier<BooleanSupplier> stopped;

  RegexFunctions(Supplier<BooleanSupplier> stopped) {
    this.stopped = stopped;
  }

  /** Compiled regexes of match() and replace(), by pattern text (most queries use a few). */
  private final java.util.concurrent.ConcurrentMap<String, Pattern> patterns =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** like()'s patterns, compiled once, by their SPL text ({@code %} and {@code _} wildcards). */
  private final java.util.concurrent.ConcurrentMap<String, Pattern> likePatterns =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** A regex compiled once; null when the text is not one. */
  private Pattern pattern(String regex) {
    Pattern compiled = patterns.get(regex);
    if (compiled == null) {
      try {
        compiled = Pattern.compile(regex);
      } catch (java.util.regex.PatternSyntaxException e) {
        return null; // a pattern computed per row that is not a regex: no match, like a null
      }
      if (patterns.size() < 1024) {
        patterns.put(regex, compiled);
      }
    }
    return compiled;
  }

  /** {@code text} as a user's regex reads it: the match ends when the search must stop. */
  private CharSequence guarded(String text) {
    return new StoppableText(stopped.get()).reset(text);
  }

  /**
   * {@code like(x, pattern)}: {@code %} any text, {@code _} one character, the whole text matched.
   */
  BoundFunction liker(String pattern) {
    Pattern compiled = likePatterns.get(pattern);
    if (compiled == null) {
      StringBuilder regex = new StringBuilder("(?s)"); // % and _ match line ends too
      for (char c : pattern.toCharArray()) {
        switch (c) {
          case '%' -> regex.append(".*");
          case '_' -> regex.append('.');
          default -> regex.append(Pattern.quote(String.valueOf(c)));
        }
      }
      compiled = Pattern.compile(regex.toString());
      if (likePatterns.size() < 1024) {
        likePatterns.put(pattern, compiled);
      }
    }
    Pattern like = compiled;
    return a -> {
      try {
        return like.matcher(guarded(text(a))).matches();
      } catch (StoppableText.Stopped stopped) {
        return false;
      }
    };
  }

  /** {@code replace(x, regex, replacement)}. */
  BoundFunction replacer(String regex, String replacement) {
    Pattern compiled = pattern(regex);
    if (compiled == null) {
      return a -> null;
    }
    String groups = TextFunctions.sedGroups(replacement);
    return a -> {
      try {
        return compiled.matcher(guarded(text(a))).replaceAll(groups);
      } catch (StoppableText.Stopped stop) {
        return null; // the search is ending (time limit, cancel): it says so itself
      }
    };
  }

  /** {@code match(x, regex)}: whether the regex matches anywhere in the text. */
  BoundFunction matcher(String regex) {
    Pattern compiled = pattern(regex);
    if (compiled == null) {
      return a -> null;
    }
    return a -> {
      try {
        return compiled.matcher(guarded(text(a))).find();
      } catch (StoppableText.Stopped stop) {
        return null;
      }
    };
  }

  /** {@code mvfind(mv, regex)}: the index of the first value the regex matches, or null. */
  BoundFunction finder(String regex) {
    Pattern compiled = pattern(regex);
    if (compiled == null) {
      return a -> null;
    }
    return a -> {
      List<Object> values = EvalValues.values(a);
      try {
        for (int i = 0; i < values.size(); i++) {
          if (compiled.matcher(guarded(text(values.get(i)))).find()) {
            return (long) i;
          }
        }
      } catch (StoppableText.Stopped stop) {
        return null;
      }
      return null;
    };
  }
}
