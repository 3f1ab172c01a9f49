package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.WhereCommand;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.eval.ExpressionCompiler;
import io.quarry.ql.eval.ExpressionEvaluator;
import io.quarry.ql.eval.Frame;
import io.quarry.ql.eval.Selection;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Row-local commands on pages: {@code eval} (new columns), {@code where} (kept positions), {@code
 * bin}, {@code rex} ({@link RexOperator}), {@code lookup} ({@link LookupOperator}), {@code
 * fields}/{@code table}, {@code rename} and {@code search} ({@link FieldStages}) and streaming
 * plugin commands (the built-in {@code fillnull}, {@code convert}, {@code makemv}, {@code mvexpand}
 * … among them, each its own operator in the chain: {@link PluginOperator}), one pull operator per
 * command, run by a {@link Driver} in order to {@code end}. The map side of a batch search on the
 * page engine, for one segment slice at a time. {@code eval} and {@code where} are compiled once
 * into evaluators over whole pages ({@code io.quarry.ql.eval}), whose answers are exactly those of
 * {@link Evaluator}, which evaluates an expression over one row.
 */
public final class PageChain {
  private final Driver driver;

  /**
   * Whether every command has a page stage here: {@code eval}, {@code where} (a {@code
   * searchmatch()} searching the page's {@code _raw}), {@code bin} with a span, {@code rex}, {@code
   * lookup}, the forms of {@code fields}, {@code rename} and {@code search} that {@link
   * FieldStages} holds, and streaming plugin commands that name the fields they read or work on
   * each field in place ({@link io.quarry.ql.command.FieldWise}: {@code convert auto(*)}).
   */
  public static boolean supports(List<Command> commands) {
    return commands.stream()
        .allMatch(
            c ->
                c instanceof EvalCommand
                    || c instanceof WhereCommand
                    || c instanceof BinCommand bin && bin.rowLocal()
                    || c instanceof RexCommand
                    || c instanceof LookupCommand
                    || FieldStages.supports(c)
                    || c instanceof PluginCommand plugin
                        && plugin.kind() == CommandKind.STREAMING
                        && (!plugin.bound().requiredFields().contains("*")
                            || InputFields.fieldWise(plugin)));
  }

  /**
   * As {@link #supports}, for commands whose input is events: a {@code search} of bare words too,
   * where every command before it keeps the events' raw text ({@link EventText}).
   */
  public static boolean supportsOverEvents(List<Command> commands) {
    boolean eventText = true;
    for (Command command : commands) {
      if (!(supports(List.of(command)) || eventText && EventTextCommands.searchesText(command))) {
        return false;
      }
      eventText =
          EventTextCommands.removesRaw(command)
              || eventText && EventTextCommands.keepsEventText(command);
    }
    return true;
  }

  /**
   * As {@link #supportsOverEvents}, for pages of events that carry each event's own raw text
   * ({@link EventText#withOwnText}): a {@code search} of bare words also after commands that change
   * {@code _raw} but keep the rows events ({@link EventTextCommands#keepsEventRow}: {@code eval
   * _raw=…}, a {@code lookup} without {@code OUTPUT}), its terms matched in that column, the
   * event's own text.
   */
  public static boolean supportsOverEventsWithOwnText(List<Command> commands) {
    boolean eventText = true;
    boolean eventRow = true;
    for (Command command : commands) {
      if (!(supports(List.of(command))
          || (eventText || eventRow) && EventTextCommands.searchesText(command))) {
        return false;
      }
      eventText =
          EventTextCommands.removesRaw(command)
              || eventText && EventTextCommands.keepsEventText(command);
      eventRow = eventRow && EventTextCommands.keepsEventRow(command);
    }
    return true;
  }

  /**
   * The operators of {@code commands} (see {@link #supports}), feeding {@code end}, pulling their
   * pages from {@code source} (an operator that needs no input: a scan of one segment slice, a
   * {@link PagesSource}), the first of the chain and no stage of its own; {@link #run} runs it. The
   * operators are stages {@code firstStage}, … of the search's {@code stats}, which count the rows
   * each takes.
   */
  public static PageChain pulling(
      Operator source,
      List<Command> commands,
      Evaluator evaluator,
      Consumer<Page> end,
      StageStats stats,
      int firstStage) {
    return pulling(source, List.of(), commands, null, evaluator, end, stats, firstStage);
  }

