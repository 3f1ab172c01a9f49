package io.quarry.ql.builtins;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Field names with {@code *} wildcards, as {@code convert} and {@code addtotals} take them: a
 * wildcard matches field names case-sensitively (Splunk's field names are), and a target name's
 * {@code *}s take what the source's matched, in order ({@code *_ms AS *_sec}).
 */
final class Fields {
  private Fields() {}

  static int stars(String pattern) {
    int count = 0;
    for (int i = 0; i < pattern.length(); i++) {
      if (pattern.charAt(i) == '*') {
        count++;
      }
    }
    return count;
  }

  /**
   * The names among {@code names} that {@code pattern} matches, in their order. A wildcard leaves
   * out internal fields (names starting with {@code _}) unless the pattern itself starts with one.
   */
  static List<String> matching(String pattern, List<String> names) {
    List<String> matched = new ArrayList<>();
    if (stars(pattern) == 0) {
      if (names.contains(pattern)) {
        matched.add(pattern);
      }
      return matched;
    }
    Pattern regex = regex(pattern);
    boolean internal = pattern.startsWith("_");
    for (String name : names) {
      if ((internal || !name.startsWith("_")) && regex.matcher(name).matches()) {
        matched.add(name);
      }
    }
    return matched;
  }

  /** {@code target} with each {@code *} replaced by what the pattern's {@code *}s matched. */
  static String substitute(String pattern, String matched, String target) {
    if (stars(target) == 0) {
      return target;
    }
    Matcher m = regex(pattern).matcher(matched);
    if (!m.matches()) {
      return target;
    }
    StringBuilder out = new StringBuilder();
    int group = 1;
    for (int i = 0; i < target.length(); i++) {
      char c = target.charAt(i);
      if (c == '*' && group <= m.groupCount()) {
        out.append(m.group(group++));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * What each {@code *} of {@code pattern} matched in {@code name}, in order (none for a pattern
   * without wildcards), or null when it does not match.
   */
  static List<String> wildcards(String pattern, String name) {
    Matcher m = regex(pattern).matcher(name);
    if (!m.matches()) {
      return null;
    }
    List<String> groups = new ArrayList<>(m.groupCount());
    for (int g = 1; g <= m.groupCount(); g++) {
      groups.add(m.group(g));
    }
    return groups;
  }

  private static Pattern regex(String pattern) {
    StringBuilder regex = new StringBuilder();
    int from = 0;
    for (int i = 0; i < pattern.length(); i++) {
      if (pattern.charAt(i) == '*') {
        regex.append(Pattern.quote(pattern.substring(from, i))).append("(.*?)");
        from = i + 1;
      }
    }
    regex.append(Pattern.quote(pattern.substring(from)));
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }
}
