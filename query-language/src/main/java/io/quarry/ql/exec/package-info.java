/**
 * The execution of a pipeline over typed {@link io.quarry.plugin.api.data.Page}s: {@link
 * io.quarry.ql.exec.PageChain} (row-local commands: {@code eval}, {@code where}, {@code bin},
 * {@code rex} as {@link io.quarry.ql.exec.RexOperator}, {@code lookup} as {@link
 * io.quarry.ql.exec.LookupOperator}, {@link io.quarry.ql.exec.FieldStages}, plugin and built-in
 * page operators) and {@link io.quarry.ql.exec.PageReduce} (those plus {@code sort}, {@code head},
 * {@code dedup}, aggregations — a transforming plugin command's as the operators of {@link
 * io.quarry.ql.exec.TransformingPlugin} (its map side {@link io.quarry.ql.exec.PluginMapOperator},
 * its reduce operator, a re-paging; in a batch search the map side ends each slice's chain and the
 * reduce side starts the reduce chain) —, the built-in page commands — {@code join} as {@link
 * io.quarry.ql.exec.HashJoinOperator} (without a field list, its fields row by row as {@link
 * io.quarry.ql.exec.JoinFields} says; over an event listing's rows the same operator answers only
 * the hidden row column and the joined fields), {@code appendcols} as {@link
 * io.quarry.ql.exec.PairedColumnsOperator} — and the stages that hold their whole input — {@code
 * transaction}, {@code bin bins=N}, {@code fieldsummary}, {@code outputlookup} —, on pages that
 * hold every field; which sequences it runs is {@link io.quarry.ql.exec.ReduceCoverage}). A
 * command's per-value logic lives in one helper its stages share ({@link
 * io.quarry.ql.exec.RexExtraction}, {@link io.quarry.ql.exec.RexSed}, {@link
 * io.quarry.ql.exec.LookupIndex}, {@link io.quarry.ql.exec.EvalValues}, {@link
 * io.quarry.ql.exec.TransactionGroups}, {@link io.quarry.ql.exec.FieldSummaries}). {@link
 * io.quarry.ql.exec.EventText} says where a {@code search} of bare words runs on pages (over events
 * whose {@code _raw} is still their own). {@link io.quarry.ql.exec.ListingMarks} names the hidden
 * columns an event listing's stages leave where they set a field. Every command is a pull {@link
 * io.quarry.plugin.api.command.Operator} (1:1 ones {@link
 * io.quarry.plugin.api.command.PageTransformOperator}s, most others {@link
 * io.quarry.ql.exec.QueuedPageOperator}s, the aggregations their own operators; a plugin's wrapped
 * as a {@link io.quarry.ql.exec.PluginOperator}; over an event listing's batches as a {@link
 * io.quarry.ql.exec.PluginOverlayOperator}, which commands so and what they name {@link
 * io.quarry.ql.exec.OverlayCommands} and {@link io.quarry.ql.exec.WrittenFields}, the batches it
 * keeps {@link io.quarry.ql.exec.PendingBatches}; {@code mstats append=true} pulls its points from
 * a {@link io.quarry.ql.exec.MetricAppend} read), and one {@link io.quarry.ql.exec.Driver} per
 * chain moves pages through them, pulled from a source operator at the chain's head (a batch
 * slice's scan, the time-ordered scan; a reduce side's {@link io.quarry.ql.exec.PagesSource} over a
 * generator's or a metric command's pages, or its {@link io.quarry.ql.exec.OutputSource} over a
 * finished aggregation or a generating plugin command), counting each as a stage of {@link
 * io.quarry.ql.exec.StageStats}. A reduce side is only pulled: {@link
 * io.quarry.ql.exec.ReduceChain} lays its runs of commands (over events, a listing's marking
 * stages, results) and the steps between them into one chain, and {@link
 * io.quarry.ql.exec.ReduceHeads} says when it wants nothing more, which finishes its source, and
 * when the commands after a writing step ({@code outputlookup}, a table) do, which stops their
 * input while the writer takes every row.
 *
 * <p>{@link io.quarry.ql.exec.InputFields} is the needed-field analysis of a run of page stages:
 * the fields its input must carry, worked backwards from what follows, which a source then loads.
 *
 * <p>{@link io.quarry.ql.exec.AsciiRegex} lends the one-pass matcher of {@code rex} and {@code
 * regex} (for expressions in its subset, exact against {@code java.util.regex}) to the server's
 * ingest, which runs index-time {@code regex} extractions over an event's bytes with it.
 */
package io.quarry.ql.exec;
