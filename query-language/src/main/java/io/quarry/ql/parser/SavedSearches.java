package io.quarry.ql.parser;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Saved searches by name, and the expansion of Splunk's {@code | savedsearch <name>
 * [<key>=<value>]… [nosubstitution=<bool>]}: where a search begins — the query's start, or just
 * inside a subsearch's {@code [} — the command is replaced by the saved search's text, each {@code
 * $key$} in it replaced by the value given for {@code key} (not with {@code nosubstitution=true}),
 * its macros expanded, and any {@code savedsearch} it starts with expanded in turn (a cycle is an
 * error). What follows the command ({@code | stats count}) stays. Like macros, this is text in,
 * text out, before parsing: the job shows the search that ran.
 *
 * <p>A {@code savedsearch} anywhere but first is left alone, and the parser then reports it, as
 * Splunk does (it is a generating command). The saved search's own time range is not applied here:
 * the calling search's range is (see {@code docs/commands/savedsearch.md}).
 */
public final class SavedSearches {
  /** No saved searches: {@code | savedsearch x} is an error naming {@code x}. */
  public static final SavedSearches NONE = new SavedSearches(Map.of());

  /** Saved searches that expand into each other deeper than this are an error. */
  public static final int MAX_DEPTH = 10;

  private static final String COMMAND = "savedsearch";

  private final Map<String, String> searches;

  /**
   * @param searches each saved search's name and query text
   */
  public SavedSearches(Map<String, String> searches) {
    this.searches = Map.copyOf(requireNonNull(searches, "searches is null"));
  }

  /**
   * The query with every leading {@code savedsearch} expanded.
   *
   * @param macros expands the macros of a saved search's text
   * @throws QueryParseException naming an unknown saved search, a bad argument or a cycle, at its
   *     position when it is in the query itself
   */
  public String expand(String query, UnaryOperator<String> macros) {
    requireNonNull(macros, "macros is null");
    if (!query.toLowerCase(Locale.ROOT).contains(COMMAND)) {
      return query;
    }
    return expand(query, query, macros, new ArrayList<>());
  }

  private String expand(
      String text, String query, UnaryOperator<String> macros, List<String> stack) {
    StringBuilder out = new StringBuilder(text.length());
    int copied = 0;
    for (int start : searchStarts(text)) {
      Call call = start < copied ? null : call(text, start, query);
      if (call == null) {
        continue;
      }
      String saved = searches.get(call.name());
      if (saved == null) {
        throw error(query, text, call.at(), "Unknown saved search '" + call.name() + "'");
      }
      if (stack.contains(call.name()) || stack.size() >= MAX_DEPTH) {
        throw error(
            query,
            text,
            call.at(),
            "Saved search '"
                + call.name()
                + "' runs itself ("
                + String.join(" → ", stack)
                + (stack.isEmpty() ? "" : " → ")
                + call.name()
                + ")");
      }
      String body = macros.apply(call.substitute() ? substitute(saved, call.arguments()) : saved);
      stack.add(call.name());
      String expanded = expand(body, query, macros, stack);
      stack.remove(stack.size() - 1);
      out.append(text, copied, call.from()).append(expanded).append(' ');
      copied = call.to();
    }
    return copied == 0 ? text : out.append(text, copied, text.length()).toString();
  }

  /** Where searches begin: the text's start and just after each {@code [} outside quotes. */
  private static List<Integer> searchStarts(String text) {
    List<Integer> starts = new ArrayList<>(List.of(0));
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        i = Macros.endOfQuoted(text, i) - 1;
      } else if (c == '[') {
        starts.add(i + 1);
      }
    }
    return starts;
  }

  /**
   * One {@code savedsearch} call.
   *
   * @param from where the command (with its leading {@code |}) begins
   * @param to where its arguments end
   * @param at where the name begins, for errors
   */
  private record Call(
      int from, int to, int at, String name, Map<String, String> arguments, boolean substitute) {}

  /** The call beginning at {@code start} (after blanks and an optional {@code |}), or null. */
  private static Call call(String text, int start, String query) {
    int i = skipBlanks(text, start);
    if (i < text.length() && text.charAt(i) == '|') {
      i = skipBlanks(text, i + 1);
    }
    if (!text.regionMatches(true, i, COMMAND, 0, COMMAND.length())) {
      return null;
    }
    int afterName = i + COMMAND.length();
    if (afterName < text.length() && !Character.isWhitespace(text.charAt(afterName))) {
      return null; // savedsearches, savedsearch_x: not this command
    }
    int at = skipBlanks(text, afterName);
    List<int[]> words = new ArrayList<>();
    int j = at;
    while (j < text.length()) {
      char c = text.charAt(j);
      if (c == '|' || c == ']') {
        break;
      }
      int end = j;
      while (end < text.length()
          && !Character.isWhitespace(text.charAt(end))
          && text.charAt(end) != '|'
          && text.charAt(end) != ']') {
        end = text.charAt(end) == '"' ? Macros.endOfQuoted(text, end) : end + 1;
      }
      words.add(new int[] {j, end});
      j = skipBlanks(text, end);
    }
    if (words.isEmpty()) {
      throw error(query, text, at, "savedsearch needs the name of a saved search");
    }
    String name = unquote(text.substring(words.get(0)[0], words.get(0)[1]));
    Map<String, String> arguments = new LinkedHashMap<>();
    boolean substitute = true;
    for (int[] word : words.subList(1, words.size())) {
      String argument = text.substring(word[0], word[1]);
      int equals = argument.indexOf('=');
      if (equals <= 0) {
        throw error(
            query,
            text,
            word[0],
            "savedsearch takes <key>=<value> arguments after the name, not '" + argument + "'");
      }
      String key = argument.substring(0, equals);
      String value = unquote(argument.substring(equals + 1));
      if (key.equalsIgnoreCase("nosubstitution")) {
        substitute =
            !switch (value.toLowerCase(Locale.ROOT)) {
              case "true", "t", "1", "yes" -> true;
              case "false", "f", "0", "no" -> false;
              default ->
                  throw error(
                      query,
                      text,
                      word[0],
                      "nosubstitution must be true or false, not '" + value + "'");
            };
      } else {
        arguments.put(key, value);
      }
    }
    return new Call(start, j, at, name, arguments, substitute);
  }

  /** Each {@code $key$} of an argument replaced by its value, in one pass. */
  private static String substitute(String saved, Map<String, String> arguments) {
    if (arguments.isEmpty()) {
      return saved;
    }
    StringBuilder out = new StringBuilder(saved.length());
    int i = 0;
    while (i < saved.length()) {
      int open = saved.indexOf('$', i);
      int close = open < 0 ? -1 : saved.indexOf('$', open + 1);
      if (close < 0) {
        out.append(saved, i, saved.length());
        break;
      }
      String value = arguments.get(saved.substring(open + 1, close));
      if (value == null) {
        out.append(saved, i, close); // not an argument: keep the text, the second $ may open one
        i = close;
      } else {
        out.append(saved, i, open).append(value);
        i = close + 1;
      }
    }
    return out.toString();
  }

  private static int skipBlanks(String text, int i) {
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private static String unquote(String word) {
    if (word.length() >= 2 && word.startsWith("\"") && word.endsWith("\"")) {
      return word.substring(1, word.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
    }
    return word;
  }

  private static QueryParseException error(String query, String text, int at, String message) {
    // inside a saved search's text the position is the call's in the query only at the top level
    return new QueryParseException(
        message, query, Position.of(query, text == query ? at : 0), COMMAND, "a saved search");
  }
}
