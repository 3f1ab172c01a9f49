package io.quarry.plugin.api.template;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;

/**
 * A source template and its expansion for one type: how the per-type classes that would otherwise
 * be hand-copied (the numeric and boolean blocks) are written once. The grammar, all of it:
 *
 * <ul>
 *   <li>{@code $name$} is replaced by the type's value for {@code name} (a value may span lines); a
 *       name the type has no value for is an error, so a typo cannot pass silently.
 *   <li>A line that is only {@code $if(flag)$}, {@code $else$} or {@code $endif$} (spaces around
 *       allowed) opens, switches or closes a section kept only when the type has {@code flag} (not
 *       kept for {@code $else$}); sections nest, and the marker lines themselves are dropped.
 * </ul>
 *
 * A {@code $} is always a delimiter: a template holds no other. The expansion is what gets
 * committed as Java source (see {@code GeneratedSources}), so it must be the file as it should
 * read.
 */
public final class SourceTemplate {
  private final String name;
  private final String text;

  public SourceTemplate(String name, String text) {
    this.name = name;
    this.text = text;
  }

  /** The template expanded with {@code values} for its names and {@code flags} for its sections. */
  public String expand(Map<String, String> values, Set<String> flags) {
    StringBuilder out = new StringBuilder(text.length() + 1024);
    Deque<Section> open = new ArrayDeque<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      String marker = line.strip();
      int lineNumber = i + 1;
      if (marker.startsWith("$if(") && marker.endsWith(")$")) {
        String flag = marker.substring(4, marker.length() - 2);
        open.push(new Section(kept(open), flags.contains(flag), false));
      } else if (marker.equals("$else$")) {
        Section section = pop(open, lineNumber);
        if (section.inElse) {
          throw new IllegalArgumentException(name + ":" + lineNumber + ": a second $else$");
        }
        open.push(new Section(section.outerKept, section.flagged, true));
      } else if (marker.equals("$endif$")) {
        pop(open, lineNumber);
      } else if (kept(open)) {
        out.append(substitute(line, values, lineNumber));
        if (i < lines.length - 1) {
          out.append('\n');
        }
      }
    }
    if (!open.isEmpty()) {
      throw new IllegalArgumentException(name + ": a section is not closed with $endif$");
    }
    return out.toString();
  }

  /** An open {@code $if$} section: whether its enclosing lines are kept, its flag, which branch. */
  private record Section(boolean outerKept, boolean flagged, boolean inElse) {
    boolean kept() {
      return outerKept && flagged != inElse;
    }
  }

  private static boolean kept(Deque<Section> open) {
    return open.isEmpty() || open.peek().kept();
  }

  private Section pop(Deque<Section> open, int lineNumber) {
    if (open.isEmpty()) {
      throw new IllegalArgumentException(name + ":" + lineNumber + ": no open $if$ section");
    }
    return open.pop();
  }

  private String substitute(String line, Map<String, String> values, int lineNumber) {
    StringBuilder out = new StringBuilder(line.length());
    int at = 0;
    while (true) {
      int open = line.indexOf('$', at);
      if (open < 0) {
        return out.append(line, at, line.length()).toString();
      }
      int close = line.indexOf('$', open + 1);
      if (close < 0) {
        throw new IllegalArgumentException(name + ":" + lineNumber + ": a $ without its closing $");
      }
      String key = line.substring(open + 1, close);
      String value = values.get(key);
      if (value == null) {
        throw new IllegalArgumentException(
            name + ":" + lineNumber + ": no value for $" + key + "$");
      }
      out.append(line, at, open).append(value);
      at = close + 1;
    }
  }
}
