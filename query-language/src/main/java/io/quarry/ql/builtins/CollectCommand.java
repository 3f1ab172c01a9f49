package io.quarry.ql.builtins;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.SearchInfo;
import io.quarry.ql.exec.SearchResources;
import io.quarry.ql.exec.Values;
import io.quarry.ql.plan.WritesEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code collect index=<name> [addtime=<bool>] [addinfo=<bool>] [marker=<string>] [host=<string>]
 * [source=<string>] [sourcetype=<string>] [testmode=<bool>] [output_format=raw] [file=…] [spool=…]
 * [run_in_preview=…] [uselb=…]} (Splunk's summary indexing): every result becomes an event of the
 * index, written through the server's ingest path ({@link WritesEvents}), and passes on unchanged.
 *
 * <p>A result with {@code _raw} keeps it as the event's text and its {@code _time} (else the
 * search's time). Any other result is written in Splunk's stash format ({@link StashText}): with
 * {@code addtime} (default true) its time first — the result's {@code info_min_time}, else its
 * {@code _time}, else the search's — then with {@code addinfo} (default true) the search's {@code
 * info_min_time}, {@code info_max_time} and {@code info_search_time}, then its fields; the event's
 * time is that time, or the search's without {@code addtime}. {@code marker} is appended to every
 * event. {@code sourcetype} defaults to {@code stash} (one its configuration does not read {@code
 * kvMode: auto_escaped}, which alone reads the escaped values back, the server refuses where a
 * result can lack {@code _raw}: when it plans the search, and for a page holding such a result
 * before it is written), {@code source} to {@code collect}, {@code host} to the server's. {@code
 * testmode=true} writes nothing. Splunk's spool options ({@code file}, {@code spool}, {@code
 * uselb}) and {@code run_in_preview} are accepted and change nothing: the events go straight to the
 * index. Centralized: one operator writes the pages in the order they come, each before it is
 * handed on, so a result one sees was written durably.
 */
final class CollectCommand implements CommandDefinition {
  static final String DEFAULT_SOURCETYPE = "stash";
  static final String DEFAULT_SOURCE = "collect";

  @Override
  public String name() {
    return "collect";
  }

  @Override
  public String description() {
    return "Writes every result as an event into an existing index (summary indexing) and passes"
        + " the results on unchanged.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("index", ArgumentType.STRING, "the index the events go to"),
        ArgumentSpec.optional(
            "addtime", ArgumentType.BOOLEAN, "true", "a result without _raw starts with its time"),
        ArgumentSpec.optional(
            "addinfo",
            ArgumentType.BOOLEAN,
            "true",
            "a result without _raw gets the search's info_min_time, info_max_time, info_search_time"),
        ArgumentSpec.optional("marker", ArgumentType.STRING, null, "text appended to every event"),
        ArgumentSpec.optional("host", ArgumentType.STRING, null, "the events' host"),
        ArgumentSpec.optional("source", ArgumentType.STRING, DEFAULT_SOURCE, "the events' source"),
        ArgumentSpec.optional(
            "sourcetype",
            ArgumentType.STRING,
            DEFAULT_SOURCETYPE,
            "the events' sourcetype (any where every result keeps _raw; else stash or kvMode auto_escaped)"),
        ArgumentSpec.optional(
            "testmode", ArgumentType.BOOLEAN, "false", "write nothing; the results pass on"),
        ArgumentSpec.optional(
            "output_format", ArgumentType.STRING, "raw", "raw: Splunk's stash text (only raw)"),
        ArgumentSpec.optional("file", ArgumentType.STRING, null, "Splunk's spool file (ignored)"),
        ArgumentSpec.optional("spool", ArgumentType.BOOLEAN, "true", "Splunk's spool (ignored)"),
        ArgumentSpec.optional(
            "run_in_preview", ArgumentType.BOOLEAN, "false", "Splunk's preview runs (ignored)"),
        ArgumentSpec.optional(
            "uselb", ArgumentType.BOOLEAN, "false", "Splunk's forwarding (ignored)"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String index = arguments.getString("index");
    if (!index.matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")) {
      throw new IllegalArgumentException(
          "collect: index= names an index (letters, digits, _.-), not '" + index + "'");
    }
    String format = arguments.getString("output_format").toLowerCase(Locale.ROOT);
    if (!format.equals("raw")) {
      throw new IllegalArgumentException(
          "collect: output_format=" + format + " is not supported; raw (the stash text) is");
    }
    String marker = arguments.has("marker") ? arguments.getString("marker") : null;
    return new Bound(
        new Settings(
            index,
            arguments.getBoolean("addtime"),
            arguments.getBoolean("addinfo"),
            marker,
            arguments.has("host") ? arguments.getString("host") : null,
            arguments.getString("source"),
            arguments.getString("sourcetype"),
            arguments.getBoolean("testmode")),
        null);
  }

  /** One use's settings. */
  record Settings(
      String index,
      boolean addTime,
      boolean addInfo,
      String marker,
      String host,
      String source,
      String sourcetype,
      boolean testMode) {}

  /** One use, and the writer the server bound it to (null until then). */
  record Bound(Settings settings, WritesEvents.Writer writer)
      implements BoundCommand, WritesEvents {
    @Override
    public String index() {
      return settings.index();
    }

    @Override
    public String sourcetype() {
      return settings.sourcetype();
    }

    @Override
    public BoundCommand withWriter(WritesEvents.Writer writer) {
      return new Bound(settings, requireNonNull(writer, "writer is null"));
    }

    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS;
    }

    @Override
    public Set<String> producedFields() {
      return Set.of();
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      if (writer == null && !settings.testMode()) {
        throw new IllegalStateException(
            "collect writes through the server's ingest; it cannot run here");
      }
      return new CollectOperator(settings, writer, context);
    }
  }

