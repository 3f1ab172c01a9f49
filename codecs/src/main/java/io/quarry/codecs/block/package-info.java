/**
 * The event block (issue 23; see {@code docs/design/block-index.md}): up to a few hundred events of
 * one batch, newest first, encoded as one columnar payload — times, raw texts, and each keyword or
 * index-time field dictionary-coded — that a reader decodes one part at a time. The store's block
 * layout ({@code format: blocks}) writes one per block document and reads it back through {@code
 * store.BlockEvents}. Beside it, a block's {@link io.quarry.codecs.block.TermFilter} (bucket layout
 * 3): a bloom filter of its events' terms, which a term query probes instead of postings, kept in a
 * doc values format of this package's own ({@link io.quarry.codecs.block.TermFilterFormat}) so a
 * probe reads the filter in place ({@link io.quarry.codecs.block.TermFilterValues}); the terms in
 * nearly every block of a segment are listed once per segment instead ({@link
 * io.quarry.codecs.block.CommonTerms}), the store handing each block's entries over as hashes
 * ({@link io.quarry.codecs.block.TermFilterEntries}) for the format's writer to build the filters;
 * and a filter per group of consecutive blocks ({@link io.quarry.codecs.block.TermFilterGroups}),
 * probed before its blocks' own.
 *
 * <p>An event block is opened by its header ({@link io.quarry.codecs.block.EventBlockHeader}:
 * checksum, version, section table, column names) and read a part at a time ({@link
 * io.quarry.codecs.block.EventBlock}; a column's dictionary and codes, {@code EventBlock.Column}).
 */
package io.quarry.codecs.block;
