package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link TextMentions}: a text may give a field only when it holds every word of its name. */
class TextMentionsTest {
  @Test
  void everyRunOfTheNameMustOccurAnyCase() {
    assertThat(TextMentions.mayGive("GET /a?JSESSIONID=x1 HTTP/1.1", "JSESSIONID")).isTrue();
    assertThat(TextMentions.mayGive("GET /a?jsessionid=x1", "JSESSIONID")).isTrue();
    assertThat(TextMentions.mayGive("GET /a?session=x1", "JSESSIONID")).isFalse();
    assertThat(TextMentions.mayGive("", "user")).isFalse();
    // a nested JSON path and a cleaned key: each word somewhere
    assertThat(TextMentions.mayGive("{\"req\":{\"user\":1}}", "req.user")).isTrue();
    assertThat(TextMentions.mayGive("{\"req\":{\"id\":1}}", "req.user")).isFalse();
    assertThat(TextMentions.mayGive("user-id=3", "user_id")).isTrue();
    assertThat(TextMentions.mayGive("userid=3", "user_id")).isTrue(); // conservative
    assertThat(TextMentions.mayGive("anything", "_")).isTrue(); // no word: may give
  }

  /** Review (session 34, review-d): a text that spells the name verbatim must be "may give". */
  @Test
  void aVerbatimNonAsciiNameIsFound() {
    assertThat(TextMentions.mayGive("{\"\u0130l\":\"x\"}", "\u0130l"))
        .isTrue(); // Turkish capital I
    assertThat(TextMentions.mayGive("\u01C5x=1", "\u01C5x")).isTrue(); // a titlecase letter
  }

  /** A name with a non-ASCII character gets no "no value" code: any text may give it. */
  @Test
  void aNonAsciiNameMayAlwaysBeGiven() {
    assertThat(TextMentions.mayGive("nothing here", "caf\u00e9")).isTrue();
    assertThat(TextMentions.mayGive("nothing here", "\u0130d")).isTrue();
    // an ASCII name is not found through a non-ASCII letter that folds to it (Kelvin sign K)
    assertThat(TextMentions.mayGive("\u212Aey=1", "key")).isFalse();
    assertThat(TextMentions.mayGive("KEY=1", "key")).isTrue();
  }

  /** Review: JSON extraction decodes escapes in keys, so an escaped key may give the field. */
  @Test
  void anEscapedJsonKeyMayGiveTheField() {
    assertThat(TextMentions.mayGive("{\"\\u0073ession\":\"x\"}", "session")).isTrue();
  }
}
