package io.quarry.ql.parser;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.HelpCommand;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.SortKey;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.ast.TransactionCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@link SplText} for the commands with options or clauses of their own ({@code stats} and its kin,
 * {@code sort}, {@code top}, {@code table}/{@code fields}, {@code dedup}, {@code rex}, {@code bin},
 * {@code lookup}, {@code help}, plugin commands, {@code transaction}): each option written only
 * when it is not at its default, names and values by {@link SplText}'s rules.
 */
final class CommandText {
  private CommandText() {}

  static String stats(StatsCommand stats) {
    return aggregations(stats.aggregations())
        + (stats.groupBy().isEmpty() ? "" : " by " + String.join(", ", stats.groupBy()));
  }

  static String tstats(io.quarry.ql.ast.TstatsCommand tstats) {
    StatsCommand stats = tstats.stats();
    return "tstats "
        + aggregations(stats.aggregations())
        + tstats.where().map(w -> " where " + SplText.search(w)).orElse("")
        + (stats.groupBy().isEmpty() ? "" : " by " + String.join(", ", stats.groupBy()))
        + tstats.span().map(s -> " span=" + SplText.span(s)).orElse("");
  }

  static String streamStats(StreamStatsCommand streamStats) {
    StringBuilder text = new StringBuilder("streamstats");
    if (!streamStats.current()) {
      text.append(" current=false");
    }
    if (streamStats.window() != 0) {
      text.append(" window=").append(streamStats.window());
    }
    if (!streamStats.global()) {
      text.append(" global=false");
    }
    if (streamStats.timeWindowMicros() > 0) {
      text.append(" time_window=").append(SplText.seconds(streamStats.timeWindowMicros()));
    }
    if (streamStats.resetOnChange()) {
      text.append(" reset_on_change=true");
    }
    streamStats
        .resetBefore()
        .ifPresent(
            c -> text.append(" reset_before=").append(SplText.quote("(" + EvalText.eval(c) + ")")));
    streamStats
        .resetAfter()
        .ifPresent(
            c -> text.append(" reset_after=").append(SplText.quote("(" + EvalText.eval(c) + ")")));
    return text.append(' ').append(stats(streamStats.stats())).toString();
  }

  static String aggregations(List<Aggregation> aggregations) {
    return aggregations.stream().map(CommandText::aggregation).collect(Collectors.joining(", "));
  }

  private static String aggregation(Aggregation aggregation) {
    String function =
        aggregation.function() == AggregateFunction.PERCENTILE
            ? "perc" + SplText.number(aggregation.percentile())
            : aggregation.function().functionName();
    String written = aggregation.field().map(f -> function + "(" + f + ")").orElse(function);
    return written.equals(aggregation.outputName())
        ? written
        : written + " as " + SplText.value(aggregation.outputName());
  }

  static String sort(SortCommand sort) {
    boolean countFirst =
        SplText.isCount(sort.keys().get(0).field()) && !sort.keys().get(0).descending();
    String limit =
        sort.limit() == SortCommand.DEFAULT_LIMIT && !countFirst
            ? ""
            : (sort.limit() == Long.MAX_VALUE ? 0 : sort.limit()) + " ";
    return "sort " + limit + sortKeys(sort.keys());
  }

