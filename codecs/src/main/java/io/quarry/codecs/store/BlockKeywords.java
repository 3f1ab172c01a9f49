package io.quarry.codecs.store;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.util.BytesRef;

/**
 * The block's {@code _kw.<f>} terms, each distinct lower-cased value of a field once. A field's
 * last value is remembered, so a value repeated by consecutive events (a block's host, its
 * sourcetype) is neither lower-cased nor looked up again. One instance serves the blocks of a batch
 * in turn ({@link #reset} for each): a field's set keeps its table from one block to the next, so a
 * block's thousand addresses do not grow a new one from sixteen slots.
 */
final class BlockKeywords {
  private Document document;
  private final Map<String, Seen> byField = new HashMap<>();
  // the default fields', looked up once: every event has them
  final Seen hosts = seen(EventFields.HOST);
  final Seen sources = seen(EventFields.SOURCE);
  final Seen sourcetypes = seen(EventFields.SOURCETYPE);

  /** Keywords for {@code document}'s block. */
  BlockKeywords(Document document) {
    this.document = document;
  }

  /**
   * Starts the next block's keywords, for {@code document}: every field's terms forgotten, their
   * sets' tables kept.
   */
  void reset(Document document) {
    this.document = document;
    for (Seen seen : byField.values()) {
      seen.terms.clear();
      seen.last = null;
    }
  }

  /** The state of one field, made on first use. */
  Seen seen(String field) {
    Seen seen = byField.get(field);
    if (seen == null) {
      seen = new Seen(EventFields.keywordField(field));
      byField.put(field, seen);
    }
    return seen;
  }

  void add(Seen seen, String value) {
    if (value.equals(seen.last)) {
      return;
    }
    seen.last = value;
    String term = EventFields.keywordTerm(value);
    if (term != null && seen.terms.add(term)) {
      document.add(new StringField(seen.luceneField, utf8(term), Field.Store.NO));
    }
  }

  /**
   * The term's UTF-8 bytes as Lucene's {@code BytesRef(CharSequence)} makes them (an unpaired
   * surrogate as U+FFFD): Lucene's encoding where any character is not ASCII; otherwise the JDK's,
   * one byte a character, which copies a Latin-1 string's bytes at once where Lucene's reads it
   * character by character. Each term is encoded once.
   */
  static BytesRef utf8(String term) {
    for (int i = 0; i < term.length(); i++) {
      if (term.charAt(i) >= 0x80) {
        return new BytesRef(term);
      }
    }
    return new BytesRef(term.getBytes(StandardCharsets.UTF_8));
  }

  /** One field's Lucene name, its terms so far and its last value. */
  static final class Seen {
    final String luceneField;
    final Set<String> terms = new HashSet<>();
    String last;

    Seen(String luceneField) {
      this.luceneField = luceneField;
    }
  }
}