  /**
   * As {@link #pulling}, with {@code first} between the source and the commands' operators (steps
   * of no stage of their own: the every-field listing of a slice's events, say), and {@code last}
   * (unless null) after the commands' operators (a transforming plugin command's map side, {@link
   * TransformingPlugin#mapSide}), counted as the stage after theirs; all closed with the chain,
   * also when making the chain fails.
   */
  public static PageChain pulling(
      Operator source,
      List<? extends Operator> first,
      List<Command> commands,
      Operator last,
      Evaluator evaluator,
      Consumer<Page> end,
      StageStats stats,
      int firstStage) {
    return new PageChain(
        requireNonNull(source, "source is null"),
        first,
        commands,
        last,
        evaluator,
        end,
        stats,
        firstStage);
  }

  private PageChain(
      Operator source,
      List<? extends Operator> first,
      List<Command> commands,
      Operator last,
      Evaluator evaluator,
      Consumer<Page> end,
      StageStats stats,
      int firstStage) {
    List<Driver.Step> steps = new ArrayList<>(first.size() + commands.size() + 2);
    steps.add(Driver.Step.uncounted(source));
    for (Operator step : first) {
      steps.add(Driver.Step.uncounted(step));
    }
    try {
      for (int i = 0; i < commands.size(); i++) {
        steps.add(Driver.Step.counted(operator(commands.get(i), evaluator), firstStage + i));
      }
    } catch (RuntimeException e) {
      if (last != null) {
        steps.add(Driver.Step.uncounted(last)); // closed with the built ones
      }
      throw Driver.closeBuilt(steps, e);
    }
    if (last != null) {
      steps.add(Driver.Step.counted(last, firstStage + commands.size()));
    }
    this.driver =
        new Driver(
            steps,
            requireNonNull(end, "end is null"),
            requireNonNull(stats, "stats is null"),
            evaluator.pluginContext());
  }

  /**
   * The operator of one command {@link #supports} takes: a step of a chain ({@link
   * ReduceChain#then}).
   */
  public static Operator operator(Command command, Evaluator evaluator) {
    return operator(command, evaluator, null);
  }

  /**
   * As above; when {@code marks} is not null, a {@code lookup}'s, {@code rex}'s, literal {@code
   * rename}'s or {@code bin}'s operator marks the positions where it set a field {@code f} true in
   * the boolean column {@code marks.apply(f)} ({@link ListingMarks#setColumn}), and a {@code
   * fields}/{@code table}'s keeps the hidden columns, those marks among them.
   */
  static Operator operator(
      Command command, Evaluator evaluator, java.util.function.UnaryOperator<String> marks) {
    return switch (command) {
      case EvalCommand eval -> new EvalOperator(eval, evaluator);
      case WhereCommand where -> {
        ExpressionEvaluator condition =
            new ExpressionCompiler(evaluator).compile(where.condition());
        yield new FilterOperator(
            (page, kept) -> Selection.trues(condition.eval(new Frame(page)), kept));
      }
      case BinCommand bin when marks != null -> // sets its as-field where the field has a value
          ListingMarks.whereInputValued(
              new BinOperator(bin, bin.span().orElseThrow(), evaluator.zone()),
              bin.field(),
              marks.apply(bin.as()));
      case BinCommand bin -> new BinOperator(bin, bin.span().orElseThrow(), evaluator.zone());
      case RexCommand rex -> new RexOperator(rex, evaluator.stopped(), marks);
      case LookupCommand lookup -> new LookupOperator(lookup, evaluator, marks);
      case io.quarry.ql.ast.RenameCommand rename when marks != null ->
          FieldStages.renameOperator(rename, marks);
      case io.quarry.ql.ast.ProjectCommand project when marks != null ->
          FieldStages.projectKeepingHidden(project);
      case PluginCommand plugin ->
          new PluginOperator(plugin, plugin.bound(), evaluator.pluginContext());
      default -> FieldStages.operator(command, evaluator.rawTermMatcher());
    };
  }