  private static String sortKeys(List<SortKey> keys) {
    List<String> written = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      SortKey key = keys.get(i);
      String field = key.field();
      // a last key "d" or "desc" would reverse the others
      boolean reverses =
          i == keys.size() - 1 && (field.equalsIgnoreCase("d") || field.equalsIgnoreCase("desc"));
      String mode =
          switch (key.mode()) {
            case NUM -> "num";
            case STR -> "str";
            case AUTO -> reverses || field.startsWith("-") || field.startsWith("+") ? "auto" : null;
          };
      written.add(
          (key.descending() ? "-" : "") + (mode == null ? field : mode + "(" + field + ")"));
    }
    return String.join(", ", written);
  }

  static String top(TopCommand top) {
    StringBuilder text = new StringBuilder(top.name());
    if (top.limit() != TopCommand.DEFAULT_LIMIT || SplText.isCount(top.fields().get(0))) {
      text.append(" limit=").append(top.limit() == Long.MAX_VALUE ? 0 : top.limit());
    }
    if (!top.countField().equals("count")) {
      text.append(" countfield=").append(SplText.value(top.countField()));
    }
    if (!top.percentField().equals("percent")) {
      text.append(" percentfield=").append(SplText.value(top.percentField()));
    }
    if (!top.showCount()) {
      text.append(" showcount=false");
    }
    if (!top.showPercent()) {
      text.append(" showperc=false");
    }
    text.append(' ').append(SplText.words(top.fields(), Set.of("by")));
    if (!top.by().isEmpty()) {
      text.append(" by ").append(SplText.words(top.by(), Set.of()));
    }
    return text.toString();
  }

  static String project(ProjectCommand project) {
    String prefix =
        switch (project.kind()) {
          case TABLE -> "table ";
          case KEEP ->
              project.patterns().get(0).equals("-") || project.patterns().get(0).equals("+")
                  ? "fields + "
                  : "fields ";
          case REMOVE -> "fields - ";
        };
    return prefix + SplText.words(project.patterns(), Set.of());
  }

  static String dedup(DedupCommand dedup) {
    StringBuilder text = new StringBuilder("dedup ");
    if (dedup.count() != 1 || SplText.isCount(dedup.fields().get(0))) {
      text.append(dedup.count()).append(' ');
    }
    text.append(SplText.words(dedup.fields(), Set.of("sortby")));
    if (dedup.keepEmpty()) {
      text.append(" keepempty=true");
    }
    if (dedup.consecutive()) {
      text.append(" consecutive=true");
    }
    if (!dedup.sortBy().isEmpty()) {
      text.append(" sortby ").append(sortKeys(dedup.sortBy()));
    }
    return text.toString();
  }

  static String rex(RexCommand rex) {
    StringBuilder text = new StringBuilder("rex");
    if (!rex.field().equals("_raw")) {
      text.append(" field=").append(SplText.value(rex.field()));
    }
    if (rex.maxMatch() != 1) {
      text.append(" max_match=").append(rex.maxMatch() == Long.MAX_VALUE ? 0 : rex.maxMatch());
    }
    if (rex.sed() != null) {
      return text.append(" mode=sed ").append(SplText.quote(sed(rex.sed()))).toString();
    }
    String regex = rex.regex();
    for (RexCommand.Group group : rex.groups()) {
      regex = regex.replace("(?<" + group.javaName() + ">", "(?<" + group.field() + ">");
    }
    return text.append(' ').append(SplText.quote(regex)).toString();
  }

  /** {@code s/from/to/flags} or {@code y/from/to/}, with a delimiter neither part holds. */
  private static String sed(RexCommand.Sed sed) {
    char delimiter = '/';
    for (char candidate : "/#,;:!@%~^".toCharArray()) {
      if (sed.from().indexOf(candidate) < 0 && sed.to().indexOf(candidate) < 0) {
        delimiter = candidate;
        break;
      }
    }
    String escaped = "\\" + delimiter;
    String d = String.valueOf(delimiter);
    String flags =
        sed.transliterate() || sed.occurrence() == 1
            ? ""
            : sed.occurrence() == 0 ? "g" : String.valueOf(sed.occurrence());
    return (sed.transliterate() ? "y" : "s")
        + d
        + sed.from().replace(d, escaped)
        + d
        + sed.to().replace(d, escaped)
        + d
        + flags;
  }

  static String bin(BinCommand bin) {
    StringBuilder text = new StringBuilder("bin");
    bin.span().ifPresent(span -> text.append(" span=").append(SplText.span(span)));
    if (bin.bins() != BinCommand.DEFAULT_BINS) {
      text.append(" bins=").append(bin.bins());
    }
    bin.minspan().ifPresent(span -> text.append(" minspan=").append(SplText.span(span)));
    bin.start().ifPresent(start -> text.append(" start=").append(SplText.number(start)));
    bin.end().ifPresent(end -> text.append(" end=").append(SplText.number(end)));
    text.append(' ').append(SplText.word(bin.field(), Set.of("as")));
    if (!bin.as().equals(bin.field())) {
      text.append(" as ").append(SplText.value(bin.as()));
    }
    return text.toString();
  }

  static String lookup(LookupCommand lookup) {
    Function<LookupCommand.FieldMapping, String> mapping =
        m ->
            SplText.word(m.column(), Set.of("as", "output", "outputnew"))
                + (m.column().equals(m.field())
                    ? ""
                    : " as " + SplText.word(m.field(), Set.of("output", "outputnew")));
    StringBuilder text =
        new StringBuilder("lookup ")
            .append(SplText.value(lookup.table()))
            .append(' ')
            .append(lookup.keys().stream().map(mapping).collect(Collectors.joining(", ")));
    if (!lookup.outputs().isEmpty()) {
      text.append(lookup.outputNew() ? " OUTPUTNEW " : " OUTPUT ")
          .append(lookup.outputs().stream().map(mapping).collect(Collectors.joining(", ")));
    }
    return text.toString();
  }

  /** {@code help} or {@code help <command>}; the rows are what the parser resolved. */
  static String help(HelpCommand help) {
    Set<Object> commands =
        help.rows().stream().map(r -> r.get("command")).collect(Collectors.toSet());
    return commands.size() == 1 ? "help " + commands.iterator().next() : "help";
  }

  /** A plugin command with every option it was bound with (defaults included), by name. */
  static String plugin(PluginCommand plugin) {
    if (plugin.bound() instanceof io.quarry.ql.ast.WritesOwnSpl own) {
      String arguments = own.splArguments();
      return arguments.isEmpty() ? plugin.name() : plugin.name() + " " + arguments;
    }
    StringBuilder text = new StringBuilder(plugin.name());
    for (Map.Entry<String, Object> option : new TreeMap<>(plugin.arguments().values()).entrySet()) {
      text.append(' ').append(option.getKey()).append('=');
      text.append(
          option.getValue() instanceof String string
              ? SplText.value(string)
              : option.getValue() instanceof Double number
                  ? SplText.number(number)
                  : option.getValue());
    }
    if (!plugin.arguments().fields().isEmpty()) {
      text.append(' ').append(SplText.words(plugin.arguments().fields(), Set.of()));
    }
    return text.toString();
  }

  static String transaction(TransactionCommand transaction) {
    StringBuilder text =
        new StringBuilder("transaction")
            .append(transaction.fields().isEmpty() ? "" : " ")
            .append(SplText.words(transaction.fields(), Set.of()));
    if (transaction.maxSpanMicros() >= 0) {
      text.append(" maxspan=").append(SplText.seconds(transaction.maxSpanMicros()));
    }
    if (transaction.maxPauseMicros() >= 0) {
      text.append(" maxpause=").append(SplText.seconds(transaction.maxPauseMicros()));
    }
    if (transaction.maxEvents() != 1000) {
      text.append(" maxevents=").append(transaction.maxEvents());
    }
    transaction.startsWith().ifPresent(f -> text.append(" startswith=").append(f.spl()));
    transaction.endsWith().ifPresent(f -> text.append(" endswith=").append(f.spl()));
    if (transaction.keepEvicted()) {
      text.append(" keepevicted=true");
    }
    if (transaction.mvList().equals(List.of("*"))) {
      text.append(" mvlist=true");
    } else if (!transaction.mvList().isEmpty()) {
      text.append(" mvlist=").append(SplText.quote(String.join(",", transaction.mvList())));
    }
    if (!transaction.connected()) {
      text.append(" connected=false");
    }
    if (transaction.unifyEnds()) {
      text.append(" unifyends=true");
    }
    if (transaction.keepOrphans()) {
      text.append(" keeporphans=true");
    }
    return text.toString();
  }
}
