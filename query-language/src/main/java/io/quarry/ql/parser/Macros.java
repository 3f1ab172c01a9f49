package io.quarry.ql.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Search macros, as Splunk's {@code macros.conf} defines them, and their expansion: a query's
 * {@code `name`} or {@code `name(arg, …)`} is replaced by the definition of {@code name} with that
 * many arguments, each {@code $arg$} in it by the argument's text, before the query is parsed.
 * Definitions may use other macros (expanded in turn; a macro that reaches itself is an error). A
 * macro that is not defined is an error naming it — never a search for its text.
 *
 * <p>Backticks inside a quoted string or a {@code ```comment```} are left alone. Arguments are
 * split at commas outside quotes and parentheses and trimmed; an argument in double quotes keeps
 * its quotes (as Splunk does, so {@code $x$} in {@code field=$x$} receives a quoted value).
 */
public final class Macros {
  /** One definition: its argument names (in order) and its text with {@code $name$} slots. */
  public record Macro(List<String> arguments, String definition) {
    public Macro {
      arguments = List.copyOf(arguments);
      for (String argument : arguments) {
        if (!ARGUMENT_NAME.matcher(argument).matches()) {
          throw new IllegalArgumentException(
              "macro argument names are letters, digits, '_' and '-': '" + argument + "'");
        }
      }
      if (definition == null) {
        throw new IllegalArgumentException("a macro needs a definition");
      }
    }
  }

  /** Expansions nested deeper than this are taken for runaway recursion. */
  static final int MAX_DEPTH = 50;