  /**
   * Pulls the source's pages through every operator until the source and then each operator in turn
   * is finished (a chain made by {@link #pulling}).
   */
  public void run() {
    driver.run();
  }

  /** Releases what the operators hold. */
  public void close() {
    driver.close();
  }

  /** {@code eval}: the assigned fields as new (or replacing) columns, compiled once. */
  private static final class EvalOperator extends PageTransformOperator {
    private final PageEval.Compiled eval;

    EvalOperator(EvalCommand command, Evaluator evaluator) {
      this.eval = new PageEval(evaluator).compile(command.assignments());
    }

    @Override
    protected Page process(Page page) {
      return eval.apply(page);
    }
  }

  /**
   * {@code bin} with a span (given, or chosen by {@link BinRangeOperator}): each position's first
   * value of the field binned (as {@link Bins#binned} bins it) into the {@code as} column.
   */
  static final class BinOperator extends PageTransformOperator {
    private final BinCommand command;
    private final Span span;
    private final java.time.ZoneId zone;

    BinOperator(BinCommand command, Span span, java.time.ZoneId zone) {
      this.command = command;
      this.span = requireNonNull(span, "span is null");
      this.zone = zone;
    }

    @Override
    protected Page process(Page page) {
      Block times = timesToFloor(page);
      if (times != null) {
        return page.withColumn(command.as(), floored((LongBlock) times));
      }
      int positions = page.positionCount();
      List<List<Object>> cells = new ArrayList<>(positions);
      for (int p = 0; p < positions; p++) {
        List<Object> values = EvalValues.cell(page, command.field(), p);
        if (values.isEmpty()) {
          cells.add(
              EvalValues.cell(page, command.as(), p)); // unbinned: the as-field keeps its value
          continue;
        }
        Object binned = Bins.binned(command, span, values.get(0), zone);
        cells.add(
            binned instanceof List<?> list
                ? List.copyOf(list)
                : binned == null ? List.of() : List.of(binned)); // null: an infinity, no bin
      }
      Page binned = PageBuilder.toPage(List.of(command.as()), List.of(cells), positions);
      return page.withColumn(command.as(), binned.block(0));
    }

    /**
     * {@code bin _time span=<time>} into a time field, over a timestamp column without multivalues:
     * the column itself (floored block-wise, no value boxed), else null.
     */
    private Block timesToFloor(Page page) {
      if (!TimeField.is(command.field()) || !TimeField.is(command.as()) || !span.isTime()) {
        return null;
      }
      int column = page.schema().indexOf(command.field());
      if (column < 0) {
        return null;
      }
      Block block = page.block(column);
      return block instanceof LongBlock longs
              && longs.dataType() == DataType.TIMESTAMP
              && !longs.mayHaveMultivaluedFields()
          ? block
          : null;
    }

    private LongBlock floored(LongBlock times) {
      int positions = times.positionCount();
      LongBlock.Builder builder = LongBlock.builder(DataType.TIMESTAMP, positions);
      long start = 0; // the last bucket found, [start, end): neighbouring events mostly share it
      long end = Long.MIN_VALUE;
      for (int p = 0; p < positions; p++) {
        if (times.isNull(p)) {
          builder.appendNull();
          continue;
        }
        long micros = times.getLongValue(p);
        if (micros < start || micros >= end) {
          start = span.floor(micros, zone);
          end = span.next(start, zone);
        }
        builder.append(start);
      }
      return builder.build();
    }
  }

  /**
   * {@code where}, and {@code search} after the first command ({@link FieldStages}): the positions
   * a compiled condition keeps, the page filtered once.
   */
  static final class FilterOperator extends PageTransformOperator {
    /** The positions of a page a filter keeps, written in order; returns how many. */
    interface Selector {
      int select(Page page, int[] positions);
    }

    private final Selector selector;
    private int[] kept = new int[0];

    FilterOperator(Selector selector) {
      this.selector = selector;
    }

    @Override
    protected Page process(Page page) {
      int positions = page.positionCount();
      if (kept.length < positions) {
        kept = new int[positions];
      }
      int count = selector.select(page, kept);
      return count > 0 ? BlockCopies.filter(page, kept, count) : null;
    }
  }
}
