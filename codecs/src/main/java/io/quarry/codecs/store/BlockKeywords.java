package io.quarry.codecs.store;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;

/**
 * The block's {@code _kw.<f>} terms, each distinct lower-cased value of a field once. A field's
 * last value is remembered, so a value repeated by consecutive events (a block's host, its
 * sourcetype) is neither lower-cased nor looked up again.
 */
final class BlockKeywords {
  private final Document document;
  private final Map<String, Seen> byField = new HashMap<>();

  BlockKeywords(Document document) {
    this.document = document;
  }

  void add(String field, String value) {
    add(seen(field), value);
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
      document.add(new StringField(seen.luceneField, term, Field.Store.NO));
    }
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
