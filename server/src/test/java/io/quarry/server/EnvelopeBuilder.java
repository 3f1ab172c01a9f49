package io.quarry.server;

import com.fasterxml.jackson.databind.node.TextNode;

/**
 * A HEC {@code /services/collector/event} body of the search tests' random events, one envelope a
 * line: the {@code n}th event at 2026-01-01T00:00:00Z plus {@code n} seconds, from host {@code
 * h<host>}, sourcetype {@code app}, its text as a JSON string, and its index-time {@code fields}
 * when given.
 */
public final class EnvelopeBuilder {
  private final StringBuilder envelopes = new StringBuilder();

  /**
   * Adds the {@code n}th event's envelope.
   *
   * @param fields nothing, or {@code ,"fields":{…}} as it follows the event in the envelope
   */
  public EnvelopeBuilder add(int n, int host, String event, String fields) {
    envelopes
        .append("{\"time\":")
        .append(1_767_225_600 + n)
        .append(",\"host\":\"h")
        .append(host)
        .append("\",\"sourcetype\":\"app\",\"event\":")
        .append(TextNode.valueOf(event))
        .append(fields)
        .append("}\n");
    return this;
  }

  /** The body: every envelope added, in order. */
  public String body() {
    return envelopes.toString();
  }
}
