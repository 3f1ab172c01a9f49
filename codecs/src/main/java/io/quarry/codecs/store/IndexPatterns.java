package io.quarry.codecs.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The index patterns of a search ({@code index=web*}) and the indexes they name, as Splunk reads
 * them: {@code *} matches any run of characters, case is ignored, and a pattern names an internal
 * index (one whose name starts with {@code _}) only when it starts with {@code _} itself, so {@code
 * *} alone is every index but the internal ones ({@link EventStore#resolve}).
 */
final class IndexPatterns {
  private IndexPatterns() {}

  /** The names among {@code names} (in their order) that some pattern matches. */
  static List<String> resolve(Collection<String> names, List<String> patterns) {
    List<String> matched = new ArrayList<>();
    for (String name : names) {
      for (String pattern : patterns) {
        String lower = pattern.toLowerCase(Locale.ROOT);
        boolean internal = name.startsWith("_") && !lower.startsWith("_");
        if (!internal && globMatches(lower, name)) {
          matched.add(name);
          break;
        }
      }
    }
    return matched;
  }

  private static boolean globMatches(String pattern, String name) {
    String regex =
        Arrays.stream(pattern.split("\\*", -1))
            .map(Pattern::quote)
            .collect(Collectors.joining(".*"));
    return Pattern.matches(regex, name);
  }
}
