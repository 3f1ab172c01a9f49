package io.quarry.server.sourcetype;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** A regular expression and, in group order, the fields its named groups fill. */
record NamedGroups(Pattern pattern, List<Map.Entry<Integer, String>> fields) {
  private static final Pattern GROUP_NAME = Pattern.compile("\\(\\?<([A-Za-z][A-Za-z0-9_]*)>");

  /**
   * Compiles an extraction. Field names may hold {@code _} ({@code (?<src_ip>...)}), which Java
   * group names may not: such groups are renamed before compiling and mapped back.
   *
   * @throws IllegalArgumentException when the expression is invalid or has no named group
   */
  static NamedGroups compile(String regex, String setting) {
    Map<String, String> renamed = new HashMap<>();
    Matcher names = GROUP_NAME.matcher(regex);
    StringBuilder rewritten = new StringBuilder();
    while (names.find()) {
      String name = names.group(1);
      String safe = name;
      if (name.indexOf('_') >= 0) {
        safe = "quarryfield" + renamed.size() + "x";
        renamed.put(safe, name);
      }
      names.appendReplacement(rewritten, Matcher.quoteReplacement("(?<" + safe + ">"));
    }
    names.appendTail(rewritten);
    Pattern pattern;
    try {
      pattern = Pattern.compile(rewritten.toString());
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          setting + " is not a valid regular expression: " + e.getDescription() + " in " + regex);
    }
    List<Map.Entry<Integer, String>> fields =
        pattern.namedGroups().entrySet().stream()
            .sorted(Map.Entry.comparingByValue())
            .map(
                e ->
                    Map.entry(
                        e.getValue(),
                        renamed.getOrDefault(e.getKey(), Sourcetypes.fieldName(e.getKey()))))
            .toList();
    if (fields.isEmpty()) {
      throw new IllegalArgumentException(
          setting + " '" + regex + "' has no named group (?<field>...) to extract");
    }
    return new NamedGroups(pattern, fields);
  }

  /**
   * Hands each named group of the first match in {@code raw} that matched to {@code field} (name,
   * value); returns whether there was a match.
   */
  boolean extract(String raw, java.util.function.BiConsumer<String, String> field) {
    Matcher matcher = pattern.matcher(raw);
    if (!matcher.find()) {
      return false;
    }
    for (Map.Entry<Integer, String> group : fields) {
      String value = matcher.group(group.getKey());
      if (value != null) {
        field.accept(group.getValue(), value);
      }
    }
    return true;
  }
}
