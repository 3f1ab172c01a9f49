package io.quarry.server.sourcetype;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A sourcetype's {@code kvMode}, Splunk's props.conf {@code KV_MODE}: what a search reads out of an
 * event's text for a field that the index-time fields and the sourcetype's own extractions do not
 * give. The five values Quarry implements, as props.conf.spec documents them:
 *
 * <ul>
 *   <li>{@code auto} (the default): {@code key=value} pairs, a quoted value ending at the first
 *       {@code "} after its opening one (a backslash is an ordinary character: <code>
 *       msg="say \"hi\""</code> reads {@code msg} = <code>say \</code>), and a JSON object's fields
 *       (Splunk's {@code AUTO_KV_JSON}, true by default);
 *   <li>{@code auto_escaped}: the same, honouring {@code \"} and {@code \\} inside a quoted value (
 *       <code>msg="say \"hi\""</code> reads <code>say "hi"</code>): the summary events {@code
 *       collect} writes (sourcetype {@code stash}: Quarry's choice, Splunk's default stanza for it
 *       not checked);
 *   <li>{@code json}: a JSON object's fields only, no {@code key=value} pair (text that is no JSON
 *       object gives nothing);
 *   <li>{@code xml}: an XML document's elements and attributes only, named as {@code spath} names
 *       them ({@link XmlFields}: <code>&lt;event&gt;&lt;user&gt;</code> is {@code event.user});
 *   <li>{@code none}: nothing from the text.
 * </ul>
 *
 * Splunk's {@code multi} (the {@code multikv} command over table-formatted events) is not
 * implemented: naming it, or any other value, is a configuration error that lists these five.
 */
public enum KvMode {
  NONE(false, false, false, false),
  AUTO(true, false, true, false),
  AUTO_ESCAPED(true, true, true, false),
  JSON(false, false, true, false),
  XML(false, false, false, true);

  private final boolean pairs;
  private final boolean escapes;
  private final boolean json;
  private final boolean xml;

  KvMode(boolean pairs, boolean escapes, boolean json, boolean xml) {
    this.pairs = pairs;
    this.escapes = escapes;
    this.json = json;
    this.xml = xml;
  }

  /** Whether {@code key=value} pairs are read out of the text. */
  public boolean readsPairs() {
    return pairs;
  }

  /** Whether {@code \"} and {@code \\} inside a quoted value are escapes ({@code auto_escaped}). */
  public boolean escapes() {
    return escapes;
  }

  /** Whether a JSON object's fields are read out of the text. */
  public boolean readsJson() {
    return json;
  }

  /**
   * Whether an XML document's elements and attributes are read out of the text ({@link XmlFields}).
   */
  public boolean readsXml() {
    return xml;
  }

  /** The setting's value as written in configuration: {@code auto_escaped}, … */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The mode a setting names; {@code null} (unset) is {@code auto}.
   *
   * @throws IllegalArgumentException naming the value and the supported ones
   */
  public static KvMode fromName(String value) {
    if (value == null) {
      return AUTO;
    }
    for (KvMode mode : values()) {
      if (mode.configName().equals(value)) {
        return mode;
      }
    }
    String supported =
        Arrays.stream(values()).map(KvMode::configName).collect(Collectors.joining(", "));
    String splunkOnly =
        value.equals("multi") || value.startsWith("multi:")
            ? " (Splunk's " + value + " is not implemented)"
            : "";
    throw new IllegalArgumentException(
        "kvMode '" + value + "' is not supported" + splunkOnly + "; use one of " + supported);
  }
}
