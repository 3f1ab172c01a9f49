package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * A subsearch {@code [ … ]}: a whole query that runs before the search holding it.
 *
 * @param query the subsearch's parsed query (its positions are those of the outer query)
 * @param text the text between the brackets, stripped, as written (macros expanded)
 * @param start the offset of {@code [} in the outer query
 * @param end the offset just after the matching {@code ]}
 * @param position where {@code [} is
 */
public record Subsearch(Query query, String text, int start, int end, Position position) {
  public Subsearch {
    requireNonNull(query, "query is null");
    requireNonNull(text, "text is null");
    requireNonNull(position, "position is null");
  }

  /** "subsearch [ text ] (line l, column c)", for messages; long texts are shortened. */
  public String describe() {
    String shown = text.length() > 120 ? text.substring(0, 117) + "…" : text;
    return "subsearch [ "
        + shown
        + " ] (line "
        + position.line()
        + ", column "
        + position.column()
        + ")";
  }
}
