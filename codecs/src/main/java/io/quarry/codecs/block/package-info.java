/**
 * The event block (issue 23, first layer; see {@code docs/design/block-index.md}): up to a few
 * hundred events of one batch, newest first, encoded as one columnar payload — times, raw texts,
 * and each keyword or index-time field dictionary-coded — that a reader decodes one part at a time.
 * Not yet written by ingest or read by search: the block layout of an index is the next step.
 */
package io.quarry.codecs.block;
