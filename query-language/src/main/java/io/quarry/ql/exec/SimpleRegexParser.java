package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@link SimpleRegex}'s subset of the regex syntax into its steps; throws
 * IllegalArgumentException for anything outside it (see that class's doc), and for an expression
 * whose variable elements could give back characters the rest needs.
 */
final class SimpleRegexParser {
  private static final long DIGITS = 0x03FF_0000_0000_0000L; // '0'-'9' in the low word
  private static final long[] SPACE = set(" \t\n\u000B\f\r");
  private static final long[] DIGIT = {DIGITS, 0};
  private static final long[] WORD = word();

  private final String regex;
  private int at;
  private int groups;
  private final List<SimpleRegex.Step> steps = new ArrayList<>();
  private final List<Integer> open = new ArrayList<>(); // group numbers, -1 for (?:

  SimpleRegexParser(String regex) {
    this.regex = regex;
  }

  SimpleRegex parse() {
    boolean anchored = regex.startsWith("^");
    at = anchored ? 1 : 0;
    while (at < regex.length()) {
      char c = regex.charAt(at);
      switch (c) {
        case '(' -> openGroup();
        case ')' -> closeGroup();
        case '|', '$', '^', '*', '+', '?', '{', '}', ']' -> throw outside();
        default -> {
          long[] set = element();
          quantified(set);
        }
      }
    }
    if (!open.isEmpty()) {
      throw outside();
    }
    checkDeterministic();
    return new SimpleRegex(anchored, steps, groups);
  }

  private void openGroup() {
    at++;
    if (regex.startsWith("?:", at)) {
      at += 2;
      open.add(-1);
      return;
    }
    if (regex.startsWith("?<", at) && at + 2 < regex.length()) {
      char first = regex.charAt(at + 2);
      if (first == '=' || first == '!') {
        throw outside(); // lookbehind
      }
      int close = regex.indexOf('>', at);
      if (close < 0) {
        throw outside();
      }
      at = close + 1;
    } else if (regex.startsWith("?", at)) {
      throw outside(); // flags, lookahead, atomic groups
    }
    groups++;
    open.add(groups);
    steps.add(new SimpleRegex.Step(0, 0, 0, 0, groups, true));
  }

  private void closeGroup() {
    if (open.isEmpty()) {
      throw outside();
    }
    at++;
    if (at < regex.length() && "*+?{".indexOf(regex.charAt(at)) >= 0) {
      throw outside(); // a quantified group
    }
    int group = open.remove(open.size() - 1);
    if (group >= 0) {
      steps.add(new SimpleRegex.Step(0, 0, 0, 0, group, false));
    }
  }

  /** The characters one element matches, as two 64-bit halves of the ASCII range. */
  private long[] element() {
    char c = regex.charAt(at++);
    if (c == '.') {
      long[] any = {~0L, ~0L};
      return remove(any, "\n\r");
    }
    if (c == '[') {
      return bracket();
    }
    if (c == '\\') {
      long[] escaped = escape(false);
      if (escaped != null) {
        return escaped;
      }
      return single(regex.charAt(at - 1));
    }
    return single(c);
  }

  /**
   * After a backslash: a class, or null when the escaped character stands for itself (then it is
   * {@code regex.charAt(at - 1)}).
   */
  private long[] escape(boolean inBracket) {
    if (at >= regex.length()) {
      throw outside();
    }
    char c = regex.charAt(at++);
    switch (c) {
      case 'd':
        return DIGIT.clone();
      case 'D':
        return not(DIGIT);
      case 's':
        return SPACE.clone();
      case 'S':
        return not(SPACE);
      case 'w':
        return WORD.clone();
      case 'W':
        return not(WORD);
      case 't':
        return single('\t');
      case 'n':
        return single('\n');
      case 'r':
        return single('\r');
      case 'f':
        return single('\f');
      default:
        if (c > 127 || Character.isLetterOrDigit(c)) {
          throw outside(); // word boundaries, anchors, properties, hex, back references
        }
        return inBracket ? single(c) : null;
    }
  }

  private long[] bracket() {
    boolean negated = at < regex.length() && regex.charAt(at) == '^';
    if (negated) {
      at++;
    }
    long[] members = {0, 0};
    boolean first = true;
    while (true) {
      if (at >= regex.length()) {
        throw outside();
      }
      char c = regex.charAt(at++);
      if (c == ']' && !first) {
        break;
      }
      if (c == '[' || c == ']' || (c == '&' && regex.startsWith("&", at)) || c > 127) {
        throw outside(); // unions, intersections, a leading ], non-ASCII
      }
      if (c == '-' && !first && at < regex.length() && regex.charAt(at) != ']') {
        throw outside(); // a '-' inside is a range's, or ambiguous: only first or last
      }
      first = false;
      char low;
      if (c == '\\') {
        long[] member = escape(true);
        if (Long.bitCount(member[0]) + Long.bitCount(member[1]) != 1) {
          union(members, member); // a class: \d \s \w and their negations
          continue;
        }
        low = onlyMember(member);
      } else {
        low = c;
      }
      if (at + 1 < regex.length() && regex.charAt(at) == '-' && regex.charAt(at + 1) != ']') {
        at++;
        char high = regex.charAt(at++);
        if (high == '\\' || high == '[' || high > 127 || high < low) {
          throw outside();
        }
        for (char x = low; x <= high; x++) {
          union(members, single(x));
        }
      } else {
        union(members, single(low));
      }
    }
    return negated ? not(members) : members;
  }

  /** The quantifier after an element, if any; adds the element's step. */
  private void quantified(long[] set) {
    int min = 1;
    int max = 1;
    if (at < regex.length()) {
      char q = regex.charAt(at);
      switch (q) {
        case '*' -> {
          min = 0;
          max = Integer.MAX_VALUE;
          at++;
        }
        case '+' -> {
          max = Integer.MAX_VALUE;
          at++;
        }
        case '?' -> {
          min = 0;
          at++;
        }
        case '{' -> {
          int close = regex.indexOf('}', at);
          if (close < 0) {
            throw outside();
          }
          String[] bounds = regex.substring(at + 1, close).split(",", -1);
          try {
            min = Integer.parseInt(bounds[0]);
            max =
                bounds.length == 1
                    ? min
                    : bounds[1].isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(bounds[1]);
          } catch (NumberFormatException e) {
            throw outside();
          }
          if (bounds.length > 2 || min > max || min > 1000) {
            throw outside();
          }
          at = close + 1;
        }
        default -> {}
      }
      if (at < regex.length() && (max != 1 || min != 1) && "?+".indexOf(regex.charAt(at)) >= 0) {
        throw outside(); // lazy or possessive
      }
    }
    steps.add(new SimpleRegex.Step(set[0], set[1], min, max, -1, false));
  }

  /**
   * Accepts only expressions where every variable element is followed by something none of its
   * characters can start: then its longest run is the only one that can lead to a match.
   */
  private void checkDeterministic() {
    for (int i = 0; i < steps.size(); i++) {
      SimpleRegex.Step step = steps.get(i);
      if (step.isMark() || step.min() == step.max()) {
        continue;
      }
      long low = 0;
      long high = 0;
      for (int j = i + 1; j < steps.size(); j++) {
        SimpleRegex.Step next = steps.get(j);
        if (next.isMark()) {
          continue;
        }
        low |= next.low();
        high |= next.high();
        if (next.min() > 0) {
          break;
        }
      }
      if ((low & step.low()) != 0 || (high & step.high()) != 0) {
        throw outside();
      }
    }
  }

  private IllegalArgumentException outside() {
    return new IllegalArgumentException("outside the simple subset: " + regex);
  }

  private static long[] single(char c) {
    if (c > 127) {
      throw new IllegalArgumentException("non-ASCII");
    }
    return c < 64 ? new long[] {1L << c, 0} : new long[] {0, 1L << (c - 64)};
  }

  /** The character of a one-member set. */
  private static char onlyMember(long[] member) {
    return (char)
        (member[0] != 0
            ? Long.numberOfTrailingZeros(member[0])
            : 64 + Long.numberOfTrailingZeros(member[1]));
  }

  private static long[] set(String chars) {
    long[] set = {0, 0};
    for (int i = 0; i < chars.length(); i++) {
      union(set, single(chars.charAt(i)));
    }
    return set;
  }

  private static long[] word() {
    long[] word = {DIGITS, 0};
    for (char c = 'a'; c <= 'z'; c++) {
      union(word, single(c));
      union(word, single(Character.toUpperCase(c)));
    }
    union(word, single('_'));
    return word;
  }

  private static long[] not(long[] set) {
    return new long[] {~set[0], ~set[1]};
  }

  private static long[] remove(long[] set, String chars) {
    long[] removed = set(chars);
    return new long[] {set[0] & ~removed[0], set[1] & ~removed[1]};
  }

  private static void union(long[] into, long[] set) {
    into[0] |= set[0];
    into[1] |= set[1];
  }
}
