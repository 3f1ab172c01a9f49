package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code | gentimes start=<time> [end=<time>] [increment=<n>(s|m|h|d)]}: one result per {@code
 * increment} from {@code start} up to (not including) {@code end}, each with {@code starttime} and
 * {@code endtime} (epoch seconds; the end one second before the next start) and {@code
 * starthuman}/{@code endhuman} ({@code Sun Apr 4 00:00:00 2021}). A time is {@code
 * MM/DD/YYYY[:HH:MM:SS]} in the search's zone, or a whole number of days from today's midnight
 * ({@code -5}); {@code end} defaults to today's midnight; {@code increment} to {@code 1d}.
 */
final class GentimesCommand implements CommandDefinition {
  static final int MAX_ROWS = 1_000_000;
  private static final Pattern DATE =
      Pattern.compile(
          "(\\d{1,2})/(\\d{1,2})/(\\d{2}|\\d{4})(?::(\\d{1,2}):(\\d{1,2}):(\\d{1,2}))?");
  private static final Pattern DAYS = Pattern.compile("[+-]?\\d{1,6}");
  private static final Pattern INCREMENT = Pattern.compile("(\\d{1,9})([smhd])");
  private static final DateTimeFormatter HUMAN =
      DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ROOT);

  @Override
  public String name() {
    return "gentimes";
  }

  @Override
  public String description() {
    return "Generates adjacent time ranges from a start time up to an end time.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.GENERATING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required(
            "start", ArgumentType.STRING, "MM/DD/YYYY[:HH:MM:SS], or days from today (-5)"),
        ArgumentSpec.optional(
            "end", ArgumentType.STRING, null, "as start, not included (default: today's midnight)"),
        ArgumentSpec.optional("increment", ArgumentType.STRING, "1d", "<n>s, <n>m, <n>h or <n>d"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String start = arguments.getString("start");
    String end = arguments.has("end") ? arguments.getString("end") : null;
    String increment = arguments.getString("increment");
    check(start, "start");
    if (end != null) {
      check(end, "end");
    }
    Matcher m = INCREMENT.matcher(increment);
    if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
      throw new IllegalArgumentException(
          "gentimes increment must be a positive number with s, m, h or d, not '"
              + increment
              + "'");
    }
    long seconds =
        Long.parseLong(m.group(1))
            * switch (m.group(2)) {
              case "s" -> 1L;
              case "m" -> 60L;
              case "h" -> 3_600L;
              default -> 86_400L;
            };
    // too many ranges is a parse error, counted from today in UTC (a day off at most from the
    // search's own zone and time, which the run checks again)
    LocalDate today = LocalDate.now(java.time.ZoneOffset.UTC);
    long from = epochSeconds(start, java.time.ZoneOffset.UTC, today);
    long to =
        end == null
            ? today.atStartOfDay(java.time.ZoneOffset.UTC).toEpochSecond()
            : epochSeconds(end, java.time.ZoneOffset.UTC, today);
    if (to > from && (to - from) / seconds > MAX_ROWS) {
      throw new IllegalArgumentException(
          "gentimes would make more than " + MAX_ROWS + " results; use a larger increment");
    }
    return new Bound(start, end, increment, seconds);
  }

  private static void check(String time, String what) {
    if (!DATE.matcher(time).matches() && !DAYS.matcher(time).matches()) {
      throw new IllegalArgumentException(
          "gentimes "
              + what
              + " must be MM/DD/YYYY[:HH:MM:SS] or a number of days, not '"
              + time
              + "'");
    }
    try {
      epochSeconds(time, java.time.ZoneOffset.UTC, LocalDate.EPOCH);
    } catch (java.time.DateTimeException e) {
      throw new IllegalArgumentException(
          "gentimes " + what + " '" + time + "' is not a date: " + e.getMessage());
    }
  }

  /** A time argument as epoch seconds in {@code zone}, days counted from {@code today}. */
  static long epochSeconds(String time, ZoneId zone, LocalDate today) {
    Matcher date = DATE.matcher(time);
    if (date.matches()) {
      int year = Integer.parseInt(date.group(3));
      LocalDateTime local =
          LocalDateTime.of(
              date.group(3).length() == 2 ? 2000 + year : year,
              Integer.parseInt(date.group(1)),
              Integer.parseInt(date.group(2)),
              date.group(4) == null ? 0 : Integer.parseInt(date.group(4)),
              date.group(5) == null ? 0 : Integer.parseInt(date.group(5)),
              date.group(6) == null ? 0 : Integer.parseInt(date.group(6)));
      return local.atZone(zone).toEpochSecond();
    }
    return today.plusDays(Long.parseLong(time)).atStartOfDay(zone).toEpochSecond();
  }

  record Bound(String start, String end, String increment, long seconds) implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.of();
    }

    @Override
    public Set<String> producedFields() {
      return Set.of("starttime", "starthuman", "endtime", "endhuman");
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      ZoneId zone = context.zone();
      LocalDate today = LocalDate.ofInstant(context.now(), zone);
      long from;
      long to;
      try {
        from = epochSeconds(start, zone, today);
        to =
            end == null ? today.atStartOfDay(zone).toEpochSecond() : epochSeconds(end, zone, today);
      } catch (java.time.DateTimeException e) {
        throw new IllegalArgumentException("gentimes: not a date: " + e.getMessage(), e);
      }
      if (to > from && (to - from) / seconds > MAX_ROWS) {
        throw new IllegalArgumentException(
            "gentimes would make more than " + MAX_ROWS + " results; use a larger increment");
      }
      return new QueueOperator(factory, "gentimes") {
        @Override
        protected void process(Page page) {
          factory.release(page);
        }

        @Override
        protected void onFinish() {
          long next = from;
          while (next < to) {
            Cells.Column starts = new Cells.Column();
            Cells.Column startHuman = new Cells.Column();
            Cells.Column ends = new Cells.Column();
            Cells.Column endHuman = new Cells.Column();
            for (int i = 0; i < 1024 && next < to; i++, next += seconds) {
              starts.add(next);
              startHuman.add(human(next, zone));
              ends.add(next + seconds - 1);
              endHuman.add(human(next + seconds - 1, zone));
            }
            List<String> names = List.of("starttime", "starthuman", "endtime", "endhuman");
            List<Block> blocks =
                Cells.build(factory, names, List.of(starts, startHuman, ends, endHuman));
            emit(Cells.page(names, blocks, starts.positions()));
          }
        }
      };
    }

    private static String human(long epochSeconds, ZoneId zone) {
      return ZonedDateTime.ofInstant(Instant.ofEpochSecond(epochSeconds), zone).format(HUMAN);
    }
  }
}