  /** The longest expanded query: a macro that doubles itself a few times is an error, not OOM. */
  static final int MAX_EXPANDED_LENGTH = 1 << 20;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.:-]*");
  private static final Pattern ARGUMENT_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  public static final Macros NONE = new Macros(Map.of());

  /** By name and arity: {@code name} for no arguments, {@code name(2)} for two, as Splunk. */
  private final Map<String, Macro> definitions;

  /**
   * @param definitions keyed {@code name} or {@code name(n)} (n arguments, as Splunk's stanza
   *     names); {@code n} must equal the number of the macro's argument names
   */
  public Macros(Map<String, Macro> definitions) {
    Map<String, Macro> checked = new TreeMap<>();
    definitions.forEach(
        (key, macro) -> {
          String name = key;
          int arity = 0;
          int open = key.indexOf('(');
          if (open >= 0) {
            if (!key.endsWith(")")) {
              throw new IllegalArgumentException("macro '" + key + "': write name(n)");
            }
            name = key.substring(0, open);
            try {
              arity = Integer.parseInt(key.substring(open + 1, key.length() - 1).strip());
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("macro '" + key + "': write name(n)");
            }
          }
          if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                "macro names are letters, digits, '_', '.', ':' and '-': '" + key + "'");
          }
          if (arity != macro.arguments().size()) {
            throw new IllegalArgumentException(
                "macro '"
                    + key
                    + "' takes "
                    + arity
                    + " arguments but names "
                    + macro.arguments().size()
                    + " ("
                    + String.join(", ", macro.arguments())
                    + ")");
          }
          checked.put(key(name, arity), macro);
        });
    this.definitions = Map.copyOf(checked);
  }

  /** Every definition, keyed {@code name} or {@code name(n)}. */
  public Map<String, Macro> definitions() {
    return definitions;
  }

  /**
   * The query with every macro expanded.
   *
   * @throws QueryParseException naming the macro and its position: not defined, wrong number of
   *     arguments, unterminated, or expanding into itself
   */
  public String expand(String query) {
    return expand(query, query, 0, new ArrayList<>());
  }

  private String expand(String text, String query, int depth, List<String> stack) {
    if (text.indexOf('`') < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '"') {
        int end = endOfQuoted(text, i);
        out.append(text, i, end);
        i = end;
      } else if (text.startsWith("```", i)) {
        int close = text.indexOf("```", i + 3);
        int end = close < 0 ? text.length() : close + 3;
        out.append(text, i, end);
        i = end;
      } else if (c == '`') {
        int close = text.indexOf('`', i + 1);
        if (close < 0) {
          throw error(query, text, i, "An unterminated macro call: a '`' without its closing '`'");
        }
        String call = text.substring(i + 1, close);
        out.append(expandCall(call, text, i, query, depth, stack));
        if (out.length() > MAX_EXPANDED_LENGTH) {
          throw error(
              query,
              text,
              i,
              "Macro expansion makes the search longer than "
                  + MAX_EXPANDED_LENGTH
                  + " characters");
        }
        i = close + 1;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private String expandCall(
      String call, String text, int at, String query, int depth, List<String> stack) {
    String name = call.strip();
    List<String> arguments = List.of();
    int open = name.indexOf('(');
    if (open >= 0) {
      if (!name.endsWith(")")) {
        throw error(query, text, at, "A macro call '`" + call + "`' needs its closing ')'");
      }
      arguments = splitArguments(name.substring(open + 1, name.length() - 1));
      name = name.substring(0, open).strip();
    }
    String key = key(name, arguments.size());
    Macro macro = definitions.get(key);
    if (macro == null) {
      throw error(query, text, at, "Unknown search macro '" + key + "'" + otherArities(name));
    }
    if (stack.contains(key) || depth >= MAX_DEPTH) {
      throw error(
          query,
          text,
          at,
          "Macro '"
              + key
              + "' expands into itself ("
              + String.join(" → ", stack)
              + " → "
              + key
              + ")");
    }
    String body = substitute(macro, arguments, query, text, at);
    stack.add(key);
    String expanded = expand(body, query, depth + 1, stack);
    stack.remove(stack.size() - 1);
    return expanded;
  }

  /**
   * The definition with each {@code $name$} of an argument replaced by its text, in one pass (an
   * argument's own text is never substituted again), stopping at {@link #MAX_EXPANDED_LENGTH}.
   */
  private static String substitute(
      Macro macro, List<String> arguments, String query, String text, int at) {
    String definition = macro.definition();
    StringBuilder out = new StringBuilder(definition.length());
    int i = 0;
    while (i < definition.length()) {
      int dollar = definition.indexOf('$', i);
      if (dollar < 0) {
        out.append(definition, i, definition.length());
        break;
      }
      out.append(definition, i, dollar);
      int close = definition.indexOf('$', dollar + 1);
      int index =
          close < 0 ? -1 : macro.arguments().indexOf(definition.substring(dollar + 1, close));
      if (index < 0) {
        out.append('$');
        i = dollar + 1;
      } else {
        out.append(arguments.get(index));
        i = close + 1;
      }
      if (out.length() > MAX_EXPANDED_LENGTH) {
        throw error(
            query,
            text,
            at,
            "Macro expansion makes the search longer than " + MAX_EXPANDED_LENGTH + " characters");
      }
    }
    return out.toString();
  }

  /**
   * The canonical form of a macro key: {@code name}, or {@code name(n)} with n written plainly
   * ({@code m( 02 )} is {@code m(2)}).
   *
   * @throws IllegalArgumentException when it is neither
   */
  public static String normalizeKey(String key) {
    int open = key.indexOf('(');
    if (open < 0) {
      return key.strip();
    }
    if (!key.endsWith(")")) {
      throw new IllegalArgumentException("macro '" + key + "': write name(n)");
    }
    try {
      return key(
          key.substring(0, open).strip(),
          Integer.parseInt(key.substring(open + 1, key.length() - 1).strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("macro '" + key + "': write name(n)");
    }
  }

  /** Hints at the arities that are defined for a name, when the one asked for is not. */
  private String otherArities(String name) {
    List<String> defined = new ArrayList<>();
    for (String key : definitions.keySet()) {
      if (key.equals(name) || key.startsWith(name + "(")) {
        defined.add(key);
      }
    }
    return defined.isEmpty() ? "" : " (defined: " + String.join(", ", defined) + ")";
  }

  private static String key(String name, int arity) {
    return arity == 0 ? name : name + "(" + arity + ")";
  }

  /** Arguments split at commas outside quotes and parentheses, trimmed. */
  private static List<String> splitArguments(String text) {
    List<String> arguments = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        i = endOfQuoted(text, i) - 1;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        arguments.add(text.substring(start, i).strip());
        start = i + 1;
      }
    }
    String last = text.substring(start).strip();
    if (!last.isEmpty() || !arguments.isEmpty()) {
      arguments.add(last);
    }
    return arguments;
  }

  /** The index just past the quoted string starting at {@code open} (or the end of the text). */
  static int endOfQuoted(String text, int open) {
    int i = open + 1;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length()) {
        i += 2;
      } else if (c == '"') {
        return i + 1;
      } else {
        i++;
      }
    }
    return text.length();
  }

  private static QueryParseException error(String query, String text, int at, String message) {
    // inside a definition the position is the call's in the query only at the top level
    return new QueryParseException(
        message, query, Position.of(query, text == query ? at : 0), "`", "a defined search macro");
  }
}
