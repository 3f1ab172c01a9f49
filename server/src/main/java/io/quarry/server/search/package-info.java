/**
 * The search runtime: binds a parsed plan to the event store. {@code LuceneTranslator} turns the
 * search expression into a term-index query (exact where it can be, else a superset checked per
 * event, with a <em>sure</em> part whose matches need no check); {@code SearchService} is the entry
 * point and holds each search's limits (time; memory and the breaker over all searches, {@code
 * SearchMemory}; what it wrote is read from its plan by {@code PlanCollected}), {@code
 * SearchPlanning} turns query text into a plan the user may run (expansion, subsearches, access,
 * each {@code collect} bound to a {@code CollectWriter} of its index: the ingest path; each {@code
 * map} whose search text writes nothing to a {@code ReadOnlyRunner}), {@code PhysicalPlanner} makes
 * the physical choices over the store once for both running ({@code SearchExecution}) and {@code
 * explain} ({@code SearchExplain}); {@code SearchExecution} runs a plan time-ordered (newest first:
 * one pulled driver whose source operator, {@code ScanSourceOperator}, reads the newest-first scan
 * a page at a time and is closed when the answer is complete; {@code TimeOrderedChain} builds the
 * chain as {@code TimeOrderedShape} shapes it, ending in an {@code EventListing} when the answer
 * lists events) or in batch mode (segment slices in parallel, each a pulled driver whose source
 * operator is the slice's scan, {@code ScanSourceOperator} again; partial aggregations merged),
 * whose physical choices {@code BatchPlan} makes once for both running and {@code explain}, run by
 * {@code PageBatch} (the page engine, and the counts the index answers; a search with no page stage
 * is refused before it reads anything, HTTP 400 {@code SEARCH_NOT_SUPPORTED}); {@code
 * IndexCounting} counts documents instead of reading them when only counting follows ({@code
 * OrdinalCounts} per segment), and hands the counts to the page aggregation as its intermediate
 * state — over indexes stored as blocks, from each block's value counts where {@code
 * BlockCondition} decides the filter per block ({@code BlockCounting}; {@code BlockDedup} skips
 * blocks a leading {@code dedup} would drop whole; {@code stats count by f1, f2 …} per combination
 * of the fields' ordinals, {@code JointCounts}, over blocks from their value codes, {@code
 * BlockGroupCounting}); {@code RexCounting} counts a fused {@code rex}'s field over the journal's
 * bytes itself ({@code BytesCounts}) for {@code rex … | stats count by} that field, the rest to the
 * page source; {@code KeyValueStates} adds each event to its key=value field's states (rows, {@code
 * _time} extremes) for {@code stats count, range(_time) … by} that field, in tables kept over a
 * thread's slices ({@code KeyStateTables}) handed to the aggregation as intermediate states (the
 * two share {@code FusedScan}: the scan loop, the remainder, the run timing, the accounting; {@code
 * KeyRepeats} judges whether their keys repeat enough to pay, {@code KeyValueSourcetypes} which
 * sourcetypes leave a field to key=value, as for {@code EventColumn}); a {@code stats} by one
 * index-time keyword field straight after the search groups by the segment's ordinals ({@code
 * PageShape.byOrdinal}: the pages hold ordinals into the segment's whole dictionary, {@code
 * SegmentDictionaryBlocks}, charged while a slice holds it); {@code EventFilter} is the per-event
 * check of an inexact translation over the page sources' pages; {@code FieldExtractor} extracts an
 * event's search-time fields on demand (the sourcetype's extraction, JSON, key=value); {@code
 * SearchControl} carries time limits, finalize, cancel and progress into the scan threads. {@code
 * SearchFailures} is the one place where what went wrong becomes an HTTP status and error code (no
 * Netty type in this package).
 */
package io.quarry.server.search;
