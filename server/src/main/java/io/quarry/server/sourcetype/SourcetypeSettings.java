package io.quarry.server.sourcetype;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * A sourcetype as written in configuration ({@code sourcetypes.<name>} in {@code conf/quarry.yml},
 * and the built-ins in {@code builtin-sourcetypes.yml}): Quarry's props.conf. Every setting is
 * optional; {@link Sourcetype#from} applies the defaults and checks the values.
 *
 * @param description one line for listings
 * @param lineBreaker a regular expression whose first group is the text between two events
 *     (dropped); default: line ends
 * @param breakOnlyBefore merge lines into multi-line events, starting a new event only at a line in
 *     which this expression is found (anchor it with {@code ^})
 * @param maxLines the most lines merged into one event (default 256)
 * @param truncate the most bytes of an event; longer events are cut there and counted (default
 *     10000, 0 for no limit)
 * @param timePrefix the timestamp starts right after this expression's first match
 * @param timeFormat strptime-style format ({@link StrptimeFormat}); without it the time is
 *     recognised automatically
 * @param maxTimestampLookahead how many characters the timestamp may extend past its start
 * @param timezone the zone of times that carry none (default UTC)
 * @param timestampField for JSON events: the field holding the time (epoch seconds or text)
 * @param indexExtractions fields extracted when the event is stored (searchable by term, typed)
 * @param fields the types of index-time fields: keyword (default), long or double
 * @param searchExtractions regular expressions with named groups applied when a search asks for a
 *     field
 * @param kvMode Splunk's {@code KV_MODE} ({@link KvMode}): {@code auto} (default) reads {@code
 *     key=value} pairs and JSON objects out of an event's text when a search asks for a field,
 *     {@code auto_escaped} the same with escapes in quoted values, {@code json} JSON only, {@code
 *     xml} XML only, {@code none} neither (the index-time fields and {@code searchExtractions}
 *     remain)
 */
public record SourcetypeSettings(
    @JsonProperty("description") String description,
    @JsonProperty("lineBreaker") String lineBreaker,
    @JsonProperty("breakOnlyBefore") String breakOnlyBefore,
    @JsonProperty("maxLines") Integer maxLines,
    @JsonProperty("truncate") Integer truncate,
    @JsonProperty("timePrefix") String timePrefix,
    @JsonProperty("timeFormat") String timeFormat,
    @JsonProperty("maxTimestampLookahead") Integer maxTimestampLookahead,
    @JsonProperty("timezone") String timezone,
    @JsonProperty("timestampField") String timestampField,
    @JsonProperty("indexExtractions") List<IndexExtractionSettings> indexExtractions,
    @JsonProperty("fields") Map<String, String> fields,
    @JsonProperty("searchExtractions") List<String> searchExtractions,
    @JsonProperty("kvMode") String kvMode) {

  /**
   * One index-time extraction: {@code type: json} (every scalar of a JSON event, nested names
   * joined with dots), {@code type: kv} ({@code key=value} pairs), or {@code type: regex} with
   * {@code regex} (each named group that matched becomes a field).
   */
  public record IndexExtractionSettings(
      @JsonProperty("type") String type, @JsonProperty("regex") String regex) {}

  /** These settings with every setting {@code other} gives replaced by its value. */
  public SourcetypeSettings overriddenBy(SourcetypeSettings other) {
    return new SourcetypeSettings(
        pick(other.description, description),
        pick(other.lineBreaker, lineBreaker),
        pick(other.breakOnlyBefore, breakOnlyBefore),
        pick(other.maxLines, maxLines),
        pick(other.truncate, truncate),
        pick(other.timePrefix, timePrefix),
        pick(other.timeFormat, timeFormat),
        pick(other.maxTimestampLookahead, maxTimestampLookahead),
        pick(other.timezone, timezone),
        pick(other.timestampField, timestampField),
        pick(other.indexExtractions, indexExtractions),
        pick(other.fields, fields),
        pick(other.searchExtractions, searchExtractions),
        pick(other.kvMode, kvMode));
  }

  private static <T> T pick(T preferred, T fallback) {
    return preferred != null ? preferred : fallback;
  }

  /** No settings: every default. */
  public static SourcetypeSettings defaults() {
    return new Builder().build();
  }

  /** Settings in code, for servers embedded in other programs and for tests. */
  public static final class Builder {
    private String description;
    private String lineBreaker;
    private String breakOnlyBefore;
    private Integer maxLines;
    private Integer truncate;
    private String timePrefix;
    private String timeFormat;
    private Integer maxTimestampLookahead;
    private String timezone;
    private String timestampField;
    private List<IndexExtractionSettings> indexExtractions;
    private Map<String, String> fields;
    private List<String> searchExtractions;
    private String kvMode;

    public Builder description(String value) {
      description = value;
      return this;
    }

    public Builder lineBreaker(String value) {
      lineBreaker = value;
      return this;
    }

    public Builder breakOnlyBefore(String value) {
      breakOnlyBefore = value;
      return this;
    }

    public Builder maxLines(int value) {
      maxLines = value;
      return this;
    }

    public Builder truncate(int value) {
      truncate = value;
      return this;
    }

    public Builder timePrefix(String value) {
      timePrefix = value;
      return this;
    }

    public Builder timeFormat(String value) {
      timeFormat = value;
      return this;
    }

    public Builder maxTimestampLookahead(int value) {
      maxTimestampLookahead = value;
      return this;
    }

    public Builder timezone(String value) {
      timezone = value;
      return this;
    }

    public Builder timestampField(String value) {
      timestampField = value;
      return this;
    }

    public Builder indexExtractions(List<IndexExtractionSettings> value) {
      indexExtractions = value;
      return this;
    }

    public Builder fields(Map<String, String> value) {
      fields = value;
      return this;
    }

    public Builder searchExtractions(List<String> value) {
      searchExtractions = value;
      return this;
    }

    public Builder kvMode(String value) {
      kvMode = value;
      return this;
    }

    public SourcetypeSettings build() {
      return new SourcetypeSettings(
          description,
          lineBreaker,
          breakOnlyBefore,
          maxLines,
          truncate,
          timePrefix,
          timeFormat,
          maxTimestampLookahead,
          timezone,
          timestampField,
          indexExtractions,
          fields,
          searchExtractions,
          kvMode);
    }
  }
}
