package io.quarry.ql.plan;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.BoundCommand;
import java.util.List;

/**
 * A bound command that writes events into an index while the pipeline runs ({@code collect}): the
 * server checks, when it plans the query, that the user may write {@link #index} and that the index
 * exists, and hands it the {@link Writer} its events go through; until then it has none and its
 * operator refuses to run.
 */
public interface WritesEvents {
  /** The command's event-writing bound command ({@code collect}), or null. */
  static WritesEvents of(io.quarry.ql.ast.Command command) {
    return command instanceof io.quarry.ql.ast.PluginCommand plugin
            && plugin.bound() instanceof WritesEvents writes
        ? writes
        : null;
  }

  /**
   * Whether running {@code command} may write: it writes events ({@link #of}), a lookup table
   * ({@code outputlookup}), or runs searches that may ({@link RunsSearches}: {@code map}, unless
   * the server bound it {@link RunsSearches#readOnly}). What must not run twice (a preview, the
   * search page's timeline), inside another command ({@code appendpipe}) or be added by a
   * subsearch's result asks this.
   */
  static boolean mayWrite(io.quarry.ql.ast.Command command) {
    return of(command) != null
        || command instanceof io.quarry.ql.ast.OutputLookupCommand
        || RunsSearches.of(command) instanceof RunsSearches runs && !runs.readOnly();
  }

  /** The index the events go to, as the query names it. */
  String index();

  /**
   * The sourcetype the events are written as: the server refuses one whose search-time reading
   * would not read the escaped {@code key="value"} pairs of a summary event back whole where a
   * result can lack {@code _raw} (its summary is then made of its fields; {@link Written#summary}).
   */
  String sourcetype();

  /** The writer it was bound to, or null before. */
  Writer writer();

  /** This command, writing through {@code writer}. */
  BoundCommand withWriter(Writer writer);

  /**
   * Where the events go: the server's ingest path. {@link #write} returns once the events are
   * durable (in the write-ahead log), so a result handed on after it was written is never lost.
   */
  interface Writer {
    /**
     * Stores the events in the command's index; returns when they are durable. While it waits (a
     * busy ingest) it runs {@code checkCancelled}, which throws once the search is cancelled.
     */
    void write(List<Written> events, Runnable checkCancelled);

    /** Events written so far, for the search's statistics. */
    long written();
  }

  /**
   * One event to write.
   *
   * @param timeMicros its time, epoch microseconds
   * @param raw its text
   * @param host its host, or null for the server's
   * @param source its source
   * @param sourcetype its sourcetype
   * @param summary whether {@code raw} was made of the result's fields ({@code key="value"} pairs,
   *     the result had no {@code _raw}), not the result's own {@code _raw}: only such a text is
   *     read wrong under a sourcetype that does not undo its escapes (the server refuses to write
   *     it there)
   * @param origin the sourcetype of the event whose {@code _raw} {@code raw} is (the result's
   *     {@code sourcetype}), or null for a summary or a result without one: a kept text written to
   *     be read with escapes ({@code stash}, {@code _json}) is read wrong under a sourcetype that
   *     reads it plain, so the server writes a kept text only under a sourcetype read as its
   *     origin's is
   */
  record Written(
      long timeMicros,
      String raw,
      String host,
      String source,
      String sourcetype,
      boolean summary,
      String origin) {
    public Written {
      requireNonNull(raw, "raw is null");
      requireNonNull(source, "source is null");
      requireNonNull(sourcetype, "sourcetype is null");
    }
  }
}