  /** Turns each page's results into events and writes them before handing the page on. */
  private static final class CollectOperator extends PageTransformOperator {
    private final Settings settings;
    private final WritesEvents.Writer writer;
    private final OperatorContext context;
    private final long nowMicros;
    private final long earliestMicros;
    private final java.util.Map<String, String> info;

    CollectOperator(Settings settings, WritesEvents.Writer writer, OperatorContext context) {
      this.settings = settings;
      this.writer = writer;
      this.context = context;
      this.nowMicros =
          context.now().getEpochSecond() * 1_000_000L + context.now().getNano() / 1_000;
      java.util.Map<String, String> pairs = new java.util.LinkedHashMap<>();
      if (settings.addInfo()) {
        List<Object> values = AddInfoCommand.values(context);
        for (int i = 0; i < 3; i++) { // info_sid is not written, as in Splunk
          String name = AddInfoCommand.FIELDS.get(i);
          pairs.put(name, StashText.pair(name, Cells.text(values.get(i))));
        }
      }
      this.info = pairs;
      SearchInfo search =
          context instanceof SearchResources.Context running
              ? running.searchInfo()
              : SearchInfo.NONE;
      this.earliestMicros =
          settings.addInfo() && search.earliestMicros() != Long.MIN_VALUE
              ? search.earliestMicros()
              : nowMicros;
    }

    /** The info_* pairs to write with {@code page}'s results: those it does not hold itself. */
    private List<String> info(Page page) {
      List<String> pairs = new ArrayList<>(info.size());
      info.forEach(
          (name, pair) -> {
            if (page.block(name) == null) {
              pairs.add(pair);
            }
          });
      return pairs;
    }

    @Override
    protected Page process(Page page) {
      if (settings.testMode()) {
        return page;
      }
      context.checkCancelled();
      Block raw = page.block("_raw");
      Block origins = page.block("sourcetype");
      List<WritesEvents.Written> events = new ArrayList<>(page.positionCount());
      List<String> info = info(page);
      for (int p = 0; p < page.positionCount(); p++) {
        long time;
        String text;
        boolean summary = raw == null || raw.isNull(p);
        if (!summary) {
          time = micros(page.block("_time"), p, nowMicros);
          text = Cells.text(Values.valuesOf(raw, p).get(0));
          if (settings.marker() != null && !settings.marker().isEmpty()) {
            text = text + ", " + settings.marker();
          }
        } else {
          time =
              settings.addTime()
                  ? micros(
                      page.block("info_min_time"),
                      p,
                      micros(page.block("_time"), p, earliestMicros))
                  : nowMicros;
          text =
              StashText.of(
                  page,
                  p,
                  settings.addTime() ? StashText.time(time, context.zone()) : null,
                  info,
                  settings.marker());
        }
        events.add(
            new WritesEvents.Written(
                time,
                text,
                settings.host(),
                settings.source(),
                settings.sourcetype(),
                summary,
                summary || origins == null || origins.isNull(p)
                    ? null
                    : Cells.text(Values.valuesOf(origins, p).get(0))));
      }
      if (!events.isEmpty()) {
        writer.write(events, context::checkCancelled);
      }
      return page;
    }

    /** A time field's value at {@code position} in epoch microseconds, else {@code otherwise}. */
    private static long micros(Block block, int position, long otherwise) {
      if (block == null || block.isNull(position)) {
        return otherwise;
      }
      if (block.dataType() == DataType.TIMESTAMP) {
        return (Long) Values.valuesOf(block, position).get(0);
      }
      double seconds = Values.toNumber(Values.valuesOf(block, position).get(0));
      return Double.isNaN(seconds) || Double.isInfinite(seconds)
          ? otherwise
          : Math.round(seconds * 1e6);
    }
  }
}
