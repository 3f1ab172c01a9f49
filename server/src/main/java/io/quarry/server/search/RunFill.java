package io.quarry.server.search;

import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.codecs.store.TextRegion;
import io.quarry.ql.exec.RexExtraction;

/**
 * How one {@link EventColumn} fills a block run's positions ({@link EventPages#visit(EventRun)}):
 * which of the run's events its loop answers ({@link #answers}: a rex's span kept by page position,
 * a key=value field's block, sourcetype and text checked) and the loop itself ({@link #appendRun});
 * an event it does not answer goes to the column as an event ({@link #appendProbed}).
 */
final class RunFill {
  /**
   * How a column fills a run ({@link #runFill}): event by event; from what the block holds outside
   * its texts (its times, an index-time field's ordinals from doc values), the payload's texts not
   * decoded; from its texts.
   */
  static final int BY_EVENT = 0, NO_TEXT = 1, BY_TEXT = 2;

  private final EventColumn column;
  private final RexExtraction rex; // the one fused rex that may set the field, or null
  private final long[] spans; // by page position: the rex's span over a run's event
  private int fill; // how it fills the run being visited (runFill)
  private boolean byOrdinal; // the run's block has ordinals of the field (runFill)

  RunFill(EventColumn column, int pageSize) {
    this.column = column;
    this.rex = column.soleRex();
    this.spans = rex != null ? new long[pageSize] : null;
  }

  /**
   * Whether the column can fill a block run's positions in one loop ({@link #appendRun}): {@code
   * _time}, a field only one fused {@code rex} may set, a field that may be a keyword index-time
   * one (by the block's ordinals, where it has them), or a search-time field found by key=value
   * extraction (no access-log field). Anything else is appended event by event.
   */
  boolean fillsRuns() {
    return column.time() || rex != null || column.byOrdinal() || column.keyValueField();
  }

  /**
   * How the column fills {@code run} ({@link #fillsRuns}): {@link #NO_TEXT} for {@code _time} and
   * for a field the block holds as ordinals outside its payload (from doc values, no decode);
   * {@link #BY_TEXT} for a rex's field and a key=value field the block has no index-time value of
   * (a loop over the run's texts); else {@link #BY_EVENT} (an index-time field the payload holds,
   * an access-log field the block lacks).
   */
  int runFill(EventRun run) {
    byOrdinal = !column.time() && rex == null && column.byOrdinal() && run.hasOrdinals(column.name);
    fill =
        column.time() || byOrdinal
            ? NO_TEXT
            : rex != null || column.keyValueField() && !run.mayHaveField(column.name)
                ? BY_TEXT
                : BY_EVENT;
    return fill;
  }

  /**
   * Whether the run's loop ({@link #appendRun}) answers event {@code e} of {@code run} (an ASCII
   * run), to be put at {@code position} of the page: {@code _time} always; a rex column when the
   * rex matches (its span kept for the fill, or for the event's own value: not matched again); a
   * key=value column when the block holds no such index-time field, the sourcetype does not extract
   * it and the text is not JSON-like; an index-time field by the block's ordinals when the event
   * has one, or its codes say it has none and its sourcetype's own extraction cannot give one. An
   * event some column does not answer goes as an event ({@link #appendProbed}).
   */
  boolean answers(EventRun run, int e, int position) {
    if (fill == BY_EVENT) {
      return false;
    }
    if (column.time()) {
      return true;
    }
    if (byOrdinal) { // no value: its text cannot give one, unless its sourcetype's extraction can
      return run.ordinal(column.name, e) >= 0 || !column.sourcetypeExtracts(run.sourcetype(e));
    }
    if (rex != null) {
      long span = rex.span(run.bytes(), run.textOffset(e), run.textLength(e));
      spans[position] = span;
      return span >= 0;
    }
    return !column.sourcetypeExtracts(run.sourcetype(e))
        && !KeyValueCells.mayBeJson(run.bytes(), run.textOffset(e), run.textLength(e));
  }

  /**
   * Appends events {@code [from, from + count)} of {@code run} at positions {@code [position,
   * position + count)} of the page in one loop, each an event the column {@link #answers}.
   */
  void appendRun(EventRun run, int from, int count, int position) {
    if (column.time()) {
      for (int i = 0; i < count; i++) {
        column.appendTime(run.time(from + i));
      }
    } else if (byOrdinal) {
      column.appendOrdinals(run, from, count);
    } else if (rex != null) {
      byte[] bytes = run.bytes();
      for (int i = 0; i < count; i++) {
        long span = spans[position + i];
        int start = run.textOffset(from + i) + (int) (span >>> 32);
        column.appendBytes(bytes, start, (int) span - (int) (span >>> 32));
      }
    } else {
      keyValueRun(run, from, count);
    }
  }

  /** As {@link EventColumn#append}, for an event of a run the column was asked about. */
  FieldExtractor appendProbed(StoredEvent event, FieldExtractor extracted, int position) {
    return column.append(
        event, extracted, position, rex != null ? spans[position] : RexExtraction.UNDECIDED_SPAN);
  }

  /** The key=value cells of answered events: the JSON-like check was the probe's, not again. */
  private void keyValueRun(EventRun run, int from, int count) {
    column.goPlain(); // no ordinal in a block without the index-time field
    byte[] bytes = run.bytes();
    TextRegion region = run.textRegion();
    for (int i = 0; i < count; i++) {
      int e = from + i;
      column.appendKeyValues(bytes, run.textOffset(e), run.textLength(e), region);
    }
  }
}
