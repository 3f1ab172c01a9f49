package io.quarry.server.sourcetype;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * {@link KeyValueBytes#values} for many texts lying in one region of bytes (a block's events), from
 * one pass over the region instead of one scan of pairs per text: the pass notes every {@code key=}
 * and every {@code ="} (a quoted value's start); a text is then answered from the notes. A text
 * with no {@code key=} has no value (a quarter of the access log's lines for {@code JSESSIONID}),
 * without reading it; a text with exactly one, not preceded by a key character (a longer key) nor
 * by a quoted value, and which no unquoted value before it can cover ({@link
 * KeyValueBytes#reachedAt}), has that one pair, read in place; any other text is scanned pair by
 * pair as before. The same answers as {@link KeyValueBytes#values} on each text (tests compare them
 * on random texts). The {@code =} are found by {@link EqualsPass}, with the Vector API where the
 * JVM has it. Not thread-safe: one per column of a scan.
 */
public final class KeyPlaces {
  private final byte[] key;
  private final boolean possible; // whether a scan of pairs can find the key at all
  private final EqualsPass pass;
  private final IntConsumer noter = this::note;
  private int[] equals = new int[256]; // the '=' of each key= in the region, in order
  private int count;
  private int[] quotes = new int[64]; // each '=' followed by a quote, in order
  private int quoteCount;
  private int next; // where the last text's places began: texts are mostly asked in order
  private int nextQuote;
  private byte[] region; // during reset: the region's bytes, start and end
  private int regionStart;
  private int regionEnd;

  public KeyPlaces(byte[] key) {
    this(key, EqualsPass.CHOSEN);
  }

  KeyPlaces(byte[] key, EqualsPass pass) {
    this.key = key.clone();
    this.possible = KeyValueBytes.isKey(key);
    this.pass = pass;
  }

  /**
   * How this JVM finds the {@code =} of each block ({@code vector 512-bit}, {@code scalar}): the
   * Vector API needs the JVM option {@code --add-modules jdk.incubator.vector}.
   */
  public static String byteScan() {
    return EqualsPass.CHOSEN.toString();
  }

  /** Notes the key's places in {@code bytes[start, end)}, every text asked next lying inside. */
  public void reset(byte[] bytes, int start, int end) {
    count = 0;
    quoteCount = 0;
    next = 0;
    nextQuote = 0;
    if (!possible) {
      return; // no pair has the key (an empty one, say): nothing to note, every text has none
    }
    region = bytes;
    regionStart = start;
    regionEnd = end;
    pass.run(bytes, start, end, key[key.length - 1], noter);
    region = null; // not kept past the block
  }

  /** Notes the {@code =} at {@code at} when it starts a quoted value or ends the key. */
  private void note(int at) {
    byte[] bytes = region;
    if (at + 1 < regionEnd && bytes[at + 1] == '"') {
      quotes = add(quotes, quoteCount++, at);
    }
    if (at - key.length >= regionStart
        && bytes[at - 1] == key[key.length - 1]
        && KeyValueBytes.regionEquals(bytes, at - key.length, key)) {
      equals = add(equals, count++, at);
    }
  }

  private static int[] add(int[] into, int at, int value) {
    int[] grown = at < into.length ? into : Arrays.copyOf(into, 2 * into.length);
    grown[at] = value;
    return grown;
  }

  /**
   * Reports every value of the key in the text {@code bytes[offset, offset + length)}, which lies
   * in the region of the last {@link #reset}, as {@link KeyValueBytes#values} does; returns how
   * many (the single pair read in place has no quoted value before it nor is one).
   */
  public int values(byte[] bytes, int offset, int length, KeyValueBytes.Values into) {
    int limit = offset + length;
    int first = seek(equals, count, next, offset + key.length); // a key inside the text
    next = first;
    if (first == count || equals[first] >= limit) {
      return 0;
    }
    boolean single = first + 1 == count || equals[first + 1] >= limit;
    int at = equals[first];
    int keyStart = at - key.length;
    if (single && possible) {
      nextQuote = seek(quotes, quoteCount, nextQuote, offset);
      boolean quotedBefore = nextQuote < quoteCount && quotes[nextQuote] < at;
      if (keyStart > offset && KeyValueBytes.isKeyChar(bytes[keyStart - 1])) {
        return 0; // a longer key: no pair has this one
      }
      if (!quotedBefore
          && KeyValueBytes.reachedAt(bytes, offset, keyStart)
          && (at + 1 == limit || bytes[at + 1] != '"')) {
        int end = KeyValueBytes.unquotedEnd(bytes, at + 1, limit);
        if (end == at + 1) {
          return 0; // no value: the scan goes on after the '=', and no other pair has the key
        }
        into.value(at + 1, end);
        return 1;
      }
    }
    return KeyValueBytes.values(bytes, offset, length, key, into);
  }

  /**
   * The first index of {@code places[0, count)} holding at least {@code from}: forward from {@code
   * hint} while the texts come in order, by binary search when one comes before.
   */
  private static int seek(int[] places, int count, int hint, int from) {
    if (hint > 0 && hint <= count && places[hint - 1] >= from) {
      int found = Arrays.binarySearch(places, 0, count, from);
      return found >= 0 ? found : -found - 1;
    }
    int i = hint;
    while (i < count && places[i] < from) {
      i++;
    }
    return i;
  }
}
