package io.quarry.ql.exec;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.exec.PendingBatches.Batch;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * A plugin command over events, as a pull {@link Operator} in its chain's {@link Driver}: each
 * input page is a batch of events (an every-field listing's page, {@value RowPaging#BATCH} rows),
 * of which the plugin's operator ({@link PluginOperator}, every call wrapped) gets the columns it
 * reads ({@code requiredFields}; all of them for {@code *}) and {@link PluginOperators#ROW_COLUMN};
 * an output position is the input event whose id it carries, with the fields the command writes
 * laid over it ({@link #overlaid}: those it names, {@code producedFields}, and the columns that are
 * not an input block passed through; bare {@code fillnull}/{@code filldown}, those it changed on
 * some row of its whole output, its output held until its input is over, {@link WrittenFields};
 * another command without a field list, a field of its input on the rows whose value it changed).
 * Each output page leaves as the events' own pages (every column of the batch, at the positions the
 * ids name), those columns set over them, and the hidden column {@link #OVERLAID} naming them at
 * every position — from which the event listing after it replays, row by row, the fields each event
 * lists with the operator's output laid over it (a value set is listed, a null one no longer is).
 * The columns named {@code hidden} pass along the events' pages but never reach the plugin. One
 * page of the plugin's may make several output pages (one per batch its positions come from): they
 * wait in a queue, and no input is taken while it holds one.
 *
 * <p>Exact for the commands whose output rows are their input rows ({@link
 * OverlayCommands#overlays}). An output page without the row column holds rows of the operator's
 * own making (a third-party command run centrally may emit them among its events: whether a row is
 * an event is known only while it runs): it leaves as it came, and the listing after it takes its
 * rows as new rows — the fields they hold a value in, no event's text ({@code PluginOverEvents}).
 */
public final class PluginOverlayOperator implements Operator, RunsPlugin {
  /** The hidden column naming, per position, the fields the operator laid over the event. */
  public static final String OVERLAID = "\u0000overlaid";

  private final PluginCommand command;
  private final PluginOperator operator; // its output released once laid over (emit)
  private final io.quarry.plugin.api.data.BlockFactory factory;
  private final Set<String> hidden;
  private final Set<String> produced; // the fields it writes: laid over whatever its blocks are
  private final WrittenFields written; // bare fillnull/filldown: what it wrote, its output held
  private final boolean perRow; // other commands without a field list: named where they changed
  private final boolean ordered;
  private final boolean pageAtATime;
  private final PendingBatches pending = new PendingBatches();
  private final ArrayDeque<Page> output = new ArrayDeque<>(); // laid over, not pulled yet
  private long nextId;
  private long batchBytes; // the batches kept while its output is held, counted (written)

  /**
   * @param hidden columns of the input pages the operator does not see (an every-field listing's
   *     per-event field names)
   */
  public PluginOverlayOperator(PluginCommand command, Evaluator evaluator, Set<String> hidden) {
    this.command = command;
    // its input reserved by its PluginOperator, its output released once laid over (emit)
    this.operator = new PluginOperator(command, command.bound(), evaluator.pluginContext(), false);
    this.factory = operator.factory();
    this.hidden = Set.copyOf(hidden);
    this.produced = Set.copyOf(command.bound().producedFields());
    this.written = OverlayCommands.holdsOutput(command) ? new WrittenFields() : null;
    this.perRow = written == null && OverlayCommands.writesEveryField(command);
    this.ordered = command.kind() == CommandKind.STREAMING;
    this.pageAtATime = command.bound() instanceof PageAtATime;
  }

  @Override
  public PluginFailureException failure(Throwable cause) {
    return operator.failure(cause);
  }

  @Override
  public CompletionStage<Void> isBlocked() {
    return output.isEmpty() ? operator.isBlocked() : NOT_BLOCKED;
  }

  @Override
  public boolean needsInput() {
    return output.isEmpty() && operator.needsInput();
  }

  /** A batch of events into the plugin's operator (its page of them: {@link #input}). */
  @Override
  public void addInput(Page events) {
    if (events.positionCount() == 0) {
      return;
    }
    if (pageAtATime && written == null) {
      pending.clear(); // it answered every batch before this one before it took this one
    }
    if (written != null) {
      // every batch is kept until its input ends: counted, as the listing that made its rows
      // counted them, a flat MemoryTracker.ROW_BYTES a row (throws over the search's memory
      // limit). Not its blocks' ramBytesUsed: a batch's blocks may view a larger backing array or
      // a segment's whole dictionary that other pages share, which that sum counts again per
      // batch (many-fold over what is held); an exact charge is the block factory's count at
      // creation with shared holders (issue 21, "memory counted at creation"), not this operator's

      long bytes = MemoryTracker.ROW_BYTES * events.positionCount();
      factory.account().reserve(bytes, command.name() + " over events");
      batchBytes += bytes;
    }
    Page in = input(events);
    pending.add(new Batch(nextId, events, in));
    nextId += events.positionCount();
    operator.addInput(in); // the operator owns it now
  }

  /** The next page of events with the plugin's output laid over them. */
  @Override
  public Page getOutput() {
    while (output.isEmpty()) {
      Page page = operator.getOutput();
      if (page == null) {
        if (written == null || written.holdsNone() || !operator.isFinished()) {
          return null;
        }
        page = written.next(); // its input is over: what it wrote is known
        if (written.holdsNone()) {
          releaseBatches(); // laid over below: the last held page's batch is no longer needed
        }
      } else if (written != null) { // in order, rows of its own making too
        written.hold(page, page.schema().indexOf(PluginOperators.ROW_COLUMN), origins());
        continue;
      }
      emit(page);
    }
    return output.poll();
  }

  @Override
  public void finish() {
    operator.finish();
  }

  @Override
  public boolean isFinished() {
    return output.isEmpty() && (written == null || written.holdsNone()) && operator.isFinished();
  }

  /** Closes the plugin's operator and lets go of the batches held. */
  @Override
  public void close() {
    pending.clear();
    output.clear(); // events' pages (never reserved here) with columns laid over
    if (written != null) {
      written.drain().forEach(factory::release); // the operator's output, not laid over yet
      releaseBatches();
    }
    operator.close();
  }

  private void releaseBatches() {
    factory.account().release(batchBytes);
    batchBytes = 0;
  }

  /** The operator's page of a batch: the columns it reads, then the row ids. */
  private Page input(Page events) {
    Page fields = operatorInput(events, command.bound().requiredFields(), hidden);
    List<Schema.Column> columns = new ArrayList<>(fields.schema().columns());
    List<Block> blocks = new ArrayList<>(fields.blocks());
    LongBlock.Builder ids = LongBlock.builder(DataType.LONG, events.positionCount());
    for (int p = 0; p < events.positionCount(); p++) {
      ids.append(nextId + p);
    }
    columns.add(new Schema.Column(PluginOperators.ROW_COLUMN, DataType.LONG));
    blocks.add(ids.build());
    return new Page(new Schema(columns), blocks, events.positionCount());
  }

  /**
   * The columns of {@code page} a plugin operator reads ({@code required}, its bound command's
   * {@code requiredFields}): those fields in that order, a field the page has no column of a column
   * of nulls; for {@code *}, every column but the {@code hidden} ones and {@link
   * PluginOperators#ROW_COLUMN}. The blocks are the page's own (not copied).
   */
  static Page operatorInput(Page page, Set<String> required, Set<String> hidden) {
    List<Schema.Column> columns = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    if (required.contains("*")) {
      for (int c = 0; c < page.schema().size(); c++) {
        String name = page.schema().column(c).name();
        if (!hidden.contains(name) && !name.equals(PluginOperators.ROW_COLUMN)) {
          columns.add(page.schema().column(c));
          blocks.add(page.block(c));
        }
      }
    } else {
      for (String name : required) {
        if (name.equals(PluginOperators.ROW_COLUMN)) {
          continue;
        }
        int c = page.schema().indexOf(name);
        // a field no event of the batch has: a column of nulls
        Block block = c >= 0 ? page.block(c) : PageBuilder.column(name, noValues(page));
        columns.add(new Schema.Column(name, block.dataType()));
        blocks.add(block);
      }
    }
    return new Page(new Schema(columns), blocks, page.positionCount());
  }

  private static List<List<Object>> noValues(Page events) {
    List<List<Object>> cells = new ArrayList<>(events.positionCount());
    for (int p = 0; p < events.positionCount(); p++) {
      cells.add(List.of());
    }
    return cells;
  }

  /** One output page: per run of positions from one batch, those events with the overlay. */
  private void emit(Page page) {
    try {
      int rowColumn = page.schema().indexOf(PluginOperators.ROW_COLUMN);
      if (rowColumn < 0) {
        if (page.positionCount() > 0) {
          output.add(page); // rows of its own making, not events
        }
        return;
      }
      if (!(page.block(rowColumn) instanceof LongBlock ids)) {
        throw new PluginFailureException(
            command.name(),
            command.plugin(),
            new IllegalStateException(
                "over events on the page engine, "
                    + PluginOperators.ROW_COLUMN
                    + " must pass through unchanged"));
      }
      if (page.positionCount() == 0) {
        return;
      }
      Batch first = batchOf(ids.getLong(0));
      List<Integer> overlay = overlaid(page, first, rowColumn);
      int from = 0;
      while (from < page.positionCount()) {
        Batch batch = batchOf(ids.getLong(from));
        int to = from + 1;
        while (to < page.positionCount() && batch.holds(ids.getLong(to))) {
          to++;
        }
        output.add(laidOver(page, overlay, batch, ids, from, to));
        from = to;
      }
      if (ordered) {
        pending.dropBefore(ids.getLong(page.positionCount() - 1));
      }
    } finally {
      factory.release(page);
    }
  }

  /**
   * The output's columns laid over the events, each named on every row it is laid over: one rule
   * for every command, the fields it writes. A command with a field list writes those it names
   * ({@code producedFields}: {@code fillnull value=X f}, {@code replace … IN f}, {@code filldown
   * f}, {@code nomv f} rewrite {@code f} in place), laid over even where it handed its input block
   * back (no null to fill, no value to replace in this batch), plus any column that is not a block
   * of its input passed through (checked against the operator's input page of the first position's
   * batch). Bare {@code fillnull}/{@code filldown} ({@link OverlayCommands#holdsOutput}) write the
   * fields they changed on some row of their whole output ({@link WrittenFields}, their output held
   * until then). Either way a row lists a written field wherever it holds a value — its index-time
   * one, its own search-time one, or the one the command set — and never because of which rows
   * shared its batch (issue 21): naming only a batch's rebuilt columns listed a row's own
   * search-time value where another row of its batch made the operator build a new block. A
   * streaming command without a field list ({@link OverlayCommands#writesEveryField}, not held: a
   * {@code head} after it must stop it) has its rebuilt columns laid over here, and {@link
   * #laidOver} names a field of its input only on the rows whose value it changed.
   */
  private List<Integer> overlaid(Page page, Batch batch, int rowColumn) {
    List<Integer> overlay = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      int inColumn = batch.in().schema().indexOf(name);
      boolean laid =
          written != null
              ? written.wrote(name)
              : inColumn < 0
                  || batch.in().block(inColumn) != page.block(c)
                  || produced.contains(name);
      if (c != rowColumn && laid) {
        overlay.add(c);
      }
    }
    return overlay;
  }

  /** Positions [from, to) of the output: their events' columns with the overlay set over them. */
  private Page laidOver(
      Page page, List<Integer> overlay, Batch batch, LongBlock ids, int from, int to) {
    int count = to - from;
    int[] events = new int[count];
    int[] outputs = new int[count];
    for (int i = 0; i < count; i++) {
      events[i] = (int) (ids.getLong(from + i) - batch.base());
      outputs[i] = from + i;
    }
    Page laid =
        identity(events, batch.events().positionCount())
            ? batch.events()
            : BlockCopies.filter(batch.events(), events, count);
    Page rows =
        from == 0 && to == page.positionCount() ? page : BlockCopies.filter(page, outputs, count);
    Block before = laid.block(OVERLAID); // an earlier plugin command's, over the same events
    Set<String> names = new LinkedHashSet<>();
    List<String> changedNames = new ArrayList<>(); // perRow: named where the value changed
    List<Block> inputs = new ArrayList<>(); // and their input blocks
    List<Block> changed = new ArrayList<>(); // and their output blocks (positions from..to)
    for (int c : overlay) {
      String name = page.schema().column(c).name();
      laid = laid.withColumn(name, rows.block(c));
      int inColumn = batch.in().schema().indexOf(name);
      if (perRow && inColumn >= 0 && !produced.contains(name) && !changedNames.contains(name)) {
        changedNames.add(name);
        inputs.add(batch.in().block(inColumn));
        changed.add(rows.block(c));
      } else if (!changedNames.contains(name)) {
        names.add(name);
      }
    }
    BytesBlock.Builder overlaid = BytesBlock.builder(count);
    for (int i = 0; i < count; i++) {
      Set<Object> all =
          new LinkedHashSet<>(before == null ? List.of() : Values.valuesOf(before, i));
      all.addAll(names);
      for (int n = 0; n < changedNames.size(); n++) {
        if (!WrittenFields.sameValues(inputs.get(n), events[i], changed.get(n), i)) {
          all.add(changedNames.get(n));
        }
      }
      if (all.isEmpty()) {
        overlaid.appendNull();
      } else if (all.size() == 1) {
        overlaid.append((String) all.iterator().next());
      } else {
        overlaid.beginPositionEntry();
        all.forEach(name -> overlaid.append((String) name));
        overlaid.endPositionEntry();
      }
    }
    return laid.withColumn(OVERLAID, overlaid.build());
  }

  /** Where the held output's rows came from ({@link WrittenFields}). */
  private WrittenFields.Origins origins() {
    return new WrittenFields.Origins() {
      @Override
      public Page input(long id) {
        return batchOf(id).in();
      }

      @Override
      public int position(long id) {
        return (int) (id - batchOf(id).base());
      }
    };
  }

  private static boolean identity(int[] positions, int size) {
    if (positions.length != size) {
      return false;
    }
    for (int i = 0; i < positions.length; i++) {
      if (positions[i] != i) {
        return false;
      }
    }
    return true;
  }

  private Batch batchOf(long id) {
    return pending.find(
        id,
        () ->
            new PluginFailureException(
                command.name(),
                command.plugin(),
                new IllegalStateException(
                    "output row "
                        + id
                        + " is not a row it was given ("
                        + PluginOperators.ROW_COLUMN
                        + " changed?)")));
  }
}
